package kafkatest

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// EndlessDump is a FIFO fed with a kcat -J dump that never ends, until the
// test ends: status lines, gzip-compressed or not, or (oneLine) after one
// status line a single line that never ends. It stands for a dump far too
// long to read before a signal or a cancel.
func EndlessDump(t testing.TB, compressed, oneLine bool) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "endless.jsonl")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	status := `{"topic":"connect-status","partition":0,"offset":1,"key":"status-connector-c","payload":"{\"state\":\"RUNNING\",\"worker_id\":\"w:8083\",\"generation\":1}"}` + "\n"
	go func() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		var w io.Writer = f
		if compressed {
			zw := gzip.NewWriter(f)
			defer zw.Close()
			w = zw
		}
		chunk := []byte(strings.Repeat(status, 512))
		if oneLine {
			io.WriteString(w, status+`{"topic":"connect-status","partition":0,"offset":2,"key":"k","payload":"`)
			chunk = []byte(strings.Repeat("a", len(chunk)))
		}
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}()
	return path
}
