package cli

import urfave "github.com/urfave/cli/v2"

// Flagged is a verb's options type that binds its own flags into itself: a
// verb's flags are what its options' Flags returns (flags a noun's verbs
// share come with the options struct they embed).
type Flagged interface{ Flags() []urfave.Flag }

// NewVerb builds a verb from what it says of itself, c (Name, Usage,
// Examples, Spec, the rest of its help): its flags are bound by its options
// (Flagged) and Run calls run with them, or the verb's own run function,
// own, when run is nil (as the tree builds it; tests hand in a run that
// keeps the options). A verb takes no positional argument unless its
// Command.Arg or Command.Args reads them.
func NewVerb[O any](run, own func(*Env, *O) error, c Command) *Command {
	return Verb(run, own, func(*O) *Command { return &c })
}

// Verb is NewVerb for a verb whose facts bind into its options (its
// argument, flags it composes itself): bind returns the command of a fresh
// options value. The command's Flags are bind's when it gives them, else the
// options' (Flagged).
func Verb[O any](run, own func(*Env, *O) error, bind func(o *O) *Command) *Command {
	o := new(O)
	if run == nil {
		run = own
	}
	c := bind(o)
	if f, ok := any(o).(Flagged); ok && c.Flags == nil {
		c.Flags = f.Flags()
	}
	if c.Arg != nil {
		c.Arg.derive(c)
	}
	args := c.Args
	if args == nil {
		args = NoArgs
	}
	c.Run = func(e *Env) error {
		if err := args(e); err != nil {
			return err
		}
		return run(e, o)
	}
	return c
}

// NoArgs refuses positional arguments: what a verb without Command.Args
// does.
func NoArgs(e *Env) error { return e.NoArgs() }

// ArgsOfRun is Command.Args of a verb whose run reads its arguments with
// its flags (snapshot's FILE or --file).
func ArgsOfRun(*Env) error { return nil }

// OneArg is Command.Args of a verb that takes one positional argument, into
// dest; missing is the usage line when there is not exactly one.
func OneArg(dest *string, missing string) func(*Env) error {
	return func(e *Env) error {
		if len(e.Args) != 1 {
			return UsageErrorf("%s", missing)
		}
		*dest = e.Args[0]
		return nil
	}
}

// Plain is Verb for a verb without options of its own: Run calls run, or
// own when run is nil, after Command.Args.
func Plain(run, own func(*Env) error, c *Command) *Command {
	if run == nil {
		run = own
	}
	return Verb(func(e *Env, _ *struct{}) error { return run(e) }, nil, func(*struct{}) *Command { return c })
}

// OneArgCounted is OneArg whose usage line says how many arguments came:
// what, then ", got N arguments".
func OneArgCounted(dest *string, what string) func(*Env) error {
	return func(e *Env) error {
		if len(e.Args) != 1 {
			return UsageErrorf("%s, got %d arguments", what, len(e.Args))
		}
		return OneArg(dest, what)(e)
	}
}

// Arg is a verb's one positional argument, said once: the kit derives the
// USAGE line's ArgsUsage, its reading (OneArg, or OneArgCounted when
// Counted) and its completion (Spec.Args) from it.
type Arg struct {
	Into    *string    // the options' field it goes into
	Name    string     // as USAGE shows it: NAME, RULE, FILE
	Missing string     // the usage error when there is not exactly one
	Counted bool       // the usage error says how many came
	Values  Candidates // its completion, when it has one
}

// derive fills c's ArgsUsage, Args and Spec.Args from the argument.
func (a *Arg) derive(c *Command) {
	c.ArgsUsage, c.Args = a.Name, OneArg(a.Into, a.Missing)
	if a.Counted {
		c.Args = OneArgCounted(a.Into, a.Missing)
	}
	if a.Values != nil {
		c.Spec.Args = FirstArg(a.Values)
	}
}
