package commands

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Every file a command reads is bounded: a FIFO (which would wait for a
// writer forever) or a device (/dev/zero, endless) given as a scenario,
// zones, waiver, worker or TLS file is refused at once by name.
func TestEveryInputFileRefusesFIFOsAndDevices(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	dump := hostileDump(t, "plain")
	for _, special := range []struct{ name, path string }{{"fifo", fifo}, {"zero", "/dev/zero"}} {
		p := special.path
		cases := map[string][]string{
			"scenario":      {"plan", "replay", p},
			"zones":         {"check", "balance", "--from", dump, "--zones", p},
			"waivers":       {"check", "topics", "--from", dump, "--waivers", p},
			"worker config": {"check", "all", "--worker-config", p},
			"REST CA":       {"inspect", "workers", "-b", "127.0.0.1:1", "--rest-ca", p},
			"broker CA":     {"inspect", "connectors", "-b", "127.0.0.1:1", "--tls-ca", p},
		}
		for name, args := range cases {
			t.Run(special.name+"/"+name, func(t *testing.T) {
				type result struct {
					stderr string
					code   int
				}
				done := make(chan result, 1)
				go func() { _, stderr, code := run(t, args...); done <- result{stderr, code} }()
				select {
				case r := <-done:
					if r.code == 0 || !strings.Contains(r.stderr, "not a regular file") {
						t.Errorf("exit %d, %q: want the file refused as not a regular file", r.code, r.stderr)
					}
				case <-time.After(20 * time.Second): // a correctness bound: the refusal is immediate
					t.Fatal("the command waits on the file")
				}
			})
		}
	}
}
