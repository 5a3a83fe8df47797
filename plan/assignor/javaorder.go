package assignor

import "unicode/utf8"

// Kafka iterates Java HashMaps/HashSets of strings in several places and
// compares strings with String.compareTo; both follow UTF-16, not UTF-8.

// javaStringHash is Java's String.hashCode: h = 31*h + c over UTF-16 code units.
func javaStringHash(s string) int32 {
	var h int32
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			h = 31*h + int32(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + int32(0xD800+(r>>10))
			h = 31*h + int32(0xDC00+(r&0x3FF))
		} else {
			h = 31*h + int32(r)
		}
	}
	return h
}

// spreadHash is HashMap.hash(): h ^ (h >>> 16).
func spreadHash(h int32) uint32 {
	u := uint32(h)
	return u ^ (u >> 16)
}

// insertionCap is the table size of a HashMap/HashSet filled one key at a
// time from the default capacity: 16, doubled while n > 0.75*cap.
func insertionCap(n int) uint32 {
	c := uint32(16)
	for uint64(n)*4 > uint64(c)*3 {
		c <<= 1
	}
	return c
}

// copyCap is the table size of new HashSet<>(collection of n) on the given JDK.
func copyCap(n int, jdk int) uint32 {
	if jdk >= 19 {
		// HashMap.newHashMap(max(n, 12)): ceil(n/0.75) rounded up to a power of two.
		if n < 12 {
			n = 12
		}
		return tableSizeFor(uint64((n*4 + 2) / 3))
	}
	// max((int)(n/.75f)+1, 16), computed in float like Java.
	want := int64(float32(n)/float32(0.75)) + 1
	if want < 16 {
		want = 16
	}
	return tableSizeFor(uint64(want))
}

// tableSizeFor is the smallest power of two >= n (at least 1).
func tableSizeFor(n uint64) uint32 {
	c := uint64(1)
	for c < n {
		c <<= 1
	}
	if c > 1<<30 {
		c = 1 << 30
	}
	return uint32(c)
}

// javaLess is String.compareTo(a, b) < 0: UTF-16 code-unit order. It equals Go
// byte order except between supplementary characters and U+E000..U+FFFF.
func javaLess(a, b string) bool {
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		return len(a) < len(b)
	}
	if a[i] < 0xEE && b[i] < 0xEE {
		return a[i] < b[i] // neither side can start a U+E000+ or supplementary rune here
	}
	// Back up to the start of the differing rune.
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	ua, ub := firstCodeUnit(ra), firstCodeUnit(rb)
	if ua != ub {
		return ua < ub
	}
	return ra < rb
}

func firstCodeUnit(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + ((r - 0x10000) >> 10)
	}
	return r
}

// javaCompare returns -1, 0 or 1 like String.compareTo's sign.
func javaCompare(a, b string) int {
	if a == b {
		return 0
	}
	if javaLess(a, b) {
		return -1
	}
	return 1
}

// hashOrder returns indexes 0..n-1 in the iteration order of a Java hash
// table of capacity cap whose keys (with the given hashes) were inserted in
// index order: buckets ascending, insertion order within a bucket.
func hashOrder(hashes []int32, cap uint32, out []int32) []int32 {
	out = out[:0]
	n := len(hashes)
	mask := cap - 1
	if n <= 64 {
		for i := 0; i < n; i++ {
			out = append(out, int32(i))
		}
		// insertion sort by bucket (stable)
		for i := 1; i < n; i++ {
			v := out[i]
			bv := spreadHash(hashes[v]) & mask
			j := i - 1
			for j >= 0 && spreadHash(hashes[out[j]])&mask > bv {
				out[j+1] = out[j]
				j--
			}
			out[j+1] = v
		}
		return out
	}
	counts := make([]int32, cap+1)
	for _, h := range hashes {
		counts[(spreadHash(h)&mask)+1]++
	}
	for b := uint32(1); b <= cap; b++ {
		counts[b] += counts[b-1]
	}
	out = append(out, make([]int32, n)...)
	for i, h := range hashes {
		b := spreadHash(h) & mask
		out[counts[b]] = int32(i)
		counts[b]++
	}
	return out
}

// WireConnectorOrder is the order in which Connect writes a list of
// connectors (an assignment's assigned connectors, a worker's metadata
// allocation): the iteration order of a Java HashSet copied from the list
// (assignor.md §6.2, copy sizing from the list's length on the given JDK,
// 0 = 17; §6.3 rule 3). Within a bucket the list's order is kept; repeats
// are dropped. The leader decodes a member's connectors in this order.
func WireConnectorOrder(connectors []string, jdk int) []string {
	if jdk == 0 {
		jdk = 17
	}
	hashes := make([]int32, len(connectors))
	for i, c := range connectors {
		hashes[i] = javaStringHash(c)
	}
	out := make([]string, 0, len(connectors))
	seen := make(map[string]bool, len(connectors))
	for _, i := range hashOrder(hashes, copyCap(len(connectors), jdk), nil) {
		if c := connectors[i]; !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}
