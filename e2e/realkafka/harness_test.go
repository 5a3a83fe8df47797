//go:build e2e

package realkafka

import (
	"archive/zip"
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// TestResolve resolves every pinned version (warm-cache.sh runs it) and
// checks the jars hold what the harness starts.
func TestResolve(t *testing.T) {
	Require(t)
	for _, v := range Versions() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		jars, err := Resolve(ctx, v)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		for _, class := range []string{
			"kafka/Kafka.class",
			"kafka/tools/StorageTool.class",
			"org/apache/kafka/connect/cli/ConnectDistributed.class",
			"org/apache/kafka/connect/json/JsonConverter.class",
		} {
			if !jarsHold(t, jars.Libs, class) {
				t.Errorf("kafka %s: no jar in %s holds %s", v, jars.Dir, class)
			}
		}
		plugin, _ := filepath.Glob(filepath.Join(jars.PluginPath, "connect-file", "*.jar"))
		if !jarsHold(t, plugin, "org/apache/kafka/connect/file/FileStreamSourceConnector.class") {
			t.Errorf("kafka %s: plugin path %s has no FileStreamSourceConnector", v, jars.PluginPath)
		}
		if jarsHold(t, jars.Libs, "org/apache/kafka/connect/file/FileStreamSourceConnector.class") {
			t.Errorf("kafka %s: connect-file is on the classpath; it must be a plugin only", v)
		}
	}
}

func jarsHold(t *testing.T, jars []string, entry string) bool {
	t.Helper()
	for _, j := range jars {
		z, err := zip.OpenReader(j)
		if err != nil {
			t.Fatalf("opening %s: %v", j, err)
		}
		for _, f := range z.File {
			if f.Name == entry {
				z.Close()
				return true
			}
		}
		z.Close()
	}
	return false
}

// TestWorkerLifecycle starts a broker and a worker, then kills, restarts and
// stops the worker, checking the group and the REST API at each step.
func TestWorkerLifecycle(t *testing.T) {
	b := StartBroker(t, BrokerOptions{})
	w := b.StartWorker(t, WorkerOptions{Group: "lifecycle", Props: map[string]string{"session.timeout.ms": "3000", "heartbeat.interval.ms": "1000"}})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	var root struct {
		Version        string `json:"version"`
		KafkaClusterID string `json:"kafka_cluster_id"`
	}
	if err := w.REST(ctx, http.MethodGet, "/", nil, &root); err != nil {
		t.Fatal(err)
	}
	if root.Version != b.Version() || root.KafkaClusterID == "" {
		t.Fatalf("GET / = %+v, want version %s and a cluster id", root, b.Version())
	}
	// connect-file is loaded as a plugin and reports a version: the
	// worker's Kafka version, which its version() reads from kafka-clients
	// (on 4.4.0 through the bridge; see bridge/).
	var plugins []struct {
		Class   string `json:"class"`
		Version string `json:"version"`
	}
	if err := w.REST(ctx, http.MethodGet, "/connector-plugins", nil, &plugins); err != nil {
		t.Fatal(err)
	}
	fileVersion := ""
	for _, p := range plugins {
		if p.Class == "org.apache.kafka.connect.file.FileStreamSourceConnector" {
			fileVersion = p.Version
		}
	}
	if want := b.Version(); fileVersion != want {
		t.Errorf("FileStreamSourceConnector version %q in %+v, want %s", fileVersion, plugins, want)
	}

	members, state, err := b.GroupMembers(ctx, "lifecycle")
	if err != nil {
		t.Fatal(err)
	}
	if state != "Stable" || len(members) != 1 || members[0].URL != w.URL() {
		t.Fatalf("group lifecycle: %s %+v, want Stable with one member at %s", state, members, w.URL())
	}

	if err := w.Kill(); err != nil {
		t.Fatal(err)
	}
	if w.Running() {
		t.Fatal("worker still running after Kill")
	}
	if err := w.REST(ctx, http.MethodGet, "/", nil, nil); err == nil {
		t.Fatal("REST answered after Kill")
	}
	if err := w.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	members, _, err = b.GroupMembers(ctx, "lifecycle")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range members {
		found = found || m.URL == w.URL()
	}
	if !found {
		t.Fatalf("restarted worker %s is not in the group: %+v", w.URL(), members)
	}

	if err := w.Stop(); err != nil {
		t.Fatal(err)
	}
	// A clean stop leaves the group at once (LeaveGroup), well within the
	// session timeout's wait for a killed member.
	deadline := time.Now().Add(2 * time.Second)
	for {
		members, _, err = b.GroupMembers(ctx, "lifecycle")
		if err == nil && len(members) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("group still lists %+v (err %v) 2s after a clean stop", members, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
