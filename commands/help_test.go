package commands

import (
	"regexp"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/format"
	urfave "github.com/urfave/cli/v2"
)

// visibleCommands walks the application's command tree: every command a
// user can reach, with its path below the application.
func visibleCommands(t *testing.T) (map[string]*urfave.Command, *urfave.App) {
	t.Helper()
	out := map[string]*urfave.Command{}
	var walk func(prefix string, cmds []*urfave.Command)
	walk = func(prefix string, cmds []*urfave.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			path := strings.TrimSpace(prefix + " " + c.Name)
			out[path] = c
			walk(path, c.Subcommands)
		}
	}
	app := NewApp(BuildInfo{}, Streams{})
	walk("", app.Commands)
	if len(out) < 20 {
		t.Fatalf("only %d commands found", len(out))
	}
	return out, app
}

var (
	valuePlaceholder = regexp.MustCompile(`--[\w-]+ (value|VALUE)\b`)
	connectionFlag   = regexp.MustCompile(`--tls|--sasl|connection \(`)
)

// TestHelpOfEveryCommand runs --help for every command and checks what a
// reader needs: the command's own flags with placeholders and one default
// each, one line pointing at the global flags (which are not repeated), an
// example for every leaf, every -o format the command has, no connection
// flags for commands that read no cluster, and lines that fit a terminal.
func TestHelpOfEveryCommand(t *testing.T) {
	t.Parallel()
	cmds, app := visibleCommands(t)
	for path, cmd := range cmds {
		out, stderr, code := run(t, append(strings.Fields(path), "--help")...)
		if code != 0 || stderr != "" {
			t.Errorf("%s --help: exit %d, stderr %q", path, code, stderr)
			continue
		}
		leaf := len(cmd.Subcommands) == 0
		for i, line := range strings.Split(out, "\n") {
			if len(line) > cli.HelpWidth && !strings.HasPrefix(line, "  connectscope") {
				t.Errorf("%s --help: line %d is %d columns: %q", path, i+1, len(line), line)
			}
			if strings.Count(line, "(default:") > 1 {
				t.Errorf("%s --help: doubled default: %q", path, line)
			}
		}
		if m := valuePlaceholder.FindString(out); m != "" {
			t.Errorf("%s --help: %q says value, not what the value is", path, m)
		}
		if !strings.Contains(out, "'connectscope options'") {
			t.Errorf("%s --help: no pointer to 'connectscope options'", path)
		}
		options := strings.SplitN(strings.SplitN(out, "OPTIONS:\n", 2)[1], "\n\n", 2)[0]
		for _, f := range cmd.Flags {
			name := f.Names()[0]
			if cli.IsGlobalFlag(app, f) {
				if strings.Contains(options, "--"+name+" ") || strings.HasSuffix(options, "--"+name) {
					t.Errorf("%s --help lists the global flag --%s among its options", path, name)
				}
			} else if !strings.Contains(options, "--"+name) {
				t.Errorf("%s --help does not show its own flag --%s", path, name)
			}
		}
		if !leaf {
			continue
		}
		ex := strings.SplitN(out, "EXAMPLES:\n", 2)
		if len(ex) != 2 || !strings.Contains(ex[1], "connectscope ") {
			t.Errorf("%s --help has no example", path)
		}
		spec := cli.SpecOf(app, cmd)
		if !spec.NoFormat {
			want := "-o " + strings.Join(format.Outputs(), "|")
			if !strings.Contains(out, want) {
				t.Errorf("%s --help does not list the formats %q", path, want)
			}
		}
		if strings.HasPrefix(path, "plan ") && path != "plan replay" && path != "plan advise" && !strings.Contains(out, "|mermaid") {
			t.Errorf("%s --help does not list mermaid", path)
		}
		if spec.Offline && connectionFlag.MatchString(out) {
			t.Errorf("%s reads no cluster, yet its help lists connection flags", path)
		}
	}
}

// `connectscope options` lists every global flag, under its category.
func TestOptionsCommand(t *testing.T) {
	t.Parallel()
	out, stderr, code := run(t, "options")
	if code != 0 {
		t.Fatalf("options: exit %d: %s", code, stderr)
	}
	for _, f := range cli.GlobalFlags() {
		if !strings.Contains(out, "--"+f.Names()[0]) {
			t.Errorf("options lacks --%s", f.Names()[0])
		}
	}
	for _, cat := range []string{"Input:", "Connection:", "Output:"} {
		if !strings.Contains(out, cat) {
			t.Errorf("options lacks the %s heading", cat)
		}
	}
}

// The one line about global flags names the ones a new user looks for
// first: a named cluster (--context) and rows without headers for scripts.
func TestGlobalPointerNamesContextAndNoHeaders(t *testing.T) {
	t.Parallel()
	out, stderr, code := run(t, "inspect", "members", "--help")
	if code != 0 {
		t.Fatalf("inspect members --help: exit %d: %s", code, stderr)
	}
	pointer := strings.Join(strings.Fields(strings.SplitN(out, "GLOBAL OPTIONS:", 2)[1]), " ")
	for _, want := range []string{"--context", "--no-headers"} {
		if !strings.Contains(pointer, want) {
			t.Errorf("inspect members --help: the global options line does not name %s: %q", want, pointer)
		}
	}
}
