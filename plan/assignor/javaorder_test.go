package assignor

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
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

// wireOrderRef is assignor.md §6.2/§6.3 written out directly: buckets of
// (h ^ h>>>16) & (cap-1), cap = smallest power of two >= max(16, floor(4n/3)+1)
// on JDK <= 18, the insertion-built size (16, doubled while n > 0.75 cap) on
// JDK >= 19; buckets ascending, list order within a bucket, first copy kept.
func wireOrderRef(names []string, jdk int) []string {
	n := len(names)
	capacity := 16
	if jdk >= 19 {
		for 4*n > 3*capacity {
			capacity *= 2
		}
	} else {
		for capacity < 4*n/3+1 {
			capacity *= 2
		}
	}
	bucket := func(s string) int {
		h := uint32(javaHashRef(s))
		return int((h ^ h>>16) & uint32(capacity-1))
	}
	var out []string
	for b := 0; b < capacity; b++ {
		for _, s := range names {
			if bucket(s) == b && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func TestWireConnectorOrderMatchesSpec(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for n := 0; n <= 110; n++ {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("conn-%d", rng.IntN(3*n+1)) // some repeats
		}
		for _, jdk := range []int{8, 17, 21} {
			got := WireConnectorOrder(names, jdk)
			if want := wireOrderRef(names, jdk); !slices.Equal(got, want) {
				t.Fatalf("n=%d jdk %d:\n got %v\nwant %v", n, jdk, got, want)
			}
			// The same order as the leader's view of the decoded allocation.
			if dec := DecodedOrder(Pieces{Connectors: names}, jdk).Connectors; !slices.Equal(got, dec) {
				t.Fatalf("n=%d jdk %d: DecodedOrder gives %v, WireConnectorOrder %v", n, jdk, dec, got)
			}
		}
	}
	if got := WireConnectorOrder(nil, 0); got == nil || len(got) != 0 {
		t.Errorf("no connectors: %#v, want an empty list", got)
	}
}

// Copy sizing (§6.2): 12 names use 32 buckets on JDK 17 but 16 on JDK 21,
// 11 names 16 on both; jdk 0 means 17.
func TestWireConnectorOrderCopySizing(t *testing.T) {
	var names []string
	for i := 0; i < 12; i++ {
		names = append(names, "c"+strings.Repeat("x", i))
	}
	inBucketOrder := func(got []string, capacity uint32) bool {
		for i := 1; i < len(got); i++ {
			if spreadHash(javaHashRef(got[i-1]))&(capacity-1) > spreadHash(javaHashRef(got[i]))&(capacity-1) {
				return false
			}
		}
		return true
	}
	for _, c := range []struct {
		n, jdk   int
		capacity uint32
	}{{11, 17, 16}, {11, 21, 16}, {12, 0, 32}, {12, 17, 32}, {12, 21, 16}} {
		got := WireConnectorOrder(names[:c.n], c.jdk)
		if len(got) != c.n || !inBucketOrder(got, c.capacity) {
			t.Errorf("%d names, jdk %d: %v is not in %d-bucket order", c.n, c.jdk, got, c.capacity)
		}
	}
	if slices.Equal(WireConnectorOrder(names, 17), WireConnectorOrder(names, 21)) {
		t.Errorf("12 names: same order with 32 and 16 buckets; pick names that tell the sizes apart")
	}
	// Same bucket (equal hashes): list order is kept.
	for _, l := range [][]string{{"Aa", "BB"}, {"BB", "Aa"}} {
		if got := WireConnectorOrder(l, 17); !slices.Equal(got, l) {
			t.Errorf("WireConnectorOrder(%v) = %v, want list order", l, got)
		}
	}
}
