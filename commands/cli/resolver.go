package cli

import (
	"time"

	urfave "github.com/urfave/cli/v2"
)

// flagResolver finds the value of a global flag in the nearest command of
// the chain that has it set. The application's copy also holds the
// environment and the default. It remembers what it found, and what each
// command of the chain carries and has set: urfave's IsSet walks every flag
// of the chain, splitting each one's names with a regular expression, and
// the resolver asks about each global flag on every command of the chain.
type flagResolver struct {
	c     *urfave.Context
	found map[string]*urfave.Context
	ours  map[*urfave.Context]carried
}

// carried are the global flags a command carries as connectscope's copies:
// each name (aliases too) → whether the flag is set on that command (given
// under any of its names, or from the environment).
type carried map[string]bool

func newFlagResolver(c *urfave.Context) flagResolver {
	return flagResolver{c: c, found: map[string]*urfave.Context{}, ours: map[*urfave.Context]carried{}}
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
		if r.carried(ctx)[name] {
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
	_, ok := r.carried(ctx)[name]
	return ok
}

func (r flagResolver) carried(ctx *urfave.Context) carried {
	names, ok := r.ours[ctx]
	if !ok {
		names = globalFlagsOn(ctx)
		r.ours[ctx] = names
	}
	return names
}

func (r flagResolver) isSet(name string) bool {
	ctx := r.ctx(name)
	if names, ok := r.ours[ctx]; ok {
		return names[name]
	}
	return ctx.IsSet(name)
}

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

// globalFlagsOn are the global flags ctx's command carries as connectscope's
// own copies (and not a flag of its own that happens to share the name, like
// a command whose -o names an output file), and whether each is set there,
// as urfave's IsSet says: given on that command under any of its names, or
// set from the environment (LocalFlagNames holds both).
func globalFlagsOn(ctx *urfave.Context) carried {
	ours, _ := ctx.App.Metadata[globalFlagsKey].(map[urfave.Flag]bool)
	given := map[string]bool{}
	for _, n := range ctx.LocalFlagNames() {
		given[n] = true
	}
	names := carried{}
	for _, f := range ctx.Command.Flags {
		if !ours[f] {
			continue
		}
		aliases := f.Names()
		set := false
		for _, n := range aliases {
			set = set || given[n]
		}
		for _, n := range aliases {
			names[n] = set
		}
	}
	return names
}
