//go:build e2e

package realcluster

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/e2e/realkafka"
)

// A matrix class runs as a try that a fault of the JVMs ends: a worker
// that did not stop, or become ready, within the harness's grace
// (realkafka.ErrOverran; one CI run had a 4.4.0 worker still stopping
// 150 s after SIGTERM). Such a try says nothing about the plan, so the
// class runs once more from a restored group; a second fault fails it.
// Every other failure fails the class as it would without the try.

// jvmFault is the panic that ends a try; only tryOnce recovers it.
type jvmFault struct{ err error }

// classTry is a class's test during one try: a Fatal or Fatalf given a
// JVM fault ends the try; Error and Errorf are held until the try ends,
// reported if it ran to its end and logged if a fault cut it short.
// Cleanups wait for the try too: a try cut short ends its own workers at
// once rather than beside the next try.
type classTry struct {
	testing.TB
	held     []string
	cleanups []func()
}

func (t *classTry) Cleanup(f func()) { t.cleanups = append(t.cleanups, f) }

// end hands the try's cleanups to the test, or runs them now (last first)
// when a fault cut the try short.
func (t *classTry) end(faulted bool) {
	if faulted {
		for i := len(t.cleanups) - 1; i >= 0; i-- {
			t.cleanups[i]()
		}
	} else {
		for _, f := range t.cleanups {
			t.TB.Cleanup(f)
		}
	}
	t.cleanups = nil
}

func (t *classTry) faultIn(args []any) {
	for _, a := range args {
		if err, ok := a.(error); ok && errors.Is(err, realkafka.ErrOverran) {
			panic(jvmFault{err})
		}
	}
}

func (t *classTry) Fatal(args ...any) {
	t.TB.Helper()
	t.faultIn(args)
	t.flush()
	t.TB.Fatal(args...)
}

func (t *classTry) Fatalf(format string, args ...any) {
	t.TB.Helper()
	t.faultIn(args)
	t.flush()
	t.TB.Fatalf(format, args...)
}

func (t *classTry) Error(args ...any) { t.held = append(t.held, fmt.Sprintln(args...)) }

func (t *classTry) Errorf(format string, args ...any) {
	t.held = append(t.held, fmt.Sprintf(format, args...))
}

// flush reports the held errors.
func (t *classTry) flush() {
	for _, e := range t.held {
		t.TB.Error(strings.TrimSuffix(e, "\n"))
	}
	t.held = nil
}

// tryOnce runs one try of run under t; it returns the JVM fault that
// ended it, or nil when it ended otherwise (its held errors then reported,
// also when it ended by FailNow).
func tryOnce(t testing.TB, run func(t testing.TB)) (fault error) {
	try := &classTry{TB: t}
	defer func() {
		r := recover()
		if f, ok := r.(jvmFault); ok {
			for _, e := range try.held {
				t.Logf("(an error of the try the fault ended, not counted: %s)", strings.TrimSuffix(e, "\n"))
			}
			fault = f.err
		} else {
			try.flush()
		}
		try.end(fault != nil)
		if r != nil && fault == nil {
			panic(r)
		}
	}()
	run(try)
	return nil
}

// tryTwice runs run, and once more if a JVM fault ended the first try.
func tryTwice(t testing.TB, run func(t testing.TB)) {
	t.Helper()
	fault := tryOnce(t, run)
	if fault == nil {
		return
	}
	t.Logf("the first try ended on a fault of the JVMs, not of the plan; trying once more: %v", fault)
	if fault = tryOnce(t, run); fault != nil {
		t.Fatalf("a fault of the JVMs ended both tries: %v", fault)
	}
}
