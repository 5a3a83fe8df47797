package group

import (
	"encoding/json"
	"strings"

	"github.com/connectscope/connectscope/inspect"
)

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

// quietConfigPrefixes are config-topic keys the workers read without
// rejoining the group: a new session key, a pause or resume, a restart
// request, a log level, a fencing count (connect-internals.md §6). The
// leader writes the session key right after a round, so on a healthy
// sessioned cluster it is usually the record no member has joined past.
var quietConfigPrefixes = []string{"session-key", "target-state-", "restart-connector-", "logger-cluster-", "tasks-fencing-"}

// ConfigRejoinFrom is the position after the last config record that makes
// the group rebalance (connector configs and deletions, task configs,
// commits), or 0 when there is none. Records after it are read by the
// workers without a rebalance, so join-time offsets never reach them. A
// record whose value is not JSON is skipped by Connect without advancing
// the offset, so it counts as quiet too.
func ConfigRejoinFrom(records []inspect.Record, configTopic string) int64 {
	from := int64(0)
	for _, r := range records {
		if r.Topic == configTopic && !quietConfigRecord(r) {
			from = max(from, r.Offset+1)
		}
	}
	return from
}

func quietConfigRecord(r inspect.Record) bool {
	if r.Value != nil && !json.Valid(r.Value) {
		return true
	}
	for _, p := range quietConfigPrefixes {
		if strings.HasPrefix(string(r.Key), p) {
			return true
		}
	}
	return false
}

// ConfigRejoin clears "behind" for members whose join-time config offset
// is at or past rejoinFrom (see ConfigRejoinFrom): what they have not
// reported is only records that do not make a worker rejoin, which it reads
// all the same. Their config_lag still counts those records. Call it after
// ConfigEnd, and only when the config records were read.
func (r *MembersResult) ConfigRejoin(rejoinFrom int64) {
	for i := range r.Members {
		m := &r.Members[i]
		if m.ConfigBehind != nil && *m.ConfigBehind && *m.ConfigOffset >= rejoinFrom {
			behind := false
			m.ConfigBehind = &behind
		}
	}
}
