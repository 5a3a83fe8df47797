package detail

import (
	"slices"
	"sort"

	"github.com/connectscope/connectscope/inspect/views"
)

// Names are the connector and worker names a dataset knows, for shell
// completion: connectors with a config or a status, workers of the Connect
// group (HOST:PORT, as WorkerName) or, without a group, the workers that
// wrote statuses. Both sorted, without repeats.
func Names(ds *views.Dataset) (connectors, workers []string) {
	status := ds.Status()
	connectors = knownConnectors(ds.Configs(), status)
	if m := ds.Members(); m != nil {
		for _, v := range m.Members {
			workers = append(workers, WorkerName(v))
		}
	} else {
		for _, s := range status.Connectors {
			if s.WorkerID != nil {
				workers = append(workers, *s.WorkerID)
			}
		}
		for _, s := range status.Tasks {
			if s.WorkerID != nil {
				workers = append(workers, *s.WorkerID)
			}
		}
	}
	sort.Strings(workers)
	return connectors, slices.Compact(workers)
}
