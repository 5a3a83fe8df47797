package cluster

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/connectscope/connectscope/format"
)

// Name is the name of member that the plans' flags accept (--worker,
// --order) and that inspect status and --zones use: the worker's HOST:PORT
// where the group says it. A restarted incarnation (ID.2) is the same
// machine and has its worker's name; a joiner given as --add HOST:PORT is
// HOST:PORT; anything else is its member id.
func (s State) Name(member string) string { return (&Namer{s: s}).Name(member) }

// Names are the flag names of members, in order.
func (s State) Names(members []string) []string {
	n := s.Namer()
	out := make([]string, len(members))
	for i, m := range members {
		out[i] = n.Name(m)
	}
	return out
}

func (s State) LeaderID() string {
	if s.Leader != "" {
		return s.Leader
	}
	if len(s.Workers) > 0 {
		return s.Workers[0].ID
	}
	return ""
}

// Label is the short name tables and messages use for a member: the
// host:port of its REST URL, else its client id, when that names only it;
// a restarted incarnation (ID.N) is labelled LABEL.N.
func (s State) Label(member string) string { return (&Namer{s: s}).Label(member) }

// ResolveWorker finds a member by member id or, when unique, by one of its
// other names (client id, REST URL, host:port).
func (s State) ResolveWorker(name string) (string, error) {
	return (&Namer{s: s}).ResolveWorker(name)
}

// Namer names and finds many members of one state: State's methods scan
// the workers (and every alias) for each member, which made naming the
// members of a big group quadratic (5,000 workers with their client ids,
// URLs and host:ports: 0.9 s). State.Namer indexes them once; the state's
// workers must not change while it is used.
type Namer struct {
	s State
	// byID is each member id's first worker; byAlias each alias's workers
	// in the state's order, once each, keyed by foldKey as EqualFold
	// compares them. Both nil: scan (State's methods).
	byID    map[string]int
	byAlias map[string][]int
}

// Namer indexes s's workers for many Name, Label and ResolveWorker calls.
func (s State) Namer() *Namer {
	n := &Namer{s: s, byID: make(map[string]int, len(s.Workers)), byAlias: map[string][]int{}}
	for i, w := range s.Workers {
		if _, ok := n.byID[w.ID]; !ok {
			n.byID[w.ID] = i
		}
		for _, a := range w.Aliases {
			k := foldKey(a)
			if l := n.byAlias[k]; len(l) == 0 || l[len(l)-1] != i {
				n.byAlias[k] = append(l, i)
			}
		}
	}
	return n
}

// Name is State.Name.
func (n *Namer) Name(member string) string {
	if i := strings.LastIndexByte(member, '.'); i > 0 {
		if _, err := strconv.Atoi(member[i+1:]); err == nil {
			if w, ok := n.worker(member[:i]); ok {
				return n.preferredAlias(w)
			}
		}
	}
	return n.Label(member)
}

// Label is State.Label.
func (n *Namer) Label(member string) string {
	if hp, ok := JoinerLabel(member); ok {
		return hp
	}
	if w, ok := n.worker(member); ok {
		return n.preferredAlias(w)
	}
	if i := strings.LastIndexByte(member, '.'); i > 0 {
		if _, err := strconv.Atoi(member[i+1:]); err == nil {
			if w, ok := n.worker(member[:i]); ok {
				return n.preferredAlias(w) + member[i:]
			}
		}
	}
	return member
}

// worker is the first worker whose member id is id.
func (n *Namer) worker(id string) (WorkerState, bool) {
	if n.byID != nil {
		i, ok := n.byID[id]
		if !ok {
			return WorkerState{}, false
		}
		return n.s.Workers[i], true
	}
	for _, w := range n.s.Workers {
		if w.ID == id {
			return w, true
		}
	}
	return WorkerState{}, false
}

func (n *Namer) preferredAlias(w WorkerState) string {
	var hostPort, other string
	for _, a := range w.Aliases {
		if strings.Contains(a, "://") {
			continue
		}
		if strings.Contains(a, ":") && hostPort == "" {
			hostPort = a
		} else if other == "" && !strings.Contains(a, ".") {
			other = a
		}
	}
	for _, c := range []string{hostPort, other} {
		if c == "" {
			continue
		}
		if w2, ok := n.resolves(c); ok && w2 == w.ID {
			return c
		}
	}
	return w.ID
}

// resolves is ResolveWorker without its errors, which name every worker
// holding an alias: a group whose workers share one (a default client id,
// one advertised URL) built that list for each worker named.
func (n *Namer) resolves(name string) (string, bool) {
	if w, ok := n.worker(name); ok {
		return w.ID, true
	}
	if holders := n.aliasHolders(name); len(holders) == 1 {
		return n.s.Workers[holders[0]].ID, true
	}
	return "", false
}

// ResolveWorker is State.ResolveWorker.
func (n *Namer) ResolveWorker(name string) (string, error) {
	if id, ok := n.resolves(name); ok {
		return id, nil
	}
	holders := n.aliasHolders(name)
	if len(holders) == 0 {
		// The names the plans print (host:port where known), sorted, so the
		// list reads like the tables and does not depend on the group's order.
		names := []string{}
		for _, w := range n.s.Workers {
			names = append(names, n.preferredAlias(w))
		}
		sort.Strings(names)
		return "", &NotFoundError{Msg: fmt.Sprintf("no worker %q (members: %s)", name, format.List(names))}
	}
	// Several hold it as an alias.
	hits := make([]string, len(holders))
	for i, h := range holders {
		hits[i] = n.s.Workers[h].ID
	}
	return "", fmt.Errorf("%q names several workers (%s); give the member id", name, format.List(hits))
}

// aliasHolders are the indexes of the workers with an alias equal to name
// but for case (host names are case-insensitive), in the state's order;
// the index's own list, not to be changed.
func (n *Namer) aliasHolders(name string) []int {
	if n.byAlias != nil {
		return n.byAlias[foldKey(name)]
	}
	var holders []int
	for i, w := range n.s.Workers {
		for _, a := range w.Aliases {
			if strings.EqualFold(a, name) {
				holders = append(holders, i)
				break
			}
		}
	}
	return holders
}

// foldKey is the same text for two strings exactly when strings.EqualFold
// says they are equal: each rune replaced by the least of its simple case
// folding orbit (invalid bytes read as U+FFFD, as EqualFold reads them).
func foldKey(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}

// joinerUUID stands for the random part of a member id: Connect names a
// worker's member id by its client id (connect-<advertised host:port> by
// default since 3.x) and a random UUID.
const joinerUUID = "<uuid>"

// JoinerID is the member id a worker advertised as hostPort will get,
// up to its random UUID: eager deals in the sort order of member ids,
// which the prefix decides against every other worker's.
func JoinerID(hostPort string) string { return "connect-" + hostPort + "-" + joinerUUID }

// JoinerLabel is the host:port of a JoinerID, for tables.
func JoinerLabel(member string) (string, bool) {
	rest, ok := strings.CutPrefix(member, "connect-")
	if !ok {
		return "", false
	}
	hp, ok := strings.CutSuffix(rest, "-"+joinerUUID)
	return hp, ok && hp != ""
}
