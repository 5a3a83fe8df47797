package bounds

import (
	"context"
	"errors"
	"testing"
)

// A simulated duration is refused outside 0 to a century, as an *Error
// (exit 2), and accepted at both ends.
func TestCheckDurationMs(t *testing.T) {
	for _, ms := range []int64{0, MaxDurationMs} {
		if err := CheckDurationMs("--restart-time", ms); err != nil {
			t.Errorf("%d ms: %v", ms, err)
		}
	}
	for _, ms := range []int64{-1, MaxDurationMs + 1} {
		var be *Error
		if err := CheckDurationMs("--restart-time", ms); !errors.As(err, &be) {
			t.Errorf("%d ms: %v, want a *bounds.Error", ms, err)
		}
	}
}

// A cancelled context stops planning with its error; none, or a live one,
// does not.
func TestCancelled(t *testing.T) {
	if err := Cancelled(nil); err != nil { //nolint:staticcheck // the nil context is the case under test
		t.Errorf("nil context: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := Cancelled(ctx); err != nil {
		t.Errorf("live context: %v", err)
	}
	cancel()
	if err := Cancelled(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v, want context.Canceled wrapped", err)
	}
}
