// Package cluster is a plan's starting point: the cluster's state (configured
// connectors, members and what they own, what the leader holds between
// rounds) read from a dataset or --synthetic, the names operators give its
// workers and its pieces.
package cluster

import "github.com/connectscope/connectscope/plan/assignor"

// State is the starting point of a what-if plan: what is configured
// and who owns what, as read from a snapshot, a dump or --synthetic.
type State struct {
	Source     string                   // where it came from, for the output
	Connectors []assignor.ConnectorSpec // configured connectors (Tasks = 0 for STOPPED)
	Workers    []WorkerState            // members in group (join) order
	Leader     string                   // member id of the leader ("" = the first worker)
	Protocol   string                   // the group's selected protocol (default|eager|compatible|sessioned), "" unknown
	Notes      []string                 // what the reader had to assume
	// Pending is what the leader holds between rounds as far as the input
	// shows it (a delay running, work held back, a revocation to follow
	// up); nil = a settled cluster.
	Pending *Pending
	// Incarnations names the member id a restarted worker rejoins as
	// (member id -> new member id), when it is known: after the fact, from
	// the group. A real id is connect-<host:port>-<random UUID>, and the
	// UUID decides HashMap tie-breaks; nil = the made-up ID.2.
	Incarnations map[string]string
	// Phase dates the members' heartbeats (phase.go); nil when the input
	// does not show it, and PhaseNotSeen then says why.
	Phase        *Phase
	PhaseNotSeen string
}

// WorkerState is one member and what it owns now.
type WorkerState struct {
	ID      string
	Aliases []string // other names an operator may use: client id, REST URL, host:port
	Owned   assignor.Pieces
}

// Pieces counts the connectors and tasks configured: each connector and its
// tasks.
func (s State) Pieces() int {
	pieces := 0
	for _, c := range s.Connectors {
		pieces += 1 + c.Tasks
	}
	return pieces
}
