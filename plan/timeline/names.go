package timeline

import (
	"slices"

	"github.com/connectscope/connectscope/plan/cluster"
)

// NameWorkers gives every worker of a timeline its flag name beside its
// member id: the final counts, the outages, the rounds and the events.
func (tl *Timeline) NameWorkers(namer *cluster.Namer) {
	nameCounts(namer, tl.Summary.Final)
	if tl.StateAfter != nil {
		nameCounts(namer, tl.StateAfter.Workers)
	}
	// Each member is named once, and shares its name: rounds list every
	// member (a roll of 1,000 workers names a million entries).
	seen := map[string]*string{}
	name := func(m string) *string {
		n, ok := seen[m]
		if !ok {
			v := namer.Name(m)
			n = &v
			seen[m] = n
		}
		return n
	}
	for i := range tl.Outages {
		if o := &tl.Outages[i]; o.Host != nil {
			o.Name = name(*o.Host)
		}
	}
	for i := range tl.Sums {
		if o := &tl.Sums[i]; o.Host != nil {
			o.Name = name(*o.Host)
		}
	}
	for i := range tl.Rounds {
		for j := range tl.Rounds[i].Workers {
			w := &tl.Rounds[i].Workers[j]
			w.Name = *name(w.Worker)
		}
	}
	for i := range tl.Events {
		if ev := &tl.Events[i]; ev.Worker != nil {
			ev.Name = name(*ev.Worker)
		}
	}
}

// NameCounts names the workers of counts and sorts the pieces they list,
// as JSON lists are.
func NameCounts(state cluster.State, counts []WorkerCount) []WorkerCount {
	return nameCounts(state.Namer(), counts)
}

func nameCounts(namer *cluster.Namer, counts []WorkerCount) []WorkerCount {
	for i := range counts {
		c := &counts[i]
		c.Name = namer.Name(c.Worker)
		slices.Sort(c.OwnedConnectors)
		slices.Sort(c.OwnedTasks)
	}
	return counts
}
