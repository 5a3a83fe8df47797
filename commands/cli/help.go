package cli

import (
	"fmt"
	"slices"
	"strings"

	urfave "github.com/urfave/cli/v2"
)

// Help, as kubectl shows it: a command's own flags, then one line pointing
// at the global ones (`connectscope options`), and examples. The text is
// built once per command when the application is wired, from the command
// and its Spec, so commands added later get the same help without any list
// here.

// HelpWidth is where help text wraps: readable in an 80–100 column terminal.
const HelpWidth = 100

// commandHelp is the help text of cmd (at path below the application), as a
// template urfave can print: literal text, braces escaped.
// examples are the command's own, else its parent's of it.
func commandHelp(app string, path string, cmd *urfave.Command, spec Spec, globals map[urfave.Flag]bool, examples []string) string {
	var b strings.Builder
	full := strings.TrimSpace(app + " " + path)
	b.WriteString("NAME:\n")
	b.WriteString(wrapText("   "+full+" - "+cmd.Usage, "     ") + "\n\n")
	b.WriteString("USAGE:\n")
	switch {
	case cmd.UsageText != "":
		b.WriteString("   " + cmd.UsageText + "\n\n")
	case len(cmd.Subcommands) > 0:
		b.WriteString("   " + full + " COMMAND [options]\n\n")
	default:
		args := ""
		if cmd.ArgsUsage != "" {
			args = " " + cmd.ArgsUsage
		}
		b.WriteString("   " + full + " [options]" + args + "\n\n")
	}
	about := strings.TrimSpace(cmd.Description)
	if about != "" {
		b.WriteString("DESCRIPTION:\n")
		for _, l := range reflow(about) {
			b.WriteString(wrapText("   "+l, "   ") + "\n")
		}
		b.WriteString("\n")
	}
	if len(cmd.Subcommands) > 0 {
		b.WriteString("COMMANDS:\n")
		width := 0
		for _, sc := range cmd.Subcommands {
			width = max(width, len(sc.Name))
		}
		for _, sc := range cmd.Subcommands {
			if sc.Hidden {
				continue
			}
			b.WriteString(wrapText(fmt.Sprintf("   %-*s  %s", width, sc.Name, sc.Usage), strings.Repeat(" ", width+5)) + "\n")
		}
		b.WriteString("\n")
	}
	var own []urfave.Flag
	for _, f := range cmd.Flags {
		if !globals[f] {
			own = append(own, f)
		}
	}
	b.WriteString("OPTIONS:\n")
	b.WriteString(flagLines(append(own, urfave.HelpFlag), "   "))
	b.WriteString("\n")
	b.WriteString(globalPointer(app, spec, len(cmd.Subcommands) > 0) + "\n")
	if len(examples) > 0 {
		b.WriteString("\nEXAMPLES:\n")
		for _, e := range examples {
			b.WriteString("  " + e + "\n")
		}
	}
	return escapeTemplate(b.String())
}

// globalPointer is the one line about the global flags: which apply, and
// where they are listed.
func globalPointer(app string, spec Spec, group bool) string {
	see := fmt.Sprintf("'%s options' lists them", app)
	var parts []string
	if group {
		return "GLOBAL OPTIONS: input, connection and output flags work anywhere; " + see + "."
	}
	if !spec.Offline {
		parts = append(parts, "input (-b, --context, --worker-config, --from, -g, --*-topic, --timeout), connection (--tls*, --sasl-*, --isolation)")
	}
	line := "GLOBAL OPTIONS: "
	if !spec.NoFormat {
		parts = append(parts, "output (-o "+strings.Join(spec.outputs(), "|")+", --jq EXPRESSION, --no-color, --no-headers, --show-secrets)")
		line += strings.Join(parts, " and ") + "; " + see + "."
		if !spec.Offline || len(spec.outputs()) > 0 {
			line += " With -o jsonl, --jq runs on each line."
		}
	} else if len(parts) > 0 {
		line += strings.Join(parts, " and ") + "; " + see + "."
	} else {
		line += "this command needs none of the connection or output flags; " + see + "."
	}
	return wrapText(line, "   ")
}

// examplesOf are the lines of a parent's examples that run the command at
// path (`connectscope config get-contexts`), for a subcommand without its own.
func examplesOf(parentExamples, path string) []string {
	var out []string
	for _, e := range lines(parentExamples) {
		if strings.Contains(e+" ", " "+path+" ") {
			out = append(out, e)
		}
	}
	return out
}

// lines are the non-blank lines of text, trimmed.
func lines(text string) []string {
	out := strings.Split(text, "\n")
	for i, l := range out {
		out[i] = strings.TrimSpace(l)
	}
	return slices.DeleteFunc(out, func(l string) bool { return l == "" })
}

// wrapText breaks a line at spaces to fit HelpWidth, continuing under
// indent; the line's own leading spaces and inner alignment are kept.
func wrapText(line, indent string) string {
	if len(line) <= HelpWidth {
		return line
	}
	rest := strings.TrimLeft(line, " ")
	cur := line[:len(line)-len(rest)]
	var b strings.Builder
	for i, w := range strings.Split(rest, " ") {
		switch {
		case i == 0:
			cur += w
		case w != "" && len(cur)+1+len(w) > HelpWidth && strings.TrimSpace(cur) != "":
			b.WriteString(strings.TrimRight(cur, " ") + "\n")
			cur = indent + w
		default:
			cur += " " + w
		}
	}
	b.WriteString(cur)
	return b.String()
}

// reflow undoes the hard wrapping of a description before wrapText wraps
// it to the help's width: a line that goes on with a lower-case word after
// a line that ended mid-sentence (no . : ; at its end) joins that line.
// Indented lines (examples, lists) and blank lines stay as written.
func reflow(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		n := len(out)
		if n > 0 && continues(out[n-1], l) {
			out[n-1] += " " + l
			continue
		}
		out = append(out, l)
	}
	return out
}

// continues says whether line goes on with the sentence prev left open.
func continues(prev, line string) bool {
	prev = strings.TrimRight(prev, " ")
	if prev == "" || line == "" || line[0] == ' ' || strings.HasPrefix(line, "- ") || strings.ContainsAny(prev[len(prev)-1:], ".:;") {
		return false
	}
	c := line[0]
	return c >= 'a' && c <= 'z' || c == '(' || c == '`' || strings.HasPrefix(line, "--")
}

// escapeTemplate keeps help text literal when urfave runs it as a template.
func escapeTemplate(s string) string {
	return strings.ReplaceAll(s, "{{", `{{"{{"}}`)
}

// appHelp is the application's help: the commands and the pointer to the
// global flags, as `kubectl --help` does.
func appHelp(app *urfave.App) string {
	var b strings.Builder
	b.WriteString("NAME:\n   " + app.Name + " - " + app.Usage + "\n\n")
	b.WriteString("USAGE:\n   " + app.Name + " [global options] COMMAND [options]\n\n")
	b.WriteString("VERSION:\n   " + app.Version + "\n\n")
	if app.Description != "" {
		b.WriteString("DESCRIPTION:\n" + wrapText("   "+app.Description, "   ") + "\n\n")
	}
	b.WriteString("COMMANDS:\n")
	width := 0
	for _, c := range app.Commands {
		width = max(width, len(c.Name))
	}
	for _, c := range app.Commands {
		if !c.Hidden {
			b.WriteString(wrapText(fmt.Sprintf("   %-*s  %s", width, c.Name, c.Usage), strings.Repeat(" ", width+5)) + "\n")
		}
	}
	fmt.Fprintf(&b, "   %-*s  %s\n", width, "help", "show help for a command (or use COMMAND --help)")
	b.WriteString("\nGLOBAL OPTIONS:\n")
	b.WriteString(flagLines([]urfave.Flag{urfave.HelpFlag, urfave.VersionFlag}, "   "))
	fmt.Fprintf(&b, "\nUse '%s options' for the global flags (input, connection, output), which work before or after\nany command, and '%s COMMAND --help' for a command's own.\n", app.Name, app.Name)
	return escapeTemplate(b.String())
}

// GlobalOptionsText lists the global flags under their categories.
func GlobalOptionsText() string {
	var b strings.Builder
	b.WriteString("The following options can be passed to any command:\n")
	byCat := map[string][]urfave.Flag{}
	for _, f := range globalFlags(false) {
		cat := ""
		if cf, ok := f.(urfave.CategorizableFlag); ok {
			cat = cf.GetCategory()
		}
		byCat[cat] = append(byCat[cat], f)
	}
	for _, cat := range []string{catInput, catConnection, catOutput} {
		b.WriteString("\n" + cat + ":\n")
		b.WriteString(flagLines(byCat[cat], "   "))
	}
	return b.String()
}
