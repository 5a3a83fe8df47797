package cli

import (
	"slices"
	"strings"
	"time"

	"github.com/connectscope/connectscope/completions"
	urfave "github.com/urfave/cli/v2"
)

// Shell completion. The scripts in completions/ call
//
//	connectscope __complete WORD... CURRENT
//
// with the words typed after the program name, the last one being the word
// under the cursor (possibly empty). The answer is one candidate a line.
// The command tree is walked here rather than by urfave's parser, which
// gives up on a partial command line ("-o" without its value, a lone "--").
const (
	completeCommandName = "__complete"
	// NamesCommand prints the cluster's connector and worker names, one a
	// line as "connector NAME" or "worker NAME", read as the global flags
	// say; completion runs it for Connectors and Workers.
	NamesCommand = "__names"
	// CompleteTimeout bounds a completion that asks the cluster for names:
	// a shell waits for it on every Tab.
	CompleteTimeout = 2 * time.Second
)

// completeCommand is the hidden command the completion scripts call.
func completeCommand() *Command {
	return &Command{
		Name:            completeCommandName,
		Hidden:          true,
		HideHelp:        true, // "help" and "--help" are words to complete here
		SkipFlagParsing: true,
		Spec:            Spec{NoGlobals: true},
		Run: func(e *Env) error {
			return completions.WriteCandidates(e.IO.Out, completeWords(e.app, e.Args))
		},
	}
}

// Query is where a command line stands: the command reached, the flags
// typed with their values, the positional arguments, the word under the
// cursor.
type Query struct {
	app        *urfave.App
	path       []string // command names below the application
	cmd        *urfave.Command
	flags      []urfave.Flag
	subs       []*urfave.Command
	typed      [][2]string // flags typed: name, value ("" for a bool)
	Positional []string
	dashdash   bool
	// Cur is the word (or the flag's value) under the cursor.
	Cur string
}

func completeWords(app *urfave.App, words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	st := &Query{app: app, flags: app.Flags, subs: app.Commands}
	cur := words[len(words)-1]
	if cur == `""` { // PowerShell's script passes an empty word quoted
		cur = ""
	}
	var pending urfave.Flag // a flag whose value is the word under the cursor
	for i := 0; i < len(words)-1; i++ {
		w := words[i]
		if st.dashdash {
			st.Positional = append(st.Positional, w)
			continue
		}
		if w == "--" {
			st.dashdash = true
			continue
		}
		if strings.HasPrefix(w, "-") && w != "-" {
			name, val, hasVal := strings.Cut(strings.TrimLeft(w, "-"), "=")
			f := findFlag(st.flags, name)
			if f == nil {
				continue
			}
			if takesValue(f) && !hasVal {
				if i+1 == len(words)-1 {
					pending = f
					break
				}
				i++
				val = words[i]
			}
			st.typed = append(st.typed, [2]string{f.Names()[0], val})
			continue
		}
		if sub := findCommand(st.subs, w); sub != nil && len(st.Positional) == 0 {
			st.cmd, st.flags, st.subs = sub, sub.Flags, sub.Subcommands
			st.path = append(st.path, sub.Name)
			continue
		}
		st.Positional = append(st.Positional, w)
	}
	if pending != nil {
		return filter(st.values(pending, cur), cur)
	}
	if name, val, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(cur, "--") {
		if f := findFlag(st.flags, strings.TrimLeft(name, "-")); f != nil && takesValue(f) {
			var out []string
			for _, v := range filter(st.values(f, val), val) {
				out = append(out, name+"="+v)
			}
			return out
		}
		return nil
	}
	if strings.HasPrefix(cur, "-") && !st.dashdash {
		return filter(st.flagNames(strings.HasPrefix(cur, "--")), cur)
	}
	if len(st.subs) > 0 && len(st.Positional) == 0 {
		return filter(commandNames(st.subs), cur)
	}
	if args := st.args(cur); args != nil || (st.cmd != nil && st.cmd.ArgsUsage != "") {
		return filter(args, cur)
	}
	if cur == "" && st.cmd != nil && !st.dashdash {
		// A leaf without arguments: nothing but flags can follow.
		return st.flagNames(true)
	}
	return nil
}

// spec is the Spec of the command reached (the zero Spec at the top).
func (st *Query) spec() Spec {
	specs, _ := st.app.Metadata[specsKey].(map[*urfave.Command]Spec)
	return specs[st.cmd]
}

// values are the candidates for a flag's value.
func (st *Query) values(f urfave.Flag, cur string) []string {
	name := f.Names()[0]
	st.Cur = cur
	spec := st.spec()
	own := st.ownFlag(f)
	if c := spec.Values[name]; c != nil && own {
		return c(st)
	}
	if name == FlagOutput && !own {
		return spec.outputs()
	}
	if c := globalValues[name]; c != nil {
		return c(st) // a global flag, or a verb's own copy of one (set-context)
	}
	return nil
}

// ownFlag says whether f is the command's own flag, not a global copy.
func (st *Query) ownFlag(f urfave.Flag) bool {
	ours, _ := st.app.Metadata[globalFlagsKey].(map[urfave.Flag]bool)
	return !ours[f]
}

// args are the candidates for a positional argument of the command.
func (st *Query) args(cur string) []string {
	st.Cur = cur
	if strings.Join(st.path, " ") == "help" {
		return commandNames(st.app.Commands)
	}
	if a := st.spec().Args; a != nil {
		return a(st)
	}
	return nil
}

// flagNames lists the command's flags as typed: --name, and -x for a
// one-letter alias unless only long ones are asked for.
func (st *Query) flagNames(longOnly bool) []string {
	var out []string
	for _, f := range st.flags {
		if hidden(f) {
			continue
		}
		for _, n := range f.Names() {
			if len(n) > 1 {
				out = append(out, "--"+n)
			} else if !longOnly {
				out = append(out, "-"+n)
			}
		}
	}
	if !slices.Contains(out, "--help") {
		out = append(out, "--help") // urfave adds it when it runs, not to the tree
	}
	return out
}

// commandNames are the visible commands' names; aliases (help's h) are
// not offered, as other tools do not list them either.
func commandNames(cmds []*urfave.Command) []string {
	var out []string
	for _, c := range cmds {
		if !c.Hidden {
			out = append(out, c.Name)
		}
	}
	return out
}

func findFlag(flags []urfave.Flag, name string) urfave.Flag {
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

func takesValue(f urfave.Flag) bool {
	if f == nil {
		return false
	}
	_, isBool := f.(*urfave.BoolFlag)
	return !isBool
}

func hidden(f urfave.Flag) bool {
	if v, ok := f.(urfave.VisibleFlag); ok {
		return !v.IsVisible()
	}
	return false
}

func filter(cands []string, prefix string) []string {
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	return out
}
