package cli

import (
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/live"
	"github.com/connectscope/connectscope/inspect/source"
)

// ReadSpec is what a verb reads from a live cluster; from a file the whole
// file is read whatever the spec. The zero spec reads everything (snapshot,
// check).
type ReadSpec struct {
	// Topics picks the internal topics to read; 0 reads all three.
	Topics Topics
	// SkipSinkGroups leaves the sink connectors' consumer groups unread.
	SkipSinkGroups bool
	// SettleGroup waits a little for a rebalancing group to settle (verbs
	// that show or plan from ownership).
	SettleGroup bool
	// NeedsStableGroup refuses a group that is still rebalancing (exit 3,
	// one line) instead of showing half-known ownership.
	NeedsStableGroup bool
}

// Topics is a set of Connect's internal topics.
type Topics uint8

// The internal topics, by role.
const (
	ConfigTopic Topics = 1 << iota
	StatusTopic
	OffsetTopic
)

// names are the topics of the set, named as names says; nil for the empty set.
func (t Topics) names(names inspect.TopicNames) []string {
	var out []string
	for _, r := range []struct {
		bit  Topics
		name string
	}{{ConfigTopic, names.Config}, {StatusTopic, names.Status}, {OffsetTopic, names.Offset}} {
		if t&r.bit != 0 {
			out = append(out, r.name)
		}
	}
	return out
}

// loadDataset reads what the global flags point at: --from FILE (a snapshot
// or a kcat -J dump) or a live cluster (-b, or --worker-config with
// bootstrap.servers), the latter as spec says.
func loadDataset(e *Env, spec ReadSpec) (*inspect.Dataset, error) {
	g := e.Globals
	if g.From != "" {
		ds, err := source.LoadFileContext(e.Ctx, g.From, g.Topics)
		if err != nil {
			return nil, InputError(err)
		}
		if err := source.NothingDecoded(g.From, ds); err != nil {
			return nil, InputError(err)
		}
		return ds, nil
	}
	if g.Live() {
		return e.ReadLive(spec)
	}
	if g.contextErr != nil {
		return nil, g.contextErr // its current context may have named the cluster
	}
	return nil, UsageErrorf("nothing to read: give --from FILE (a snapshot or kcat -J dump), -b HOST:PORT, or --worker-config FILE")
}

// LiveOptions are the live read's options from the resolved globals.
func (e *Env) LiveOptions() (live.Options, error) {
	g := e.Globals
	conn, err := g.ConnOptions()
	if err != nil {
		return live.Options{}, err
	}
	if e.liveMemory != nil {
		e.liveMemory()
	}
	return live.Options{Conn: conn, Group: g.Group, Topics: g.Topics, Isolation: g.Isolation}, nil
}

// ReadLive reads the cluster as spec says.
func (e *Env) ReadLive(spec ReadSpec) (*inspect.Dataset, error) {
	opts, err := e.LiveOptions()
	if err != nil {
		return nil, err
	}
	if spec.SettleGroup {
		opts.GroupSettle = min(5*time.Second, e.Globals.Timeout/2)
	}
	opts.Read = spec.Topics.names(e.Globals.Topics)
	opts.SkipSinkGroups = spec.SkipSinkGroups
	ds, err := live.Read(e.Ctx, opts)
	if err != nil {
		return nil, InputError(err)
	}
	if spec.NeedsStableGroup && inspect.GroupRebalancing(ds.Group) {
		return nil, InputError(live.GroupUnsettledError(ds.Group))
	}
	return ds, nil
}
