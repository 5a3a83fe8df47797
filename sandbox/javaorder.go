package sandbox

import "unicode/utf8"

// wireConnectorOrder returns connectors in the iteration order of a Java
// HashSet copy-constructed from the list on JDK 17 (assignor.md §6.2): Kafka
// writes an assignment's (and an allocation's) connector entries in that
// order, and the leader reads a member's held order back from them (§6.3).
func wireConnectorOrder(connectors []string) []string {
	n := len(connectors)
	want := int64(float32(n)/float32(0.75)) + 1 // (int)(n/.75f)+1, in float like Java
	capacity := uint32(16)
	for int64(capacity) < want {
		capacity <<= 1
	}
	bucket := func(s string) uint32 {
		h := uint32(javaHash(s))
		return (h ^ (h >> 16)) & (capacity - 1)
	}
	out := make([]string, 0, n)
	seen := map[string]bool{}
	// Buckets ascending; within a bucket, list (insertion) order.
	type entry struct {
		b uint32
		s string
	}
	entries := make([]entry, 0, n)
	for _, c := range connectors {
		if seen[c] {
			continue
		}
		seen[c] = true
		entries = append(entries, entry{bucket(c), c})
	}
	for i := 1; i < len(entries); i++ { // stable insertion sort by bucket
		for j := i; j > 0 && entries[j-1].b > entries[j].b; j-- {
			entries[j-1], entries[j] = entries[j], entries[j-1]
		}
	}
	for _, e := range entries {
		out = append(out, e.s)
	}
	return out
}

// javaHash is String.hashCode over UTF-16 code units.
func javaHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r == utf8.RuneError {
			h = 31*h + 0xFFFD
			continue
		}
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + int32(0xD800+(r>>10))
			h = 31*h + int32(0xDC00+(r&0x3FF))
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}
