//go:build e2e

package realcluster

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/e2e/realkafka"
)

// recordingTB records what a test reports; Fatal ends the goroutine as
// FailNow does.
type recordingTB struct {
	testing.TB
	errors, fatals, logs []string
	cleanups             []func()
}

func (r *recordingTB) Helper()                   {}
func (r *recordingTB) Error(args ...any)         { r.errors = append(r.errors, fmt.Sprint(args...)) }
func (r *recordingTB) Errorf(f string, a ...any) { r.errors = append(r.errors, fmt.Sprintf(f, a...)) }
func (r *recordingTB) Logf(f string, a ...any)   { r.logs = append(r.logs, fmt.Sprintf(f, a...)) }
func (r *recordingTB) Cleanup(f func())          { r.cleanups = append(r.cleanups, f) }
func (r *recordingTB) Fatal(args ...any) {
	r.fatals = append(r.fatals, fmt.Sprint(args...))
	runtime.Goexit()
}
func (r *recordingTB) Fatalf(f string, a ...any) {
	r.fatals = append(r.fatals, fmt.Sprintf(f, a...))
	runtime.Goexit()
}

// runTries runs tryTwice on a recorder in a goroutine of its own (a
// Fatal ends that goroutine, as it ends a test's).
func runTries(run func(t testing.TB)) *recordingTB {
	r := &recordingTB{TB: &testing.T{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		tryTwice(r, run)
	}()
	<-done
	return r
}

var overran = fmt.Errorf("worker-19 did not stop within 2m30s of terminated; killed (%w)", realkafka.ErrOverran)

func TestATryEndedByAJVMFaultRunsOnceMore(t *testing.T) {
	var tries int
	var events []string
	r := runTries(func(t testing.TB) {
		tries++
		try := tries
		t.Cleanup(func() { events = append(events, fmt.Sprintf("cleanup of try %d", try)) })
		events = append(events, fmt.Sprintf("try %d", try))
		if try == 1 {
			t.Errorf("ownership differs in a group the fault disturbed")
			t.Fatal(overran)
		}
	})
	if tries != 2 || len(r.errors) != 0 || len(r.fatals) != 0 {
		t.Fatalf("tries %d, errors %q, fatals %q; want 2 tries and nothing reported", tries, r.errors, r.fatals)
	}
	// The cut-short try's cleanup ran before the next try; the last
	// try's waits for the test.
	if got := strings.Join(events, ", "); got != "try 1, cleanup of try 1, try 2" || len(r.cleanups) != 1 {
		t.Errorf("events %q with %d cleanups left to the test", got, len(r.cleanups))
	}
	logs := strings.Join(r.logs, "\n")
	for _, want := range []string{"trying once more", "worker-19 did not stop", "not counted: ownership differs"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
}

func TestTwoJVMFaultsFailTheClass(t *testing.T) {
	var tries int
	r := runTries(func(t testing.TB) { tries++; t.Fatalf("restoring: %v", overran) })
	if tries != 2 || len(r.fatals) != 1 || !strings.Contains(r.fatals[0], "ended both tries") {
		t.Errorf("tries %d, fatals %q", tries, r.fatals)
	}
}

func TestOtherFailuresAreNotTriedAgain(t *testing.T) {
	var tries int
	r := runTries(func(t testing.TB) {
		tries++
		t.Errorf("task-seconds far from the plan")
		t.Fatal(errors.New("ownership differs from the plan"))
	})
	if tries != 1 || len(r.errors) != 1 || len(r.fatals) != 1 {
		t.Errorf("tries %d, errors %q, fatals %q; want one try with its error and its fatal", tries, r.errors, r.fatals)
	}
	r = runTries(func(t testing.TB) { tries++; t.Errorf("a class's error") })
	if len(r.errors) != 1 || r.errors[0] != "a class's error" {
		t.Errorf("a try that ran to its end reported %q", r.errors)
	}
}
