package cli

import (
	"strings"

	urfave "github.com/urfave/cli/v2"
)

// checkRequiredInBefore moves a command's required string flags from
// urfave's own check, which prints the whole help on stdout before its
// error, to a Before hook that fails with one line on stderr (exit 2). The
// flags are copied, so the registered commands are left untouched.
func checkRequiredInBefore(cmd *urfave.Command) {
	type required struct{ name, usage string }
	var reqs []required
	for i, f := range cmd.Flags {
		switch sf := f.(type) {
		case *urfave.StringFlag:
			if sf.Required {
				optional := *sf
				optional.Required = false
				cmd.Flags[i] = &optional
				reqs = append(reqs, required{sf.Name, sf.Usage})
			}
		case *urfave.StringSliceFlag: // a repeatable flag (plan leave --worker)
			if sf.Required {
				optional := *sf
				optional.Required = false
				cmd.Flags[i] = &optional
				reqs = append(reqs, required{sf.Name, sf.Usage})
			}
		}
	}
	if len(reqs) == 0 {
		return
	}
	next := cmd.Before
	cmd.Before = func(c *urfave.Context) error {
		for _, f := range reqs {
			if !c.IsSet(f.name) {
				return UsageErrorf("missing --%s: %s", f.name, strings.ReplaceAll(f.usage, "`", ""))
			}
		}
		if next != nil {
			return next(c)
		}
		return nil
	}
}
