package timeline

import "testing"

// meet and congruent count the cards two places of two deals share as
// walking the deck does.
func TestMeetCountsSharedCards(t *testing.T) {
	e := &engine{}
	for n := 1; n <= 9; n++ {
		for k := 1; k <= 9; k++ {
			for p := 0; p < n; p++ {
				for q := 0; q < k; q++ {
					for _, ab := range [][2]int{{0, 0}, {0, 7}, {3, 40}, {0, 100}, {17, 18}} {
						want := 0
						for i := ab[0]; i < ab[1]; i++ {
							if i%n == p && i%k == q {
								want++
							}
						}
						got := 0
						if r, l, ok := e.meet(p, n, q, k); ok {
							got = congruent(ab[0], ab[1], r, l)
						}
						if got != want {
							t.Fatalf("places %d of %d and %d of %d share %d cards in [%d, %d), want %d", p, n, q, k, got, ab[0], ab[1], want)
						}
					}
				}
			}
		}
	}
}
