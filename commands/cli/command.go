// Package cli is connectscope's command-line kit over urfave/cli/v2: the
// application and its global flags (with their precedence), flags after
// arguments, help, completion, exit statuses and interrupts. It knows no
// individual command: each verb brings its Command, with its Spec beside it,
// and the root (package commands) builds the tree.
package cli

import (
	"io"
	"os"

	"github.com/connectscope/connectscope/format"
	urfave "github.com/urfave/cli/v2"
)

// Command is one node of the tree: a noun that groups verbs (Subcommands),
// or a verb (Run). Verbs are built by their constructor, which binds the
// flags into the verb's options struct and sets Run to call the verb's run
// function with them.
type Command struct {
	Name        string
	Usage       string // one line, in the parent's list
	UsageText   string // the USAGE line, when the generated one does not fit
	ArgsUsage   string // positional arguments, as in USAGE (NAME, FILE)
	Description string // what it does, in paragraphs (help reflows them)
	Examples    string // command lines, one a line

	Flags       []urfave.Flag // the verb's own flags; the kit adds the global ones
	Spec        Spec
	Subcommands []*Command

	// Before runs before the global flags are resolved (Env.Globals is
	// empty then): a check that must come before theirs.
	Before func(*Env) error
	// Run does the verb's work with the options its constructor bound.
	Run func(*Env) error
	// Args reads or refuses the verb's positional arguments before its
	// run (Verb calls it; NoArgs, OneArg).
	Args func(*Env) error
	// Arg is the verb's one positional argument, from which the kit
	// derives ArgsUsage, Args and Spec.Args.
	Arg *Arg

	// BashComplete answers urfave's --generate-bash-completion for the
	// verb, when its default (the flags) is not the answer.
	BashComplete func(out io.Writer)

	Hidden          bool
	HideHelp        bool // "help" and "--help" are words of its own (__complete)
	SkipFlagParsing bool // it reads its own words
}

// Spec is what a verb needs from the run besides its flags.
type Spec struct {
	// Offline verbs read no cluster and no --from file: help does not offer
	// them the input and connection flags.
	Offline bool
	// NoFormat verbs print no result through -o (a script, a file, a session).
	NoFormat bool
	// Outputs are -o formats the verb's result offers besides format.Outputs
	// (its result implements format.Extra).
	Outputs []string
	// Read is what the verb reads from a live cluster (Env.Dataset).
	Read ReadSpec
	// Result is the type it prints (a nil pointer of it), for readers of the
	// code and tests; -o schema is drawn from the value printed.
	Result any
	// Inputs maps the named inputs of the deep packages' errors
	// (field.Error names) to the verb's flags, which Main's message names.
	Inputs map[string]string
	// Values complete a flag's value, by flag name.
	Values map[string]Candidates
	// Args complete the verb's positional arguments.
	Args Candidates
	// NoGlobals verbs run without resolving the global flags (they print a
	// script or the flags themselves and must work whatever the
	// environment holds).
	NoGlobals bool
	// NoContext verbs get no named cluster laid under the flags (the config
	// verbs read the file themselves, and must work on a broken one).
	NoContext bool
}

// outputs are the -o formats of a verb.
func (s Spec) outputs() []string { return append(format.Outputs(), s.Outputs...) }

// Streams are where a run reads and writes; tests pass buffers.
type Streams struct {
	In  io.Reader
	Out io.Writer // results only
	Err io.Writer // diagnostics only
}

// StdStreams are the process's standard streams.
func StdStreams() Streams { return Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr} }
