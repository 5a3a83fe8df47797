package source

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/internal/kafkatest"
)

const statusLine = `{"topic":"connect-status","partition":0,"offset":%d,"key":"status-connector-a","payload":"{}"}`

func line(offset string) string { return strings.Replace(statusLine, "%d", offset, 1) + "\n" }

// writeGzip writes a gzip file holding: a record line, then body (n bytes
// made by repeating b), then a newline and another record line.
func writeGzip(t testing.TB, path, head string, b byte, n int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	w := bufio.NewWriterSize(zw, 1<<20)
	w.WriteString(line("0"))
	w.WriteString(head)
	chunk := []byte(strings.Repeat(string(b), 1<<20))
	for left := n - len(head); left > 0; left -= len(chunk) {
		w.Write(chunk[:min(left, len(chunk))])
	}
	w.WriteString("\n" + line("1"))
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// A line too long to be a record is one problem, given up on as soon as it
// cannot be one: at its first byte when it does not open a JSON object, at
// maxEntryBytes when it does. The lines around it are read.
func TestOverlongLinesAreOneProblem(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a gzip file that expands to 300 MiB")
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, head string
		b          byte
		want       string
	}{
		{"not JSON", "", 'x', "does not start with {"},
		{"a JSON object past the bound", `{"topic":"connect-status","partition":0,"offset":2,"key":"k","payload":"`, 'a', "longer than 200 MiB, so not a record"},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".jsonl.gz")
		writeGzip(t, path, tc.head, tc.b, maxEntryBytes+100<<20)
		d, err := LoadFile(path, inspect.DefaultTopicNames())
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(d.Records) != 2 || len(d.Problems) != 1 || !strings.HasPrefix(d.Problems[0].Reason, "line 2: ") || !strings.Contains(d.Problems[0].Reason, tc.want) {
			t.Errorf("%s: %d records, problems %v", tc.name, len(d.Records), d.Problems)
		}
	}
}

// A snapshot value past the bound stops the read with an error that says
// why, instead of being assembled whole.
func TestSnapshotEntryPastTheBound(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 200 MiB")
	}
	head := `{"snapshot": 1, "records": [` + goodSnapshotRecord + `, {"topic":"connect-status","partition":0,"offset":1,"key":"k","value":"`
	r := io.MultiReader(strings.NewReader(head), &repeatReader{b: 'a', n: maxEntryBytes + 10<<20}, strings.NewReader(`"}]}`))
	_, err := ReadSnapshot(r)
	if !errors.Is(err, errEntryTooLong) || !strings.Contains(err.Error(), "record 1") {
		t.Errorf("an oversized snapshot record: %v", err)
	}
}

type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	for i := range p[:k] {
		p[i] = r.b
	}
	r.n -= k
	return k, nil
}

// Reading stops when its context ends, also inside one endless line and
// inside gzip: a FIFO fed without end stands for a long read.
func TestLoadFileStopsWithItsContext(t *testing.T) {
	for _, compressed := range []bool{false, true} {
		fifo := kafkatest.EndlessDump(t, compressed, true)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := LoadFileContext(ctx, fifo, inspect.DefaultTopicNames())
			done <- err
		}()
		time.Sleep(300 * time.Millisecond)
		cancel()
		stopped := time.Now()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("gzip %v: %v, want the context's error", compressed, err)
			}
			t.Logf("gzip %v: stopped %s after the cancel", compressed, time.Since(stopped))
		case <-time.After(10 * time.Second): // a correctness bound, not a benchmark
			t.Errorf("gzip %v: reading did not stop with its context", compressed)
		}
	}
}
