package check

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

func TestFetchWorkerVersion(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Write([]byte(`{"version":"3.9.0-ccs","commit":"abc","kafka_cluster_id":"xyz"}`))
		case "/bad/":
			w.Write([]byte(`{"version":"three"}`))
		case "/slow/":
			time.Sleep(300 * time.Millisecond)
			w.Write([]byte(`{"version":"3.9.0"}`))
		default:
			http.Error(w, "no", http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	if v, err := FetchWorkerVersion(ctx, srv.Client(), srv.URL+"/"); err != nil || v != "3.9.0-ccs" {
		t.Errorf("root: %q %v", v, err)
	}
	if _, err := FetchWorkerVersion(ctx, srv.Client(), srv.URL+"/bad"); err == nil || !strings.Contains(err.Error(), "not understood") {
		t.Errorf("bad version: %v", err)
	}
	if _, err := FetchWorkerVersion(ctx, srv.Client(), srv.URL+"/missing"); err == nil || !strings.Contains(err.Error(), "HTTP 500") {
		t.Errorf("500: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := FetchWorkerVersion(short, srv.Client(), srv.URL+"/slow"); err == nil {
		t.Errorf("timeout not honoured")
	}

	// Worker files are matched to members by advertised host:port.
	u, _ := url.Parse(srv.URL)
	host, port, _ := strings.Cut(u.Host, ":")
	w1 := worker(t, "w1.properties", "rest.advertised.host.name="+host+"\nrest.advertised.port="+port+"\n")
	w2 := worker(t, "w2.properties", "rest.advertised.host.name=10.255.0.1\nrest.advertised.port=1\n")
	memberURL := srv.URL + "/"
	meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 1, URL: memberURL})
	if err != nil {
		t.Fatal(err)
	}
	d := Decode(&inspect.Dataset{Group: &inspect.GroupDescription{Group: "connect-cluster", State: inspect.GroupStable, ProtocolType: "connect",
		Protocol: "sessioned", Members: []inspect.GroupMember{{MemberID: "m1", Metadata: meta}}}})
	got, notes := FetchWorkerVersions(ctx, srv.Client(), []*workerconfig.Config{w1, w2}, d, time.Second)
	if got[w1.Path] != "3.9.0-ccs" || len(got) != 1 || len(notes) != 0 {
		t.Errorf("versions %v notes %v", got, notes)
	}
	// The fetched version reaches the version-dependent rules.
	rep, err := Timeouts(TimeoutsInput{Workers: []*workerconfig.Config{w1}, WorkerVersions: got})
	if err != nil || rep.Workers[0].KafkaVersion == nil || *rep.Workers[0].KafkaVersion != "3.9.0" {
		t.Errorf("version not used: %+v %v", rep.Workers, err)
	}
}

func TestBackoffSeries(t *testing.T) {
	cases := map[int64]string{300000: "[40 1600 64000 300000]", 1600: "[40 1600]", 30: "[30]", 64001: "[40 1600 64000 64001]"}
	for max, want := range cases {
		if got := fmt.Sprint(BackoffSeries(max)); got != want {
			t.Errorf("%d: %s, want %s", max, got, want)
		}
	}
}
