package cli

import (
	"time"

	urfave "github.com/urfave/cli/v2"
)

// flagResolver finds the value of a global flag in the nearest command of
// the chain that has it set. The application's copy also holds the
// environment and the default. It remembers what it found: urfave looks a
// flag up by walking every flag of a command, and the resolver asks for
// each global flag on every command of the chain.
type flagResolver struct {
	c     *urfave.Context
	found map[string]*urfave.Context
	ours  map[*urfave.Context]map[string]bool // global flag names a command carries
}

func newFlagResolver(c *urfave.Context) flagResolver {
	return flagResolver{c: c, found: map[string]*urfave.Context{}, ours: map[*urfave.Context]map[string]bool{}}
}

func (r flagResolver) ctx(name string) *urfave.Context {
	if ctx, ok := r.found[name]; ok {
		return ctx
	}
	ctx := r.lookup(name)
	r.found[name] = ctx
	return ctx
}

func (r flagResolver) lookup(name string) *urfave.Context {
	var root *urfave.Context
	for _, ctx := range r.c.Lineage() {
		if ctx.Command == nil || ctx.App == nil || !r.carries(ctx, name) {
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

// carries says whether ctx's command has connectscope's copy of the global
// flag name.
func (r flagResolver) carries(ctx *urfave.Context, name string) bool {
	names, ok := r.ours[ctx]
	if !ok {
		names = globalFlagNames(ctx.App, ctx.Command)
		r.ours[ctx] = names
	}
	return names[name]
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

// globalFlagNames are the names (aliases too) of the global flags cmd
// carries as connectscope's own copies (and not a flag of its own that
// happens to share the name, like a command whose -o names an output file).
func globalFlagNames(app *urfave.App, cmd *urfave.Command) map[string]bool {
	ours, _ := app.Metadata[globalFlagsKey].(map[urfave.Flag]bool)
	names := map[string]bool{}
	for _, f := range cmd.Flags {
		if ours[f] {
			for _, n := range f.Names() {
				names[n] = true
			}
		}
	}
	return names
}
