package format

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jedib0t/go-pretty/v6/text"
)

type wideResult struct{}

func (wideResult) Tables() []Table {
	long := strings.Repeat("x", 150)
	return []Table{{Title: "MEMBERS", Header: []string{"member", "url", "tasks", "failed"}, Rows: [][]string{
		{"connect-10.0.0.1:8083-" + strings.Repeat("a", 36), "http://10.0.0.1:8083/", long, "0"},
		{"orders", "http://10.0.0.2:8083/", "orders-0", "2"},
	}, Footer: []string{"2 members"}}}
}

// Default tables fit the width they are given; -o wide keeps every value.
func TestTablesFitWidth(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, wideResult{}, Options{Width: 80}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if w := text.StringWidthWithoutEscSequences(line); w > 80 {
			t.Errorf("line of %d columns: %q", w, line)
		}
	}
	if !strings.Contains(buf.String(), "…") || !strings.Contains(buf.String(), "-o wide") {
		t.Errorf("shortened cells should show … and the note says how to see them whole:\n%s", buf.String())
	}
	buf.Reset()
	if err := Write(&buf, wideResult{}, Options{Output: "wide", Width: 80}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), strings.Repeat("x", 150)) {
		t.Errorf("-o wide shortened a value:\n%s", buf.String())
	}
	buf.Reset()
	if err := Write(&buf, wideResult{}, Options{}); err != nil { // no width: a pipe gets everything
		t.Fatal(err)
	}
	if len(strings.Split(strings.TrimSpace(buf.String()), "\n")) != 5 {
		t.Errorf("no width given, yet the table changed:\n%s", buf.String())
	}
}

func TestNoHeaders(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, wideResult{}, Options{NoHeaders: true}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "connect-10.0.0.1") || strings.Contains(buf.String(), "MEMBER") || strings.Contains(buf.String(), "2 members") {
		t.Errorf("--no-headers: want the two rows only, got:\n%s", buf.String())
	}
}

// A row with failed work is red in its first cell and its FAILED count; the
// title follows the one heading style.
func TestFailedCountsColouredAndHeadingStyle(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, wideResult{}, Options{ForceColor: true, Output: "wide"}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, ansiRed+"orders"+ansiReset) || !strings.Contains(out, ansiRed+"2"+ansiReset) {
		t.Errorf("row with FAILED 2 not red:\n%q", out)
	}
	if strings.Contains(out, ansiRed+"0"+ansiReset) || strings.Contains(out, ansiRed+"connect-10.0.0.1") {
		t.Errorf("row with FAILED 0 coloured:\n%q", out)
	}
	if !strings.HasPrefix(out, ansiBold+"Members"+ansiReset) {
		t.Errorf("title not in the heading style: %q", strings.SplitN(out, "\n", 2)[0])
	}
	for in, want := range map[string]string{"FINDINGS": "Findings", "RULE D1": "Rule D1", "EFFECTIVE WORKER SETTINGS (ms)": "Effective worker settings (ms)",
		"cooperative (sessioned): events": "Cooperative (sessioned): events", "Connector status (connect-status)": "Connector status (connect-status)",
		"connect-10.0.1.12:8083 does not return (sessioned): events": "connect-10.0.1.12:8083 does not return (sessioned): events", "round 2 (step 1)": "Round 2 (step 1)"} {
		if got := headingStyle(in); got != want {
			t.Errorf("headingStyle(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTerminalWidthFromColumns(t *testing.T) {
	t.Setenv("COLUMNS", "93")
	if got := TerminalWidth(nil); got != 93 {
		t.Errorf("COLUMNS=93: %d", got)
	}
	t.Setenv("COLUMNS", "")
	if got := TerminalWidth(nil); got != 0 {
		t.Errorf("no COLUMNS, no terminal: %d", got)
	}
}

func TestMillis(t *testing.T) {
	for ms, want := range map[int64]string{0: "0s", 40: "40ms", 1600: "1.6s", 45000: "45s", 300000: "5m", 310000: "5m10s", 3723000: "1h2m3s", 61499: "1m1s", -2000: "-2s"} {
		if got := Millis(ms); got != want {
			t.Errorf("Millis(%d) = %q, want %q", ms, got, want)
		}
	}
}

// Members of one cluster share long id prefixes; the checks' messages are
// prose. Two connectors and two members must stay apart at every width.
type keyedResult struct{}

func (keyedResult) Tables() []Table {
	return []Table{
		{Title: "Connectors", Header: []string{"NAME", "TYPE", "TARGET", "STATE", "TASKS", "COMMITTED", "RUNNING", "FAILED", "CONSISTENT"},
			Rows: [][]string{
				{"orders-postgres-cdc-source", "source", "STARTED", "RUNNING", "4", "4", "4", "0", "true"},
				{"orders-s3-archive-sink", "sink", "STARTED", "RUNNING", "8", "8", "8", "0", "true"},
			}, Drop: []int{8, 5, 2}},
		{Title: "Members", Header: []string{"WORKER", "MEMBER", "LEADER", "TASKS"},
			Rows: [][]string{
				{"connect-worker-17.prod.example.com:8083", "connect-connect-worker-17.prod.example.com:8083-1f2e3d4c-4b1d", "yes", "12"},
				{"connect-worker-18.prod.example.com:8083", "connect-connect-worker-18.prod.example.com:8083-1f2e5a63-4b1d", "no", "11"},
			}},
		{Title: "Findings", Header: []string{"SEVERITY", "RULE", "SUBJECT", "MESSAGE"}, Key: []int{1, 2}, Wrap: []int{3},
			Rows: [][]string{{"warn", "T6", "worker-4.properties", "session.timeout.ms 45000 is more than the broker's group.max.session.timeout.ms 30000: the worker cannot join the group until one of them changes"}}},
	}
}

// The columns that identify a row are never cut (kubectl never cuts NAME);
// droppable columns go first, with a note; prose wraps instead of being cut.
func TestFittingKeepsIdentifyingColumns(t *testing.T) {
	for _, width := range []int{60, 100, 200} {
		var buf bytes.Buffer
		if err := Write(&buf, keyedResult{}, Options{Width: width}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, whole := range []string{"orders-postgres-cdc-source", "orders-s3-archive-sink", "connect-worker-17.prod.example.com:8083", "connect-worker-18.prod.example.com:8083", "T6", "worker-4.properties"} {
			if !strings.Contains(out, whole) {
				t.Errorf("width %d: %q is not whole:\n%s", width, whole, out)
			}
		}
		message := "session.timeout.ms 45000 is more than the broker's group.max.session.timeout.ms 30000: the worker cannot join the group until one of them changes"
		if got := strings.Join(strings.Fields(findingText(out)), " "); !strings.Contains(got, message) {
			t.Errorf("width %d: the message is cut, want it wrapped whole:\n%s", width, out)
		}
		if width == 60 {
			if header := strings.Split(out, "\n")[1]; strings.Contains(header, "CONSISTENT") || !strings.Contains(out, "(CONSISTENT") {
				t.Errorf("width 60: CONSISTENT should be left out, with a note:\n%s", out)
			}
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "orders-") && text.StringWidthWithoutEscSequences(line) > 60 {
					t.Errorf("width 60: connector row of %d columns: %q", text.StringWidthWithoutEscSequences(line), line)
				}
			}
		}
		if width == 200 && strings.Contains(out, "left out") {
			t.Errorf("width 200: nothing should be left out:\n%s", out)
		}
	}
}

// findingText is the findings table's rows, the wrapped message's lines
// joined, without the table's padding.
func findingText(out string) string {
	i := strings.Index(out, "Findings")
	if i < 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range strings.Split(out[i:], "\n")[2:] {
		b.WriteString(l + " ")
	}
	return b.String()
}
