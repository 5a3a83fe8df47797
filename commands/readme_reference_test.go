package commands

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/commands/cli"
)

// The README's reference and the command tree cannot disagree: every
// command the tree has is named in README.md, with every flag of its own;
// every command README.md's commands table names is in the tree.
func TestREADMEReferenceMatchesCommandTree(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	cmds, app := visibleCommands(t)
	var missing []string
	for path, cmd := range cmds {
		words := strings.Fields(path)
		last := words[len(words)-1]
		// "inspect worker", or a group's row "inspect configs|status|…".
		named := strings.Contains(text, "`"+path) || strings.Contains(text, "connectscope "+path) ||
			len(words) > 1 && regexp.MustCompile("`"+regexp.QuoteMeta(strings.Join(words[:len(words)-1], " "))+` [\w|\\-]*\b`+regexp.QuoteMeta(last)+`\b`).MatchString(text)
		if !named {
			missing = append(missing, "command "+path)
		}
		for _, f := range cmd.Flags {
			if cli.IsGlobalFlag(app, f) {
				continue
			}
			name := f.Names()[0]
			if !strings.Contains(text, "--"+name) {
				missing = append(missing, path+" --"+name)
			}
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("README.md does not mention %s, which the command tree has (document it in the README's reference)", m)
	}
	// The commands table: each `connectscope`-less command it lists exists.
	table := text[strings.Index(text, "| command | what it does |"):]
	table = table[:strings.Index(table, "\n\n")]
	for _, m := range regexp.MustCompile("\\| `([a-z][a-z -]*)").FindAllStringSubmatch(table, -1) {
		path := strings.TrimSpace(m[1])
		if _, ok := cmds[path]; !ok && !strings.Contains(path, " ") {
			if _, group := cmds[strings.Fields(path)[0]]; !group {
				t.Errorf("README.md's commands table lists %q, which the command tree does not have", path)
			}
		}
	}
}
