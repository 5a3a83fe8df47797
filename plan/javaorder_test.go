package plan

import (
	"slices"
	"testing"
)

func TestJavaStringHash(t *testing.T) {
	cases := map[string]int32{
		"":      0,
		"hello": 99162322,
		"Aa":    2112,
		"BB":    2112,
		"w1":    3738,    // 119*31 + 49
		"😀":     1772899, // surrogate pair D83D DE00
		"é":     233,
		// 31-bit overflow wraps like Java's int
		"connect-worker-with-a-long-id": javaHashRef("connect-worker-with-a-long-id"),
	}
	for s, want := range cases {
		if got := javaStringHash(s); got != want {
			t.Errorf("javaStringHash(%q) = %d, want %d", s, got, want)
		}
	}
}

// javaHashRef is the textbook definition over UTF-16 code units.
func javaHashRef(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + 0xD800 + (r >> 10)
			h = 31*h + 0xDC00 + (r & 0x3FF)
			continue
		}
		h = 31*h + r
	}
	return h
}

func TestCapacities(t *testing.T) {
	for _, c := range []struct{ n, insert, copy17, copy21 int }{
		{0, 16, 16, 16}, {1, 16, 16, 16}, {11, 16, 16, 16}, {12, 16, 32, 16}, {13, 32, 32, 32},
		{24, 32, 64, 32}, {25, 64, 64, 64}, {48, 64, 128, 64}, {96, 128, 256, 128},
	} {
		if got := insertionCap(c.n); int(got) != c.insert {
			t.Errorf("insertionCap(%d) = %d, want %d", c.n, got, c.insert)
		}
		if got := copyCap(c.n, 17); int(got) != c.copy17 {
			t.Errorf("copyCap(%d, 17) = %d, want %d", c.n, got, c.copy17)
		}
		if got := copyCap(c.n, 21); int(got) != c.copy21 {
			t.Errorf("copyCap(%d, 21) = %d, want %d", c.n, got, c.copy21)
		}
	}
}

func memberMapOrder(ids []string) []string {
	hashes := make([]int32, len(ids))
	for i, id := range ids {
		hashes[i] = javaStringHash(id)
	}
	var out []string
	for _, i := range hashOrder(hashes, insertionCap(len(ids)), nil) {
		out = append(out, ids[i])
	}
	return out
}

func TestMemberMapOrder(t *testing.T) {
	// assignor.md §6.2 example.
	got := memberMapOrder([]string{"w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"})
	want := []string{"w7", "w8", "w1", "w2", "w3", "w4", "w5", "w6"}
	if !slices.Equal(got, want) {
		t.Errorf("member map order %v, want %v", got, want)
	}
	// Same-bucket names keep insertion (join) order.
	for _, pair := range [][2]string{{"worker-5", "worker-11"}, {"worker-6", "worker-10"}, {"worker-8", "worker-12"}, {"connect-1", "connect-12"}} {
		a, b := spreadHash(javaStringHash(pair[0]))&15, spreadHash(javaStringHash(pair[1]))&15
		if a != b {
			t.Errorf("%s and %s should share a bucket at capacity 16: %d vs %d", pair[0], pair[1], a, b)
		}
		for _, ids := range [][]string{{pair[0], pair[1]}, {pair[1], pair[0]}} {
			if got := memberMapOrder(ids); !slices.Equal(got, ids) {
				t.Errorf("order of %v = %v, want insertion order", ids, got)
			}
		}
	}
	// The large-table path (counting sort) agrees with the small one.
	var ids []string
	for i := 0; i < 300; i++ {
		ids = append(ids, "worker-"+string(rune('a'+i%26))+string(rune('a'+i/26)))
	}
	hashes := make([]int32, len(ids))
	for i, id := range ids {
		hashes[i] = javaStringHash(id)
	}
	big := hashOrder(hashes, insertionCap(len(ids)), nil)
	mask := insertionCap(len(ids)) - 1
	for i := 1; i < len(big); i++ {
		pa, pb := spreadHash(hashes[big[i-1]])&mask, spreadHash(hashes[big[i]])&mask
		if pa > pb || (pa == pb && big[i-1] > big[i]) {
			t.Fatalf("hashOrder not (bucket, insertion) ordered at %d", i)
		}
	}
}

func TestJavaLess(t *testing.T) {
	cases := []struct {
		a, b string
		less bool
	}{
		{"a", "b", true}, {"b", "a", false}, {"a", "ab", true}, {"ab", "a", false}, {"a", "a", false},
		{"conn-10", "conn-9", true},
		// U+FFFF sorts after a supplementary character in UTF-16 (0xFFFF > 0xD83D)
		// but before it in UTF-8 byte order.
		{"\uffff", "😀", false}, {"😀", "\uffff", true}, {"x\ue000", "x😀", false},
		{"é", "😀", true},
	}
	for _, c := range cases {
		if got := javaLess(c.a, c.b); got != c.less {
			t.Errorf("javaLess(%q, %q) = %v, want %v", c.a, c.b, got, c.less)
		}
	}
}

func TestRevokingBackoff(t *testing.T) {
	// assignor.md §3.2 table (measured from Kafka).
	table := map[int64][4]int64{
		600000: {40, 1600, 64000, 599999},
		300000: {40, 1600, 64000, 300000},
		120000: {40, 1600, 64000, 120000},
		60000:  {40, 1600, 60000, 60000},
		30000:  {40, 1600, 29999, 29999},
		1000:   {40, 999, 999, 999},
		50:     {40, 49, 49, 49},
		10:     {10, 10, 10, 10},
		1:      {1, 1, 1, 1},
		0:      {0, 0, 0, 0},
	}
	for max, want := range table {
		for k := int64(1); k <= 5; k++ {
			w := want[min(k, 4)-1]
			if got := revokingBackoff(k, max); got != w {
				t.Errorf("backoff(k=%d, max=%d) = %d, want %d", k, max, got, w)
			}
		}
	}
}
