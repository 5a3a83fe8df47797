package commands

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/internal/setting"
)

// check and plan name their inputs; the errors users see name the flags.
func TestDeepErrorsNameFlags(t *testing.T) {
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
	// A real read that fails before it dials: no bootstrap server at all.
	_, err := live.Read(context.Background(), live.Options{Conn: live.ConnOptions{Timeout: time.Second}})
	if err == nil {
		t.Fatal("a read without bootstrap servers succeeded")
	}
	if !strings.Contains(err.Error(), "the bootstrap servers") {
		t.Errorf("inspect/live's own text %q does not name the bootstrap servers setting", err)
	}
	got := errorLine(InputError(err))
	for _, want := range []string{"give -b/--bootstrap-server or --worker-config", "check the connection flags and --worker-config"} {
		if !strings.Contains(got, want) {
			t.Errorf("printed %q, want it to name %q", got, want)
		}
	}

	// Through Main: a port nothing listens on, and a worker config without
	// bootstrap.servers.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
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

// Every setting the deep packages name has a global flag behind it.
func TestEverySettingHasAFlag(t *testing.T) {
	names := map[string]bool{}
	for _, f := range globalFlags(false) {
		for _, n := range f.Names() {
			names[n] = true
		}
	}
	for _, s := range setting.All {
		words := settingFlags[s]
		if words == "" {
			t.Errorf("setting %q has no flag words", s)
			continue
		}
		for _, m := range flagToken.FindAllStringSubmatch(words, -1) {
			if !names[strings.TrimLeft(m[1], "-")] {
				t.Errorf("setting %q maps to %q: %s is not a global flag", s, words, m[1])
			}
		}
	}
}

// flagToken is a -x or --name token in a text.
var flagToken = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.-])(--?[a-z][a-z0-9-]*)`)

// otherToolsFlags are texts in the deep packages that name another
// program's flags, not ours.
var otherToolsFlags = []string{
	"kafka-streams-groups --delete --group ID", // check rule K: Kafka's own group tools
}

// flagsInCatalogue are rule texts of check's catalogue (RULES.md and the
// findings' fix) that still name a global flag: the catalogue is plain
// strings, so the commands cannot put their flag names in.
var flagsInCatalogue = []string{
	"pass every worker's file with --worker-config (globs allowed)",
}

// The deep packages name settings, never the CLI's global flags: a string
// literal in a non-test file of inspect, plan or check that holds a global
// --flag fails here. Comments may name flags.
func TestDeepPackagesNameNoGlobalFlags(t *testing.T) {
	global := map[string]bool{}
	for _, f := range globalFlags(false) {
		for _, n := range f.Names() {
			if len(n) > 1 {
				global["--"+n] = true
			}
		}
	}
	allowed := func(text string) bool {
		for _, a := range append(slices.Clone(otherToolsFlags), flagsInCatalogue...) {
			if strings.Contains(text, a) {
				return true
			}
		}
		return false
	}
	files := 0
	for _, dir := range []string{"../inspect", "../plan", "../check"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			files++
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				text, err := strconv.Unquote(lit.Value)
				if err != nil {
					text = lit.Value
				}
				for _, m := range flagToken.FindAllStringSubmatch(text, -1) {
					if global[m[1]] && !allowed(text) {
						t.Errorf("%s: string %s names the global flag %s; name the setting (internal/setting) and let commands name the flag", fset.Position(lit.Pos()), lit.Value, m[1])
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 50 {
		t.Fatalf("scanned only %d files: is the test running from commands/?", files)
	}
}
