// Package bounds holds what a plan or a replay may ask for: the sizes,
// durations and memory estimates every plan and replay is held to, the
// error that refuses a request beyond them (exit 2), and the stop of a plan
// whose context is cancelled.
package bounds

import (
	"context"
	"fmt"
)

// Bounds on what a scenario, --synthetic or a what-if plan may ask for, so
// that a typo or a hostile file is refused up front (exit 2) instead of
// taking the machine's memory or running for hours.
const (
	MaxWorkers = 100_000   // members at once
	MaxPieces  = 2_000_000 // connectors plus tasks configured at once
	MaxRounds  = 100_000   // rounds one replay or plan may produce
	// MaxDurationMs bounds every simulated duration (sleep_ms,
	// --returns-after, --restart-time, delays) and the simulated clock
	// itself: a century, far from int64 overflow however steps add up.
	MaxDurationMs = 100 * 365 * 24 * 3600 * 1000
	// MaxBytes is the memory a plan may need by estimate (~1 GiB).
	MaxBytes = 1 << 30
)

// Memory estimates, measured on `plan replay -o json` and the what-if plans
// (BENCHMARKS.md "Plan bounds"): the simulator state, then every round kept
// for the output.
const (
	statePieceBytes  = 200
	stateWorkerBytes = 1000
	roundPieceBytes  = 120
	roundWorkerBytes = 300
	roundBytes       = 2000
	// WhatifPieceBytes is what a what-if plan keeps of each piece: its
	// history on every branch and protocol. A rolling restart keeps about
	// RollPieceBytes more per piece and restart (eager stops every piece in
	// every round), table output included (BENCHMARKS.md, "Rolling restarts
	// at scale").
	WhatifPieceBytes = 2500
	RollPieceBytes   = 125
)

// Error is a request beyond the bounds above. The CLI maps it to exit 2.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Errorf words an Error.
func Errorf(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...)}
}

// GiB renders a byte count for messages.
func GiB(b float64) string { return fmt.Sprintf("%.1f GiB", b/(1<<30)) }

// CheckDurationMs refuses a simulated duration beyond MaxDurationMs.
func CheckDurationMs(what string, ms int64) error {
	if ms < 0 || ms > MaxDurationMs {
		return Errorf("%s: %d ms is outside 0 to %d (a century)", what, ms, int64(MaxDurationMs))
	}
	return nil
}

// Cancelled reports the context's error, wrapped for the one line the CLI
// prints; a nil context never cancels.
func Cancelled(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("planning stopped: %w", err)
	}
	return nil
}

// RoundCost is the memory one kept round of a replay needs by estimate.
func RoundCost(workers, pieces int) float64 {
	return float64(roundPieceBytes)*float64(pieces) + float64(roundWorkerBytes)*float64(workers) + roundBytes
}

// StateCost is the memory the simulator's state needs by estimate.
func StateCost(workers, pieces int) float64 {
	return float64(statePieceBytes)*float64(pieces) + float64(stateWorkerBytes)*float64(workers)
}
