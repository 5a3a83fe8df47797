package format

import (
	"slices"
	"testing"
)

func TestNaturalLess(t *testing.T) {
	in := []string{"worker-10", "worker-9", "worker-1", "a", "worker-2:8083", "worker-007"}
	slices.SortFunc(in, func(a, b string) int {
		switch {
		case NaturalLess(a, b):
			return -1
		case NaturalLess(b, a):
			return 1
		}
		return 0
	})
	if want := []string{"a", "worker-1", "worker-2:8083", "worker-007", "worker-9", "worker-10"}; !slices.Equal(in, want) {
		t.Errorf("%v, want %v", in, want)
	}
}
