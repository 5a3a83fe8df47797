package commands

import (
	"strings"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/urfave/cli/v2"
)

// loadDataset reads what the global flags point at: --from FILE (a snapshot
// or a kcat -J dump) or a live cluster (-b, or --worker-config with
// bootstrap.servers).
func loadDataset(c *cli.Context, g Globals) (*inspect.Dataset, error) {
	if g.From != "" {
		ds, err := inspect.LoadFile(g.From, g.Topics)
		if err != nil {
			return nil, InputError(err)
		}
		return ds, nil
	}
	if g.Live() {
		return loadLive(c, g)
	}
	return nil, UsageErrorf("nothing to read: give --from FILE (a snapshot or kcat -J dump), -b HOST:PORT, or --worker-config FILE")
}

// liveOptions builds the live read's options from the resolved globals.
func liveOptions(g Globals) (inspect.LiveOptions, error) {
	conn, err := g.ConnOptions()
	if err != nil {
		return inspect.LiveOptions{}, err
	}
	return inspect.LiveOptions{Conn: conn, Group: g.Group, Topics: g.Topics, Isolation: g.Isolation}, nil
}

// loadLive reads the cluster. Commands that show or plan from ownership wait
// a little for a rebalancing group to settle; `inspect members` refuses to
// print a rebalancing group's half-known ownership (exit 3, one line). Views
// read only the topics and groups they show; everything else (snapshot,
// plan, check) reads it all.
func loadLive(c *cli.Context, g Globals) (*inspect.Dataset, error) {
	opts, err := liveOptions(g)
	if err != nil {
		return nil, err
	}
	name := commandPath(c)
	needsOwnership := name == "inspect members" || strings.HasPrefix(name, "plan ")
	if needsOwnership {
		opts.GroupSettle = min(5*time.Second, g.Timeout/2)
	}
	// Read only the topics the view shows: a view of the status topic has no
	// use for a million offsets records.
	t := g.Topics
	switch name {
	case "inspect configs":
		opts.Read, opts.SkipSinkGroups = []string{t.Config}, true
	case "inspect status":
		opts.Read, opts.SkipSinkGroups = []string{t.Status}, true
	case "inspect offsets":
		opts.Read, opts.SkipSinkGroups = []string{t.Offset}, true
	case "inspect connectors":
		opts.Read, opts.SkipSinkGroups = []string{t.Config, t.Status}, true
	case "inspect members":
		opts.Read, opts.SkipSinkGroups = []string{}, true // the group, and end offsets for config offsets
	case "inspect sinks":
		opts.Read = []string{t.Config} // sink connectors are found in their configs
	}
	if strings.HasPrefix(name, "plan ") { // plans start from the configs and the group
		opts.Read, opts.SkipSinkGroups = []string{t.Config}, true
	}
	ds, err := inspect.ReadLive(c.Context, opts)
	if err != nil {
		return nil, InputError(err)
	}
	if name == "inspect members" && inspect.GroupRebalancing(ds.Group) {
		return nil, InputError(inspect.GroupUnsettledError(ds.Group))
	}
	return ds, nil
}

// commandPath is the command's name below the application: "inspect members".
func commandPath(c *cli.Context) string {
	var parts []string
	for _, ctx := range c.Lineage() {
		if ctx.Command != nil && ctx.Command.Name != "" && ctx.Command.Name != c.App.Name {
			parts = append([]string{ctx.Command.Name}, parts...)
		}
	}
	return strings.Join(parts, " ")
}
