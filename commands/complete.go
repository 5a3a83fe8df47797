package commands

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/completions"
	"github.com/connectscope/connectscope/contexts"
	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/decoded"
	"github.com/connectscope/connectscope/inspect/describe"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/source"
	"github.com/connectscope/connectscope/inspect/store"
	"github.com/urfave/cli/v2"
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
	completeCommand = "__complete"
	namesCommand    = "__names"
	// completeTimeout bounds a completion that asks the cluster for names:
	// a shell waits for it on every Tab.
	completeTimeout = 2 * time.Second
)

// completeCommands are the hidden commands the completion scripts call.
func completeCommands() []*cli.Command {
	return []*cli.Command{{
		Name:            completeCommand,
		Hidden:          true,
		HideHelp:        true, // "help" and "--help" are words to complete here
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			for _, s := range completeWords(c, c.Args().Slice()) {
				fmt.Fprintln(c.App.Writer, s)
			}
			return nil
		},
	}, {
		// Prints the cluster's connector and worker names, one per line as
		// "connector NAME" or "worker NAME", read as the global flags say.
		Name:   namesCommand,
		Hidden: true,
		Action: action(runNames),
	}}
}

// flagValues are the fixed values some flags take.
var flagValues = map[string][]string{
	flagFailOn:        {"error", "warn", "info"},
	flagTarget:        {"eager", "compatible", "sessioned"},
	flagProtocol:      {"eager", "compatible", "sessioned"},
	flagStop:          {"clean", "crash"},
	flagIsolation:     {live.ReadCommitted, live.ReadUncommitted},
	flagSASLMechanism: {"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"},
}

// completion is where a command line stands: the command reached, the
// flags typed with their values, the positional arguments.
type completion struct {
	app        *cli.App
	path       []string // command names below the application
	cmd        *cli.Command
	flags      []cli.Flag
	subs       []*cli.Command
	typed      [][2]string // global flags typed: name, value ("" for a bool)
	positional []string
	dashdash   bool
}

func completeWords(c *cli.Context, words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	st := &completion{app: c.App, flags: c.App.Flags, subs: c.App.Commands}
	cur := words[len(words)-1]
	if cur == `""` { // PowerShell's script passes an empty word quoted
		cur = ""
	}
	var pending cli.Flag // a flag whose value is the word under the cursor
	for i := 0; i < len(words)-1; i++ {
		w := words[i]
		if st.dashdash {
			st.positional = append(st.positional, w)
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
		if sub := findCommand(st.subs, w); sub != nil && len(st.positional) == 0 {
			st.cmd, st.flags, st.subs = sub, sub.Flags, sub.Subcommands
			st.path = append(st.path, sub.Name)
			continue
		}
		st.positional = append(st.positional, w)
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
	if len(st.subs) > 0 && len(st.positional) == 0 {
		return filter(commandNames(st.subs), cur)
	}
	if args := st.args(); args != nil || (st.cmd != nil && st.cmd.ArgsUsage != "") {
		return filter(args, cur)
	}
	if cur == "" && st.cmd != nil && !st.dashdash {
		// A leaf without arguments: nothing but flags can follow.
		return st.flagNames(true)
	}
	return nil
}

// values are the candidates for a flag's value.
func (st *completion) values(f cli.Flag, cur string) []string {
	name := f.Names()[0]
	switch name {
	case flagOutput:
		outs := format.Outputs()
		if len(st.path) > 0 && st.path[0] == "plan" {
			outs = append(outs, customOutputs...)
		}
		return outs
	case flagContext:
		return contextNames()
	case flagConnector, "remove":
		return st.clusterNames("connector")
	case "set":
		var out []string
		for _, n := range st.clusterNames("connector") {
			out = append(out, n+"=")
		}
		return out
	case "worker":
		return st.clusterNames("worker")
	case "order":
		// A comma-separated list: complete its last element.
		done := ""
		if i := strings.LastIndexByte(cur, ','); i >= 0 {
			done = cur[:i+1]
		}
		var out []string
		for _, w := range st.clusterNames("worker") {
			if !slices.Contains(strings.Split(done, ","), w) {
				out = append(out, done+w)
			}
		}
		return out
	}
	return flagValues[name]
}

// args are the candidates for a positional argument of the command.
func (st *completion) args() []string {
	switch strings.Join(st.path, " ") {
	case "help":
		return commandNames(st.app.Commands)
	case "inspect connector":
		if len(st.positional) == 0 {
			return st.clusterNames("connector")
		}
	case "config use-context", "config set-context":
		if len(st.positional) == 0 {
			return contextNames()
		}
	case "completion":
		if len(st.positional) == 0 {
			return completions.Shells()
		}
	case "check explain":
		if len(st.positional) == 0 {
			var ids []string
			for _, r := range check.Rules() {
				ids = append(ids, r.ID)
			}
			return ids
		}
	}
	return nil
}

// flagNames lists the command's flags as typed: --name, and -x for a
// one-letter alias unless only long ones are asked for.
func (st *completion) flagNames(longOnly bool) []string {
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

// clusterNames asks the cluster (or the --from file) for names of kind
// "connector" or "worker", through the hidden names command, so the global
// flags typed so far, the environment and the context resolve as for any
// command. Failures and slow clusters give no candidates.
func (st *completion) clusterNames(kind string) []string {
	args := []string{st.app.Name}
	for _, t := range st.typed {
		if findFlag(globalFlags(false), t[0]) == nil || t[0] == flagOutput || t[0] == flagJQ {
			continue // a command's own flag, or one that changes the output
		}
		if takesValue(findFlag(globalFlags(false), t[0])) {
			args = append(args, "--"+t[0], t[1])
		} else {
			args = append(args, "--"+t[0])
		}
	}
	args = append(args, namesCommand)
	var out, errb bytes.Buffer
	app := NewApp(BuildInfo{}, Streams{In: strings.NewReader(""), Out: &out, Err: &errb})
	ctx, cancel := context.WithTimeout(context.Background(), completeTimeout)
	defer cancel()
	if err := app.RunContext(ctx, args); err != nil {
		return nil
	}
	var names []string
	for _, line := range strings.Split(out.String(), "\n") {
		if k, name, ok := strings.Cut(line, " "); ok && k == kind {
			names = append(names, name)
		}
	}
	return names
}

func runNames(c *cli.Context, g Globals) error {
	var ds *inspect.Dataset
	var err error
	switch {
	case g.From != "":
		ds, err = source.LoadFile(g.From, g.Topics)
	case g.Live():
		var opts live.Options
		opts, err = liveOptions(c, g)
		if err != nil {
			return err
		}
		opts.Conn.Timeout = min(opts.Conn.Timeout, completeTimeout)
		opts.Read, opts.SkipSinkGroups = []string{g.Topics.Config, g.Topics.Status}, true
		ds, err = live.Read(c.Context, opts)
	default:
		return nil
	}
	if err != nil {
		return InputError(err)
	}
	connectors, workers := describe.Names(decoded.Decode(ds, store.DecodeOptions{}))
	for _, n := range connectors {
		fmt.Fprintln(c.App.Writer, "connector", n)
	}
	for _, w := range workers {
		fmt.Fprintln(c.App.Writer, "worker", w)
	}
	return nil
}

func contextNames() []string {
	path, err := contexts.DefaultPath()
	if err != nil {
		return nil
	}
	f, err := contexts.Load(path)
	if err != nil {
		return nil
	}
	return f.Names()
}

// commandNames are the visible commands' names; aliases (help's h) are
// not offered, as other tools do not list them either.
func commandNames(cmds []*cli.Command) []string {
	var out []string
	for _, c := range cmds {
		if !c.Hidden {
			out = append(out, c.Name)
		}
	}
	return out
}

func findFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

func takesValue(f cli.Flag) bool {
	if f == nil {
		return false
	}
	_, isBool := f.(*cli.BoolFlag)
	return !isBool
}

func hidden(f cli.Flag) bool {
	if v, ok := f.(cli.VisibleFlag); ok {
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
