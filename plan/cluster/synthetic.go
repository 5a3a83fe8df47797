package cluster

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/bounds"
)

// SyntheticSpec describes a made-up cluster for --synthetic.
type SyntheticSpec struct {
	Workers    int     // members w1..wN, w1 is the leader
	Connectors int     // connectors conn-00.. (zero-padded)
	Tasks      int     // tasks per connector
	Skew       float64 // 0 = balanced; s moves that share of every other worker's pieces to w1
}

// Limits keep a typo from allocating the machine away.
const (
	maxSyntheticWorkers = 10000
	maxSyntheticPieces  = 2000000
)

// SyntheticError names the field of a bad synthetic spec.
type SyntheticError struct {
	Field string
	Msg   string
}

func (e *SyntheticError) Error() string { return "synthetic spec: " + e.Problem() }

// Problem is the error without naming the spec: "field F: MSG" or "MSG".
func (e *SyntheticError) Problem() string {
	if e.Field == "" {
		return e.Msg
	}
	return fmt.Sprintf("field %s: %s", e.Field, e.Msg)
}

// ParseSynthetic parses "workers=N,connectors=M[,tasks=K][,skew=S]".
// tasks defaults to 1 and skew to 0.
func ParseSynthetic(spec string) (SyntheticSpec, error) {
	out := SyntheticSpec{Tasks: 1}
	seen := map[string]bool{}
	if strings.TrimSpace(spec) == "" {
		return out, &SyntheticError{Msg: "empty spec; want workers=N,connectors=M[,tasks=K][,skew=S]"}
	}
	for _, part := range strings.Split(spec, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		key = strings.TrimSpace(key)
		if !ok {
			return out, &SyntheticError{Field: key, Msg: fmt.Sprintf("want KEY=VALUE, got %q", part)}
		}
		if seen[key] {
			return out, &SyntheticError{Field: key, Msg: "given twice"}
		}
		seen[key] = true
		val = strings.TrimSpace(val)
		switch key {
		case "workers", "connectors", "tasks":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 || (key == "workers" && n == 0) {
				want := "a non-negative integer"
				if key == "workers" {
					want = "a positive integer"
				}
				return out, &SyntheticError{Field: key, Msg: fmt.Sprintf("must be %s, got %q", want, val)}
			}
			switch key {
			case "workers":
				out.Workers = n
			case "connectors":
				out.Connectors = n
			default:
				out.Tasks = n
			}
		case "skew":
			f, err := strconv.ParseFloat(val, 64)
			if err != nil || !(f >= 0 && f <= 1) {
				return out, &SyntheticError{Field: key, Msg: fmt.Sprintf("must be a number from 0 to 1, got %q", val)}
			}
			out.Skew = f
		default:
			return out, &SyntheticError{Field: key, Msg: "unknown field (known: workers, connectors, tasks, skew)"}
		}
	}
	for _, req := range []string{"workers", "connectors"} {
		if !seen[req] {
			return out, &SyntheticError{Field: req, Msg: "required"}
		}
	}
	if out.Workers > maxSyntheticWorkers {
		return out, &SyntheticError{Field: "workers", Msg: fmt.Sprintf("at most %d", maxSyntheticWorkers)}
	}
	if int64(out.Connectors)*int64(out.Tasks+1) > maxSyntheticPieces {
		return out, &SyntheticError{Field: "tasks", Msg: fmt.Sprintf("connectors x (tasks+1) must stay under %d pieces", maxSyntheticPieces)}
	}
	// Refuse before building a state no plan could use (plan/bounds).
	if pieces := float64(out.Connectors) * float64(out.Tasks+1); pieces*bounds.WhatifPieceBytes > bounds.MaxBytes {
		return out, &SyntheticError{Field: "connectors", Msg: fmt.Sprintf("%.0f connectors and tasks: any plan of them would need about %s of memory; connectscope refuses plans over ~1 GiB", pieces, bounds.GiB(pieces*bounds.WhatifPieceBytes))}
	}
	return out, nil
}

// String renders the spec back in --synthetic form.
func (s SyntheticSpec) String() string {
	out := fmt.Sprintf("workers=%d,connectors=%d,tasks=%d", s.Workers, s.Connectors, s.Tasks)
	if s.Skew > 0 {
		out += ",skew=" + strconv.FormatFloat(s.Skew, 'f', -1, 64)
	}
	return out
}

// SyntheticState builds the cluster: connectors dealt round-robin over the
// workers in name order, then tasks round-robin continuing from there, so
// connector and task counts are each balanced to within one. With skew s,
// w1 then also takes the last floor(s x n) connectors and tasks of every other
// worker (s = 0.5: half of everyone else's work moves to w1; s = 1: w1 runs
// everything). A skewed state is one the current assignor would rebalance at
// the next round.
func SyntheticState(s SyntheticSpec) State {
	st := State{Source: "synthetic " + s.String(), Protocol: "sessioned"}
	width := len(strconv.Itoa(max(s.Connectors-1, 0)))
	if width < 2 {
		width = 2
	}
	owned := make([]assignor.Pieces, s.Workers)
	for i := range owned {
		owned[i] = assignor.Pieces{Connectors: []string{}, Tasks: []assignor.TaskID{}}
	}
	next := 0
	for c := 0; c < s.Connectors; c++ {
		name := fmt.Sprintf("conn-%0*d", width, c)
		st.Connectors = append(st.Connectors, assignor.ConnectorSpec{Name: name, Tasks: s.Tasks})
		owned[next%s.Workers].Connectors = append(owned[next%s.Workers].Connectors, name)
		next++
	}
	for _, c := range st.Connectors {
		for t := 0; t < c.Tasks; t++ {
			w := next % s.Workers
			owned[w].Tasks = append(owned[w].Tasks, assignor.TaskID{Connector: c.Name, Task: t})
			next++
		}
	}
	if s.Skew > 0 {
		for i := 1; i < s.Workers; i++ {
			nc := int(s.Skew * float64(len(owned[i].Connectors)))
			nt := int(s.Skew * float64(len(owned[i].Tasks)))
			cs, ts := owned[i].Connectors, owned[i].Tasks
			owned[0].Connectors = append(owned[0].Connectors, cs[len(cs)-nc:]...)
			owned[0].Tasks = append(owned[0].Tasks, ts[len(ts)-nt:]...)
			owned[i].Connectors, owned[i].Tasks = cs[:len(cs)-nc], ts[:len(ts)-nt]
		}
	}
	for i := 0; i < s.Workers; i++ {
		keys := KeysOf(owned[i])
		st.Workers = append(st.Workers, WorkerState{ID: fmt.Sprintf("w%d", i+1), Owned: PiecesOf(keys)})
	}
	st.Leader = "w1"
	return st
}

// WithHostNames gives a cluster's workers the names real Connect workers
// carry: hostPort(n) for the n-th worker (from 1), the client id
// connect-HOST:PORT, the REST URL and a member id connect-HOST:PORT-UUID.
// Pictures and tests use it to see plans as operators of real clusters do;
// the ids sort and hash as real ones, so eager's order and tie-breaks change.
func (s State) WithHostNames(hostPort func(n int) string) State {
	out := s
	out.Workers = make([]WorkerState, len(s.Workers))
	for i, w := range s.Workers {
		hp := hostPort(i + 1)
		id := fmt.Sprintf("connect-%s-%08x-4b1d-4c2e-9f3a-%012x", hp, 0x1f2e3d4c+i*7919, 0xa1b2c3d4e5+i*104729)
		if w.ID == s.Leader {
			out.Leader = id
		}
		w.ID = id
		w.Aliases = []string{hp, "connect-" + hp, "http://" + hp + "/"}
		out.Workers[i] = w
	}
	return out
}
