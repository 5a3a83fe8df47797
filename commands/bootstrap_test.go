package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A port that cannot exist is a usage error at once, from -b or a worker
// file, not a dial that fails until --timeout.
func TestBootstrapPortOutOfRange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	worker := filepath.Join(dir, "w.properties")
	if err := os.WriteFile(worker, []byte("bootstrap.servers=ok:9092,bad:70000\ngroup.id=connect\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := [][]string{
		{"-b", "127.0.0.1:99999"},
		{"-b", "127.0.0.1:0"},
		{"-b", "127.0.0.1:-1"},
		{"-b", "127.0.0.1:9092,127.0.0.1:65536"},
		{"-b", "broker:port"},
		{"-b", ":9092"},
		{"--worker-config", worker},
	}
	for _, args := range cases {
		start := time.Now()
		_, stderr, code := run(t, append([]string{"inspect", "connectors", "--timeout", "20s"}, args...)...)
		if code != ExitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %s", args, code, ExitUsage, stderr)
		}
		if !strings.Contains(stderr, "port") && !strings.Contains(stderr, "host") {
			t.Errorf("%v: stderr does not name the port: %s", args, stderr)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%v: took %s, want at once", args, took)
		}
	}
}
