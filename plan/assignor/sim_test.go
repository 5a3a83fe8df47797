package assignor

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect/kafkaversion"
)

func mustSim(t *testing.T, cfg SimConfig) *Sim {
	t.Helper()
	s, err := NewSim(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewSimErrors(t *testing.T) {
	for _, cfg := range []SimConfig{
		{Protocol: "cooperative"},
		{MaxDelayMs: -1},
		{KafkaVersion: kafkaversion.New(2, 2, 0)},
		{JDK: 7},
	} {
		if _, err := NewSim(cfg); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("NewSim(%+v): %v, want ErrInvalidConfig", cfg, err)
		}
	}
	for _, v := range []string{"", "2.3", "2.6.1", "3.3.2", "3.4", "3.7.0", "3.9.0-rc3", "4.0", "v3.4", " 3.5.1"} {
		if _, err := NewSim(SimConfig{KafkaVersion: mustVersion(t, v)}); err != nil {
			t.Errorf("version %q: %v", v, err)
		}
	}
}

func TestKafkaVersionFeatures(t *testing.T) {
	f := func(v string) features {
		kv, err := replayedVersion(mustVersion(t, v))
		if err != nil {
			t.Fatal(err)
		}
		return featuresFor(kv)
	}
	cases := map[string]features{
		"2.3.1": {},
		"2.4":   {resetDelayWhenNothingLost: true},
		"2.5.1": {resetDelayWhenNothingLost: true, generationCheck: true, duplicates: true},
		"2.6.1": {resetDelayWhenNothingLost: true, generationCheck: true, duplicates: true},
		"2.7.1": {resetDelayWhenNothingLost: true, generationCheck: true, duplicates: true, multiCandidate: true},
		"3.3":   {resetDelayWhenNothingLost: true, generationCheck: true, duplicates: true, multiCandidate: true},
		"3.5.1": {resetDelayWhenNothingLost: true, generationCheck: true, duplicates: true, multiCandidate: true, newRevocation: true},
		"3.5.2": {resetDelayWhenNothingLost: true, generationCheck: true, duplicates: true, multiCandidate: true, newRevocation: true, zeroDelayNow: true},
		"3.6.0": {resetDelayWhenNothingLost: true, generationCheck: true, duplicates: true, multiCandidate: true, newRevocation: true},
		"":      {resetDelayWhenNothingLost: true, generationCheck: true, duplicates: true, multiCandidate: true, newRevocation: true, zeroDelayNow: true},
	}
	for v, want := range cases {
		if got := f(v); got != want {
			t.Errorf("%q: %+v, want %+v", v, got, want)
		}
	}
}

func TestSimMembership(t *testing.T) {
	s := mustSim(t, SimConfig{})
	s.SetConnectors([]ConnectorSpec{{"a", 2}})
	if err := s.Join("w1", Pieces{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Join("w1", Pieces{}); err == nil {
		t.Error("joining twice accepted")
	}
	if err := s.Leave("w9"); err == nil {
		t.Error("leaving without joining accepted")
	}
	s.Join("w2", Pieces{})
	s.Leave("w1")
	s.Join("w1", Pieces{})
	if got := s.Members(); !slices.Equal(got, []string{"w2", "w1"}) {
		t.Errorf("members %v: a rejoining name goes to the end", got)
	}
	r := s.Rebalance(false)
	if r.Generation != 1 || len(r.Workers) != 2 || r.Step != -1 {
		t.Errorf("round %+v", r)
	}
	empty := mustSim(t, SimConfig{})
	if r := empty.Rebalance(false); len(r.Workers) != 0 || r.Generation != 1 {
		t.Errorf("round without members %+v", r)
	}
	if p := s.Owned("nobody"); p.Connectors == nil || p.Tasks == nil || p.Len() != 0 {
		t.Errorf("Owned(unknown) = %+v", p)
	}
}

// Settle stops after max rounds without sleeping after the last one.
func TestSettleMaxRounds(t *testing.T) {
	s := mustSim(t, SimConfig{MaxDelayMs: 1000})
	s.SetConnectors([]ConnectorSpec{{"a", 4}})
	s.Join("w1", Pieces{})
	s.Join("w2", Pieces{})
	s.Settle(0)
	s.Leave("w2")
	rounds := s.Settle(1)
	if len(rounds) != 1 || rounds[0].Workers["w1"].DelayMs != 1000 || s.Now() != 0 {
		t.Fatalf("settle(1): %d rounds, delay %d, now %d", len(rounds), rounds[0].Workers["w1"].DelayMs, s.Now())
	}
	rounds = s.Settle(5)
	if len(rounds) != 2 || s.Now() != 1000 || s.Owned("w1").Len() != 5 {
		t.Fatalf("settle(5): %d rounds, now %d, w1 owns %d", len(rounds), s.Now(), s.Owned("w1").Len())
	}
}

func TestCloneIsIndependent(t *testing.T) {
	s := mustSim(t, SimConfig{})
	s.SetConnectors([]ConnectorSpec{{"a", 4}, {"b", 4}})
	s.Join("w1", Pieces{})
	s.Settle(0)
	c := s.Clone()
	c.Join("w2", Pieces{})
	c.Settle(0)
	if got := s.Owned("w1").Len(); got != 10 {
		t.Errorf("original changed by the clone: w1 owns %d", got)
	}
	if got := c.Owned("w2").Len(); got != 5 {
		t.Errorf("clone: w2 owns %d, want 5", got)
	}
	st := c.State()
	c2 := mustSim(t, SimConfig{})
	c2.SetState(st)
	if !reflect.DeepEqual(c2.State(), st) {
		t.Errorf("State/SetState round trip:\n%+v\n%+v", c2.State(), st)
	}
}

// exampleD is assignor.md §5 D: one connector with 12 tasks, a worker joins
// every round, some rounds after the backoff delay.
func exampleD(t *testing.T, version string) (tasks [][]int, delays []int64, revoked []int) {
	t.Helper()
	s := mustSim(t, SimConfig{KafkaVersion: mustVersion(t, version), MaxDelayMs: 300000})
	s.SetConnectors([]ConnectorSpec{{"c", 12}})
	sleepBefore := map[int]int64{4: 40, 6: 1600}
	for i := 1; i <= 8; i++ {
		s.Sleep(sleepBefore[i])
		s.Join(fmt.Sprintf("w%d", i), Pieces{})
		r := s.Rebalance(false)
		var counts []int
		rev := 0
		for j := 1; j <= i; j++ {
			w := r.Workers[fmt.Sprintf("w%d", j)]
			counts = append(counts, len(w.Owned.Tasks))
			rev += len(w.Revoked.Tasks)
		}
		tasks = append(tasks, counts)
		delays = append(delays, r.Workers["w1"].DelayMs)
		revoked = append(revoked, rev)
	}
	return tasks, delays, revoked
}

func TestExampleDBackoff(t *testing.T) {
	_, delays, revoked := exampleD(t, "")
	if want := []int64{0, 0, 40, 0, 1600, 0, 0, 0}; !slices.Equal(delays, want) {
		t.Errorf("3.9 delays %v, want %v", delays, want)
	}
	if want := []int{0, 6, 0, 3, 0, 3, 0, 1}; !slices.Equal(revoked, want) {
		t.Errorf("3.9 revocations per round %v, want %v", revoked, want)
	}
	tasks, _, revoked := exampleD(t, "3.3")
	for _, r := range []int{2, 4, 6} { // r3, r5, r7
		if revoked[r] != 0 {
			t.Errorf("3.3 revoked in r%d: %v", r+1, revoked)
		}
	}
	final := slices.Clone(tasks[7])
	slices.Sort(final)
	if want := []int{0, 1, 1, 2, 2, 2, 2, 2}; !slices.Equal(final, want) {
		t.Errorf("3.3 ends with %v, want the imbalance %v", final, want)
	}
}

// TestExampleECandidates: assignor.md §5 E: two workers leave, two empty ones join during
// the delay; the lost pieces go to the candidates at the deadline.
func TestExampleECandidates(t *testing.T) {
	run := func(version string) (n1, n2 Pieces, lost int) {
		s := mustSim(t, SimConfig{KafkaVersion: mustVersion(t, version), MaxDelayMs: 300000})
		s.SetConnectors([]ConnectorSpec{{"a", 6}, {"b", 6}})
		for _, w := range []string{"w1", "w2", "w3"} {
			s.Join(w, Pieces{})
		}
		s.Settle(0)
		lost = s.Owned("w2").Len() + s.Owned("w3").Len()
		s.Leave("w2")
		s.Leave("w3")
		s.Rebalance(false)
		s.Sleep(1000)
		s.Join("n1", Pieces{})
		s.Rebalance(false)
		s.Sleep(1000)
		s.Join("n2", Pieces{})
		s.Settle(0)
		return s.Owned("n1"), s.Owned("n2"), lost
	}
	n1, n2, lost := run("")
	if lost != 9 || len(n1.Connectors) != 1 || len(n1.Tasks) != 4 || len(n2.Connectors) != 0 || len(n2.Tasks) != 4 {
		t.Errorf("3.9: lost %d, n1 %d/%d, n2 %d/%d; want 9 lost, 1/4 and 0/4",
			lost, len(n1.Connectors), len(n1.Tasks), len(n2.Connectors), len(n2.Tasks))
	}
	n1, n2, _ = run("2.6.1") // before KAFKA-10413 the first candidate got everything
	if len(n1.Connectors) != 1 || len(n1.Tasks) != 8 || n2.Len() != 0 {
		t.Errorf("2.6.1: n1 %d/%d, n2 %d; want 1/8 and nothing", len(n1.Connectors), len(n1.Tasks), n2.Len())
	}
}

// The exported per-round function and the Sim are the same engine: driving
// Assign round by round (with a worker-side model) gives the Sim's rounds.
func TestAssignMatchesSim(t *testing.T) {
	checked := 0
	for _, sc := range loadAssignorVectors(t) {
		if sc.protocol == "eager" {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			cfg := SimConfig{Protocol: sc.protocol, MaxDelayMs: sc.maxDelayMs}
			sim := mustSim(t, cfg)
			st := NewAssignorState()
			held := map[string]*simWorker{}
			var order []string
			var conns []ConnectorSpec
			rg := regrouper{ix: sim.ix, jdk: 17}
			round := func(mismatch bool) Round {
				r := sim.Rebalance(mismatch)
				in := AssignInput{Connectors: conns, NowMs: sim.Now(), Generation: r.Generation, LastCompletedGeneration: r.Generation - 1}
				if mismatch {
					in.LastCompletedGeneration--
				}
				for _, id := range order {
					c, tk := rg.regroup(held[id].conns, held[id].tasks)
					in.Members = append(in.Members, MemberInput{ID: id, Owned: sim.ix.orderedPieces(c, tk)})
				}
				out, next, err := Assign(cfg, st, in)
				if err != nil {
					t.Fatal(err)
				}
				st = next
				for _, m := range out.Members {
					want := r.Workers[m.ID]
					ac, at := sim.ix.internPieces(m.Assigned)
					got := sim.ix.sortedPieces(ac, at, new([]uint64))
					if !reflect.DeepEqual(got, want.Assigned) || !reflect.DeepEqual(m.Revoked, want.Revoked) || m.DelayMs != want.DelayMs {
						t.Fatalf("generation %d member %s: Assign %+v / %+v, Sim %+v / %+v", r.Generation, m.ID, got, m.Revoked, want.Assigned, want.Revoked)
					}
					w := held[m.ID]
					rc, rt := sim.ix.internPieces(m.Revoked)
					gc, gt := rg.regroup(ac, at)
					w.conns = rg.prependMinus(gc, w.conns, rc, true)
					w.tasks = rg.prependMinus(gt, w.tasks, rt, false)
				}
				return r
			}
			for _, step := range sc.steps {
				switch step.kind {
				case "connectors":
					sim.SetConnectors(step.connectors)
					conns = step.connectors
				case "join":
					for _, w := range step.workers {
						sim.Join(w, Pieces{})
						held[w] = &simWorker{id: w}
						order = append(order, w)
					}
				case "leave":
					for _, w := range step.workers {
						sim.Leave(w)
						order = slices.DeleteFunc(order, func(x string) bool { return x == w })
					}
				case "sleep_ms":
					sim.Sleep(step.sleepMs)
				case "new_leader":
					sim.NewLeader()
					st = NewAssignorState()
				case "rebalance":
					round(step.mismatch)
				case "settle":
					for i := 0; i < step.maxRounds; i++ {
						revoked, delay := roundActivity(round(false))
						if revoked {
							continue
						}
						if delay > 0 && i < step.maxRounds-1 {
							sim.Sleep(delay)
							continue
						}
						break
					}
				}
			}
			checked++
		})
	}
	if checked == 0 {
		t.Fatal("no cooperative vectors checked")
	}
}

func TestDecodedOrder(t *testing.T) {
	// assignor.md §6.3 example: lists [c-0, a-0, b-0, a-1, b-1] decode grouped by first appearance.
	in := Pieces{Tasks: []TaskID{{"c", 0}, {"a", 0}, {"b", 0}, {"a", 1}, {"b", 1}}}
	want := []TaskID{{"c", 0}, {"a", 0}, {"a", 1}, {"b", 0}, {"b", 1}}
	if got := DecodedOrder(in, 0); !slices.Equal(got.Tasks, want) || len(got.Connectors) != 0 {
		t.Errorf("DecodedOrder = %+v, want tasks %v", got, want)
	}
	// Connectors come in HashSet order and their tasks first.
	in = Pieces{Connectors: []string{"w2", "w1"}, Tasks: []TaskID{{"x", 0}, {"w2", 0}, {"w1", 3}}}
	got := DecodedOrder(in, 17)
	if !slices.Equal(got.Connectors, []string{"w1", "w2"}) ||
		!slices.Equal(got.Tasks, []TaskID{{"w1", 3}, {"w2", 0}, {"x", 0}}) {
		t.Errorf("DecodedOrder = %+v", got)
	}
}

// FuzzSim drives the simulator with arbitrary operations: it must never
// panic and never let two members own the same piece.
func FuzzSim(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	f.Add([]byte{3, 3, 3, 1, 5, 2, 5, 6, 9, 5, 5, 5, 0, 5})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) == 0 {
			return
		}
		versions := []string{"", "3.3", "2.6.1", "2.3", "3.5.1"}
		protocols := []string{"sessioned", "eager"}
		delays := []int64{0, 1, 1000, 300000}
		s, err := NewSim(SimConfig{
			Protocol:     protocols[int(ops[0])%len(protocols)],
			KafkaVersion: mustVersion(t, versions[int(ops[0]/2)%len(versions)]),
			MaxDelayMs:   delays[int(ops[0]/10)%len(delays)],
			JDK:          17 + 4*int(ops[0]%2),
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(ops) && i < 200; i++ {
			op, arg := ops[i]%8, int(ops[i]/8)
			w := fmt.Sprintf("w%d", arg%7)
			switch op {
			case 0:
				var specs []ConnectorSpec
				for c := 0; c < arg%5; c++ {
					specs = append(specs, ConnectorSpec{Name: fmt.Sprintf("c%d", c), Tasks: (arg + c) % 6})
				}
				s.SetConnectors(specs)
			case 1, 2:
				_ = s.Join(w, Pieces{})
			case 3:
				_ = s.Leave(w)
			case 4:
				s.Sleep(int64(arg) * 997)
			case 5:
				checkNoDuplicates(t, s.Rebalance(arg%5 == 0))
			case 6:
				for _, r := range s.Settle(1 + arg%6) {
					checkNoDuplicates(t, r)
				}
			case 7:
				s.NewLeader()
			}
		}
	})
}

func checkNoDuplicates(t *testing.T, r Round) {
	t.Helper()
	seen := map[string]bool{}
	for _, w := range r.Workers {
		for _, c := range w.Owned.Connectors {
			if seen["c:"+c] {
				t.Fatalf("generation %d: connector %s owned twice", r.Generation, c)
			}
			seen["c:"+c] = true
		}
		for _, tk := range w.Owned.Tasks {
			if seen["t:"+tk.String()] {
				t.Fatalf("generation %d: task %s owned twice", r.Generation, tk)
			}
			seen["t:"+tk.String()] = true
		}
	}
}

// mustVersion is v parsed as --kafka-version parses it.
func mustVersion(t testing.TB, v string) kafkaversion.Version {
	t.Helper()
	kv, err := kafkaversion.Parse(v)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

// RebalanceChanges runs the same rounds as Rebalance: two copies of one
// simulator, one driven by each, send the same pieces and end up holding
// the same, round after round, under every protocol.
func TestRebalanceChangesMatchesRebalance(t *testing.T) {
	for _, proto := range []string{"sessioned", "compatible", "eager"} {
		a := mustSim(t, SimConfig{Protocol: proto, MaxDelayMs: 30000})
		specs := []ConnectorSpec{}
		for i := 0; i < 12; i++ {
			specs = append(specs, ConnectorSpec{Name: fmt.Sprintf("c%02d", i), Tasks: i % 4})
		}
		a.SetConnectors(specs)
		for i := 0; i < 5; i++ {
			if err := a.Join(fmt.Sprintf("w%d", i), Pieces{}); err != nil {
				t.Fatal(err)
			}
		}
		b := a.Clone()
		names := func(s *Sim, conns, tasks []int32) Pieces {
			p := Pieces{Connectors: []string{}, Tasks: []TaskID{}}
			for _, c := range conns {
				p.Connectors = append(p.Connectors, s.ConnectorName(c))
			}
			for _, id := range tasks {
				c, n := s.TaskOf(id)
				p.Tasks = append(p.Tasks, TaskID{Connector: s.ConnectorName(c), Task: n})
			}
			slices.Sort(p.Connectors)
			p.Connectors = slices.Compact(p.Connectors)
			slices.SortFunc(p.Tasks, func(x, y TaskID) int {
				return cmp.Or(strings.Compare(x.Connector, y.Connector), cmp.Compare(x.Task, y.Task))
			})
			p.Tasks = slices.Compact(p.Tasks)
			return p
		}
		for step := 0; step < 8; step++ {
			switch step {
			case 2:
				for _, s := range []*Sim{a, b} {
					if err := s.Leave("w1"); err != nil {
						t.Fatal(err)
					}
				}
			case 4:
				for _, s := range []*Sim{a, b} {
					if err := s.Join("w9", Pieces{}); err != nil {
						t.Fatal(err)
					}
				}
			}
			ra := a.Rebalance(false)
			rb := b.RebalanceChanges(false)
			if ra.Generation != rb.Generation || len(ra.Workers) != len(rb.Members) {
				t.Fatalf("%s step %d: generation %d/%d, %d/%d members", proto, step, ra.Generation, rb.Generation, len(ra.Workers), len(rb.Members))
			}
			for _, m := range rb.Members {
				wa := ra.Workers[m.ID]
				if got := names(b, m.AssignedConns, m.AssignedTasks); !reflect.DeepEqual(got, wa.Assigned) {
					t.Errorf("%s step %d %s: assigned %v, Rebalance %v", proto, step, m.ID, got, wa.Assigned)
				}
				if got := names(b, m.RevokedConns, m.RevokedTasks); !reflect.DeepEqual(got, wa.Revoked) {
					t.Errorf("%s step %d %s: revoked %v, Rebalance %v", proto, step, m.ID, got, wa.Revoked)
				}
				if wa.DelayMs != rb.DelayMs {
					t.Errorf("%s step %d %s: delay %d, Rebalance %d", proto, step, m.ID, rb.DelayMs, wa.DelayMs)
				}
				if got := b.Owned(m.ID); !reflect.DeepEqual(got, a.Owned(m.ID)) {
					t.Errorf("%s step %d %s: owns %v, Rebalance %v", proto, step, m.ID, got, a.Owned(m.ID))
				}
			}
		}
	}
}
