package cli

// Verb builds a verb from bind, which returns its command with the flags
// bound into a fresh options value: Run calls run with those options, or
// the verb's own run function, own, when run is nil (as the tree builds
// it; tests hand in a run that keeps the options). A verb that reads its
// positional arguments sets Command.Args.
func Verb[O any](run, own func(*Env, *O) error, bind func(o *O) *Command) *Command {
	o := new(O)
	if run == nil {
		run = own
	}
	c := bind(o)
	args := c.Args
	c.Run = func(e *Env) error {
		if args != nil {
			if err := args(e); err != nil {
				return err
			}
		}
		return run(e, o)
	}
	return c
}

// NoArgs is Command.Args of a verb that takes no positional argument.
func NoArgs(e *Env) error { return e.NoArgs() }

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
