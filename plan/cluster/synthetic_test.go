package cluster

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSyntheticGood(t *testing.T) {
	cases := map[string]SyntheticSpec{
		"workers=6,connectors=30,tasks=3":           {Workers: 6, Connectors: 30, Tasks: 3},
		" workers = 2 , connectors=1 ":              {Workers: 2, Connectors: 1, Tasks: 1},
		"connectors=4,workers=3,skew=0.5,tasks=0":   {Workers: 3, Connectors: 4, Tasks: 0, Skew: 0.5},
		"workers=1,connectors=0":                    {Workers: 1, Connectors: 0, Tasks: 1},
		"workers=10000,connectors=1000,tasks=10":    {Workers: 10000, Connectors: 1000, Tasks: 10},
		"workers=3,connectors=3,tasks=3,skew=1":     {Workers: 3, Connectors: 3, Tasks: 3, Skew: 1},
		"workers=3,connectors=3,tasks=3,skew=0.000": {Workers: 3, Connectors: 3, Tasks: 3},
	}
	for in, want := range cases {
		got, err := ParseSynthetic(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if got != want {
			t.Errorf("%q: got %+v, want %+v", in, got, want)
		}
	}
}

func TestParseSyntheticBadNamesField(t *testing.T) {
	cases := map[string]string{
		"":                                      "",
		"workers=0,connectors=1":                "workers",
		"workers=-1,connectors=1":               "workers",
		"workers=x,connectors=1":                "workers",
		"workers=2":                             "connectors",
		"connectors=2":                          "workers",
		"workers=2,connectors=2,tasks=-3":       "tasks",
		"workers=2,connectors=2,skew=1.5":       "skew",
		"workers=2,connectors=2,skew=abc":       "skew",
		"workers=2,connectors=2,colour=blue":    "colour",
		"workers=2,connectors=2,tasks":          "tasks",
		"workers=2,workers=3,connectors=1":      "workers",
		"workers=20000,connectors=1":            "workers",
		"workers=2,connectors=100000,tasks=100": "tasks",
	}
	for in, field := range cases {
		_, err := ParseSynthetic(in)
		var se *SyntheticError
		if !errors.As(err, &se) {
			t.Errorf("%q: want a *SyntheticError, got %v", in, err)
			continue
		}
		if se.Field != field {
			t.Errorf("%q: error names field %q, want %q (%v)", in, se.Field, field, err)
		}
		if field != "" && !strings.Contains(err.Error(), "field "+field) {
			t.Errorf("%q: message %q does not name the field", in, err)
		}
	}
}

func TestSyntheticStateBalancedAndComplete(t *testing.T) {
	for _, spec := range []SyntheticSpec{{6, 30, 3, 0}, {3, 10, 4, 0}, {7, 5, 2, 0}, {4, 0, 1, 0}, {1, 3, 3, 0}} {
		st := SyntheticState(spec)
		if len(st.Workers) != spec.Workers || len(st.Connectors) != spec.Connectors {
			t.Fatalf("%v: %d workers, %d connectors", spec, len(st.Workers), len(st.Connectors))
		}
		seen := PieceSet{}
		minC, maxC, minT, maxT := 1<<30, -1, 1<<30, -1
		for _, w := range st.Workers {
			for _, k := range KeysOf(w.Owned) {
				if seen[k] {
					t.Fatalf("%v: %v owned twice", spec, k)
				}
				seen[k] = true
			}
			c, tk := len(w.Owned.Connectors), len(w.Owned.Tasks)
			minC, maxC, minT, maxT = min(minC, c), max(maxC, c), min(minT, tk), max(maxT, tk)
		}
		if want := ConfiguredKeys(st.Connectors); len(want) != len(seen) {
			t.Fatalf("%v: %d pieces owned, %d configured", spec, len(seen), len(want))
		}
		if maxC-minC > 1 || maxT-minT > 1 {
			t.Errorf("%v: not balanced: connectors %d..%d, tasks %d..%d", spec, minC, maxC, minT, maxT)
		}
	}
}

func TestSyntheticSkewMovesWorkToFirst(t *testing.T) {
	st := SyntheticState(SyntheticSpec{Workers: 4, Connectors: 8, Tasks: 4, Skew: 0.5})
	// Balanced: 2 connectors and 8 tasks each; half of the other three
	// workers' pieces move to w1.
	want := map[string][2]int{"w1": {2 + 3*1, 8 + 3*4}, "w2": {1, 4}, "w3": {1, 4}, "w4": {1, 4}}
	for _, w := range st.Workers {
		got := [2]int{len(w.Owned.Connectors), len(w.Owned.Tasks)}
		if got != want[w.ID] {
			t.Errorf("%s owns %v, want %v", w.ID, got, want[w.ID])
		}
	}
	all := SyntheticState(SyntheticSpec{Workers: 3, Connectors: 3, Tasks: 2, Skew: 1})
	if n := all.Workers[0].Owned.Len(); n != 9 {
		t.Errorf("skew=1: w1 owns %d pieces, want all 9", n)
	}
}

func FuzzParseSynthetic(f *testing.F) {
	for _, seed := range []string{"workers=6,connectors=30,tasks=3", "workers=3,connectors=10,tasks=4,skew=0.5", "", "workers=,", "skew=1e309", "workers=2,connectors=2,tasks=2,skew=NaN"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := ParseSynthetic(spec)
		if err != nil {
			var se *SyntheticError
			if !errors.As(err, &se) {
				t.Fatalf("%q: error of type %T", spec, err)
			}
			return
		}
		if s.Workers < 1 || s.Connectors < 0 || s.Tasks < 0 || !(s.Skew >= 0 && s.Skew <= 1) {
			t.Fatalf("%q: accepted %+v", spec, s)
		}
		if s.Workers <= 50 && s.Connectors*(s.Tasks+1) <= 2000 {
			st := SyntheticState(s)
			n := 0
			for _, w := range st.Workers {
				n += w.Owned.Len()
			}
			if n != s.Connectors*(s.Tasks+1) {
				t.Fatalf("%q: %d pieces owned, want %d", spec, n, s.Connectors*(s.Tasks+1))
			}
		}
	})
}
