package cli

import (
	"slices"
	"sort"
	"sync"

	urfave "github.com/urfave/cli/v2"
)

// App is what NewApp builds an application from.
type App struct {
	Info    BuildInfo
	Streams Streams
	// Tree builds the commands: a fresh tree for every application, since
	// each verb's flags are bound to its own options.
	Tree func() []*Command
	// Main runs a whole command line in this process (Env.Main).
	Main func(args []string, s Streams) int
}

const appName = "connectscope"

// Keys of App.Metadata.
const (
	// globalFlagsKey names the set of global flag copies, so the resolver
	// can tell them from a command's own flag of the same name.
	globalFlagsKey = "connectscope.globalFlags"
	// specsKey names the Spec of every built command.
	specsKey = "connectscope.specs"
	// outputsKey names every -o format some verb offers.
	outputsKey = "connectscope.outputs"
	mainKey    = "connectscope.main"
	// newAppKey names a function building this application again, on
	// other streams (completion asks the cluster for names so).
	newAppKey = "connectscope.newApp"
)

// NewApp builds the application: its commands, each with its own copy of the
// global flags. Errors are returned from Run, never turned into os.Exit
// here; Run maps them to exit statuses.
func NewApp(a App) *urfave.App {
	ours := map[urfave.Flag]bool{}
	rootFlags := globalFlags(true)
	for _, f := range rootFlags {
		ours[f] = true
	}
	b := &builder{ours: ours, specs: map[*urfave.Command]Spec{}, help: map[string][]func(){}}
	cmds := []*urfave.Command{}
	for _, c := range append(a.Tree(), completeCommand()) {
		cmds = append(cmds, b.build(c, c.Name, nil))
	}
	sort.SliceStable(cmds, func(i, j int) bool { return cmds[i].Name < cmds[j].Name })
	info := a.Info.resolved()
	app := &urfave.App{
		Name:                 appName,
		Usage:                "see what Kafka Connect's group protocol and internal topics are doing",
		Description:          "Reads a Connect cluster live (-b or --worker-config) or from a file (--from), without ever writing to it.",
		Version:              info.Version,
		Flags:                rootFlags,
		Commands:             cmds,
		EnableBashCompletion: true,
		Suggest:              true,
		Reader:               a.Streams.In,
		Writer:               a.Streams.Out,
		ErrWriter:            a.Streams.Err,
		Metadata: map[string]any{globalFlagsKey: ours, buildInfoKey: info, specsKey: b.specs,
			outputsKey: b.outputs, mainKey: a.Main,
			newAppKey: func(s Streams) *urfave.App { again := a; again.Streams = s; return NewApp(again) }},
		Before:         func(c *urfave.Context) error { b.writeHelp(c.Args().Slice()); return nil },
		Action:         helpOrUnknown,
		OnUsageError:   flagUsageError,
		ExitErrHandler: func(*urfave.Context, error) {}, // Run reports; urfave must not os.Exit
	}
	app.CustomAppHelpTemplate = appHelp(app)
	return app
}

// builder turns the tree into urfave commands.
type builder struct {
	ours    map[urfave.Flag]bool
	specs   map[*urfave.Command]Spec
	outputs []string // every verb's own -o formats
	// help writes the help text of the commands of a name: a command's
	// help is shown only when its name is on the command line, and
	// writing every command's text costs more than a whole short run.
	help map[string][]func()
}

// writeHelp writes the help text of the commands named among args.
func (b *builder) writeHelp(args []string) {
	for _, a := range args {
		for _, write := range b.help[a] {
			write()
		}
		delete(b.help, a)
	}
}

// build makes the urfave command of cmd (at path below the application),
// adding fresh global flags (skipping any whose name the command already
// uses for a flag of its own). inherited are the parent's examples of it.
func (b *builder) build(cmd *Command, path string, inherited []string) *urfave.Command {
	uc := &urfave.Command{
		Name: cmd.Name, Usage: cmd.Usage, UsageText: cmd.UsageText, ArgsUsage: cmd.ArgsUsage,
		Description: cmd.Description, Hidden: cmd.Hidden, HideHelp: cmd.HideHelp,
		SkipFlagParsing: cmd.SkipFlagParsing, Flags: slices.Clone(cmd.Flags),
	}
	b.specs[uc] = cmd.Spec
	if cmd.BashComplete != nil {
		uc.BashComplete = func(c *urfave.Context) { cmd.BashComplete(c.App.Writer) }
	}
	for _, o := range cmd.Spec.Outputs {
		if !slices.Contains(b.outputs, o) {
			b.outputs = append(b.outputs, o)
		}
	}
	taken := map[string]bool{}
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			taken[n] = true
		}
	}
	names := globalFlagNamesInOrder()
	for i, f := range globalFlags(false) {
		clash := false
		for _, n := range names[i] {
			clash = clash || taken[n]
		}
		if !clash {
			uc.Flags = append(uc.Flags, f)
			b.ours[f] = true
		}
	}
	for _, sub := range cmd.Subcommands {
		uc.Subcommands = append(uc.Subcommands, b.build(sub, path+" "+sub.Name, examplesOf(cmd.Examples, path+" "+sub.Name)))
	}
	examples := lines(cmd.Examples)
	if len(examples) == 0 {
		examples = inherited
	}
	// The help is of the command as built here, before its required
	// flags become checks of its own (the help still says "required").
	shown := *uc
	shown.Flags = slices.Clone(uc.Flags)
	b.help[cmd.Name] = append(b.help[cmd.Name], func() {
		uc.CustomHelpTemplate = commandHelp(appName, path, &shown, cmd.Spec, b.ours, examples)
	})
	checkRequiredInBefore(uc)
	uc.OnUsageError = flagUsageError
	switch {
	case cmd.Run != nil:
		uc.Action = action(cmd)
	case len(cmd.Subcommands) > 0:
		uc.Action = helpOrUnknown
	}
	return uc
}

// globalFlagNamesInOrder are the names of each global flag, in the order
// globalFlags builds them: asking a flag its names runs a regular
// expression, and every command is built with every global flag.
var globalFlagNamesInOrder = sync.OnceValue(func() [][]string {
	var names [][]string
	for _, f := range globalFlags(false) {
		names = append(names, f.Names())
	}
	return names
})

// action runs a verb: its Before, the global flags resolved, then its Run;
// an error naming a deep package's input is reworded with the verb's flag.
func action(cmd *Command) urfave.ActionFunc {
	return func(c *urfave.Context) error {
		if done, ok := c.App.Metadata[setupDoneKey].(func()); ok {
			done() // urfave has parsed the command line: other apps may set up
		}
		e := &Env{Ctx: c.Context, IO: Streams{In: c.App.Reader, Out: c.App.Writer, Err: c.App.ErrWriter},
			Args: c.Args().Slice(), Load: loadDataset, spec: cmd.Spec, given: map[string]bool{},
			typed: func(flag string) bool { return typedOnCommandLine(c, flag) }, app: c.App}
		e.Build, _ = c.App.Metadata[buildInfoKey].(BuildInfo)
		for _, f := range cmd.Flags {
			if n := f.Names()[0]; c.IsSet(n) {
				e.given[n] = true
			}
		}
		if apply, ok := c.App.Metadata[liveMemoryKey].(func()); ok {
			e.liveMemory = apply
		}
		if apply, ok := c.App.Metadata[sweepMemoryKey].(func()); ok {
			e.sweepMemory = apply
		}
		if cmd.Before != nil {
			if err := cmd.Before(e); err != nil {
				return err
			}
		}
		if !cmd.Spec.NoGlobals {
			g, err := globalsFrom(c, cmd.Spec)
			if err != nil {
				return err
			}
			e.Globals = g
		}
		return inFlagTerms(cmd.Run(e), cmd.Spec.Inputs)
	}
}

// SpecOf is the Spec of a command of app (the zero Spec for one the kit
// did not build).
func SpecOf(app *urfave.App, cmd *urfave.Command) Spec {
	specs, _ := app.Metadata[specsKey].(map[*urfave.Command]Spec)
	return specs[cmd]
}

// IsGlobalFlag says whether f is one of app's copies of the global flags
// (and not a command's own flag of the same name).
func IsGlobalFlag(app *urfave.App, f urfave.Flag) bool {
	ours, _ := app.Metadata[globalFlagsKey].(map[urfave.Flag]bool)
	return ours[f]
}

// GlobalFlags are a fresh set of the global flags, as help lists them.
func GlobalFlags() []urfave.Flag { return globalFlags(false) }
