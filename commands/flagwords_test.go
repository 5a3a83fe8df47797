package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/internal/kafkatest"
)

// check and plan name their inputs; the errors users see name the flags.
func TestDeepErrorsNameFlags(t *testing.T) {
	t.Parallel()
	syn := "--synthetic=workers=3,connectors=2"
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"check eos":       {[]string{"check", "upgrade", "--worker-config", apacheWorker, "--target", "compatible", "--exactly-once", "enabled"}, "--exactly-once enabled needs the target protocol sessioned"},
		"plan order":      {[]string{"plan", "rolling-restart", syn, "--restart-time", "90s", "--order", "w1,w1,w2,w3"}, "--order: worker"},
		"plan no change":  {[]string{"plan", "connector", syn}, "nothing to change: give --set, --add or --remove"},
		"bad synthetic":   {[]string{"plan", "join", "--synthetic", "workers=3,colour=red", "--add", "1"}, "--synthetic: field colour: unknown field"},
		"plan stop value": {[]string{"plan", "leave", syn, "--worker", "w1", "--stop", "gently"}, "--stop: must be clean or crash"},
	} {
		_, stderr, code := run(t, c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 naming %q", name, code, stderr, c.want)
		}
	}
}

// inspect names the connection settings; the line users see names the flags.
func TestLiveErrorsNameFlags(t *testing.T) {
	t.Parallel() // waits on the network mostly
	// A real read that fails before it dials: no bootstrap server at all.
	_, err := live.Read(context.Background(), live.Options{Conn: live.ConnOptions{Timeout: time.Second}})
	if err == nil {
		t.Fatal("a read without bootstrap servers succeeded")
	}
	if !strings.Contains(err.Error(), "the bootstrap servers") {
		t.Errorf("inspect/live's own text %q does not name the bootstrap servers setting", err)
	}
	got := cli.ErrorLine(cli.InputError(err))
	for _, want := range []string{"give -b/--bootstrap-server or --worker-config", "check the connection flags and --worker-config"} {
		if !strings.Contains(got, want) {
			t.Errorf("printed %q, want it to name %q", got, want)
		}
	}

	// Through Main: a port nothing listens on, and a worker config without
	// bootstrap.servers.
	closed := kafkatest.RefusedAddr(t)
	_, stderr, code := run(t, "-b", closed, "--timeout", "5s", "inspect", "configs")
	if code != ExitInput || !strings.Contains(stderr, "check the host and port in -b/--bootstrap-server ("+closed+")") {
		t.Errorf("refused port: exit %d, stderr %q; want exit 3 naming -b/--bootstrap-server", code, stderr)
	}
	w := filepath.Join(t.TempDir(), "worker.properties")
	if err := os.WriteFile(w, []byte("group.id=connect-cluster\nbootstrap.servers=${file:/etc/kafka/secrets.properties:servers}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = run(t, "--worker-config", w, "inspect", "configs")
	if want := "is a config-provider reference connectscope does not resolve; pass -b/--bootstrap-server"; code != ExitUsage || !strings.Contains(stderr, want) {
		t.Errorf("worker config with a provider reference: exit %d, stderr %q; want exit 2 with %q", code, stderr, want)
	}
}
