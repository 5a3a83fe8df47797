package source

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
)

// A named FIFO given as --from whose one writer wrote junk and left: the
// refusal says what it got without opening the FIFO a second time (which
// would wait for a writer forever).
func TestNothingDecodedDoesNotReopenAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ds := &inspect.Dataset{Problems: []inspect.Problem{{Reason: "line 1: not a JSON object"}}}
	done := make(chan error, 1)
	go func() { done <- NothingDecoded(fifo, ds) }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("got %v", err)
		}
	case <-time.After(20 * time.Second): // a correctness bound: the answer is immediate
		// Release the blocked open so the test binary can end.
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		t.Fatal("NothingDecoded waits on the FIFO")
	}
}
