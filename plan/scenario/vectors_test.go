package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/vectors"
)

type vectorCase struct {
	name     string
	scenario []byte
	expected []byte
}

// loadAssignorVectors pairs each public scenario with its expected output;
// it fails the test when the shared vectors are missing.
func loadAssignorVectors(t testing.TB) []vectorCase {
	t.Helper()
	expected := map[string][]byte{}
	for _, f := range vectors.Read(t, "assignor/public", "*.expected.json") {
		expected[f.Name] = f.Data
	}
	var out []vectorCase
	for _, f := range vectors.Read(t, "assignor/public", "*.scenario.json") {
		exp, ok := expected[f.Name]
		if !ok {
			t.Fatalf("vector %s has no expected output", f.Name)
		}
		out = append(out, vectorCase{name: f.Name, scenario: f.Data, expected: exp})
	}
	return out
}

// replayToGeneric replays a scenario and returns its JSON output decoded
// into generic values, exactly as `-o json` would print it.
func replayToGeneric(t testing.TB, data []byte, opts ReplayOptions) map[string]any {
	t.Helper()
	sc, err := ParseScenario(data)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	res, err := Replay(sc, opts)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	js, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var got map[string]any
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatalf("unmarshal own output: %v", err)
	}
	return got
}

// countsView reduces an output to the contract: per round step, generation,
// time, and per worker the number of pieces in every list plus the delay;
// per worker final counts and the totals owned.
func countsView(doc map[string]any) string {
	var b strings.Builder
	rounds, _ := doc["rounds"].([]any)
	fmt.Fprintf(&b, "rounds=%d\n", len(rounds))
	for i, r := range rounds {
		rm := r.(map[string]any)
		fmt.Fprintf(&b, "r%d step=%v gen=%v t=%v\n", i, rm["step"], rm["generation"], rm["time_ms"])
		workers := rm["workers"].(map[string]any)
		var names []string
		for n := range workers {
			names = append(names, n)
		}
		sort.Strings(names)
		ownedC, ownedT := 0, 0
		for _, n := range names {
			w := workers[n].(map[string]any)
			l := func(k string) int { return len(w[k].([]any)) }
			fmt.Fprintf(&b, "  %s +%d/%d -%d/%d delay=%v own=%d/%d\n", n,
				l("assigned_connectors"), l("assigned_tasks"), l("revoked_connectors"), l("revoked_tasks"),
				w["delay_ms"], l("connectors"), l("tasks"))
			ownedC += l("connectors")
			ownedT += l("tasks")
		}
		fmt.Fprintf(&b, "  total owned %d/%d\n", ownedC, ownedT)
	}
	final := doc["final"].(map[string]any)
	var names []string
	for n := range final {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		w := final[n].(map[string]any)
		fmt.Fprintf(&b, "final %s %d/%d\n", n, len(w["connectors"].([]any)), len(w["tasks"].([]any)))
	}
	return b.String()
}

func TestAssignorVectorsCounts(t *testing.T) {
	for _, vc := range loadAssignorVectors(t) {
		t.Run(vc.name, func(t *testing.T) {
			var want map[string]any
			if err := json.Unmarshal(vc.expected, &want); err != nil {
				t.Fatal(err)
			}
			got := replayToGeneric(t, vc.scenario, ReplayOptions{})
			if g, w := countsView(got), countsView(want); g != w {
				t.Errorf("counts differ\n%s", firstDiff(g, w))
			}
			if got["name"] != want["name"] {
				t.Errorf("name %q, want %q", got["name"], want["name"])
			}
		})
	}
}

func TestAssignorVectorsExactNames(t *testing.T) {
	exact, total := 0, 0
	for _, vc := range loadAssignorVectors(t) {
		total++
		t.Run(vc.name, func(t *testing.T) {
			var want map[string]any
			if err := json.Unmarshal(vc.expected, &want); err != nil {
				t.Fatal(err)
			}
			got := replayToGeneric(t, vc.scenario, ReplayOptions{})
			if !reflect.DeepEqual(got, want) {
				gj, _ := json.MarshalIndent(got, "", " ")
				wj, _ := json.MarshalIndent(want, "", " ")
				t.Errorf("output differs from Kafka's\n%s", firstDiff(string(gj), string(wj)))
				return
			}
			// WriteJSON's layout is the vectors' own: byte for byte.
			sc, _ := ParseScenario(vc.scenario)
			res, _ := Replay(sc, ReplayOptions{})
			var buf bytes.Buffer
			if err := res.WriteJSON(&buf); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), vc.expected) {
				t.Errorf("WriteJSON bytes differ from the vector file\n%s", firstDiff(buf.String(), string(vc.expected)))
				return
			}
			exact++
		})
	}
	t.Logf("%d of %d vectors match exactly, piece names included", exact, total)
}

// firstDiff shows the first differing line with a little context.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			lo := max(0, i-3)
			ctx := strings.Join(w[lo:min(i, len(w))], "\n")
			return fmt.Sprintf("line %d\ncontext:\n%s\ngot:  %s\nwant: %s", i+1, ctx, gl, wl)
		}
	}
	return "(identical)"
}

// JDK 19+ sizes a copied HashSet differently (assignor.md §6.2, §10): on the
// public vectors this changes piece names in rand-20241021-174 only, and no
// counts anywhere.
func TestJDK21HashSetSizing(t *testing.T) {
	var changed []string
	for _, vc := range loadAssignorVectors(t) {
		var want map[string]any
		if err := json.Unmarshal(vc.expected, &want); err != nil {
			t.Fatal(err)
		}
		got := replayToGeneric(t, vc.scenario, ReplayOptions{JDK: 21})
		if countsView(got) != countsView(want) {
			t.Errorf("%s: counts changed under JDK 21", vc.name)
		}
		if !reflect.DeepEqual(got, want) {
			changed = append(changed, vc.name)
		}
	}
	if len(changed) != 1 || changed[0] != "rand-20241021-174" {
		t.Errorf("JDK 21 changed names in %v, want only rand-20241021-174", changed)
	}
}
