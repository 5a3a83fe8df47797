package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/golden"
)

// readmeCommand is one connectscope command shown in README.md: a line of a
// shell block, or a `$ connectscope …` transcript with the output shown
// under it.
type readmeCommand struct {
	line   int    // 1-based line in README.md
	text   string // the command as written, continuation lines joined
	args   []string
	skip   string // why the test does not run it ("" runs it)
	output []int  // transcript: README lines of the output shown (nil: not a transcript)
	elided bool   // the transcript's output ends with a "..." line: compare the lines shown
}

// readmeSkips are the commands the walk-through cannot run, and why. A
// command shown in the README is run unless one of these says otherwise.
var readmeSkips = []struct {
	re  *regexp.Regexp
	why string
}{
	{regexp.MustCompile(`(^|\s)(BEFORE|AFTER|FILE|NAME|WORKER|HOST|PORT|W[0-9]?|N|D|VERSION)(\s|$)|\.\.\.`), "a synopsis: capital placeholders (BEFORE, FILE) stand for what you give"},
	{regexp.MustCompile(`^connectscope sandbox\b`), "runs until stopped; the walk-through itself reads a sandbox"},
}

// readmeNoREST are the commands that ask the workers' REST APIs: the
// sandbox's simulated workers serve none, so they run to their documented
// end for that case, exit 3 with the one line saying no worker answered.
var readmeNoREST = regexp.MustCompile(`\binspect workers\b`)

// parseREADME finds the commands of README.md's shell and text blocks.
func parseREADME(text string) []readmeCommand {
	lines := strings.Split(text, "\n")
	var out []readmeCommand
	inBlock, lang := false, ""
	var cur *readmeCommand
	flush := func() {
		if cur != nil {
			for len(cur.output) > 0 && strings.TrimSpace(lines[cur.output[len(cur.output)-1]-1]) == "" {
				cur.output = cur.output[:len(cur.output)-1]
			}
			if n := len(cur.output); n > 0 && strings.TrimSpace(lines[cur.output[n-1]-1]) == "..." {
				cur.output, cur.elided = cur.output[:n-1], true
			}
			out = append(out, *cur)
			cur = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "```") {
			flush()
			inBlock, lang = !inBlock, strings.TrimPrefix(l, "```")
			continue
		}
		if !inBlock || (lang != "" && lang != "sh" && lang != "text" && lang != "console") {
			continue
		}
		transcript := strings.HasPrefix(l, "$ connectscope ")
		switch {
		case transcript || strings.HasPrefix(l, "connectscope "):
			flush()
			cmd := strings.TrimPrefix(l, "$ ")
			start := i
			for strings.HasSuffix(strings.TrimRight(cmd, " "), "\\") && i+1 < len(lines) {
				i++
				cmd = strings.TrimSuffix(strings.TrimRight(cmd, " "), "\\") + " " + strings.TrimSpace(lines[i])
			}
			cur = &readmeCommand{line: start + 1, text: cmd}
			if transcript {
				cur.output = []int{}
			}
			if !transcript {
				flush()
			}
		case cur != nil && cur.output != nil && !strings.HasPrefix(l, "$ "):
			cur.output = append(cur.output, i+1)
		default:
			flush()
		}
	}
	flush()
	for i := range out {
		c := &out[i]
		words, plumbing := shellWords(c.text)
		c.args = words
		if plumbing {
			c.skip = "shell plumbing (pipes, redirections) around the command"
		}
		for _, s := range readmeSkips {
			if s.re.MatchString(c.text) {
				c.skip = s.why
			}
		}
	}
	return out
}

// shellWords splits a command line as sh would (quotes, backslashes, a #
// comment), without its first word; plumbing says it has unquoted |, > or <.
func shellWords(line string) (words []string, plumbing bool) {
	var w strings.Builder
	quote, have := byte(0), false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case quote == '\'':
			if ch == '\'' {
				quote = 0
			} else {
				w.WriteByte(ch)
			}
		case quote == '"':
			switch {
			case ch == '"':
				quote = 0
			case ch == '\\' && i+1 < len(line):
				i++
				w.WriteByte(line[i])
			default:
				w.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote, have = ch, true
		case ch == ' ' || ch == '\t':
			if have {
				words = append(words, w.String())
				w.Reset()
				have = false
			}
		case ch == '#' && !have:
			i = len(line)
		case ch == '|' || ch == '>' || ch == '<':
			plumbing = true
			w.WriteByte(ch)
			have = true
		default:
			w.WriteByte(ch)
			have = true
		}
	}
	if have {
		words = append(words, w.String())
	}
	if len(words) > 0 {
		words = words[1:] // connectscope
	}
	return words, plumbing
}

// TestREADMEWalkThrough runs every connectscope command README.md shows,
// from the repository's root: offline ones against examples/, live ones
// (-b, a worker file alone, a context) against a sandbox, file outputs into
// a temporary folder. Each must exit 0 (or 1: findings, differences, a
// recommendation), and a transcript (`$ connectscope …` with its output)
// must print exactly what the README shows. When README and tool drift
// apart this fails, naming the line; `go test ./commands -run
// TestREADMEWalkThrough -update` rewrites the transcripts' output.
func TestREADMEWalkThrough(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	cmds := parseREADME(string(readme))
	if len(cmds) < 20 {
		t.Fatalf("%d commands found in README.md: the parser lost them", len(cmds))
	}
	c := readmeSandbox(t)
	tmp := t.TempDir()
	config := fmt.Sprintf("current-context: prod\ncontexts:\n  prod:\n    bootstrap-server: %s\n  staging:\n    bootstrap-server: %s\n", c.Bootstrap(), c.Bootstrap())
	t.Chdir("..")
	lines := strings.Split(string(readme), "\n")
	type fix struct {
		cmd readmeCommand
		got []string
	}
	var fixes []fix
	ran := 0
	for _, cmd := range cmds {
		if cmd.skip != "" {
			t.Logf("README.md:%d not run (%s): %s", cmd.line, cmd.skip, cmd.text)
			continue
		}
		args := readmeArgs(cmd.args, c.Bootstrap(), tmp)
		if readmeWatch(cmd, args) {
			t.Logf("README.md:%d runs in TestREADMEWatches, beside the other tests: %s", cmd.line, cmd.text)
			continue
		}
		// Each command gets the same named clusters, whatever the one
		// before changed; a worker file alone reaches the sandbox through
		// the environment, which a worker file's bootstrap.servers yields to.
		cfg := filepath.Join(tmp, fmt.Sprintf("config-%d.yaml", cmd.line))
		if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv("CONNECTSCOPE_CONFIG", cfg)
		t.Setenv("CONNECTSCOPE_BOOTSTRAP_SERVER", "")
		if hasFlag(args, "--worker-config") && !hasFlag(args, "-b") && !hasFlag(args, "--from") {
			t.Setenv("CONNECTSCOPE_BOOTSTRAP_SERVER", c.Bootstrap())
		}
		out, stderr, code := run(t, args...)
		ran++
		if code == 3 && readmeNoREST.MatchString(cmd.text) && strings.Contains(stderr, "no worker answered its REST API") {
			continue
		}
		if code > 1 {
			t.Errorf("README.md:%d: %s\nexit %d: %s", cmd.line, cmd.text, code, stderr)
			continue
		}
		if cmd.output == nil {
			continue
		}
		got := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if cmd.elided && len(got) > len(cmd.output) {
			got = got[:len(cmd.output)]
		}
		var want []string
		for _, n := range cmd.output {
			want = append(want, lines[n-1])
		}
		if strings.Join(got, "\n") == strings.Join(want, "\n") {
			continue
		}
		if golden.Update() {
			if cmd.elided {
				got = append(got, "...")
			}
			fixes = append(fixes, fix{cmd, got})
			continue
		}
		t.Errorf("README.md:%d: %s\nthe README shows:\n%s\nthe tool prints:\n%s\n(go test ./commands -run TestREADMEWalkThrough -update rewrites it)", cmd.line, cmd.text, strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
	if len(fixes) > 0 {
		// Rewritten from the last transcript up, so earlier line numbers hold.
		for i := len(fixes) - 1; i >= 0; i-- {
			f := fixes[i]
			from, to := f.cmd.line, f.cmd.line // output starts after the command
			if n := len(f.cmd.output); n > 0 {
				from, to = f.cmd.output[0]-1, f.cmd.output[n-1]
				if f.cmd.elided {
					to++ // the "..." line
				}
			}
			lines = append(lines[:from], append(f.got, lines[to:]...)...)
		}
		if err := os.WriteFile("README.md", []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("README.md transcripts rewritten")
	}
	t.Logf("%d README commands run, %d skipped", ran, len(cmds)-ran)
}

// readmeArgs points a README command at the test's world: every -b at the
// sandbox, files it writes into tmp, a watch for two seconds.
func readmeArgs(args []string, bootstrap, tmp string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-b" || a == "--bootstrap-server") && i+1 < len(args):
			out = append(out, a, bootstrap)
			i++
		case (a == "--plot" || a == "--file" || a == "-f") && i+1 < len(args) && args[i+1] != "-":
			out = append(out, a, filepath.Join(tmp, filepath.Base(args[i+1])))
			i++
		case a == "--duration" && i+1 < len(args):
			out = append(out, a, "2s")
			i++
		default:
			out = append(out, a)
		}
	}
	return out
}

func hasFlag(args []string, flag string) bool {
	for _, a := range args {
		if a == flag || strings.HasPrefix(a, flag+"=") {
			return true
		}
	}
	return false
}
