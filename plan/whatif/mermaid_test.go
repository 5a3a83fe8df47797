package whatif

import (
	"bytes"
	"strings"
	"testing"
)

func TestMermaidJoin(t *testing.T) {
	res, err := JoinPlan(synth(t, "workers=3,connectors=10,tasks=4"), testOpts(300000), []string{"w4"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteExtra(&buf, "mermaid"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if lines[0] != "sequenceDiagram" {
		t.Fatalf("first line %q", lines[0])
	}
	for _, want := range []string{"participant L as leader", "participant p4 as w4", "round 1 (generation 1)", "L->>p4: assign 2/10"} {
		if !strings.Contains(out, want) {
			t.Errorf("diagram lacks %q:\n%s", want, out)
		}
	}
	// Every revoking worker gets a message in round 1; the newcomer none.
	msgs := 0
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "L->>") {
			msgs++
		}
		if strings.ContainsAny(l, ";#") {
			t.Errorf("line %q has a Mermaid statement character", l)
		}
	}
	if msgs < 2 {
		t.Errorf("%d messages, want revocations and the assignment", msgs)
	}
	if err := res.WriteExtra(&buf, "dot"); err == nil {
		t.Errorf("unknown extra format accepted")
	}
}

func TestMermaidBranchesAreAlternatives(t *testing.T) {
	back := int64(90000)
	res, err := LeavePlan(synth(t, "workers=3,connectors=3,tasks=2"), testOpts(300000), "w2", StopClean, &back)
	if err != nil {
		t.Fatal(err)
	}
	out := res.Mermaid()
	alt := strings.Index(out, "    alt w2 returns after 1m30s")
	els := strings.Index(out, "    else w2 does not return")
	end := strings.LastIndex(out, "    end\n")
	if alt < 0 || els < alt || end < els {
		t.Errorf("want alt ... else ... end blocks:\n%s", out)
	}
	if !strings.Contains(out, "delay 5m: lost work stays unassigned until t+5m") {
		t.Errorf("the delay is not drawn:\n%s", out)
	}
	// The group runs eager: the eager timeline is drawn.
	res.Protocol = "eager"
	if !strings.Contains(res.Mermaid(), "restart all") {
		t.Errorf("eager diagram does not show the restarts")
	}
}

// Cluster names in a label are text: no terminal control, bidi mark, line
// break or markup reaches the diagram raw.
func TestMermaidTextHostile(t *testing.T) {
	got := mermaidText("a\x1b]0;t\x07\u009b\u202e</svg><script>&x\"y\nz#1;")
	for _, raw := range []string{"\x1b", "\x07", "\u009b", "\u202e", "<", ">", "\n", "#1;"} {
		if strings.Contains(got, raw) {
			t.Errorf("%q reaches the label raw: %q", raw, got)
		}
	}
	if !strings.Contains(got, "#lt;/svg#gt;") {
		t.Errorf("markup not kept as text: %q", got)
	}
}
