package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileDump writes a kcat -J dump whose connectors carry the given names.
func hostileDump(t *testing.T, names ...string) string {
	t.Helper()
	var b strings.Builder
	for i, n := range names {
		key := strings.Trim(fmt.Sprintf("%q", "status-connector-"+n), `"`)
		fmt.Fprintf(&b, `{"topic":"connect-status","partition":0,"offset":%d,"key":"%s","payload":"{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"w:8083\",\"generation\":1}"}`+"\n", i, key)
	}
	path := filepath.Join(t.TempDir(), "dump.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Completion offers cluster names that the shells can insert as one word
// (its scripts quote them) and leaves out those holding control characters,
// which no shell can insert as themselves.
func TestCompleteLeavesOutControlCharacters(t *testing.T) {
	t.Parallel()
	dump := hostileDump(t, "$(touch P)", "a b", "esc\x1b]0;title\x07", "two\nlines", "plain")
	stdout, stderr, code := run(t, "__complete", "--from", dump, "inspect", "connector", "")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got, want := stdout, "$(touch P)\na b\nplain\n"; got != want {
		t.Errorf("candidates %q, want %q", got, want)
	}
}

// Every source of names is bounded in time and size: a FIFO or a device
// as --from, or as the config file, gives no names at once.
func TestCompleteSourcesAreBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		env  string
		args []string
	}{
		{"--from a FIFO", "", []string{"__complete", "--from", fifo, "inspect", "connector", ""}},
		{"--from /dev/zero", "", []string{"__complete", "--from", "/dev/zero", "inspect", "connector", ""}},
		{"the config file a FIFO", fifo, []string{"__complete", "--context", ""}},
		{"the config file /dev/zero", "/dev/zero", []string{"__complete", "--context", ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("CONNECTSCOPE_CONFIG", tc.env)
			}
			done := make(chan string, 1)
			start := time.Now()
			go func() { out, _, _ := run(t, tc.args...); done <- out }()
			select {
			case out := <-done:
				if out != "" {
					t.Errorf("candidates %q from a source that is not a file", out)
				}
				t.Logf("answered in %s", time.Since(start))
			case <-time.After(20 * time.Second): // a correctness bound: the promise is 2 s
				t.Fatal("completion does not return")
			}
		})
	}
}

// Errors that name cluster text say it escaped, on one line, with long
// names and long lists shortened.
func TestErrorLinesEscapeClusterText(t *testing.T) {
	t.Parallel()
	names := []string{"\x1b]0;owned\x07title", "\x1b[2Jclear", "back\x08\x08space", "c1\u009bx", "rtl\u202eevil", strings.Repeat("L", 5000)}
	for i := 0; i < 30; i++ {
		names = append(names, fmt.Sprintf("filler-%02d", i))
	}
	dump := hostileDump(t, names...)
	_, stderr, code := run(t, "inspect", "connector", "--from", dump, "missing\x1b[31m"+strings.Repeat("M", 3000))
	if code != 4 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Count(stderr, "\n") != 1 {
		t.Errorf("more than one line: %q", stderr)
	}
	for _, raw := range []string{"\x1b", "\x07", "\x08", "\u009b", "\u202e", strings.Repeat("L", 300), strings.Repeat("M", 300)} {
		if strings.Contains(stderr, raw) {
			t.Errorf("%q reaches the terminal raw: %q", raw, stderr)
		}
	}
	if len(stderr) > 2000 || !strings.Contains(stderr, "more") {
		t.Errorf("the line is not shortened (%d bytes): %q", len(stderr), stderr)
	}
}
