package whatif

import (
	"fmt"

	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
)

// connectorEvents are the config change's events. A connector's task
// count changes when the connector itself writes its new task configs, so
// a connector the leader holds back for a departed worker runs nowhere
// and changes nothing until it is dealt again after the delay: the config
// record rebalances at once with the old tasks, and the new task count
// follows when the group is stable again with the connector running (the
// real cluster of the issue: 42 s where a plan that changed the tasks at
// once said 2 s).
func connectorEvents(state cluster.State, specs []assignor.ConnectorSpec, ch ConnectorChange, res *PlanResult) []timeline.Event {
	all := []timeline.Event{{Kind: timeline.EventConnectors, Connectors: specs}}
	if state.Pending == nil || len(state.Pending.Lost.Connectors) == 0 || len(ch.Set) == 0 {
		return all
	}
	held := map[string]bool{}
	for _, c := range state.Pending.Lost.Connectors {
		held[c] = true
	}
	old := map[string]int{}
	for _, c := range state.Connectors {
		old[c.Name] = c.Tasks
	}
	now := make([]assignor.ConnectorSpec, len(specs))
	deferred := false
	for i, c := range specs {
		now[i] = c
		if n, set := ch.Set[c.Name]; set && held[c.Name] && n != old[c.Name] {
			now[i].Tasks = old[c.Name]
			deferred = true
			res.Notes = append(res.Notes, fmt.Sprintf("%s runs on no worker (held back for a departed worker): its new task count is written by the connector itself once it runs again after the delay; until then the change only rebalances", c.Name))
		}
	}
	if !deferred {
		return all
	}
	return []timeline.Event{{Kind: timeline.EventConnectors, Connectors: now}, {Kind: timeline.EventConnectors, Connectors: specs, WhenStable: true}}
}
