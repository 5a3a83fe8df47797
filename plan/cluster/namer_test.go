package cluster

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// nameParts are what the generated states' ids and aliases are made of:
// case variants, runes whose case folding is not ASCII's (Kelvin sign,
// long s), an invalid byte, dots and numbers (incarnations).
var nameParts = []string{"w", "W", "k", "K", "\u212a", "s", "S", "\u017f", "\xff", "\ufffd", ".", ".2", ":8083", "-1", "connect-", "http://", "/"}

func genName(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(4) {
		b.WriteString(nameParts[r.IntN(len(nameParts))])
	}
	return b.String()
}

// stateFrom builds a state of up to 8 workers from r: ids and aliases from
// nameParts, ids and aliases shared now and then.
func stateFrom(r *rand.Rand) State {
	var s State
	for range r.IntN(9) {
		w := WorkerState{ID: genName(r)}
		for range r.IntN(4) {
			w.Aliases = append(w.Aliases, genName(r))
		}
		s.Workers = append(s.Workers, w)
	}
	return s
}

// checkNamerAgrees holds the indexed Namer to State's scans: the same name,
// label and resolution (or error) for every id, alias, incarnation and
// joiner of s and for extra names.
func checkNamerAgrees(t *testing.T, s State, extra []string) {
	t.Helper()
	n := s.Namer()
	names := append([]string{}, extra...)
	for _, w := range s.Workers {
		names = append(names, w.ID, w.ID+".2", JoinerID(w.ID))
		for _, a := range w.Aliases {
			names = append(names, a, strings.ToUpper(a), strings.ToLower(a))
		}
	}
	for _, m := range names {
		if got, want := n.Name(m), s.Name(m); got != want {
			t.Fatalf("state %+v: Namer.Name(%q) = %q, State.Name %q", s.Workers, m, got, want)
		}
		if got, want := n.Label(m), s.Label(m); got != want {
			t.Fatalf("state %+v: Namer.Label(%q) = %q, State.Label %q", s.Workers, m, got, want)
		}
		gotID, gotErr := n.ResolveWorker(m)
		wantID, wantErr := s.ResolveWorker(m)
		if gotID != wantID || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("state %+v: Namer.ResolveWorker(%q) = %q, %v; State's %q, %v", s.Workers, m, gotID, gotErr, wantID, wantErr)
		}
	}
}

func TestNamerAgreesWithStateScans(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		s := stateFrom(r)
		checkNamerAgrees(t, s, []string{genName(r), genName(r), ""})
	}
}

func FuzzNamerAgreesWithStateScans(f *testing.F) {
	f.Add(uint64(1), uint64(2), "K")
	f.Add(uint64(7), uint64(0), "\u212a:8083")
	f.Add(uint64(3), uint64(9), "\xfe")
	f.Fuzz(func(t *testing.T, a, b uint64, name string) {
		s := stateFrom(rand.New(rand.NewPCG(a, b)))
		if len(s.Workers) > 0 {
			s.Workers[0].Aliases = append(s.Workers[0].Aliases, name)
		}
		checkNamerAgrees(t, s, []string{name, strings.ToUpper(name)})
	})
}

func TestFoldKeyIsEqualFold(t *testing.T) {
	words := []string{"", "k", "K", "\u212a", "s", "S", "\u017f", "ß", "ẞ", "\xff", "\xfe", "\ufffd", "Σ", "σ", "ς", "ǅ", "ǆ", "Ǆ", "a\xffb", "A\ufffdB", "İ", "i", "ı", "I"}
	for _, a := range words {
		for _, b := range words {
			if got, want := foldKey(a) == foldKey(b), strings.EqualFold(a, b); got != want {
				t.Errorf("foldKey(%q) == foldKey(%q) is %v, EqualFold says %v", a, b, got, want)
			}
		}
	}
}

// BenchmarkNames5000 names 5,000 workers with a client id, a REST URL and
// a host:port each, as a real group's members have.
func BenchmarkNames5000(b *testing.B) {
	var s State
	ids := make([]string, 5000)
	for i := range ids {
		hp := fmt.Sprintf("10.0.%d.%d:8083", i/250, i%250)
		ids[i] = "connect-" + hp + "-3f6b2a1e-8c4d-4e1f-9a7b-0c2d4e6f8a1b"
		s.Workers = append(s.Workers, WorkerState{ID: ids[i], Aliases: []string{"connect-" + hp, "http://" + hp + "/", hp}})
	}
	for b.Loop() {
		s.Names(ids)
	}
}

// BenchmarkNames5000SharedAliases names 5,000 workers that share their
// client id and REST URL (Connect's default client id, one advertised
// host name), so only the member ids tell them apart.
func BenchmarkNames5000SharedAliases(b *testing.B) {
	var s State
	ids := make([]string, 5000)
	for i := range ids {
		ids[i] = fmt.Sprintf("connect-1-%08x-8c4d-4e1f-9a7b-0c2d4e6f8a1b", i)
		s.Workers = append(s.Workers, WorkerState{ID: ids[i], Aliases: []string{"connect-1", "http://localhost:8083/", "localhost:8083"}})
	}
	for b.Loop() {
		s.Names(ids)
	}
}
