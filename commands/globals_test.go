package commands

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/live"
)

func TestGlobalFlagsBeforeOrAfterCommand(t *testing.T) {
	before := probe(t, "-o", "json", "-g", "g1", "--timeout", "5s", "probe", "leaf")
	after := probe(t, "probe", "leaf", "-o", "json", "-g", "g1", "--timeout", "5s")
	middle := probe(t, "probe", "-o", "json", "leaf", "-g", "g1", "--timeout", "5s")
	for name, g := range map[string]Globals{"before": before, "after": after, "middle": middle} {
		if g.Output != "json" || g.Group != "g1" || g.Timeout != 5*time.Second {
			t.Errorf("%s: output=%q group=%q timeout=%s", name, g.Output, g.Group, g.Timeout)
		}
		if !g.Explicit(cli.FlagOutput) || !g.Explicit(cli.FlagGroup) || g.Explicit(cli.FlagFrom) {
			t.Errorf("%s: explicit = %+v", name, g)
		}
	}
}

func TestDefaults(t *testing.T) {
	g := probe(t, "probe", "leaf")
	want := inspect.TopicNames{Config: "connect-configs", Offset: "connect-offsets", Status: "connect-status"}
	if g.Topics != want || g.Group != "connect-cluster" || g.Output != "table" || g.Timeout != 30*time.Second {
		t.Errorf("defaults: %+v", g)
	}
	if g.Isolation != live.ReadUncommitted || g.Live() || len(g.Bootstrap) != 0 {
		t.Errorf("isolation %q live %v bootstrap %v", g.Isolation, g.Live(), g.Bootstrap)
	}
}

func TestNearestFlagWins(t *testing.T) {
	for _, args := range [][]string{
		{"-o", "yaml", "probe", "leaf", "-o", "json"},
		// Given under another of its names on the nearer command.
		{"--output", "yaml", "probe", "leaf", "-o", "json"},
		{"-o", "yaml", "probe", "leaf", "--output", "json"},
		{"-o", "yaml", "probe", "--output", "table", "leaf", "-o", "json"},
		{"probe", "-o", "yaml", "leaf", "--output", "json"},
	} {
		if g := probe(t, args...); g.Output != "json" {
			t.Errorf("%q: the flag nearest the verb should win: %q", args, g.Output)
		}
	}
	if g := probe(t, "-o", "yaml", "probe", "--output", "json", "leaf"); g.Output != "json" || !g.Explicit(cli.FlagOutput) {
		t.Errorf("given on the middle command only: %q (explicit %v)", g.Output, g.Explicit(cli.FlagOutput))
	}
}

func TestEnvironment(t *testing.T) {
	t.Setenv("CONNECTSCOPE_OUTPUT", "yaml")
	t.Setenv("CONNECTSCOPE_BOOTSTRAP_SERVER", "k1:9092,k2:9092")
	t.Setenv("CONNECTSCOPE_CONFIG_TOPIC", "cfg")
	t.Setenv("NO_COLOR", "yes")
	g := probe(t, "probe", "leaf")
	if g.Output != "yaml" || !reflect.DeepEqual(g.Bootstrap, []string{"k1:9092", "k2:9092"}) || g.Topics.Config != "cfg" || !g.NoColor {
		t.Errorf("from the environment: %+v", g)
	}
	if !g.Explicit(cli.FlagOutput) {
		t.Error("a flag set by its environment variable counts as given")
	}
	// A flag on the command line beats the environment, before or after the command.
	if g := probe(t, "-o", "json", "probe", "leaf"); g.Output != "json" {
		t.Errorf("flag before command vs env: %q", g.Output)
	}
	if g := probe(t, "probe", "leaf", "-o", "json"); g.Output != "json" {
		t.Errorf("flag after command vs env: %q", g.Output)
	}
}

func TestCommandOwnFlagIsNotGlobal(t *testing.T) {
	stdout, stderr, code := run(t, "-o", "json", "probe", "writer", "-o", "snap.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "file=snap.json\n" || probed.Output != "json" {
		t.Errorf("stdout %q, global output %q", stdout, probed.Output)
	}
}

func writeWorker(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const workerProps = `bootstrap.servers=w1:9092, w2:9092
group.id=payments-connect
config.storage.topic=payments-configs
offset.storage.topic=payments-offsets
status.storage.topic=payments-status
exactly.once.source.support=enabled
`

func TestWorkerConfigUnderFlags(t *testing.T) {
	dir := t.TempDir()
	w := writeWorker(t, dir, "worker.properties", workerProps)
	g := probe(t, "--worker-config", w, "probe", "leaf")
	want := inspect.TopicNames{Config: "payments-configs", Offset: "payments-offsets", Status: "payments-status"}
	if g.Group != "payments-connect" || g.Topics != want || !reflect.DeepEqual(g.Bootstrap, []string{"w1:9092", "w2:9092"}) {
		t.Errorf("from the worker config: %+v", g)
	}
	if !g.Live() || g.Isolation != live.ReadCommitted {
		t.Errorf("live %v isolation %q (exactly.once.source.support=enabled reads committed)", g.Live(), g.Isolation)
	}
	g = probe(t, "--worker-config", w, "probe", "leaf", "-g", "other", "--status-topic", "st", "-b", "flag:9092", "--isolation", "read_uncommitted")
	if g.Group != "other" || g.Topics.Status != "st" || g.Topics.Config != "payments-configs" ||
		!reflect.DeepEqual(g.Bootstrap, []string{"flag:9092"}) || g.Isolation != live.ReadUncommitted {
		t.Errorf("flags should override the worker config: %+v", g)
	}
}

func TestWorkerConfigGlob(t *testing.T) {
	dir := t.TempDir()
	writeWorker(t, dir, "b.properties", "group.id=second\n")
	writeWorker(t, dir, "a.properties", workerProps)
	g := probe(t, "probe", "leaf", "--worker-config", filepath.Join(dir, "*.properties"))
	if len(g.WorkerConfigs) != 2 || g.WorkerConfigs[0].Name() != "a.properties" || g.Group != "payments-connect" {
		t.Errorf("glob: %d files, group %q", len(g.WorkerConfigs), g.Group)
	}
}

func TestConnOptionsFromWorkerConfig(t *testing.T) {
	dir := t.TempDir()
	w := writeWorker(t, dir, "w.properties", workerProps+`security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="connect" password="s3cret";
`)
	g := probe(t, "probe", "leaf", "--worker-config", w)
	o, err := g.ConnOptions()
	if err != nil {
		t.Fatal(err)
	}
	if o.SASLMechanism != "SCRAM-SHA-512" || o.SASLUser != "connect" || o.SASLPassword != "s3cret" || o.TLS || o.Timeout != 30*time.Second {
		t.Errorf("conn options: %+v", o)
	}
	g = probe(t, "probe", "leaf", "--worker-config", w, "--sasl-mechanism", "plain", "--sasl-user", "u", "--sasl-password", "p", "--tls-ca", "ca.pem")
	o, err = g.ConnOptions()
	if err != nil {
		t.Fatal(err)
	}
	if o.SASLMechanism != "PLAIN" || o.SASLUser != "u" || o.SASLPassword != "p" || !o.TLS || o.CAFile != "ca.pem" {
		t.Errorf("flags over the worker config: %+v", o)
	}
	// Only the password from the environment; the rest from the file.
	t.Setenv("CONNECTSCOPE_SASL_PASSWORD", "from-env")
	g = probe(t, "probe", "leaf", "--worker-config", w)
	o, err = g.ConnOptions()
	if err != nil {
		t.Fatal(err)
	}
	if o.SASLMechanism != "SCRAM-SHA-512" || o.SASLUser != "connect" || o.SASLPassword != "from-env" {
		t.Errorf("password from the environment, rest from the file: %+v", o)
	}
}

func TestGlobalUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := writeWorker(t, dir, "bad.properties", "bootstrap.servers=${file:/x:y}\nsecurity.protocol=SSL\nssl.truststore.location=/tmp/t.jks\n")
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"probe", "leaf", "-o", "xml"}, 2, `unknown output format "xml": use one of table, wide, json, jsonl, yaml, schema`},
		{[]string{"probe", "leaf", "--jq", ".a |"}, 2, `--jq: unexpected EOF`},
		{[]string{"probe", "leaf", "--jq", ".a", "-o", "yaml"}, 2, `--jq prints values of the JSON output; it cannot be combined with -o yaml`},
		{[]string{"probe", "leaf", "--from", "x.json", "-b", "k:9092"}, 2, `--from reads a file; it cannot be combined with --bootstrap-server`},
		{[]string{"probe", "leaf", "--timeout", "0s"}, 2, `--timeout must be positive`},
		{[]string{"probe", "leaf", "--tls-cert", "c.pem"}, 2, `--tls-cert and --tls-key go together`},
		{[]string{"probe", "leaf", "--sasl-mechanism", "GSSAPI"}, 2, `--sasl-mechanism "GSSAPI" is not supported`},
		{[]string{"probe", "leaf", "--sasl-user", "u"}, 2, `--sasl-user and --sasl-password need --sasl-mechanism`},
		{[]string{"probe", "leaf", "--isolation", "dirty"}, 2, `--isolation "dirty"`},
		{[]string{"probe", "leaf", "--timeout", "soon"}, 2, `--timeout: "soon" is not a duration: give one like 30s`},
		{[]string{"probe", "leaf", "--worker-config", filepath.Join(dir, "missing.properties")}, 3, `no such file or directory`},
		{[]string{"probe", "leaf", "--worker-config", filepath.Join(dir, "*.conf")}, 3, `matches no file`},
	}
	for _, c := range cases {
		_, stderr, code := run(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.msg)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "connectscope: ") {
			t.Errorf("%v: stderr is not one line: %q", c.args, stderr)
		}
		if c.code == 2 && !strings.HasSuffix(stderr, "(see 'connectscope probe leaf --help')\n") {
			t.Errorf("%v: usage error without help pointer: %q", c.args, stderr)
		}
	}
	// Connection settings the worker file cannot supply are reported when connecting.
	g := probe(t, "probe", "leaf", "--worker-config", bad)
	if _, err := g.ConnOptions(); err == nil || !strings.Contains(err.Error(), "config-provider reference") {
		t.Errorf("provider reference for bootstrap.servers: %v", err)
	}
}

// A worker file that turns host name checks off (an empty
// ssl.endpoint.identification.algorithm) makes connectscope connect the same
// way; --tls-server-name asks for the check again.
func TestConnOptionsHostnameCheckFromWorkerConfig(t *testing.T) {
	dir := t.TempDir()
	base := workerProps + "security.protocol=SSL\nssl.truststore.type=PEM\n"
	off := writeWorker(t, dir, "off.properties", base+"ssl.endpoint.identification.algorithm=\n")
	on := writeWorker(t, dir, "on.properties", base+"ssl.endpoint.identification.algorithm=https\n")
	for _, c := range []struct {
		file string
		args []string
		want bool
	}{
		{off, nil, true},
		{on, nil, false},
		{off, []string{"--tls-server-name", "kafka.example.com"}, false},
	} {
		g := probe(t, append([]string{"probe", "leaf", "--worker-config", c.file}, c.args...)...)
		o, err := g.ConnOptions()
		if err != nil {
			t.Fatalf("%s %v: %v", filepath.Base(c.file), c.args, err)
		}
		if !o.TLS || o.NoHostnameCheck != c.want {
			t.Errorf("%s %v: TLS %v, NoHostnameCheck %v, want %v", filepath.Base(c.file), c.args, o.TLS, o.NoHostnameCheck, c.want)
		}
	}
}
