package cli

import (
	"time"

	urfave "github.com/urfave/cli/v2"
)

// flagResolver finds the value of a global flag in the nearest command of
// the chain that has it set. The application's copy also holds the
// environment and the default.
type flagResolver struct{ c *urfave.Context }

func (r flagResolver) ctx(name string) *urfave.Context {
	lineage := r.c.Lineage()
	var root *urfave.Context
	for _, ctx := range lineage {
		if ctx.Command == nil || ctx.App == nil || !hasGlobalFlag(ctx.App, ctx.Command, name) {
			continue
		}
		root = ctx
		if ctx.IsSet(name) {
			return ctx
		}
	}
	if root == nil {
		return r.c
	}
	return root
}

func (r flagResolver) isSet(name string) bool { return r.ctx(name).IsSet(name) }

func (r flagResolver) string(name string) string { return r.ctx(name).String(name) }

func (r flagResolver) bool(name string) bool { return r.ctx(name).Bool(name) }

func (r flagResolver) strings(name string) []string { return r.ctx(name).StringSlice(name) }

func (r flagResolver) pairs(name string) []string {
	if l, ok := r.ctx(name).Generic(name).(*pairList); ok && l != nil {
		return l.pairs
	}
	return nil
}

func (r flagResolver) duration(name string) time.Duration {
	return r.ctx(name).Duration(name)
}

// hasGlobalFlag reports whether cmd carries connectscope's own copy of the
// global flag (and not a flag of its own that happens to share the name, like
// a command whose -o names an output file).
func hasGlobalFlag(app *urfave.App, cmd *urfave.Command, name string) bool {
	ours, _ := app.Metadata[globalFlagsKey].(map[urfave.Flag]bool)
	for _, f := range cmd.Flags {
		if !ours[f] {
			continue
		}
		for _, n := range f.Names() {
			if n == name {
				return true
			}
		}
	}
	return false
}
