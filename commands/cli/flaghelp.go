package cli

import (
	"fmt"
	"slices"
	"strings"

	urfave "github.com/urfave/cli/v2"
)

// flagLines lists flags one a line: names with the value's placeholder, then
// the usage wrapped under itself, and the default once.
func flagLines(flags []urfave.Flag, indent string) string {
	type row struct{ names, text string }
	var rows []row
	width := 0
	for _, f := range flags {
		if f == nil {
			continue
		}
		if v, ok := f.(urfave.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		names, text := describeFlag(f)
		rows = append(rows, row{names, text})
		width = max(width, len(names))
	}
	width = min(width, 34)
	var b strings.Builder
	for _, r := range rows {
		pad := indent + strings.Repeat(" ", width+2)
		if len(r.names) > width {
			b.WriteString(indent + r.names + "\n")
			b.WriteString(wrapText(pad+r.text, pad) + "\n")
			continue
		}
		b.WriteString(wrapText(fmt.Sprintf("%s%-*s  %s", indent, width, r.names, r.text), pad) + "\n")
	}
	return b.String()
}

// describeFlag is "-o, --output FORMAT" and "output FORMAT: … (default: table)".
func describeFlag(f urfave.Flag) (names, text string) {
	usage := ""
	if u, ok := f.(urfave.DocGenerationFlag); ok {
		usage = u.GetUsage()
	}
	placeholder, text := unquoteUsage(usage)
	takes := false
	if v, ok := f.(urfave.DocGenerationFlag); ok {
		takes = v.TakesValue()
	}
	if takes && placeholder == "" {
		placeholder = defaultPlaceholder(f)
	}
	var parts []string
	all := f.Names()
	// Short names first, as -o, --output.
	slices.SortStableFunc(all, func(a, b string) int { return len(a) - len(b) })
	for _, n := range all {
		if len(n) == 1 {
			parts = append(parts, "-"+n)
		} else {
			parts = append(parts, "--"+n)
		}
	}
	names = strings.Join(parts, ", ")
	if takes {
		names += " " + placeholder
	}
	if d := defaultOf(f); d != "" && !strings.Contains(text, "default") {
		text += " (default: " + d + ")"
	}
	return names, text
}

// unquoteUsage takes the `PLACEHOLDER` out of a usage text, as urfave does.
func unquoteUsage(usage string) (name, text string) {
	start := strings.IndexByte(usage, '`')
	if start < 0 {
		return "", usage
	}
	end := strings.IndexByte(usage[start+1:], '`')
	if end < 0 {
		return "", usage
	}
	name = usage[start+1 : start+1+end]
	return name, usage[:start] + name + usage[start+1+end+1:]
}

// defaultPlaceholder names a value whose usage text does not.
func defaultPlaceholder(f urfave.Flag) string {
	switch f.(type) {
	case *urfave.DurationFlag:
		return "DURATION"
	case *urfave.IntFlag, *urfave.Int64Flag, *urfave.UintFlag, *urfave.Uint64Flag:
		return "N"
	case *urfave.Float64Flag:
		return "NUMBER"
	}
	return "VALUE"
}

// defaultOf is a flag's default worth showing: not empty, zero or false.
func defaultOf(f urfave.Flag) string {
	v, ok := f.(urfave.DocGenerationFlag)
	if !ok || !v.TakesValue() {
		return ""
	}
	d := strings.Trim(v.GetDefaultText(), `"`)
	switch d {
	case "", "0", "0s", "[]", "false":
		return ""
	}
	return d
}
