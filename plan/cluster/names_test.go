package cluster

import (
	"testing"

	"github.com/connectscope/connectscope/inspect/group"
)

// Every name a user sees for a worker picks it: the member id, the client
// id, the REST URL with or without its slash, host:port, the host alone (the
// sandbox's worker-2) and the client id's host:port.
func TestResolveWorkerByEveryName(t *testing.T) {
	url := func(s string) *string { return &s }
	views := []group.MemberView{
		{MemberID: "connect-worker-1:8083-aaaa", ClientID: "connect-worker-1:8083", ClientHost: "/127.0.0.1", URL: url("http://worker-1:8083/")},
		{MemberID: "connect-worker-2:8083-bbbb", ClientID: "connect-worker-2:8083", ClientHost: "/127.0.0.1", URL: url("http://worker-2:8083/")},
	}
	var st State
	for _, v := range views {
		st.Workers = append(st.Workers, WorkerState{ID: v.MemberID, Aliases: memberAliases(v)})
	}
	for _, name := range []string{"connect-worker-2:8083-bbbb", "connect-worker-2:8083", "http://worker-2:8083/", "http://worker-2:8083", "worker-2:8083", "worker-2", "WORKER-2"} {
		got, err := st.ResolveWorker(name)
		if err != nil || got != "connect-worker-2:8083-bbbb" {
			t.Errorf("ResolveWorker(%q) = %q, %v", name, got, err)
		}
	}
	// The client host is shared here: naming it is ambiguous, and says so.
	if _, err := st.ResolveWorker("127.0.0.1"); err == nil {
		t.Error("a host shared by both workers resolved to one")
	}
}

// A name no worker has is refused with the names the plans print, sorted,
// not the long member ids in the group's order.
func TestResolveWorkerUnknownListsPrintedNames(t *testing.T) {
	url := func(s string) *string { return &s }
	views := []group.MemberView{
		{MemberID: "connect-worker-2:8083-bbbb", ClientID: "connect-worker-2:8083", ClientHost: "/10.0.0.2", URL: url("http://worker-2:8083/")},
		{MemberID: "connect-worker-1:8083-aaaa", ClientID: "connect-worker-1:8083", ClientHost: "/10.0.0.1", URL: url("http://worker-1:8083/")},
	}
	var st State
	for _, v := range views {
		st.Workers = append(st.Workers, WorkerState{ID: v.MemberID, Aliases: memberAliases(v)})
	}
	_, err := st.ResolveWorker("nosuch")
	want := `no worker "nosuch" (members: worker-1:8083, worker-2:8083)`
	if err == nil || err.Error() != want {
		t.Errorf("ResolveWorker(nosuch) = %v, want %s", err, want)
	}
}
