package cluster

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/format"
)

// Name is the name of member that the plans' flags accept (--worker,
// --order) and that inspect status and --zones use: the worker's HOST:PORT
// where the group says it. A restarted incarnation (ID.2) is the same
// machine and has its worker's name; a joiner given as --add HOST:PORT is
// HOST:PORT; anything else is its member id.
func (s State) Name(member string) string {
	if i := strings.LastIndexByte(member, '.'); i > 0 {
		if _, err := strconv.Atoi(member[i+1:]); err == nil {
			for _, w := range s.Workers {
				if w.ID == member[:i] {
					return s.preferredAlias(w)
				}
			}
		}
	}
	return s.Label(member)
}

// Names are the flag names of members, in order.
func (s State) Names(members []string) []string {
	out := make([]string, len(members))
	for i, m := range members {
		out[i] = s.Name(m)
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
func (s State) Label(member string) string {
	if hp, ok := JoinerLabel(member); ok {
		return hp
	}
	for _, w := range s.Workers {
		if w.ID == member {
			return s.preferredAlias(w)
		}
	}
	if i := strings.LastIndexByte(member, '.'); i > 0 {
		if _, err := strconv.Atoi(member[i+1:]); err == nil {
			for _, w := range s.Workers {
				if w.ID == member[:i] {
					return s.preferredAlias(w) + member[i:]
				}
			}
		}
	}
	return member
}

func (s State) preferredAlias(w WorkerState) string {
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
		if w2, err := s.ResolveWorker(c); err == nil && w2 == w.ID {
			return c
		}
	}
	return w.ID
}

// ResolveWorker finds a member by member id or, when unique, by one of its
// other names (client id, REST URL, host:port).
func (s State) ResolveWorker(name string) (string, error) {
	for _, w := range s.Workers {
		if w.ID == name {
			return w.ID, nil
		}
	}
	var hits []string
	for _, w := range s.Workers {
		for _, a := range w.Aliases {
			if strings.EqualFold(a, name) { // host names are case-insensitive
				hits = append(hits, w.ID)
				break
			}
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		// The names the plans print (host:port where known), sorted, so the
		// list reads like the tables and does not depend on the group's order.
		names := []string{}
		for _, w := range s.Workers {
			names = append(names, s.preferredAlias(w))
		}
		sort.Strings(names)
		return "", &NotFoundError{Msg: fmt.Sprintf("no worker %q (members: %s)", name, format.List(names))}
	}
	return "", fmt.Errorf("%q names several workers (%s); give the member id", name, format.List(hits))
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
