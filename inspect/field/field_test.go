package field

import (
	"errors"
	"testing"
)

func TestErrorf(t *testing.T) {
	cause := errors.New("no such worker")
	e := Errorf("Worker", ": %w", cause)
	if e.Error() != "Worker: no such worker" || !errors.Is(e, cause) || e.Detail != ": no such worker" {
		t.Errorf("got %q (detail %q), unwrap %v", e.Error(), e.Detail, errors.Unwrap(e))
	}
	if e := Errorf("Target", " %q: want eager", "x"); e.Error() != `Target "x": want eager` || e.Unwrap() != nil {
		t.Errorf("got %q", e.Error())
	}
}
