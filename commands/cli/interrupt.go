package cli

import (
	"context"
	"time"
)

// interruptGrace is how long a command may take to wind down after Ctrl-C or
// SIGTERM (watch prints its summary, the sandbox stops its workers) before
// Main stops waiting for it. It keeps "exits within a second" true even for
// work that checks its context only between long steps.
const interruptGrace = 800 * time.Millisecond

// runUntilInterrupted runs fn and returns its error. Once ctx is cancelled it
// waits at most interruptGrace for fn to return; finished is false when fn
// was still running then (the process is about to exit, ending it).
func runUntilInterrupted(ctx context.Context, fn func() error) (finished bool, err error) {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err = <-done:
		return true, err
	case <-ctx.Done():
	}
	timer := time.NewTimer(interruptGrace)
	defer timer.Stop()
	select {
	case err = <-done:
		return true, err
	case <-timer.C:
		return false, nil
	}
}
