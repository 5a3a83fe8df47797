package commands

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/kafkatest"
)

const classicSynthetic = "workers=6,connectors=30,tasks=3"

func adviseJSON(t *testing.T, wantCode int, args ...string) map[string]any {
	t.Helper()
	out, stderr, code := run(t, append([]string{"plan", "advise"}, append(args, "-o", "json")...)...)
	if code != wantCode {
		t.Fatalf("plan advise %v: exit %d, want %d: %s", args, code, wantCode, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%.300s", err, out)
	}
	return m
}

// The classic case: the 5-minute delay is beaten on both costs (exit 1);
// with the recommended delay as the current one, it is on the front (exit 0).
func TestAdviseExitCodes(t *testing.T) {
	t.Parallel()
	m := adviseJSON(t, ExitFindings, "--synthetic", classicSynthetic, "--restart-time", "90s", "--max-delay", "5m")
	if m["verdict"] != "recommendation_beats_current" {
		t.Errorf("verdict %v", m["verdict"])
	}
	rec := m["recommended"].(map[string]any)
	cur := m["current"].(map[string]any)
	if cur["delay_ms"].(float64) != 300000 || rec["delay_ms"].(float64) >= 300000 {
		t.Errorf("current %v, recommended %v", cur, rec)
	}
	m = adviseJSON(t, ExitOK, "--synthetic", classicSynthetic, "--restart-time", "90s", "--max-delay", "0")
	if m["verdict"] != "current_on_front" {
		t.Errorf("with delay 0: verdict %v", m["verdict"])
	}
	// --max-moves keeps the delay-0 rolls (85 tasks moved) out.
	m = adviseJSON(t, ExitFindings, "--synthetic", classicSynthetic, "--restart-time", "90s", "--max-delay", "5m", "--max-moves", "30")
	rec = m["recommended"].(map[string]any)
	if moved := rec["roll"].(map[string]any)["tasks_moved"].(float64); moved > 30 {
		t.Errorf("recommended moves %v tasks, over --max-moves 30", moved)
	}
	if !strings.Contains(m["why"].(string), "--max-moves 30") {
		t.Errorf("why does not name the limit: %v", m["why"])
	}
}

// The sweep's progress is for a terminal: stderr redirected (here a
// buffer) carries none of it, and stdout never does.
func TestAdviseProgressOnlyOnATerminal(t *testing.T) {
	t.Parallel()
	stdout, stderr, _ := run(t, "plan", "advise", "--synthetic", classicSynthetic, "--restart-time", "90s", "-o", "json")
	if strings.Contains(stderr, "simulations") || strings.Contains(stdout, "simulations") {
		t.Errorf("progress written off a terminal: stderr %q", stderr)
	}
}

func TestAdviseFormatsAndFlags(t *testing.T) {
	t.Parallel()
	base := []string{"plan", "advise", "--synthetic", "workers=3,connectors=6,tasks=2", "--restart-time", "30s", "--delays", "0,30s,1m", "--order", "leader-last", "--stop", "clean"}
	for _, o := range []string{"table", "wide", "json", "jsonl", "yaml"} {
		out, stderr, code := run(t, append(base, "-o", o)...)
		if code != ExitOK && code != ExitFindings {
			t.Errorf("-o %s: exit %d: %s", o, code, stderr)
		}
		if o == "jsonl" {
			lines := strings.Split(strings.TrimSpace(out), "\n")
			// 3 delays x back, stable, plus the current 5m way of rolling.
			if len(lines) != 7 {
				t.Errorf("jsonl: %d lines, want 7 candidates:\n%s", len(lines), out)
			}
			for _, l := range lines {
				if !json.Valid([]byte(l)) {
					t.Errorf("jsonl line not JSON: %s", l)
				}
			}
		}
		if o == "table" && !strings.Contains(out, "Pareto front") {
			t.Errorf("table without the front:\n%s", out)
		}
	}
	out, _, _ := run(t, append(base, "--jq", ".candidates | length")...)
	if strings.TrimSpace(out) != "7" {
		t.Errorf("--jq candidates = %q, want 7", out)
	}
	for _, bad := range [][]string{
		{"--pacing", "gap"},         // gap without --gap
		{"--order", "random"},       // unknown order
		{"--max-moves", "-1"},       // negative
		{"--plot", "out.pdf"},       // unknown picture format
		{"--delays", "soon"},        // not a duration
		{"--max-downtime", "0"},     // nothing can meet it
		{"--stop", "pull-the-plug"}, // unknown stop mode
	} {
		if _, stderr, code := run(t, append(base, bad...)...); code != ExitUsage || !strings.Contains(stderr, "--") {
			t.Errorf("%v: exit %d (%s), want %d naming the flag", bad, code, stderr, ExitUsage)
		}
	}
	m := adviseJSON(t, ExitOK, "--synthetic", "workers=3,connectors=6,tasks=2", "--restart-time", "30s", "--delays", "0", "--pacing", "gap", "--gap", "20s", "--max-delay", "0", "--order", "leader-last", "--stop", "clean")
	var gaps int
	for _, c := range m["candidates"].([]any) {
		if c.(map[string]any)["pacing"] == "gap" {
			gaps++
		}
	}
	if gaps != 1 {
		t.Errorf("%d gap candidates, want 1", gaps)
	}
}

// --plot writes a valid SVG or PNG on the plans and the advisor.
func TestPlotFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	svg := filepath.Join(dir, "roll.svg")
	if _, stderr, code := run(t, "plan", "rolling-restart", "--synthetic", classicSynthetic, "--restart-time", "90s", "--plot", svg, "-o", "json"); code != ExitOK {
		t.Fatalf("rolling-restart --plot: exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, new(struct{})); err != nil || !bytes.Contains(b, []byte("w6.2 back")) {
		t.Errorf("rolling-restart SVG: %v, has w6.2's return: %v", err, bytes.Contains(b, []byte("w6.2 back")))
	}
	pngPath := filepath.Join(dir, "tradeoff.png")
	if _, stderr, code := run(t, "plan", "advise", "--synthetic", "workers=3,connectors=6,tasks=2", "--restart-time", "30s", "--delays", "0,1m", "--plot", pngPath); code != ExitOK && code != ExitFindings {
		t.Fatalf("advise --plot: exit %d: %s", code, stderr)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("advise PNG: %v", err)
	}
	for _, cmd := range [][]string{
		{"plan", "join", "--add", "1"},
		{"plan", "leave", "--worker", "w2", "--returns-after", "1m"},
		{"plan", "connector", "--set", "conn-00=4"},
	} {
		p := filepath.Join(dir, cmd[1]+".svg")
		if _, stderr, code := run(t, append(cmd, "--synthetic", "workers=3,connectors=6,tasks=2", "--plot", p, "-o", "json")...); code != ExitOK {
			t.Errorf("%v --plot: exit %d: %s", cmd, code, stderr)
			continue
		}
		if b, err := os.ReadFile(p); err != nil || xml.Unmarshal(b, new(struct{})) != nil {
			t.Errorf("%v: no valid SVG (%v)", cmd, err)
		}
	}
}

// From a snapshot file: the advice runs on the members and connectors the
// file holds.
func TestAdviseFromFile(t *testing.T) {
	t.Parallel()
	out, stderr, code := run(t, "plan", "advise", "--from", "../examples/cluster.snapshot.json", "--restart-time", "90s", "--delays", "0,1m,5m", "--max-delay", "1m", "--order", "leader-last", "-o", "json")
	if code != ExitOK && code != ExitFindings {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	labels := m["labels"].(map[string]any)
	if len(labels) != 3 {
		t.Errorf("%d members, want the snapshot's 3", len(labels))
	}
	if _, ok := labels[m["crash_worker"].(string)]; !ok {
		t.Errorf("crash worker %v is not a member", m["crash_worker"])
	}
	current := 0
	for _, c := range m["candidates"].([]any) {
		if c.(map[string]any)["current"] == true {
			current++
			if c.(map[string]any)["delay_ms"].(float64) != 60000 {
				t.Errorf("current candidate %v, want delay 60000", c)
			}
		}
	}
	if current != 1 {
		t.Errorf("%d current candidates, want 1", current)
	}
	if (code == ExitFindings) != (m["verdict"] == "recommendation_beats_current") {
		t.Errorf("exit %d with verdict %v", code, m["verdict"])
	}
}

func TestAdviseLive(t *testing.T) {
	t.Parallel() // waits on the network mostly
	log := kafkatest.NewRequestLog()
	c := liveClusterLogged(t, log)
	log.Start()
	pic := filepath.Join(t.TempDir(), "live.svg")
	out, stderr, code := run(t, "-b", c.Bootstrap(), "--timeout", "10s", "plan", "advise", "--restart-time", "2m", "--max-downtime", "3m", "-o", "json", "--plot", pic)
	log.Stop()
	if b, err := os.ReadFile(pic); err != nil || xml.Unmarshal(b, new(struct{})) != nil {
		t.Errorf("live --plot: no valid SVG (%v)", err)
	}
	if code != ExitOK && code != ExitFindings {
		t.Fatalf("live advise: exit %d: %s", code, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if !strings.HasPrefix(m["source"].(string), "kafka:") || len(m["candidates"].([]any)) == 0 {
		t.Errorf("source %v, %d candidates", m["source"], len(m["candidates"].([]any)))
	}
	if rec, ok := m["recommended"].(map[string]any); ok {
		if o := rec["crash"].(map[string]any)["longest_task_outage_ms"].(float64); o > 180000 {
			t.Errorf("recommended crash outage %v ms over --max-downtime 3m", o)
		}
	} else {
		t.Errorf("no recommendation under --max-downtime 3m: %v", m["why"])
	}
	if v := log.Violations("connectscope"); len(v) > 0 {
		t.Errorf("plan advise sent forbidden requests %v", v)
	}
}

// D7 in check timeouts: the snapshot's group and --restart-time let the
// advisor compare the worker file's delay with the others.
func TestCheckTimeoutsD7(t *testing.T) {
	t.Parallel()
	w := filepath.Join(t.TempDir(), "w.properties")
	if err := os.WriteFile(w, []byte("bootstrap.servers=x:9092\ngroup.id=connect-cluster\nconfig.storage.topic=connect-configs\noffset.storage.topic=connect-offsets\nstatus.storage.topic=connect-status\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "timeouts", "--from", "../examples/cluster.snapshot.json", "--worker-config", w, "--jq", `.findings[] | select(.rule == "D7") | .values.recommended_delay_ms`}
	out, stderr, code := run(t, append(args, "--restart-time", "90s")...)
	if code != ExitOK && code != ExitFindings {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.TrimSpace(out) != "0" {
		t.Errorf("D7 recommended delay %q, want 0 (the default 5 minutes is beaten)", out)
	}
	if out, _, _ := run(t, args...); strings.TrimSpace(out) != "" {
		t.Errorf("D7 without --restart-time: %q", out)
	}
}
