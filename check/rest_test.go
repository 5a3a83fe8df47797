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
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/rest"
	"github.com/connectscope/connectscope/inspect/workerconfig"
	"github.com/connectscope/connectscope/internal/kafkatest"
)

func TestFetchWorkerVersions(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"version":"3.9.0-ccs","commit":"abc","kafka_cluster_id":"xyz"}`))
	}))
	defer srv.Close()
	goneURL := "http://" + kafkatest.RefusedAddr(t)
	ctx := context.Background()

	// Worker files are matched to members by advertised host:port.
	hostPort := func(s string) (string, string) {
		u, _ := url.Parse(s)
		h, p, _ := strings.Cut(u.Host, ":")
		return h, p
	}
	host, port := hostPort(srv.URL)
	ghost, gport := hostPort(goneURL)
	w1 := worker(t, "w1.properties", "rest.advertised.host.name="+host+"\nrest.advertised.port="+port+"\n")
	w2 := worker(t, "w2.properties", "rest.advertised.host.name="+ghost+"\nrest.advertised.port="+gport+"\n")
	w3 := worker(t, "w3.properties", "rest.advertised.host.name=10.255.0.1\nrest.advertised.port=1\n")
	hang := kafkatest.HangingHTTP(t)
	var members []inspect.GroupMember
	for i, u := range []string{srv.URL + "/", goneURL + "/", hang.URL + "/"} {
		meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 1, URL: u})
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, inspect.GroupMember{MemberID: fmt.Sprintf("m%d", i), Metadata: meta})
	}
	d := Decode(&inspect.Dataset{Group: &inspect.GroupDescription{Group: "connect-cluster", State: inspect.GroupStable, ProtocolType: "connect",
		Protocol: "sessioned", Members: members}})
	client := rest.New(rest.Options{PerRequest: 200 * time.Millisecond, Total: 600 * time.Millisecond})
	defer client.Close()
	got, found := FetchWorkerVersions(ctx, client, []*workerconfig.Config{w1, w2, w3}, d)
	if got[w1.Path] != kafkaversion.New(3, 9, 0) || len(got) != 1 {
		t.Errorf("versions %v", got)
	}
	// Every member that does not answer is a U13 finding naming it by
	// HOST:PORT with its reason (its file too when one matched), never
	// dropped: the refusing one matched to w2, the hanging one with no file.
	byWorker := map[string]Finding{}
	for _, f := range found {
		byWorker[f.Subject] = f
	}
	gw, hw := ghost+":"+gport, strings.TrimPrefix(hang.URL, "http://")
	if len(found) != 2 || byWorker[gw].Rule != "U13" || byWorker[gw].Values["file"] != "w2.properties" ||
		!strings.Contains(byWorker[gw].Message, "connection refused") || byWorker[hw].Rule != "U13" || !strings.Contains(byWorker[hw].Message, hw) {
		t.Errorf("findings %+v", found)
	}
	// The checks that use the versions report them.
	o := Options{WorkerVersions: got, WorkerFindings: found}
	trep, err := Timeouts(TimeoutsFor([]*workerconfig.Config{w1}, nil, o))
	if err != nil || trep.Summary.Warn < 2 || !hasRule(trep.Findings, "U13") {
		t.Errorf("timeouts dropped U13: %+v %v", trep.Findings, err)
	}
	urep, err := Upgrade(UpgradeFor([]*workerconfig.Config{w1}, d, o))
	if err != nil || !hasRule(urep.Findings, "U13") {
		t.Errorf("upgrade dropped U13: %+v %v", urep.Findings, err)
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
