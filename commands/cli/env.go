package cli

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect"
	urfave "github.com/urfave/cli/v2"
)

// Env is what a verb's run gets besides its options: the run's context,
// streams and resolved global flags, its arguments, and the loaders of
// what the global flags point at. Tests build one with NewEnv and hand in a
// dataset (Env.Load) instead of parsing a command line.
type Env struct {
	Ctx     context.Context
	IO      Streams
	Globals Globals
	Args    []string
	Build   BuildInfo

	// HTTP is the client for the workers' REST APIs; nil means one whose
	// requests last at most RESTTimeout.
	HTTP *http.Client

	// Load reads the dataset as spec says (by default: the --from file or
	// the live cluster the global flags name).
	Load func(e *Env, spec ReadSpec) (*inspect.Dataset, error)

	spec  Spec
	given map[string]bool // the verb's own flags given on the command line
	typed func(flag string) bool
	app   *urfave.App
	// liveMemory asks Run for the live GC target (nil outside Run).
	liveMemory func()
	// sweepMemory asks Run for the sweep's GC target (nil outside Run).
	sweepMemory func()
}

// NewEnv is an Env for a run outside a command line: tests and the tour.
func NewEnv(ctx context.Context, s Streams, g Globals) *Env {
	return &Env{Ctx: ctx, IO: s, Globals: g, Load: loadDataset, given: map[string]bool{}}
}

// Given reports whether the verb's own flag was given (not its default).
func (e *Env) Given(flag string) bool { return e.given[flag] }

// Give marks flags as given, for a run built by hand.
func (e *Env) Give(flags ...string) *Env {
	for _, f := range flags {
		e.given[f] = true
	}
	return e
}

// Typed reports whether a global flag was typed on the command line (not
// taken from the environment).
func (e *Env) Typed(flag string) bool { return e.typed != nil && e.typed(flag) }

// Emit is the one output pipeline: every verb prints its result through
// it, in the format the global flags ask for.
func (e *Env) Emit(result any) error {
	opts := e.Globals.FormatOptions()
	opts.Context = e.Ctx                        // Ctrl-C ends a --jq run at its next step
	return format.Write(e.IO.Out, result, opts) // *format.UsageError maps to exit 2
}

// SweepMemory asks for the collector target of a long simulation sweep
// (plan advise), for the rest of the run; outside Run it does nothing.
func (e *Env) SweepMemory() {
	if e.sweepMemory != nil {
		e.sweepMemory()
	}
}

// NoArgs rejects positional arguments a verb does not take.
func (e *Env) NoArgs() error {
	if len(e.Args) > 0 {
		return UsageErrorf("unexpected argument %q", e.Args[0])
	}
	return nil
}

// Dataset reads what the verb's Spec.Read says.
func (e *Env) Dataset() (*inspect.Dataset, error) { return e.Load(e, e.spec.Read) }

// DatasetAs reads as spec says, for a verb that reads twice.
func (e *Env) DatasetAs(spec ReadSpec) (*inspect.Dataset, error) { return e.Load(e, spec) }

// HasCommand says whether words (up to the first flag) name a command of
// this application.
func (e *Env) HasCommand(words []string) bool {
	if e.app == nil {
		return false
	}
	cmds := e.app.Commands
	for _, a := range words {
		if strings.HasPrefix(a, "-") {
			break
		}
		next := findCommand(cmds, a)
		if next == nil {
			return false
		}
		cmds = next.Subcommands
	}
	return len(words) > 0
}

// Main runs a whole command line in this process, as connectscope itself
// would (the tour runs its steps so).
func (e *Env) Main(args []string, s Streams) int {
	run, _ := e.app.Metadata[mainKey].(func([]string, Streams) int)
	if run == nil {
		return ExitUsage
	}
	return run(args, s)
}

// WithDataset makes the Env hand in ds whatever is asked (run tests).
func (e *Env) WithDataset(ds *inspect.Dataset) *Env {
	e.Load = func(*Env, ReadSpec) (*inspect.Dataset, error) { return ds, nil }
	return e
}

// Exec runs one command alone, as `connectscope NAME ARGS...` would, and
// returns its exit status: flag tests build a verb whose run keeps its
// options and stop there.
func Exec(cmd *Command, s Streams, args ...string) int {
	app := NewApp(App{Streams: s, Tree: func() []*Command { return []*Command{cmd} }})
	return Run(app, append([]string{appName, cmd.Name}, args...))
}

// RESTTimeout bounds one request to a worker's REST API: --timeout, at most
// five seconds.
func (e *Env) RESTTimeout() time.Duration { return min(5*time.Second, e.Globals.Timeout) }

// HTTPClient is the client for the workers' REST APIs.
func (e *Env) HTTPClient() *http.Client {
	if e.HTTP != nil {
		return e.HTTP
	}
	return &http.Client{Timeout: e.RESTTimeout()}
}
