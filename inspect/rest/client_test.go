package rest

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect/redact"
	"github.com/connectscope/connectscope/internal/kafkatest"
)

// worker is an HTTP server answering as a Connect worker of one release.
func worker(t *testing.T, version string, health int, plugins []Plugin) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(connectHandler(version, health, plugins))
	t.Cleanup(srv.Close)
	return srv
}

func connectHandler(version string, health int, plugins []Plugin) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			json.NewEncoder(w).Encode(Root{Version: version, Commit: "c0ffee", KafkaClusterID: "kc-1"})
		case "/health":
			switch health {
			case http.StatusOK:
				w.Write([]byte(`{"status":"healthy","message":"Worker has completed startup and is ready to handle requests."}`))
			case http.StatusServiceUnavailable:
				w.WriteHeader(health)
				w.Write([]byte(`{"status":"starting","message":"Worker is still starting up. The worker is currently reading to the end of the config topic, which began at 2026-12-02T06:00:00Z."}`))
			default:
				http.NotFound(w, r)
			}
		case "/connector-plugins":
			if r.URL.Query().Get("connectorsOnly") != "false" {
				http.Error(w, "want connectorsOnly=false", http.StatusBadRequest)
				return
			}
			json.NewEncoder(w).Encode(plugins)
		default:
			http.NotFound(w, r)
		}
	})
}

func TestWorkersOneRowPerWorkerWithItsOwnError(t *testing.T) {
	plugins := []Plugin{{Class: "org.apache.kafka.connect.file.FileStreamSinkConnector", Type: "sink", Version: "4.1.0"},
		{Class: "org.apache.kafka.connect.transforms.ReplaceField$Value", Type: "transformation", Version: "4.1.0"}}
	healthy := worker(t, "4.1.0", http.StatusOK, plugins)
	starting := worker(t, "4.1.0", http.StatusServiceUnavailable, plugins[:1])
	old := worker(t, "3.8.1", http.StatusNotFound, nil)
	// Refused for the whole test: a closed httptest port can be handed at
	// once to the hanging server below, which then answers "no answer".
	goneURL := "http://" + kafkatest.RefusedAddr(t)
	slow := kafkatest.HangingHTTP(t)

	c := New(Options{PerRequest: 300 * time.Millisecond, Total: 5 * time.Second})
	defer c.Close()
	targets := []Target{{Worker: "h:1", URL: healthy.URL + "/"}, {Worker: "s:2", URL: starting.URL}, {Worker: "o:3", URL: old.URL}, {Worker: "g:4", URL: goneURL}, {Worker: "w:5", URL: slow.URL}, {Worker: "x:6", URL: "ftp://nope"}}
	got := c.Workers(context.Background(), targets, Calls{Health: true, Plugins: true})
	if len(got) != len(targets) {
		t.Fatalf("%d rows for %d workers", len(got), len(targets))
	}
	for i, w := range got {
		if w.Worker != targets[i].Worker {
			t.Errorf("row %d is %s, want %s (target order)", i, w.Worker, targets[i].Worker)
		}
	}
	h := got[0]
	if h.Error != nil || *h.Version != "4.1.0" || *h.Commit != "c0ffee" || h.Health.Status != "healthy" || h.Health.Stage != "" || len(h.Plugins) != 2 || h.LatencyMs == nil {
		t.Errorf("healthy worker: %+v health %+v", h, h.Health)
	}
	s := got[1]
	if s.Error != nil || s.Health.Status != "starting" || s.Health.HTTPStatus != 503 || !strings.HasPrefix(s.Health.Stage, "The worker is currently reading to the end of the config topic") {
		t.Errorf("starting worker: %+v %+v", s, s.Health)
	}
	o := got[2]
	if o.Error != nil || o.Health.Status != "unsupported" || len(o.Plugins) != 0 || o.Plugins == nil {
		t.Errorf("3.8 worker without /health: %+v %+v", o, o.Health)
	}
	g := got[3]
	if g.Error == nil || g.Reached() || !strings.Contains(*g.Error, "connection refused") || g.Health != nil || g.Plugins != nil {
		t.Errorf("stopped worker: %+v", g)
	}
	w := got[4]
	var te *TimeoutError
	if w.Error == nil || !errors.As(w.Err, &te) || te.Bound != 300*time.Millisecond || !strings.Contains(*w.Error, "no answer within 300ms") {
		t.Errorf("slow worker: %+v", w)
	}
	if x := got[5]; x.Error == nil || !strings.Contains(*x.Error, "not an http:// or https:// URL") {
		t.Errorf("bad URL: %+v", x)
	}
}

func TestWorkersTotalBoundAndCancel(t *testing.T) {
	slow := kafkatest.HangingHTTP(t)
	// One at a time, each request may take 10 s, the round 200 ms: the
	// round's bound ends both the request under way and the one waiting.
	c := New(Options{PerRequest: 10 * time.Second, Total: 200 * time.Millisecond, Parallel: 1})
	got := c.Workers(context.Background(), []Target{{Worker: "a:1", URL: slow.URL}, {Worker: "b:2", URL: slow.URL}}, Calls{})
	for _, w := range got {
		var te *TimeoutError
		if !errors.As(w.Err, &te) || te.Bound != 200*time.Millisecond {
			t.Errorf("%s: %v, want the round's 200ms bound", w.Worker, w.Err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c = New(Options{})
	for _, w := range c.Workers(ctx, []Target{{Worker: "a:1", URL: slow.URL}}, Calls{}) {
		if !errors.Is(w.Err, context.Canceled) {
			t.Errorf("cancelled: %v", w.Err)
		}
	}
}

func TestCredentialsNeverShown(t *testing.T) {
	const pw = "s3cr3t-pw"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || u != "admin" || p != pw {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error_code":401,"message":"bad password ` + p + `"}`))
			return
		}
		connectHandler("4.0.0", http.StatusOK, nil).ServeHTTP(w, r)
	}))
	defer srv.Close()
	withUser := strings.Replace(srv.URL, "http://", "http://admin:"+pw+"@", 1)
	good := New(Options{Username: "admin", Password: pw}).Workers(context.Background(), []Target{{Worker: "a:1", URL: withUser}}, Calls{Health: true})[0]
	if good.Error != nil || good.Health.Status != "healthy" || strings.Contains(good.URL, pw) {
		t.Errorf("basic auth: %+v", good)
	}
	bad := New(Options{Username: "admin", Password: pw + "x"}).Workers(context.Background(), []Target{{Worker: "a:1", URL: withUser}}, Calls{})[0]
	if bad.Error == nil || !strings.Contains(*bad.Error, "HTTP 401") || strings.Contains(*bad.Error, pw) || strings.Contains(bad.URL, pw) {
		t.Errorf("401 must be an error without the password: %+v", bad)
	}
	// A password only in the advertised URL, echoed by the worker, is hidden too.
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte("no access for admin with url-only-pw"))
	}))
	defer echo.Close()
	urlOnly := strings.Replace(echo.URL, "http://", "http://admin:url-only-pw@", 1)
	got := New(Options{}).Workers(context.Background(), []Target{{Worker: "b:1", URL: urlOnly}}, Calls{})[0]
	if got.Error == nil || strings.Contains(*got.Error, "url-only-pw") || !strings.Contains(*got.Error, "HTTP 401") {
		t.Errorf("URL password echoed: %v", *got.Error)
	}
	if got := redact.URL("https://u:p@w1:8443/x"); got != "https://w1:8443/x" {
		t.Errorf("Redact: %s", got)
	}
	if got := redact.URL("http://u:p@w1:80%zz"); strings.Contains(got, "u:p") {
		t.Errorf("Redact unparsable: %s", got)
	}
}

func TestBodiesBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"version":"4.0.0","commit":"` + strings.Repeat("a", 5000) + `"}`))
	}))
	defer srv.Close()
	got := New(Options{MaxBody: 1024}).Workers(context.Background(), []Target{{Worker: "a:1", URL: srv.URL}}, Calls{})[0]
	if got.Error == nil || !strings.Contains(*got.Error, "larger than 1024 bytes") {
		t.Errorf("big body: %+v", got)
	}
	junk := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>\x1b[31mnot connect</html>"))
	}))
	defer junk.Close()
	got = New(Options{}).Workers(context.Background(), []Target{{Worker: "a:1", URL: junk.URL}}, Calls{})[0]
	if got.Error == nil || !strings.Contains(*got.Error, "not the JSON expected") || strings.Contains(*got.Error, "\x1b") {
		t.Errorf("not JSON: %+v", got)
	}
}

func TestTLS(t *testing.T) {
	srv := httptest.NewTLSServer(connectHandler("4.1.0", http.StatusOK, nil))
	defer srv.Close()
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600)
	cfg, err := TLSFiles{CA: ca}.Config()
	if err != nil {
		t.Fatal(err)
	}
	if got := New(Options{TLS: cfg}).Workers(context.Background(), []Target{{Worker: "a:1", URL: srv.URL}}, Calls{})[0]; got.Error != nil {
		t.Errorf("TLS with the CA: %v", *got.Error)
	}
	// A URL guessed from HOST:PORT (no metadata) turns https when TLS is set.
	guessed := Target{Worker: "a:1", URL: strings.Replace(srv.URL, "https://", "http://", 1) + "/", Guessed: true}
	if got := New(Options{TLS: cfg}).Workers(context.Background(), []Target{guessed}, Calls{})[0]; got.Error != nil || !strings.HasPrefix(got.URL, "https://") {
		t.Errorf("guessed URL with TLS: %+v", got)
	}
	if got := New(Options{}).Workers(context.Background(), []Target{{Worker: "a:1", URL: srv.URL}}, Calls{})[0]; got.Error == nil || !strings.Contains(*got.Error, "certificate") {
		t.Errorf("TLS without the CA must fail on the certificate: %+v", got)
	}
	if _, err := (TLSFiles{CA: filepath.Join(dir, "missing.pem")}).Config(); err == nil {
		t.Error("missing CA file accepted")
	}
	os.WriteFile(filepath.Join(dir, "junk.pem"), []byte("junk"), 0o600)
	if _, err := (TLSFiles{CA: filepath.Join(dir, "junk.pem")}).Config(); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Errorf("junk CA: %v", err)
	}
	if _, err := (TLSFiles{Cert: ca}).Config(); err == nil {
		t.Error("certificate without key accepted")
	}
}

// An error answer may quote a connector's config: the client's Redact
// removes what it holds before the text reaches the row or an error, and a
// URL keeps neither its user information nor a query that may carry a token.
func TestErrorAnswersRedacted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"error_code":500,"message":"bad config connection.password=hunter2"}`))
	}))
	defer srv.Close()
	hide := func(s string) string { return strings.ReplaceAll(s, "hunter2", "[redacted]") }
	got := New(Options{Redact: hide}).Workers(context.Background(), []Target{{Worker: "a:1", URL: srv.URL + "/?access_token=tok123"}}, Calls{})[0]
	if got.Error == nil || strings.Contains(*got.Error, "hunter2") || !strings.Contains(*got.Error, "HTTP 500") {
		t.Errorf("error answer not redacted: %+v", got.Error)
	}
	if strings.Contains(got.URL, "tok123") || (got.Error != nil && strings.Contains(*got.Error, "tok123")) {
		t.Errorf("query token shown: %s / %v", got.URL, *got.Error)
	}
	shown := New(Options{}).Workers(context.Background(), []Target{{Worker: "a:1", URL: srv.URL}}, Calls{})[0]
	if shown.Error == nil || !strings.Contains(*shown.Error, "hunter2") {
		t.Errorf("without Redact (--show-secrets) the answer is kept: %+v", shown.Error)
	}
	for in, want := range map[string]string{
		"http://w1:8083/?token=t#f":   "http://w1:8083/",
		"http://u:p@w1:80%zz?token=t": "http://w1:80%zz",
	} {
		if got := redact.URL(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
