package kafkatest

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// ConnectREST serves the read-only part of a Connect worker's REST API as
// a healthy worker of version answers it (GET /, /health, and
// /connector-plugins with pluginsJSON as the list) and returns its URL with
// a trailing slash, as workers advertise it. It stops when the test ends.
// The real-Kafka suite checks the same calls against real workers.
func ConnectREST(t testing.TB, version, pluginsJSON string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Write([]byte(`{"version":"` + version + `","commit":"abc","kafka_cluster_id":"k"}`))
		case "/health":
			w.Write([]byte(`{"status":"healthy","message":"Worker has completed startup and is ready to handle requests."}`))
		case "/connector-plugins":
			w.Write([]byte(pluginsJSON))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// HangingHTTP is an HTTP server that accepts every request and never
// answers (a worker frozen in a long pause) until the request is given up
// or the test ends.
func HangingHTTP(t testing.TB) *httptest.Server {
	t.Helper()
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(block); srv.Close() })
	return srv
}
