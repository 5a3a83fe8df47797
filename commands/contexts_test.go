package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/contexts"
	"github.com/connectscope/connectscope/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
)

// No test reads the config file of whoever runs the tests.
func init() {
	if os.Getenv(contexts.EnvConfig) == "" {
		os.Setenv(contexts.EnvConfig, filepath.Join(os.TempDir(), "connectscope-tests-have-no-config.yaml"))
	}
}

func writeContexts(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(contexts.EnvConfig, p)
	return p
}

// TestContextPrecedence: flag after the command, flag before, environment,
// context, worker config file, default.
func TestContextPrecedence(t *testing.T) {
	dir := t.TempDir()
	worker := filepath.Join(dir, "w.properties")
	if err := os.WriteFile(worker, []byte("bootstrap.servers=file:9092\ngroup.id=file-group\nconfig.storage.topic=file-configs\nstatus.storage.topic=file-status\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeContexts(t, "current-context: a\ncontexts:\n  a:\n    bootstrap-server: ctx-a:9092\n    group: ctx-group\n    timeout: 4s\n"+
		"    worker-config: ["+worker+"]\n  b:\n    bootstrap-server: ctx-b:9092\n")
	probeGlobals := func(args ...string) Globals {
		t.Helper()
		probed = Globals{}
		if _, stderr, code := run(t, append([]string{"probe"}, append(args, "leaf")...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		return probed
	}
	g := probeGlobals()
	if g.Context != "a" || strings.Join(g.Bootstrap, ",") != "ctx-a:9092" || g.Group != "ctx-group" || g.Timeout.Seconds() != 4 {
		t.Errorf("current context: %+v", g)
	}
	// The context's worker file fills what the context leaves out.
	if g.Topics.Config != "file-configs" || g.Topics.Status != "file-status" || g.Topics.Offset != "connect-offsets" {
		t.Errorf("topics: %+v", g.Topics)
	}
	if g = probeGlobals("--context", "b"); g.Context != "b" || strings.Join(g.Bootstrap, ",") != "ctx-b:9092" || g.Group != "connect-cluster" {
		t.Errorf("--context b: %+v", g)
	}
	t.Setenv("CONNECTSCOPE_CONTEXT", "b")
	if g = probeGlobals(); g.Context != "b" {
		t.Errorf("CONNECTSCOPE_CONTEXT=b: %q", g.Context)
	}
	t.Setenv("CONNECTSCOPE_CONTEXT", "")
	t.Setenv("CONNECTSCOPE_GROUP", "env-group")
	if g = probeGlobals(); g.Group != "env-group" {
		t.Errorf("environment under context: %q", g.Group)
	}
	if g = probeGlobals("-b", "flag:9092"); strings.Join(g.Bootstrap, ",") != "flag:9092" {
		t.Errorf("flag under context: %v", g.Bootstrap)
	}
	// A worker config on the command line replaces the context's.
	other := filepath.Join(dir, "other.properties")
	if err := os.WriteFile(other, []byte("config.storage.topic=other-configs\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if g = probeGlobals("--worker-config", other); g.Topics.Config != "other-configs" || strings.Join(g.Bootstrap, ",") != "ctx-a:9092" {
		t.Errorf("--worker-config over the context's: %+v %v", g.Topics, g.Bootstrap)
	}
	// --from reads the file; the context's cluster is not used.
	if g = probeGlobals("--from", "x.json"); g.Live() {
		t.Errorf("--from with a context is live: %+v", g)
	}
	_, stderr, code := run(t, "--context", "nosuch", "probe", "leaf")
	if code != ExitNotFound || !strings.Contains(stderr, `context "nosuch" not found`) || !strings.Contains(stderr, "use one of a, b") {
		t.Errorf("unknown context: exit %d %q", code, stderr)
	}
}

func TestContextRefusesClearPassword(t *testing.T) {
	writeContexts(t, "contexts:\n  prod:\n    sasl-user: connect\n    sasl-password: hunter2\n")
	_, stderr, code := run(t, "--context", "prod", "inspect", "status")
	if code != ExitUsage || strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "hunter2") ||
		!strings.Contains(stderr, "sasl-password holds a password in clear") || !strings.Contains(stderr, "sasl-password-env") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestConfigCommands(t *testing.T) {
	p := writeContexts(t, "# mine\ncontexts:\n  prod:\n    bootstrap-server: k:9092\n    sasl-mechanism: PLAIN\n    sasl-user: u\n    sasl-password-env: PROD_PW\n  dev: {}\n")
	if _, stderr, code := run(t, "config", "current-context"); code != ExitNotFound || !strings.Contains(stderr, "use-context NAME") {
		t.Errorf("no current context: exit %d %q", code, stderr)
	}
	stdout, stderr, code := run(t, "config", "use-context", "prod")
	if code != 0 || stdout != "current context: prod\n" {
		t.Fatalf("use-context: exit %d %q %q", code, stdout, stderr)
	}
	if stdout, _, code = run(t, "config", "current-context"); code != 0 || stdout != "prod\n" {
		t.Errorf("current-context: exit %d %q", code, stdout)
	}
	if b, _ := os.ReadFile(p); !strings.HasPrefix(string(b), "# mine\ncurrent-context: prod\n") {
		t.Errorf("file after use-context:\n%s", b)
	}
	stdout, _, code = run(t, "config", "get-contexts")
	if code != 0 || !strings.Contains(stdout, "*         prod") || !strings.Contains(stdout, "SASL PLAIN u (password $PROD_PW)") {
		t.Errorf("get-contexts:\n%s", stdout)
	}
	stdout, _, _ = run(t, "config", "get-contexts", "--jq", `.contexts[] | select(.current) | .sasl_password_env`)
	if stdout != "PROD_PW\n" {
		t.Errorf("jq: %q", stdout)
	}
	if _, stderr, code = run(t, "config", "use-context", "nosuch"); code != ExitNotFound || !strings.Contains(stderr, "use one of dev, prod") {
		t.Errorf("use-context nosuch: exit %d %q", code, stderr)
	}
	// The current context names an unset variable: live commands say so,
	// and the config commands still work to switch away.
	t.Setenv("PROD_PW", "")
	if _, stderr, code = run(t, "inspect", "status"); code != ExitInput || !strings.Contains(stderr, "PROD_PW, which is not set") {
		t.Errorf("unset password variable: exit %d %q", code, stderr)
	}
	if _, stderr, code = run(t, "config", "use-context", "dev"); code != 0 {
		t.Errorf("use-context dev with a broken current context: exit %d %q", code, stderr)
	}
}

// A name in a hand-written file is data: use-context and current-context
// print it escaped, never as terminal control.
func TestConfigCommandsEscapeNames(t *testing.T) {
	writeContexts(t, "contexts:\n  \"\\e]0;pwned\\a\": {}\n")
	stdout, stderr, code := run(t, "config", "use-context", "\x1b]0;pwned\x07")
	if code != 0 || stdout != "current context: ^[]0;pwned^G\n" {
		t.Fatalf("use-context: exit %d %q %q", code, stdout, stderr)
	}
	if stdout, _, code = run(t, "config", "current-context"); code != 0 || stdout != "^[]0;pwned^G\n" {
		t.Errorf("current-context: exit %d %q", code, stdout)
	}
	if _, stderr, code = run(t, "config", "set-context", "-g", "g", "evil\x1b[2J"); code != ExitUsage || strings.ContainsRune(stderr, 0x1b) {
		t.Errorf("set-context of an unprintable name: exit %d %q", code, stderr)
	}
}

// TestContextLiveSASL reads a SCRAM cluster through a context whose password
// is in a file.
func TestContextLiveSASL(t *testing.T) {
	sasl := kafkatest.New(t, kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "connect", "right"))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pw"), []byte("right\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeContexts(t, "contexts:\n  k:\n    bootstrap-server: "+sasl.Bootstrap()+"\n    timeout: 5s\n    sasl-mechanism: SCRAM-SHA-512\n    sasl-user: connect\n    sasl-password-file: "+filepath.Join(dir, "pw")+"\n")
	if _, stderr, code := run(t, "--context", "k", "inspect", "status"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// A flag still beats the context: the wrong password fails.
	if _, stderr, code := run(t, "--context", "k", "--sasl-password", "wrong", "inspect", "status"); code != ExitInput || !strings.Contains(stderr, "authentication failed") {
		t.Errorf("wrong password flag over the context: exit %d %q", code, stderr)
	}
}

func TestSetContextCommand(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.yaml")
	t.Setenv(contexts.EnvConfig, p)
	wd, _ := os.Getwd()
	stdout, stderr, code := run(t, "config", "set-context", "-b", "k:9092", "--tls-ca", "ca.pem", "--timeout", "90s", "prod")
	if code != 0 || !strings.Contains(stdout, "context prod written to "+p) {
		t.Fatalf("exit %d %q %q", code, stdout, stderr)
	}
	f, err := contexts.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := f.Get("prod")
	if c.BootstrapServer != "k:9092" || c.TLSCA != filepath.Join(wd, "ca.pem") || c.Timeout.String() != "1m30s" {
		t.Errorf("%+v", c)
	}
	for _, args := range [][]string{
		{"config", "set-context", "--sasl-password", "hunter2", "prod"},
		{"--sasl-password", "hunter2", "config", "set-context", "prod"},
	} {
		_, stderr, code := run(t, args...)
		if code != ExitUsage || !strings.Contains(stderr, "passwords by reference only") || strings.Contains(stderr, "hunter2") {
			t.Errorf("%v: exit %d %q", args, code, stderr)
		}
	}
	if b, _ := os.ReadFile(p); strings.Contains(string(b), "hunter2") {
		t.Error("password written")
	}
}
