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
	var required []*urfave.StringFlag
	for i, f := range cmd.Flags {
		sf, ok := f.(*urfave.StringFlag)
		if !ok || !sf.Required {
			continue
		}
		optional := *sf
		optional.Required = false
		cmd.Flags[i] = &optional
		required = append(required, sf)
	}
	if len(required) == 0 {
		return
	}
	next := cmd.Before
	cmd.Before = func(c *urfave.Context) error {
		for _, f := range required {
			if !c.IsSet(f.Name) {
				return UsageErrorf("missing --%s: %s", f.Name, strings.ReplaceAll(f.Usage, "`", ""))
			}
		}
		if next != nil {
			return next(c)
		}
		return nil
	}
}
