package describe

import (
	"slices"
	"sort"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/store"
)

// Names are the connector and worker names a dataset knows, for shell
// completion: connectors with a config or a status, workers of the Connect
// group (HOST:PORT, as WorkerName) or, without a group, the workers that
// wrote statuses. Both sorted, without repeats.
func Names(ds *inspect.Dataset) (connectors, workers []string) {
	cfgRecs, stRecs, _, _ := store.SplitTopics(ds.Records, ds.Topics)
	configs := store.DecodeConfigs(cfgRecs, store.DecodeOptions{})
	status := store.DecodeStatus(stRecs, store.DecodeOptions{})
	connectors = knownConnectors(configs, status)
	if ds.Group != nil {
		for _, m := range group.Members(ds.Group).Members {
			workers = append(workers, WorkerName(m))
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
