package check

import (
	"context"

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
// that member's REST root gave. Every member that did not answer is a U13
// finding naming it (HOST:PORT, and its worker file when one matched) and
// its error, as is a matched member whose version is not understood: the
// checks fall back to --kafka-version for them, never silently.
func WorkerVersions(infos []rest.WorkerInfo, files []*workerconfig.Config) (map[string]kafkaversion.Version, []Finding) {
	out := map[string]kafkaversion.Version{}
	var f Findings
	ids := make([]string, len(infos))
	for i, w := range infos {
		ids[i] = w.Worker
	}
	match := matchFiles(files, ids)
	fileOf := map[int]*workerconfig.Config{}
	for wi, file := range files {
		if i := match[wi]; i >= 0 {
			fileOf[i] = file
		}
	}
	for i := range infos {
		w := &infos[i]
		file := fileOf[i]
		if !w.Reached() {
			unanswered(&f, w, file)
			continue
		}
		if file == nil {
			continue
		}
		v, err := kafkaversion.Parse(*w.Version)
		if err != nil || !v.Known {
			f.Addf("U13", w.Worker, map[string]any{"worker": w.Worker, "file": file.Name(), "version": *w.Version},
				"%s (%s) gave version %q, which is not understood: its version is unknown", w.Worker, file.Name(), *w.Version)
			continue
		}
		out[file.Path] = v
	}
	return out, f.List()
}

// unanswered is U13 for a worker that did not answer GET /: its HOST:PORT,
// its worker file when one matched, and the error.
func unanswered(f *Findings, w *rest.WorkerInfo, file *workerconfig.Config) {
	why := "no answer"
	if w.Error != nil {
		why = *w.Error
	}
	values := map[string]any{"worker": w.Worker, "error": why}
	if file != nil {
		values["file"] = file.Name() // not in the message, which --to's report gives without files (dedupe)
	}
	f.Addf("U13", w.Worker, values, "%s did not answer its REST API, so its version is unknown: %s", w.Worker, why)
}

// notAnswered is U13 for a worker of the release check: one that did not
// answer GET / as unanswered says, one that failed a later call (health,
// plugins) with that call's error.
func notAnswered(f *Findings, w *rest.WorkerInfo) {
	if !w.Reached() {
		unanswered(f, w, nil)
		return
	}
	f.Addf("U13", w.Worker, map[string]any{"worker": w.Worker, "error": *w.Error},
		"%s answered GET / but not every call, so what those calls tell is unknown for it: %s", w.Worker, *w.Error)
}

// FetchWorkerVersions asks each group member for its version through its
// REST URL with the shared client c (its bounds, TLS, credentials and
// redaction are the command's), and maps the versions to the worker files
// (WorkerVersions): a member that does not answer is a U13 finding.
func FetchWorkerVersions(ctx context.Context, c *rest.Client, files []*workerconfig.Config, d *Decoded) (map[string]kafkaversion.Version, []Finding) {
	return WorkerVersions(AskWorkers(ctx, c, d, rest.Calls{}), files)
}
