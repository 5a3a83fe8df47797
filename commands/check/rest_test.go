package check

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/connectscope/connectscope/check"
	"github.com/connectscope/connectscope/commands/cli"
	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/workerconfig"
)

// toServer sends every request to srv, whatever host it names (the member's
// advertised URL is a name no resolver knows).
type toServer struct{ srv *url.URL }

func (s toServer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host = s.srv.Scheme, s.srv.Host
	return http.DefaultTransport.RoundTrip(r)
}

// The checks ask the workers with the shared REST client: the Env's
// transport (and so its bounds, TLS and redaction, which inspect workers
// tests).
func TestWorkerVersionsUseTheSharedClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"version":"3.9.0","commit":"abc"}`))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	meta, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 1, URL: "http://w1.invalid:8083/"})
	if err != nil {
		t.Fatal(err)
	}
	d := check.Decode(&inspect.Dataset{Group: &inspect.GroupDescription{Group: "connect-cluster", State: inspect.GroupStable, ProtocolType: "connect",
		Protocol: "sessioned", Members: []inspect.GroupMember{{MemberID: "m0", Metadata: meta}}}})
	w1, err := workerconfig.Parse("w1.properties", []byte("group.id=connect-cluster\nbootstrap.servers=b:9092\nrest.advertised.host.name=w1.invalid\nrest.advertised.port=8083\n"))
	if err != nil {
		t.Fatal(err)
	}
	e := cli.NewEnv(context.Background(), cli.Streams{}, cli.Globals{Bootstrap: []string{"b:9092"}, WorkerConfigs: []*workerconfig.Config{w1}, Timeout: 10 * time.Second})
	e.HTTP = &http.Client{Transport: toServer{u}}
	var o check.Options
	if err := workerVersions(e, d, &o); err != nil {
		t.Fatal(err)
	}
	if o.WorkerVersions[w1.Path] != kafkaversion.New(3, 9, 0) || len(o.WorkerFindings) != 0 {
		t.Fatalf("versions %v, findings %+v", o.WorkerVersions, o.WorkerFindings)
	}
}
