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

func TestFetchWorkerVersions(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"version":"3.9.0-ccs","commit":"abc","kafka_cluster_id":"xyz"}`))
	}))
	defer srv.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	ctx := context.Background()

	// Worker files are matched to members by advertised host:port.
	hostPort := func(s string) (string, string) {
		u, _ := url.Parse(s)
		h, p, _ := strings.Cut(u.Host, ":")
		return h, p
	}
	host, port := hostPort(srv.URL)
	ghost, gport := hostPort(gone.URL)
	w1 := worker(t, "w1.properties", "rest.advertised.host.name="+host+"\nrest.advertised.port="+port+"\n")
	w2 := worker(t, "w2.properties", "rest.advertised.host.name="+ghost+"\nrest.advertised.port="+gport+"\n")
	w3 := worker(t, "w3.properties", "rest.advertised.host.name=10.255.0.1\nrest.advertised.port=1\n")
	var members []inspect.GroupMember
	for i, u := range []string{srv.URL + "/", gone.URL + "/"} {
		meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 1, URL: u})
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, inspect.GroupMember{MemberID: fmt.Sprintf("m%d", i), Metadata: meta})
	}
	d := Decode(&inspect.Dataset{Group: &inspect.GroupDescription{Group: "connect-cluster", State: inspect.GroupStable, ProtocolType: "connect",
		Protocol: "sessioned", Members: members}})
	got, notes := FetchWorkerVersions(ctx, nil, []*workerconfig.Config{w1, w2, w3}, d, time.Second)
	if got[w1.Path] != "3.9.0-ccs" || len(got) != 1 {
		t.Errorf("versions %v", got)
	}
	// The member that does not answer is a note with its reason, never dropped.
	if len(notes) != 1 || !strings.Contains(notes[0], "w2.properties") || !strings.Contains(notes[0], "connection refused") {
		t.Errorf("notes %q", notes)
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
