// Command gensnapshot writes a snapshot of a big Connect group shaped as a
// real one is: every member with a member id, client id, REST URL and
// client host of its own (what the plans name workers by), the connectors
// and records of a template snapshot dealt round-robin. The plans'
// --synthetic workers have no such names, so only this shows what naming
// thousands of members costs. See BENCHMARKS.md.
//
//	go run ./inspect/internal/gensnapshot -workers 5000 > big.snapshot.json
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/protocol"
	"github.com/connectscope/connectscope/inspect/source"
)

func main() {
	workers := flag.Int("workers", 1000, "members of the group (1 to 100,000)")
	template := flag.String("template", "examples/cluster.snapshot.json", "snapshot whose records and pieces are used")
	flag.Parse()
	if err := run(*workers, *template); err != nil {
		fmt.Fprintln(os.Stderr, "gensnapshot:", err)
		os.Exit(1)
	}
}

func run(n int, template string) error {
	if n < 1 || n > 100_000 {
		return fmt.Errorf("-workers %d: want 1 to 100,000", n)
	}
	f, err := os.Open(template)
	if err != nil {
		return err
	}
	defer f.Close()
	ds, err := source.ReadSnapshot(f)
	if err != nil {
		return fmt.Errorf("%s: %w", template, err)
	}
	if ds.Group == nil || len(ds.Group.Members) == 0 {
		return fmt.Errorf("%s: no group members to take the pieces from", template)
	}
	var entries []protocol.ConnectorEntry
	for _, m := range ds.Group.Members {
		if a, err := protocol.DecodeAssignment(m.Assignment); err == nil {
			entries = append(entries, a.Assigned...)
		}
	}
	first, err := protocol.DecodeMetadata(ds.Group.Members[0].Metadata)
	if err != nil {
		return fmt.Errorf("%s: member metadata: %w", template, err)
	}
	members := make([]inspect.GroupMember, 0, n)
	leader, leaderURL := "", ""
	for i := range n {
		host := fmt.Sprintf("10.%d.%d.%d", i/62500, i/250%250, i%250)
		hp := host + ":8083"
		id := fmt.Sprintf("connect-%s-%08x-8c4d-4e1f-9a7b-0c2d4e6f8a1b", hp, i)
		if i == 0 {
			leader, leaderURL = id, "http://"+hp+"/"
		}
		a := &protocol.Assignment{Version: 2, Leader: leader, LeaderURL: leaderURL, ConfigOffset: first.ConfigOffset,
			Assigned: []protocol.ConnectorEntry{}, Revoked: []protocol.ConnectorEntry{}}
		for j := i; j < len(entries); j += n {
			a.Assigned = append(a.Assigned, entries[j])
		}
		assignment, err := protocol.EncodeAssignment(a)
		if err != nil {
			return err
		}
		metadata, err := protocol.EncodeMetadata(&protocol.MemberMetadata{Version: 2, URL: "http://" + hp + "/", ConfigOffset: first.ConfigOffset, Allocation: a})
		if err != nil {
			return err
		}
		members = append(members, inspect.GroupMember{MemberID: id, ClientID: "connect-" + hp, ClientHost: "/" + host, Metadata: metadata, Assignment: assignment})
	}
	ds.Group.Members = members
	return source.WriteSnapshot(os.Stdout, ds)
}
