package assignor

import (
	"fmt"
	"reflect"
	"testing"
)

// Sizes of java-timings.md: workers, connectors with 10 tasks each.
var benchSizes = []struct {
	name                string
	workers, connectors int
}{
	{"10w-1k", 10, 100},
	{"100w-10k", 100, 1000},
	{"1000w-100k", 1000, 10000},
}

func benchConnectors(n int) []ConnectorSpec {
	out := make([]ConnectorSpec, n)
	for i := range out {
		out[i] = ConnectorSpec{Name: fmt.Sprintf("connector-%05d", i), Tasks: 10}
	}
	return out
}

// benchSim returns a sessioned simulator with the workers joined; balanced
// adds one round that assigns everything.
func benchSim(b *testing.B, workers, connectors int, balanced bool) *Sim {
	s, err := NewSim(SimConfig{Protocol: "sessioned", MaxDelayMs: 300000})
	if err != nil {
		b.Fatal(err)
	}
	s.SetConnectors(benchConnectors(connectors))
	for i := 0; i < workers; i++ {
		if err := s.Join(fmt.Sprintf("worker-%04d", i), Pieces{}); err != nil {
			b.Fatal(err)
		}
	}
	if balanced {
		s.Rebalance(false)
	}
	return s
}

// coreInput builds the assignor's input from a simulator's members, as the
// leader decodes it, so the core benchmark times the assignor alone (the
// "core" path of java-timings.md).
func coreInput(s *Sim) *roundIn {
	in := &roundIn{cfgConns: s.cfgConns, cfgTasks: s.cfgTasks, now: s.now, gen: s.gen + 1, lastCompleted: s.gen}
	for _, w := range s.workers {
		c, t := s.rg.regroup(w.conns, w.tasks)
		in.members = append(in.members, roundMember{id: w.id, hash: w.hash, conns: c, tasks: t})
	}
	return in
}

// BenchmarkAssignorCore times one cooperative round of the assignor itself:
// "fresh" assigns everything to empty workers, "join" is the round after one
// worker joins a balanced cluster (the load-balancing revocations).
func BenchmarkAssignorCore(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run("fresh/"+sz.name, func(b *testing.B) {
			s := benchSim(b, sz.workers, sz.connectors, false)
			in := coreInput(s)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e := newCoopEngine(s.eng.feat, s.eng.maxDelay)
				b.StartTimer()
				e.round(s.ix, in)
			}
		})
		b.Run("join/"+sz.name, func(b *testing.B) {
			s := benchSim(b, sz.workers, sz.connectors, true)
			if err := s.Join("worker-new", Pieces{}); err != nil {
				b.Fatal(err)
			}
			in := coreInput(s)
			st := s.eng.st.clone()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e := newCoopEngine(s.eng.feat, s.eng.maxDelay)
				e.st = st.clone()
				b.StartTimer()
				out := e.round(s.ix, in)
				if i == 0 && revokedTasks(out) == 0 {
					b.Fatal("join round revoked nothing")
				}
			}
		})
	}
}

func revokedTasks(out roundOut) int {
	n := 0
	for _, m := range out.members {
		n += len(m.revokedTasks)
	}
	return n
}

// BenchmarkSimRebalance times a whole simulated round (the "leader" path and
// more): decoding every member's held order, the assignor, applying the
// assignments on the workers and building the sorted per-worker results.
// Each iteration first restores the base state outside the timed region,
// allocating (almost) nothing there, so that the timed part is the round and
// the GC of its own garbage, not of a per-iteration copy of the simulator.
func BenchmarkSimRebalance(b *testing.B) {
	for _, sz := range benchSizes {
		b.Run("fresh/"+sz.name, func(b *testing.B) {
			benchRounds(b, benchSim(b, sz.workers, sz.connectors, false))
		})
		b.Run("join/"+sz.name, func(b *testing.B) {
			base := benchSim(b, sz.workers, sz.connectors, true)
			if err := base.Join("worker-new", Pieces{}); err != nil {
				b.Fatal(err)
			}
			benchRounds(b, base)
		})
	}
}

// benchRounds times s.Rebalance(false) from base's state, restoring it before
// each iteration outside the timed region, and checks that every round gives
// what a deep copy of base gives.
func benchRounds(b *testing.B, base *Sim) {
	want := base.Clone().Rebalance(false)
	s := base.Clone()
	var got Round
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s.restoreFrom(base)
		b.StartTimer()
		got = s.Rebalance(false)
	}
	b.StopTimer()
	if !reflect.DeepEqual(got, want) {
		b.Fatal("a round from the restored state differs from a round on a deep copy")
	}
}

// restoreFrom resets s (a Clone of base, or s itself after rounds) to base's
// state as a fresh Clone of base would have it, without the copying: the
// workers' held lists are shared with base (rounds replace them, never write
// into them), the leader memory is copied into s's own buffers, and the
// round's scratch buffers and sorted name orders start empty again, so a
// timed round does all the work and allocation of a first round on a clone.
func (s *Sim) restoreFrom(base *Sim) {
	s.now, s.gen = base.now, base.gen
	s.eng = &coopEngine{feat: base.eng.feat, maxDelay: base.eng.maxDelay, st: s.eng.st}
	s.rg = regrouper{ix: s.ix, jdk: s.jdk}
	s.keyBuf, s.decC, s.decT = nil, nil, nil
	ix := s.ix // sorted name orders: recomputed and reallocated, as in a clone
	ix.sortedN, ix.javaConns, ix.javaTasks, ix.javaRank, ix.goRank, ix.goConns, ix.taskOrdered = -1, nil, nil, nil, nil, nil, nil
	for i, w := range base.workers {
		sw := s.workers[i]
		sw.id, sw.hash, sw.conns, sw.tasks = w.id, w.hash, w.conns, w.tasks
		sw.clean, sw.decoded, sw.dconns, sw.dtasks = w.clean, false, nil, nil
	}
	st, bst := &s.eng.st, &base.eng.st
	prevConn, prevTask := append(st.prevConn[:0], bst.prevConn...), append(st.prevTask[:0], bst.prevTask...)
	revConns, revTasks := append(st.revConns[:0], bst.revConns...), append(st.revTasks[:0], bst.revTasks...)
	prevMembers, candidates := append(st.prevMembers[:0], bst.prevMembers...), append(st.candidates[:0], bst.candidates...)
	*st = *bst
	st.prevConn, st.prevTask, st.revConns, st.revTasks = prevConn, prevTask, revConns, revTasks
	st.prevMembers, st.candidates = prevMembers, candidates
}
