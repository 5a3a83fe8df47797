package check

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// FetchWorkerVersion asks a worker's REST root (GET /) for its Kafka version,
// e.g. {"version":"3.9.0","commit":"…","kafka_cluster_id":"…"}.
func FetchWorkerVersion(ctx context.Context, client *http.Client, url string) (string, error) {
	if client == nil {
		client = http.DefaultClient
	}
	root := strings.TrimSuffix(url, "/") + "/"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, root, nil)
	if err != nil {
		return "", fmt.Errorf("worker REST %s: %w", root, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("worker REST %s: %w", root, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("worker REST %s: HTTP %d", root, resp.StatusCode)
	}
	var body struct {
		Version string `json:"version"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&body); err != nil {
		return "", fmt.Errorf("worker REST %s: %w", root, err)
	}
	if _, err := kafkaversion.Parse(body.Version); err != nil || body.Version == "" {
		return "", fmt.Errorf("worker REST %s: version %q not understood", root, body.Version)
	}
	return body.Version, nil
}

// FetchWorkerVersions asks each worker file's REST root for its version,
// where the group names the worker's URL. Workers that do not answer within
// timeout are left out (their version stays unknown); the errors are returned
// for the report's notes.
func FetchWorkerVersions(ctx context.Context, client *http.Client, workers []*workerconfig.Config, d *Decoded, timeout time.Duration) (map[string]string, []string) {
	out := map[string]string{}
	var notes []string
	for _, w := range workers {
		url := d.MemberURL(WorkerIDOf(w))
		if url == "" {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		v, err := FetchWorkerVersion(cctx, client, url)
		cancel()
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: version unknown (%v)", w.Name(), err))
			continue
		}
		out[w.Path] = v
	}
	return out, notes
}
