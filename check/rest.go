package check

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/inspect/workers"
)

// AskWorkers asks every member of the group through its REST URL (GET /,
// and /health and the plugins when calls say so); nil without a group.
func AskWorkers(ctx context.Context, c *rest.Client, d *Decoded, calls rest.Calls) []rest.WorkerInfo {
	if d == nil || d.Members() == nil {
		return nil
	}
	targets, _ := workers.Targets(d.Members())
	return c.Workers(ctx, targets, calls)
}

// WorkerVersions maps each worker file matched to a member to the version
// that member's REST root gave; every worker file that could not be asked
// or did not answer gets a note with the reason.
func WorkerVersions(infos []rest.WorkerInfo, files []*workerconfig.Config) (map[string]string, []string) {
	out := map[string]string{}
	var notes []string
	ids := make([]string, len(infos))
	for i, w := range infos {
		ids[i] = w.Worker
	}
	match := matchFiles(files, ids)
	for wi, f := range files {
		i := match[wi]
		if i < 0 {
			continue
		}
		w := infos[i]
		switch {
		case w.Error != nil && !w.Reached():
			notes = append(notes, fmt.Sprintf("%s (%s): version unknown: %s", f.Name(), w.Worker, *w.Error))
		case w.Version != nil:
			if v, err := kafkaversion.Parse(*w.Version); err != nil || !v.Known {
				notes = append(notes, fmt.Sprintf("%s (%s): version %q not understood", f.Name(), w.Worker, *w.Version))
				continue
			}
			out[f.Path] = *w.Version
		}
	}
	return out, notes
}

// FetchWorkerVersions asks each worker file's member (matched by REST
// host:port) for its version, each within timeout. Workers that do not
// answer stay unknown, with a note saying why. (The http.Client argument is
// unused: the commands pass one until they build a rest.Client themselves.)
func FetchWorkerVersions(ctx context.Context, _ *http.Client, files []*workerconfig.Config, d *Decoded, timeout time.Duration) (map[string]string, []string) {
	c := rest.New(rest.Options{PerRequest: timeout, Total: 3 * timeout})
	defer c.Close()
	return WorkerVersions(AskWorkers(ctx, c, d, rest.Calls{}), files)
}
