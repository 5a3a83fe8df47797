package commands

import (
	"strings"
	"testing"

	"github.com/connectscope/connectscope/commands/cli"
)

// Help descriptions are written hard-wrapped; help wraps them again to its
// width. A line broken short mid-sentence, its sentence going on on the next
// line ("…why it" / "matters and how…"), is the old wrapping showing through.
func TestHelpDescriptionsWrapOnce(t *testing.T) {
	t.Parallel()
	cmds, _ := visibleCommands(t)
	for path := range cmds {
		out, _, _ := run(t, append(strings.Fields(path), "--help")...)
		parts := strings.SplitN(out, "DESCRIPTION:\n", 2)
		if len(parts) != 2 {
			continue
		}
		lines := strings.Split(strings.SplitN(parts[1], "\n\n", 2)[0], "\n")
		for i := 0; i+1 < len(lines); i++ {
			l, next := strings.TrimRight(lines[i], " "), strings.TrimSpace(lines[i+1])
			if l == "" || next == "" || strings.HasPrefix(lines[i+1], "     ") || strings.ContainsAny(l[len(l)-1:], ".:;") {
				continue
			}
			first := strings.Fields(next)[0]
			if len(l)+1+len(first) <= cli.HelpWidth && next[0] >= 'a' && next[0] <= 'z' {
				t.Errorf("%s --help: %q is broken before %q, which fits on its line", path, l, first)
			}
		}
	}
}
