package advise

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/kafkaversion"
	"github.com/connectscope/connectscope/plan/assignor"
	"github.com/connectscope/connectscope/plan/cluster"
	"github.com/connectscope/connectscope/plan/timeline"
	"github.com/connectscope/connectscope/plan/whatif"
)

// adviseCase is one advisor run the sweep's shortcuts are held to.
type adviseCase struct {
	name  string
	state cluster.State
	opts  timeline.Options
	ao    AdviseOptions
}

func adviseCases(t *testing.T) []adviseCase {
	t.Helper()
	opts := func(delay int64, edit func(*timeline.Options)) timeline.Options {
		o := timeline.Options{MaxDelayMs: delay, RoundTimeMs: 2000, SessionTimeoutMs: 10000}
		if edit != nil {
			edit(&o)
		}
		return o
	}
	version := func(v string) func(*timeline.Options) {
		return func(o *timeline.Options) {
			parsed, err := kafkaversion.Parse(v)
			if err != nil {
				t.Fatal(err)
			}
			o.KafkaVersion = parsed
		}
	}
	ends := int64(90000)
	pending := midDelay(t, &cluster.Pending{DelayMs: 110000, EndsInMs: &ends})
	// A pending delay whose end depends on the max delay (the departure
	// seen 20 s before the read): every delay's start differs.
	departed := midDelay(t, &cluster.Pending{DelayMs: 110000, TakenAtMs: 1_000_000, DepartedAtMs: 980_000})
	revoked := synth(t, "workers=4,connectors=6,tasks=2")
	revoked.Pending = &cluster.Pending{Revoked: cluster.PiecesOf([]cluster.PieceKey{{Connector: "conn-01", Task: 1}})}
	for i := range revoked.Workers {
		revoked.Workers[i].Owned.Tasks = slices.DeleteFunc(revoked.Workers[i].Owned.Tasks, func(id assignor.TaskID) bool { return id.Connector == "conn-01" && id.Task == 1 })
	}
	var cases []adviseCase
	add := func(name string, st cluster.State, o timeline.Options, ao AdviseOptions) {
		if ao.MaxMoves == 0 {
			ao.MaxMoves = -1
		}
		if ao.RestartMs == 0 {
			ao.RestartMs = 90000
		}
		cases = append(cases, adviseCase{name, st, o, ao})
	}
	classic := classicState()
	add("classic", classic, opts(300000, nil), AdviseOptions{})
	add("classic-delay-0", classic, opts(0, nil), AdviseOptions{})
	add("classic-gap", classic, opts(300000, nil), AdviseOptions{GapMs: 20000})
	add("classic-max-moves", classic, opts(300000, nil), AdviseOptions{MaxMoves: 20})
	add("classic-max-downtime", classic, opts(300000, nil), AdviseOptions{MaxDowntimeMs: 60000})
	add("classic-tight", classic, opts(300000, nil), AdviseOptions{MaxDowntimeMs: 15000, MaxMoves: 1})
	add("classic-heartbeat", classic, opts(300000, func(o *timeline.Options) { o.HeartbeatIntervalMs = 3000 }), AdviseOptions{RestartMs: 30000})
	add("classic-eager-group", classic, opts(300000, func(o *timeline.Options) { o.Protocol = "eager" }), AdviseOptions{})
	add("classic-compatible", classic, opts(60000, func(o *timeline.Options) { o.Protocol = "compatible" }), AdviseOptions{RestartMs: 45000})
	versions := []string{"2.3.0", "2.4.1", "2.5.1", "2.6.0", "3.3.2", "3.6.0", "3.7.0", "4.4.0"}
	if testing.Short() {
		versions = []string{"2.3.0", "2.6.0", "3.6.0"}
	}
	for _, v := range versions {
		add("classic-"+v, classic, opts(300000, version(v)), AdviseOptions{})
		add("classic-0-"+v, classic, opts(0, version(v)), AdviseOptions{DelaysMs: []int64{0, 5000, 60000}})
	}
	add("skewed", synth(t, "workers=9,connectors=20,tasks=4,skew=0.5"), opts(120000, nil), AdviseOptions{RestartMs: 60000})
	add("skewed-one-way", synth(t, "workers=9,connectors=20,tasks=4,skew=0.3"), opts(120000, nil),
		AdviseOptions{Orders: []string{OrderLeaderFirst}, Stops: []whatif.Stop{whatif.StopCrash}, Pacings: []whatif.Pacing{{Mode: whatif.PaceStable}}})
	add("wide", synth(t, "workers=14,connectors=30,tasks=2"), opts(600000, nil), AdviseOptions{RestartMs: 120000, DelaysMs: []int64{0, 30000, 119000, 121000, 900000}})
	restarts := &timeline.RestartTimes{Workers: map[string]timeline.RestartTime{"w2": {Ms: 30000}, "w5": {Ms: 150000}}, FallbackMs: 90000}
	add("classic-restart-times", classic, opts(300000, func(o *timeline.Options) { o.Restarts = restarts }), AdviseOptions{})
	add("one-worker", synth(t, "workers=1,connectors=5,tasks=2"), opts(300000, nil), AdviseOptions{})
	add("pending-delay", pending, opts(120000, nil), AdviseOptions{RestartMs: 20000})
	add("pending-departed", departed, opts(120000, nil), AdviseOptions{RestartMs: 20000, DelaysMs: []int64{0, 10000, 30000, 60000, 200000}})
	add("pending-departed-heartbeat", departed, opts(120000, func(o *timeline.Options) { o.HeartbeatIntervalMs = 3000; o.SessionTimeoutMs = 45000 }),
		AdviseOptions{RestartMs: 20000, DelaysMs: []int64{0, 10000, 30000, 60000, 200000}, Orders: []string{OrderLeaderFirst}, Stops: []whatif.Stop{whatif.StopCrash}})
	add("pending-departed-leader-first", departed, opts(120000, nil), AdviseOptions{RestartMs: 20000, DelaysMs: []int64{0, 10000, 30000, 60000, 200000}, Orders: []string{OrderLeaderFirst}})
	add("pending-revocation", revoked, opts(300000, nil), AdviseOptions{RestartMs: 20000})
	add("d7", synth(t, "workers=8,connectors=16,tasks=3"), opts(300000, nil),
		AdviseOptions{Orders: []string{OrderLeaderLast}, Pacings: []whatif.Pacing{{Mode: whatif.PaceBack}}, Stops: []whatif.Stop{whatif.StopClean}})
	return cases
}

// The sweep shares each delay's starting point, runs a roll whose rounds
// never read the delay once for every delay, and, when only the tables are
// shown, stops rolls proven absent from them. None of that may change a
// figure: every candidate is held to a sweep that runs every simulation
// from scratch, and the tables, verdict and recommendation to its.
func TestAdviseSweepMatchesFreshRuns(t *testing.T) {
	var shared, cut int
	for _, c := range adviseCases(t) {
		t.Run(c.name, func(t *testing.T) {
			run := func(edit func(*AdviseOptions)) *AdviseResult {
				ao := c.ao
				edit(&ao)
				res, err := Advise(context.Background(), c.state, c.opts, ao)
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			ref := run(func(ao *AdviseOptions) { ao.fresh = true })
			full := run(func(*AdviseOptions) {})
			if a, b := jsonOf(t, ref), jsonOf(t, full); a != b {
				t.Fatalf("shared sweep differs from the fresh one:\nfresh  %s\nshared %s", a, b)
			}
			workers := []int{1, 2}
			if testing.Short() {
				workers = []int{2}
			}
			for _, workers := range workers {
				shown := run(func(ao *AdviseOptions) { ao.ShownOnly, ao.Workers = true, workers })
				for _, out := range []string{format.OutputTable, format.OutputWide} {
					if a, b := tablesOf(t, ref, out), tablesOf(t, shown, out); a != b {
						t.Fatalf("%d workers, -o %s: tables differ when cut:\nfresh\n%s\ncut\n%s", workers, out, a, b)
					}
				}
				if ref.Verdict != shown.Verdict || ref.Why != shown.Why {
					t.Fatalf("verdict %s (%s), cut %s (%s)", ref.Verdict, ref.Why, shown.Verdict, shown.Why)
				}
				for i, s := range shown.Candidates {
					if s.Cut {
						cut++
						continue
					}
					if a, b := fmt.Sprint(ref.Candidates[i]), fmt.Sprint(s); a != b {
						t.Fatalf("candidate %d: fresh %s, not cut %s", i, a, b)
					}
				}
			}
			shared += full.shared
		})
	}
	// The shortcuts are exercised, not only allowed.
	if shared == 0 || cut == 0 {
		t.Fatalf("%d rolls shared between delays, %d cut: want some of each", shared, cut)
	}
	t.Logf("%d rolls shared between delays, %d cut", shared, cut)
}

// midDelay is a 3-worker cluster read while a delay holds w2's work back:
// w2 left, its work unowned, and it is back as w2.2, holding nothing.
func midDelay(t *testing.T, p *cluster.Pending) cluster.State {
	t.Helper()
	st := synth(t, "workers=3,connectors=4,tasks=3")
	for i, w := range st.Workers {
		if w.ID == "w2" {
			p.Lost = w.Owned
			st.Workers[i] = cluster.WorkerState{ID: "w2.2", Owned: assignor.Pieces{Connectors: []string{}, Tasks: []assignor.TaskID{}}}
		}
	}
	p.Candidates = []string{"w2.2"}
	st.Pending = p
	return st
}

func synth(t *testing.T, spec string) cluster.State {
	t.Helper()
	s, err := cluster.ParseSynthetic(spec)
	if err != nil {
		t.Fatal(err)
	}
	return cluster.SyntheticState(s)
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func tablesOf(t *testing.T, r *AdviseResult, out string) string {
	t.Helper()
	var b bytes.Buffer
	if err := format.Write(&b, r, format.Options{Output: out, NoColor: true}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
