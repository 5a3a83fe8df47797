package inspect

// ConfigEnd compares each worker's config offset with the config topic's end
// offset taken when reading began. A worker's config offset is its position
// after the last config record it consumed (connect-internals.md §6.6), so a
// worker that has read everything reports the end offset itself. Under
// exactly-once support the leader writes the config topic in transactions,
// and a trailing commit marker makes the end offset one larger than any
// position a worker can reach; transactional says to allow for it.
func (r *MembersResult) ConfigEnd(end int64, transactional bool) {
	r.ConfigEndOffset = &end
	slack := int64(0)
	if transactional {
		slack = 1
	}
	for i := range r.Members {
		m := &r.Members[i]
		if m.ConfigOffset == nil {
			continue
		}
		lag := end - *m.ConfigOffset
		if lag < 0 {
			lag = 0 // the worker read records written after our end offset was taken
		}
		behind := lag > slack
		m.ConfigLag = &lag
		m.ConfigBehind = &behind
	}
}
