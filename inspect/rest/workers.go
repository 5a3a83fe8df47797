package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/connectscope/connectscope/inspect/redact"
)

// Target is one worker to ask: its HOST:PORT name (as status records and
// flags name it) and the REST URL it advertises in the group metadata.
type Target struct {
	Worker string
	URL    string
	// Guessed says URL was made from the worker's HOST:PORT because the
	// group gave no metadata (members of a rebalancing group carry none):
	// the client picks https when it was given TLS settings, else http.
	Guessed bool
}

// Root is GET / of a worker.
type Root struct {
	Version        string `json:"version"`
	Commit         string `json:"commit"`
	KafkaClusterID string `json:"kafka_cluster_id"`
}

// Health is GET /health of a worker (KIP-1017, Kafka 3.9+).
type Health struct {
	// Status is healthy, starting or unhealthy as the worker says, or
	// "unsupported" when the worker has no /health (before 3.9: HTTP 404).
	Status string `json:"status"`
	// Stage is what the worker says it is doing or last did, from the
	// message after its fixed sentence; empty when it says nothing more.
	Stage      string `json:"stage"`
	Message    string `json:"message"`
	HTTPStatus int    `json:"http_status"`
}

// Plugin is one entry of GET /connector-plugins?connectorsOnly=false.
type Plugin struct {
	Class   string `json:"class"`
	Type    string `json:"type"`    // source, sink, converter, header_converter, transformation, predicate
	Version string `json:"version"` // "" when the plugin declares none
}

// Calls says what to ask each worker.
type Calls struct {
	Health  bool
	Plugins bool
}

// WorkerInfo is what one worker answered, with its own error.
type WorkerInfo struct {
	Worker         string   `json:"worker"` // HOST:PORT
	URL            string   `json:"url"`    // as advertised, without credentials
	Version        *string  `json:"version"`
	Commit         *string  `json:"commit"`
	KafkaClusterID *string  `json:"kafka_cluster_id"`
	Health         *Health  `json:"health"`     // null when not asked or no answer
	LatencyMs      *float64 `json:"latency_ms"` // of GET /; null without an answer
	Plugins        []Plugin `json:"plugins"`    // null when not asked or no answer
	Error          *string  `json:"error"`      // every failed call, "; "-joined; null when all answered
	Err            error    `json:"-"`
}

// Reached reports whether the worker answered GET /.
func (w *WorkerInfo) Reached() bool { return w.Version != nil }

// Workers asks every target at once (at most Options.Parallel at a time)
// and returns one result per target, in target order. The round ends after
// Options.Total at the latest: workers still unanswered then carry a
// timeout error. Cancelling ctx ends it at once.
func (c *Client) Workers(ctx context.Context, targets []Target, calls Calls) []WorkerInfo {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Total)
	defer cancel()
	out := make([]WorkerInfo, len(targets))
	sem := make(chan struct{}, c.opts.Parallel)
	var wg sync.WaitGroup
	for i, t := range targets {
		out[i] = WorkerInfo{Worker: t.Worker, URL: redact.URL(t.URL)}
		wg.Add(1)
		go func(w *WorkerInfo, t Target) {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
				w.fail(c.roundErr(ctx, t))
				return
			}
			c.ask(ctx, w, t, calls)
		}(&out[i], t)
	}
	wg.Wait()
	for i, t := range targets {
		out[i].scrubURLPassword(t.URL)
	}
	return out
}

// scrubURLPassword hides the password of a URL's user:password@ in the
// worker's error: the URL shown has none (Redact), but a worker's answer
// may echo it.
func (w *WorkerInfo) scrubURLPassword(raw string) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.User == nil || w.Error == nil {
		return
	}
	if pw, ok := u.User.Password(); ok && pw != "" {
		s := strings.ReplaceAll(*w.Error, pw, "[redacted]")
		w.Error = &s
	}
}

// roundErr words why a worker was not asked before the round ended.
func (c *Client) roundErr(ctx context.Context, t Target) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("%s: %w", redact.URL(t.URL), context.Canceled)
	}
	return &TimeoutError{URL: redact.URL(t.URL), Bound: c.opts.Total}
}

func (w *WorkerInfo) fail(err error) {
	if err == nil {
		return
	}
	w.Err = errors.Join(w.Err, err)
	msg := err.Error()
	if w.Error != nil {
		msg = *w.Error + "; " + msg
	}
	w.Error = &msg
}

// ask runs one worker's calls in order; a worker that does not answer GET /
// is not asked the rest (each would wait for the same bound).
func (c *Client) ask(ctx context.Context, w *WorkerInfo, t Target, calls Calls) {
	if strings.TrimSpace(t.URL) == "" {
		w.fail(errors.New("the member's metadata gives no REST URL"))
		return
	}
	if t.Guessed && c.opts.TLS != nil {
		t.URL = "https://" + strings.TrimPrefix(t.URL, "http://")
		w.URL = redact.URL(t.URL)
	}
	// answered adds a call's error to the worker's; true when there is none.
	answered := func(err error) bool {
		w.fail(c.inRound(ctx, err))
		return err == nil
	}
	start := time.Now()
	root, err := c.Root(ctx, t.URL)
	if !answered(err) {
		return
	}
	ms := float64(time.Since(start).Microseconds()) / 1000
	w.LatencyMs = &ms
	w.Version, w.Commit, w.KafkaClusterID = &root.Version, &root.Commit, &root.KafkaClusterID
	if calls.Health {
		if h, err := c.Health(ctx, t.URL); answered(err) {
			w.Health = h
		}
	}
	if calls.Plugins {
		if ps, err := c.Plugins(ctx, t.URL); answered(err) {
			w.Plugins = ps
		}
	}
}

// inRound rewords an error caused by the round's end rather than the
// request's own bound.
func (c *Client) inRound(ctx context.Context, err error) error {
	var te *TimeoutError
	if ctx.Err() == context.DeadlineExceeded && errors.As(err, &te) && te.Bound == c.opts.PerRequest {
		return &TimeoutError{URL: te.URL, Bound: c.opts.Total, Cause: "the round's bound"}
	}
	return err
}

// Root asks GET /.
func (c *Client) Root(ctx context.Context, base string) (*Root, error) {
	var r Root
	if err := c.get(ctx, base, "/", &r); err != nil {
		return nil, err
	}
	if strings.TrimSpace(r.Version) == "" {
		u, _ := Endpoint(base, "/")
		return nil, fmt.Errorf("GET %s: the answer names no version (is this a Connect worker?)", u)
	}
	// What a worker says of itself is output like any other: redacted
	// unless --show-secrets (a hostile build can put a token in its version).
	r.Version, r.Commit, r.KafkaClusterID = c.scrub(r.Version), c.scrub(r.Commit), c.scrub(r.KafkaClusterID)
	return &r, nil
}

// healthSentences are the fixed first sentences of KIP-1017's messages;
// what follows is the stage.
var healthSentences = []string{
	"Worker has completed startup and is ready to handle requests.",
	"Worker is still starting up.",
	"Worker was unable to handle this request and may be unable to handle other requests.",
}

// Health asks GET /health. Starting (503) and unhealthy (500) answers are
// results, not errors; a worker before 3.9 (404) gives status
// "unsupported".
func (c *Client) Health(ctx context.Context, base string) (*Health, error) {
	var h Health
	err := c.get(ctx, base, "/health", &h)
	var se *StatusError
	switch {
	case err == nil:
		h.HTTPStatus = http.StatusOK
	case errors.As(err, &se) && se.Status == http.StatusNotFound:
		return &Health{Status: "unsupported", HTTPStatus: se.Status, Message: "no /health endpoint (it came with Kafka 3.9, KIP-1017)"}, nil
	case errors.As(err, &se) && (se.Status == http.StatusServiceUnavailable || se.Status == http.StatusInternalServerError) && h.Status != "":
		h.HTTPStatus = se.Status
	default:
		return nil, err
	}
	h.Message = c.scrub(snippet([]byte(h.Message)))
	h.Status = c.scrub(snippet([]byte(h.Status)))
	h.Stage = h.Message
	for _, s := range healthSentences {
		if rest, ok := strings.CutPrefix(h.Message, s); ok {
			h.Stage = strings.TrimSpace(rest)
			break
		}
	}
	return &h, nil
}

// Plugins asks GET /connector-plugins?connectorsOnly=false: connectors,
// converters, transformations and predicates (3.2+), sorted by class and version.
func (c *Client) Plugins(ctx context.Context, base string) ([]Plugin, error) {
	var ps []Plugin
	if err := c.get(ctx, base, "/connector-plugins?connectorsOnly=false", &ps); err != nil {
		return nil, err
	}
	if ps == nil {
		ps = []Plugin{}
	}
	for i := range ps {
		p := &ps[i]
		p.Class, p.Type, p.Version = c.scrub(p.Class), c.scrub(p.Type), c.scrub(p.Version)
	}
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Class != ps[j].Class {
			return ps[i].Class < ps[j].Class
		}
		return ps[i].Version < ps[j].Version
	})
	return ps, nil
}
