package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Several workers per event, scaling, joiners named as Connect names them,
// and settings with their source, through the command line.
func TestPlanSeveralWorkersAndScale(t *testing.T) {
	t.Parallel()
	syn := "--synthetic=workers=4,connectors=8,tasks=2"
	m := planJSON(t, "plan", "leave", syn, "--worker", "w2", "--worker", "w3", "--stop", "crash", "--pace", "5s")
	if ev := m["event"].(string); ev != "w2, w3 crash, 5s apart" {
		t.Errorf("event %q", ev)
	}
	a := m["assumptions"].(map[string]any)
	if a["pace_ms"].(float64) != 5000 {
		t.Errorf("pace_ms %v", a["pace_ms"])
	}
	// A repeated worker is refused, not silently the last one.
	for _, ws := range [][]string{{"--worker", "w2", "--worker", "w2"}, {"--worker", "w2,w2"}} {
		_, stderr, code := run(t, append([]string{"plan", "leave", syn}, ws...)...)
		if code != ExitUsage || !strings.Contains(stderr, "--worker") || !strings.Contains(stderr, "twice") {
			t.Errorf("%v: exit %d %q, want 2 naming --worker", ws, code, stderr)
		}
	}
	m = planJSON(t, "plan", "scale", syn, "--to", "2", "--step", "1", "--pace", "20s")
	if ev := m["event"].(string); !strings.Contains(ev, "scale in from 4 to 2 workers, 1 at a time, 20s apart (w4, w3 stop cleanly)") {
		t.Errorf("scale event %q", ev)
	}
	m = planJSON(t, "plan", "join", syn, "--add", "10.0.1.9:8083", "--add", "10.0.1.10:8083", "--pace", "1s", "--heartbeat-interval", "3s")
	if ev := m["event"].(string); !strings.Contains(ev, "10.0.1.9:8083, 10.0.1.10:8083 join the group, 1s apart") {
		t.Errorf("join event %q", ev)
	}
	co := branches(t, m)[0]["cooperative"].(map[string]any)
	first := co["rounds"].([]any)[0].(map[string]any)
	if n := len(first["workers"].([]any)); n != 6 {
		t.Errorf("joins 1 s apart with a 3 s heartbeat: first round has %d workers, want both joiners (6)", n)
	}
	sources := map[string]string{}
	for _, s := range m["assumptions"].(map[string]any)["settings"].([]any) {
		s := s.(map[string]any)
		sources[s["setting"].(string)] = s["source"].(string) + "=" + s["value"].(string)
	}
	if sources["heartbeat.interval.ms"] != "flag=3000" || sources["scheduled.rebalance.max.delay.ms"] != "default=300000" {
		t.Errorf("settings %v", sources)
	}
	for name, args := range map[string][]string{
		"scale to the same size": {"plan", "scale", syn, "--to", "4"},
		"scale to none":          {"plan", "scale", syn, "--to", "0"},
		"negative pace":          {"plan", "leave", syn, "--worker", "w2", "--pace", "-1s"},
		"joiner twice":           {"plan", "join", syn, "--add", "h:1", "--add", "h:1"},
	} {
		if _, stderr, code := run(t, args...); code != ExitUsage {
			t.Errorf("%s: exit %d, want 2 (%s)", name, code, stderr)
		}
	}
}

// plan replay --from continues a scenario from a snapshot's group.
func TestPlanReplayFromSnapshot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sc := filepath.Join(dir, "next.json")
	if err := os.WriteFile(sc, []byte(`{"scenario": 1, "steps": [{"leave": ["10.0.1.12:8083"]}, {"settle": {}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join("..", "examples", "cluster.snapshot.json")
	out, stderr, code := run(t, "plan", "replay", "--from", snap, sc, "-o", "json", "--jq", ".final | length")
	if code != 0 || strings.TrimSpace(out) != "2" {
		t.Errorf("replay --from: exit %d, %q %s", code, out, stderr)
	}
	// Without --from the starting members are unknown: leaving one is an error.
	if _, _, code := run(t, "plan", "replay", sc); code != ExitUsage {
		t.Errorf("replay without --from: exit %d, want 2", code)
	}
}

// inspect rebalances reads the example snapshot's status topic.
func TestInspectRebalances(t *testing.T) {
	t.Parallel()
	snap := filepath.Join("..", "examples", "cluster.snapshot.json")
	out, stderr, code := run(t, "inspect", "rebalances", "--from", snap, "-o", "json", "--jq", "[.rebalances[].generation] | length > 0")
	if code != 0 || strings.TrimSpace(out) != "true" {
		t.Errorf("inspect rebalances: exit %d %q %s", code, out, stderr)
	}
}

// The last event's plan says loudly which settings are Kafka's defaults
// (notes, JSON and stderr), and takes the plan commands' clock flags.
func TestInspectRebalancesPlanSettings(t *testing.T) {
	t.Parallel()
	snap := filepath.Join("..", "examples", "cluster.snapshot.json")
	out, stderr, code := run(t, "inspect", "rebalances", "--from", snap, "-o", "json", "--jq", ".last_event.defaults_assumed | join(\",\")")
	if code != 0 || strings.TrimSpace(out) != "scheduled.rebalance.max.delay.ms=300000,session.timeout.ms=10000" || !strings.Contains(stderr, "plan assumes Kafka's defaults") {
		t.Errorf("without settings: exit %d %q %q", code, out, stderr)
	}
	out, stderr, code = run(t, "inspect", "rebalances", "--from", snap, "--max-delay", "40s", "--session-timeout", "10s", "--heartbeat-interval", "3s", "-o", "json", "--jq", ".last_event | \"\\(.defaults_assumed | length) \\([.notes[] | select(contains(\"max delay 40s, session timeout 10s\"))] | length)\"")
	if code != 0 || strings.TrimSpace(out) != "0 1" || strings.Contains(stderr, "defaults") {
		t.Errorf("with the flags: exit %d %q %q", code, out, stderr)
	}
}

// The example's last event is 10.0.1.13's join; connectors created, paused
// and stopped after it are no cost of it. The real side leaves out what is
// not configured to run now, the plan what the status topic first shows
// after the join: both count jdbc-orders-source alone (its task 1 waits
// for the plan's first round: 2 s).
func TestInspectRebalancesLastEventCountsItsOwnWork(t *testing.T) {
	t.Parallel()
	snap := filepath.Join("..", "examples", "cluster.snapshot.json")
	out, stderr, code := run(t, "inspect", "rebalances", "--from", snap, "-o", "json", "--jq",
		`.last_event | "\(.kind) \(.real.tasks_stopped) \(.real.all_running_after_ms) \(.predicted.task_ms_not_running) \([.notes[] | select(test("not configured to run now|left out of the plan"))] | length)"`)
	if code != 0 || strings.TrimSpace(out) != "join 0 0 2000 2" {
		t.Errorf("exit %d %q %s", code, out, stderr)
	}
}
