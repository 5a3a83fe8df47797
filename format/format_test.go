package format

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/internal/golden"
	"gopkg.in/yaml.v3"
)

// sample is a small result shaped like connectscope's: nested lists, a map,
// a null, strings YAML must quote, and a multi-line trace.
type sample struct {
	Topic      string            `json:"topic"`
	Connectors []sampleConnector `json:"connectors"`
	Counts     map[string]int    `json:"counts"`
	Records    sampleCounts      `json:"records"`
	Problems   []string          `json:"problems"`
	Leader     *taskID           `json:"leader"`
}

// taskID writes itself as text, like assignor.TaskID (plan/assignor).
type taskID struct {
	connector string
	task      int
}

func (t taskID) MarshalText() ([]byte, error) {
	return []byte(t.connector + "-" + strconv.Itoa(t.task)), nil
}

type sampleConnector struct {
	Name      string  `json:"name"`
	State     string  `json:"state"`
	WorkerID  *string `json:"worker_id"`
	Tasks     int     `json:"tasks"`
	Offset    int64   `json:"offset"`
	Trace     *string `json:"trace"`
	Note      string  `json:"note"`
	Protected bool    `json:"protected"`
}

type sampleCounts struct {
	Read     int `json:"read"`
	Problems int `json:"problems"`
}

func ptr(s string) *string { return &s }

// ptrSample is a pointer, as most commands' results are.
func ptrSample() *sample { s := newSample(); return &s }

func newSample() sample {
	return sample{
		Topic: "connect-status",
		Connectors: []sampleConnector{
			{Name: "inventory", State: "RUNNING", WorkerID: ptr("10.0.0.1:8083"), Tasks: 2, Offset: 9007199254740993, Note: "123"},
			{Name: "orders", State: "FAILED", WorkerID: ptr("10.0.0.2:8083"), Tasks: 3, Offset: 17,
				Trace: ptr("org.apache.kafka.connect.errors.ConnectException: boom\n\tat Task.run(Task.java:1)"), Note: "a: b & <c>", Protected: true},
			{Name: "zürich-cdc", State: "UNASSIGNED", Tasks: 0, Note: "true"},
		},
		Counts:   map[string]int{"orders": 3, "inventory": 2},
		Records:  sampleCounts{Read: 7, Problems: 0},
		Problems: []string{},
		Leader:   &taskID{"orders", 2},
	}
}

func (s sample) Tables() []Table {
	t := Table{Title: "Connectors", Header: []string{"name", "state", "worker", "tasks", "note"}, Wide: []int{2, 4}}
	for _, c := range s.Connectors {
		worker := "-"
		if c.WorkerID != nil {
			worker = *c.WorkerID
		}
		t.Rows = append(t.Rows, []string{c.Name, c.State, worker, itoa(c.Tasks), c.Note})
	}
	t.Footer = []string{"3 connectors, 5 tasks", "records read 7, problems 0"}
	empty := Table{Title: "Problems", Header: []string{"topic", "offset", "reason"}, Footer: []string{"nothing to report"}}
	return []Table{t, empty}
}

func (s sample) Items() []any {
	out := make([]any, len(s.Connectors))
	for i, c := range s.Connectors {
		out[i] = c
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// checkGolden compares got with testdata/NAME, or rewrites it under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if golden.Update() {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run go test ./format -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

func TestGoldenFormats(t *testing.T) {
	cases := []struct {
		golden string
		opts   Options
	}{
		{"sample.table", Options{Output: "table"}},
		{"sample.table", Options{}}, // table is the default
		{"sample.wide", Options{Output: "wide"}},
		{"sample.color", Options{Output: "table", ForceColor: true}},
		{"sample.table", Options{Output: "table", ForceColor: true, NoColor: true}}, // --no-color wins
		{"sample.json", Options{Output: "json"}},
		{"sample.jsonl", Options{Output: "jsonl"}},
		{"sample.yaml", Options{Output: "yaml"}},
		{"sample.schema", Options{Output: "schema"}},
		{"sample.jq-names", Options{JQ: ".connectors[].name"}},
		{"sample.jq-values", Options{JQ: `.connectors[] | select(.state != "RUNNING") | {name, worker_id, offset: .offset}`, Output: "json"}},
		{"sample.jq-mixed", Options{JQ: `.topic, .records, .counts.orders, .connectors[0].trace, (.connectors[0].offset), [.connectors[].protected]`}},
	}
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, ptrSample(), c.opts); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.golden, buf.Bytes())
		})
	}
}

// A result without Tables falls back to YAML, and jsonl prints a non-Lister
// on a single line.
type plain struct {
	A int      `json:"a"`
	B []string `json:"b"`
}

func TestNonTablerAndNonLister(t *testing.T) {
	var table, yaml, jsonl bytes.Buffer
	p := plain{A: 1, B: []string{"x"}}
	if err := Write(&table, p, Options{Output: "table"}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&yaml, p, Options{Output: "yaml"}); err != nil {
		t.Fatal(err)
	}
	if table.String() != yaml.String() {
		t.Errorf("table of a non-Tabler = %q, want its YAML %q", table.String(), yaml.String())
	}
	if err := Write(&jsonl, p, Options{Output: "jsonl"}); err != nil {
		t.Fatal(err)
	}
	if got, want := jsonl.String(), "{\"a\":1,\"b\":[\"x\"]}\n"; got != want {
		t.Errorf("jsonl = %q, want %q", got, want)
	}
}

func TestUnknownOutput(t *testing.T) {
	err := Write(&bytes.Buffer{}, newSample(), Options{Output: "xml"})
	var ue *UsageError
	if !errors.As(err, &ue) {
		t.Fatalf("error %v is %T, want *UsageError", err, err)
	}
	want := `--output: unknown output format "xml": use one of table, wide, json, jsonl, yaml, schema`
	if err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

func TestBadJQ(t *testing.T) {
	cases := []struct{ expr, want string }{
		{".connectors[] | )", `--jq: unexpected token ")" at column 17 of ".connectors[] | )" (before ")")`},
		{".connectors[", `--jq: unexpected EOF at column 13 of ".connectors[" (before "")`},
		{".topic | nosuchfn(1)", `--jq: function not defined: nosuchfn/1 at column 10 of ".topic | nosuchfn(1)" (before "nosuchfn(1)")`},
		{`select(.state == $want)`, `--jq: variable not defined: $want at column 18 of "select(.state == $want)" (before "$want)")`},
		{".topic | keys", `--jq: keys cannot be applied to: string ("connect-status") (running ".topic | keys")`},
		{`error("stop here")`, `--jq: error: stop here (running "error(\"stop here\")")`},
	}
	for _, c := range cases {
		var buf bytes.Buffer
		err := Write(&buf, newSample(), Options{JQ: c.expr})
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("--jq %q: error %v is %T, want *UsageError", c.expr, err, err)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("--jq %q:\n got %s\nwant %s", c.expr, err, c.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("--jq %q: error spans lines: %q", c.expr, err)
		}
	}
}

func TestJQHaltStopsQuietly(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, newSample(), Options{JQ: ".topic, halt, .records"}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "connect-status\n" {
		t.Errorf("output = %q", got)
	}
}

// TestJQEndsWithItsContext: Ctrl-C cancels the run's context, and a --jq
// expression stops at its next step with that error (Main then says
// "interrupted", exit 130), not as a usage error and not at the process's
// grace deadline. The expression would run long and succeed if the context
// went unchecked.
func TestJQEndsWithItsContext(t *testing.T) {
	for _, jsonl := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		opts := Options{JQ: "last(limit(10000000; repeat(1)))", Context: ctx}
		if jsonl {
			opts.Output = OutputJSONL
		}
		var buf bytes.Buffer
		err := Write(&buf, newSample(), opts)
		var ue *UsageError
		if !errors.Is(err, context.Canceled) || errors.As(err, &ue) {
			t.Errorf("jsonl %v: error %v (%T), want context.Canceled and no usage error", jsonl, err, err)
		}
		if buf.Len() != 0 {
			t.Errorf("jsonl %v: printed %q after the context ended", jsonl, buf.String())
		}
	}
	// A context still running changes nothing.
	var buf bytes.Buffer
	if err := Write(&buf, newSample(), Options{JQ: "last(limit(1000; repeat(1)))", Context: context.Background()}); err != nil || buf.String() != "1\n" {
		t.Errorf("live context: %q, %v", buf.String(), err)
	}
}

func TestCheckOutput(t *testing.T) {
	for _, ok := range append(Outputs(), "") {
		if err := CheckOutput(ok); err != nil {
			t.Errorf("CheckOutput(%q) = %v", ok, err)
		}
	}
	if err := CheckOutput("mermaid"); err == nil {
		t.Error("mermaid accepted without being offered")
	}
	if err := CheckOutput("mermaid", "mermaid"); err != nil {
		t.Errorf("offered extra format rejected: %v", err)
	}
}

// extra offers its own format, like plan's mermaid output.
type extra struct{ plain }

func (extra) ExtraFormats() []string { return []string{"mermaid"} }
func (extra) WriteExtra(w io.Writer, f string) error {
	_, err := io.WriteString(w, "sequenceDiagram\n")
	return err
}

func TestExtraFormat(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, extra{}, Options{Output: "mermaid"}); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "sequenceDiagram\n" {
		t.Errorf("got %q", buf.String())
	}
	err := Write(&buf, extra{}, Options{Output: "dot"})
	if err == nil || !strings.Contains(err.Error(), "schema, mermaid") {
		t.Errorf("unknown format error should list the extra format: %v", err)
	}
}

func TestNotTerminal(t *testing.T) {
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is not a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is not a terminal")
	}
	// Colour never reaches a file unless forced.
	if err := Write(f, newSample(), Options{}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(f.Name())
	if bytes.Contains(b, []byte("\x1b[")) {
		t.Errorf("escape codes written to a file: %q", b)
	}
}

// oneYAMLDocument is result's YAML from one encoder over the whole JSON
// form, the text writeYAML must match; false when the JSON form or the
// encoder refuses it.
func oneYAMLDocument(t *testing.T, result any) (string, bool) {
	t.Helper()
	b, err := marshalJSON(result, false)
	if err != nil {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	doc, err := yamlNode(dec)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := encodeYAMLString(doc)
	if err != nil {
		return "", false
	}
	return whole, true
}

// Writing YAML piece by piece must give exactly what one encoder gives for
// the whole document.
func TestYAMLPiecesMatchOneDocument(t *testing.T) {
	big := bigSample()
	big.Connectors = big.Connectors[:40]
	big.Connectors[3].Trace = ptr("line one\n\tline two\n")
	big.Connectors[5].Note = "- not a list"
	big.Counts["key: with colon"] = 1
	nested := map[string]any{"a": map[string]any{"b": map[string]any{"c": []any{1, "x", map[string]any{}}}, "e": []any{}}, "z": "null", "list": []any{[]any{1, 2}, []any{}}, "odd: key": map[string]any{"x": 1}, "true": []any{"y"}}
	for _, result := range []any{newSample(), big, nested, []any{"x", map[string]any{"k": "v"}}, "plain", 42} {
		whole, ok := oneYAMLDocument(t, result)
		if !ok {
			t.Fatalf("%v: one encoder refused the whole document", result)
		}
		var pieces bytes.Buffer
		if err := Write(&pieces, result, Options{Output: "yaml"}); err != nil {
			t.Fatal(err)
		}
		if pieces.String() != whole {
			t.Errorf("pieces differ from one document\n--- pieces ---\n%s\n--- whole ---\n%s", pieces.String(), whole)
		}
	}
}

// The same for any document: containers laid out at every depth and the
// scalars written from the caches or the word and integer rules, against
// one encoder over the whole document.
func FuzzYAMLLaidOutMatchesOneDocument(f *testing.F) {
	for _, seed := range []string{
		`{"a":{"b":{"c":[1,"x",{}],"d":[[1,2],[],[[3]]]},"e":[{"k":{"x":[{"y":1,"z":"- not a list"}]}}]}}`,
		`[[{"a":[1]}],{"b":{"c":"line one\n\tline two\n"}},[],{}]`,
		`{"` + strings.Repeat("k", 140) + `":{"x":[1,2]},"l":[{"` + strings.Repeat("m", 130) + `":[{"n":1}]}]}`,
		`{"` + strings.Repeat("k", 140) + `":"v","l":[{"` + strings.Repeat("m", 130) + `":"line\nline\n"}]}`,
		`{"<<":{"true":["null","\u202e"]},"odd: key":[[["deep"]]]}`,
		`"plain"`, `42`, `[{"a":"\n"},{"b":"\t\n"}]`,
		`{"a":"x:","b":"x::y","c":"a:b","d":["True","y","NO","on","~","1e5","0x1F","12345678901234567890","-0","1.50","2001-12-14"]}`,
		`[[["a\nb","  lead","trail ","a #b","a: b"],{"k":["\n\nx\n\n"]}]]`,
		`{"":"","k":"","l":[""," "]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var v any
		if json.Unmarshal(in, &v) != nil {
			return
		}
		whole, ok := oneYAMLDocument(t, v)
		if !ok {
			return // refused whole: nothing to match
		}
		var laid bytes.Buffer
		if err := writeYAML(&laid, v); err != nil {
			t.Fatal(err)
		}
		if laid.String() != whole {
			t.Fatalf("%s\n--- laid out ---\n%s\n--- whole ---\n%s", in, laid.String(), whole)
		}
	})
}

// What a YAML 1.1 reader (PyYAML, Psych) takes for a bool or a number is
// quoted, so that `-o yaml` reads back as `-o json` there too; what no
// reader takes for other than a string stays plain.
func TestYAMLQuotesWhatYAML11ReadsAsOther(t *testing.T) {
	quoted := []string{"yes", "No", "ON", "off", "y", "N", "=", "1:20", "-1:20:30.5", "1_0.5", "0b101", "017", ".5", "1.", "+.inf", ".NaN"}
	plain := []string{"yesterday", "noon", "one", "a=b", "1:60", "1.2.3", "10.0.1.11:8083", "v1", "0b102"}
	var b bytes.Buffer
	if err := Write(&b, map[string]any{"q": quoted, "p": plain}, Options{Output: "yaml"}); err != nil {
		t.Fatal(err)
	}
	for _, s := range quoted {
		if !strings.Contains(b.String(), "- \""+s+"\"\n") {
			t.Errorf("%q not double-quoted:\n%s", s, b.String())
		}
	}
	for _, s := range plain {
		if !strings.Contains(b.String(), "- "+s+"\n") {
			t.Errorf("%q not plain:\n%s", s, b.String())
		}
	}
}

// plainWord and plainInteger claim only what the encoder does: each
// string they pass is written as itself, whatever it spells.
func TestPlainWordsAreTheEncoders(t *testing.T) {
	alphabet := "aAyYnNtTfFoOeE019_.-/: #~<"
	rng := rand.New(rand.NewPCG(1, 2))
	claimed := 0
	for i := 0; i < 200000; i++ {
		b := make([]byte, 1+rng.IntN(7))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		s := string(b)
		for _, c := range []struct {
			ok   bool
			node *yaml.Node
		}{
			{plainWord(s), yamlString(s)},
			{plainInteger(s), &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: s}},
		} {
			if !c.ok {
				continue
			}
			claimed++
			got, err := encodeYAMLString(&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{c.node}})
			if err != nil || got != "- "+s+"\n" {
				t.Fatalf("%q (%s) passed as plain; the encoder writes %q (%v)", s, c.node.Tag, got, err)
			}
		}
	}
	for _, s := range []string{"true", "Null", "a:", "a::b", "1a", "", strings.Repeat("a", cachedBytes+1)} {
		if plainWord(s) {
			t.Errorf("plainWord(%q) passed a string the encoder does not write as it is", s)
		}
	}
	if claimed < 10000 {
		t.Fatalf("only %d strings passed as plain: the test tries too few", claimed)
	}
}

// With -o jsonl, --jq runs once per line: each line of the jsonl output is
// one input, as `connectscope ... -o jsonl | jq` would see it.
func TestJQPerJSONLLine(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, ptrSample(), Options{Output: "jsonl", JQ: `select(.state != "RUNNING") | .name`}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "orders\nzürich-cdc\n"; got != want {
		t.Errorf("jsonl --jq: got %q, want %q", got, want)
	}
	// A result that is not a Lister is one line, so one input.
	buf.Reset()
	if err := Write(&buf, plain{A: 1, B: []string{"x"}}, Options{Output: "jsonl", JQ: ".a"}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "1\n" {
		t.Errorf("non-Lister jsonl --jq: got %q", got)
	}
}

// cutAfter is a writer whose context ends once n bytes were written: Ctrl-C
// arriving in the middle of a big result.
type cutAfter struct {
	n      int
	cancel context.CancelFunc
	got    bytes.Buffer
}

func (c *cutAfter) Write(p []byte) (int, error) {
	c.got.Write(p)
	if c.got.Len() >= c.n {
		c.cancel()
	}
	return len(p), nil
}

// manyLines is a result of many -o jsonl lines.
type manyLines []map[string]string

func (m manyLines) Items() []any { return Items(m) }

// A machine-format write stops at its next write once the context ends,
// with the context's error, instead of writing the rest of a big result.
func TestWriteStopsWhenCancelled(t *testing.T) {
	big := make(manyLines, 200_000)
	for i := range big {
		big[i] = map[string]string{"name": "connector-" + strconv.Itoa(i)}
	}
	for _, out := range []string{OutputJSON, OutputJSONL, OutputYAML} {
		ctx, cancel := context.WithCancel(context.Background())
		w := &cutAfter{n: 64 << 10, cancel: cancel}
		err := Write(w, big, Options{Output: out, Context: ctx})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("-o %s: error %v, want context.Canceled", out, err)
		}
		if w.got.Len() > 1<<20 {
			t.Errorf("-o %s: %d bytes written after the context ended at 64 KiB", out, w.got.Len())
		}
	}
}
