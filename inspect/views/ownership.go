package views

import (
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/store"
)

// Connectors is one line per connector (configs joined with statuses) with
// the pieces no live member owns counted from the group, when it was read;
// only the one connector the options name, if they name one, as the other
// views do.
func (d *Dataset) Connectors() *store.ConnectorsResult {
	if d.empty() {
		return nil
	}
	res := store.Connectors(d.Configs(), d.Status())
	if name := d.opts.Connector; name != "" {
		kept := res.Connectors[:0]
		for _, s := range res.Connectors {
			if s.Name == name {
				kept = append(kept, s)
			}
		}
		res.Connectors = kept
	}
	markUnowned(res, d.Configs(), d.Members())
	return res
}

// markUnowned sets Unowned and HeldForMs on each configured connector: its
// connector and committed tasks that no member owns. Ownership must be
// known for every member (a member that is mid-rebalance leaves it unknown).
func markUnowned(res *store.ConnectorsResult, cfg *store.ConfigsResult, m *group.MembersResult) {
	if res == nil || cfg == nil || m == nil {
		return
	}
	owned := map[string]bool{}
	var delay int64
	for _, mv := range m.Members {
		if mv.Owned == nil {
			return
		}
		for _, c := range mv.Owned.Connectors {
			owned["c:"+c] = true
		}
		for _, t := range mv.Owned.Tasks {
			owned["t:"+t] = true
		}
		if mv.Assignment != nil {
			delay = max(delay, mv.Assignment.DelayMs)
		}
	}
	byName := map[string]*store.ConnectorConfig{}
	for i := range cfg.Connectors {
		byName[cfg.Connectors[i].Name] = &cfg.Connectors[i]
	}
	for i := range res.Connectors {
		s := &res.Connectors[i]
		c := byName[s.Name]
		if c == nil {
			continue // only a status is left: nothing for Connect to run
		}
		n := 0
		if c.TargetState != "STOPPED" && !owned["c:"+c.Name] {
			n++ // a stopped connector is owned but runs nothing; others must be owned
		}
		for _, t := range c.Tasks {
			if !owned["t:"+t.ID] {
				n++
			}
		}
		s.Unowned = &n
		if n > 0 && delay > 0 {
			d := delay
			s.HeldForMs = &d
		}
	}
}
