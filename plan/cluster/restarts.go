package cluster

import (
	"github.com/connectscope/connectscope/inspect/history"
	"github.com/connectscope/connectscope/inspect/views"
)

// HistoryRestarts is, per worker (HOST:PORT), the longest time the status
// topic shows between its stopping all its work and its writing again
// (inspect/history's restarts). An upper bound on its restart time: a
// worker writes only once it runs work again, and the delay may have held
// its work back after it rejoined.
func HistoryRestarts(d *views.Dataset) map[string]int64 {
	out := map[string]int64{}
	if d == nil || !d.Loaded() {
		return out
	}
	for _, r := range history.FromRecords(d.Topics.Status, d.StatusRecords()).Restarts {
		out[r.Worker] = max(out[r.Worker], r.AwayMs)
	}
	return out
}
