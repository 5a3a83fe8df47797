package cli

import (
	"reflect"
	"testing"
)

func TestSplitList(t *testing.T) {
	got := SplitList([]string{"a:1, b:2", "", " c:3 "})
	if !reflect.DeepEqual(got, []string{"a:1", "b:2", "c:3"}) {
		t.Errorf("SplitList = %q", got)
	}
}
