package source

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

const replayVectorDir = "../../../shared/vectors/replay/public"

type kcatLine struct {
	Topic     string  `json:"topic"`
	Partition int32   `json:"partition"`
	Offset    int64   `json:"offset"`
	Ts        int64   `json:"ts"`
	Key       *string `json:"key"`
	Payload   *string `json:"payload"`
}

// TestReadKcatReplayVectors reads every public replay dump and checks each
// record against encoding/json's reading of the same line, in file order.
func TestReadKcatReplayVectors(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(replayVectorDir, "*.jsonl"))
	if len(paths) < 60 {
		t.Fatalf("found %d replay dumps in %s, want the 66 public ones", len(paths), replayVectorDir)
	}
	for _, p := range paths {
		d, err := LoadFile(p, inspect.DefaultTopicNames())
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(p)
		lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
		if len(d.Records) != len(lines) || len(d.Problems) != 0 {
			t.Fatalf("%s: %d records, %d problems for %d lines", p, len(d.Records), len(d.Problems), len(lines))
		}
		if d.Source != "file:"+p || d.Topics != inspect.DefaultTopicNames() {
			t.Errorf("%s: source %q topics %+v", p, d.Source, d.Topics)
		}
		for i, line := range lines {
			var want kcatLine
			if err := json.Unmarshal([]byte(line), &want); err != nil {
				t.Fatal(err)
			}
			got := d.Records[i]
			if got.Topic != want.Topic || got.Partition != want.Partition || got.Offset != want.Offset || got.Timestamp != want.Ts ||
				!sameOptional(got.Key, want.Key) || !sameOptional(got.Value, want.Payload) {
				t.Fatalf("%s line %d: got %+v, want %+v", p, i+1, got, want)
			}
		}
	}
}

func sameOptional(b []byte, s *string) bool {
	if s == nil {
		return b == nil
	}
	return b != nil && string(b) == *s
}

func TestReadKcatProblems(t *testing.T) {
	input := strings.Join([]string{
		`{"topic":"connect-configs","partition":0,"offset":0,"ts":5,"key":"commit-a","payload":"{\"tasks\":1}"}`,
		`not json at all`,
		``,
		`{"topic":"connect-configs","partition":0,"offset":2,"key":"k"}`,
		`{"topic":"connect-status","partition":"1","offset":3,"key":"k","payload":null}`,
		`{"topic":"connect-status","partition":1,"offset":4,"key":"k","payload":null} trailing`,
		`{"topic":"connect-status","partition":1,"offset":5,"tstype":"create","broker":0,"headers":["h","v",null],"key":null,"payload":null}`,
		"\t{\"topic\":\"connect-status\",\"partition\":1,\"offset\":6,\"key\":\"a\\u00e9\\ud83d\\ude80\\ud800x\\n\\\"\",\"payload\":\"\xff\xfe\"}\r",
		`{"topic":"connect-offsets","partition":0,"offset":1.5,"payload":null}`,
		`{"topic":"","partition":0,"offset":1,"payload":null}`,
		`{"topic":"x","partition":0,"offset":1,"payload":{"not":"a string"}}`,
		`{"topic":"x","partition":4294967296,"offset":1,"payload":null}`,
		// A repeated field: the last value counts, as in encoding/json.
		`{"topic":"connect-status","partition":1,"offset":7,"ts":"","ts":9,"key":"r","payload":null}`,
		`{"topic":"connect-status","partition":1,"offset":8,"ts":9,"ts":"late","key":"r","payload":null}`,
		// Kafka gives no record a negative offset; a snapshot refuses one.
		`{"topic":"connect-status","partition":1,"offset":-1,"key":"r","payload":null}`,
	}, "\n")
	d, err := ReadKcat(strings.NewReader(input), inspect.DefaultTopicNames())
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Records) != 4 {
		t.Fatalf("records = %+v", d.Records)
	}
	if r := d.Records[0]; r.Topic != "connect-configs" || r.Timestamp != 5 || string(r.Key) != "commit-a" || string(r.Value) != `{"tasks":1}` {
		t.Errorf("record 0 = %+v", r)
	}
	if r := d.Records[1]; r.Key != nil || r.Value != nil || r.Offset != 5 || r.Timestamp != 0 {
		t.Errorf("record 1 (null key, tombstone) = %+v", r)
	}
	// Escapes decode as encoding/json does (lone surrogate = U+FFFD); raw
	// bytes that are not UTF-8 are kept as they are.
	if r := d.Records[2]; string(r.Key) != "aé🚀\uFFFDx\n\"" || !bytes.Equal(r.Value, []byte{0xff, 0xfe}) {
		t.Errorf("record 2 = %q %q", r.Key, r.Value)
	}
	wantProblems := []struct {
		line   string
		topic  string
		offset int64
		reason string
	}{
		{"line 2:", "", -1, "not a JSON object"},
		{"line 4:", "connect-configs", 2, `no "payload" field`},
		{"line 5:", "connect-status", 3, `"partition" is a string`},
		{"line 6:", "connect-status", 4, "unexpected text after the JSON object"},
		{"line 9:", "connect-offsets", -1, "not a 64-bit integer"},
		{"line 10:", "", 1, `"topic" is empty`},
		{"line 11:", "x", 1, `"payload" is neither a string nor null`},
		{"line 12:", "x", 1, "partition 4294967296 out of range"},
		{"line 14:", "connect-status", 8, `"ts" is a string`},
		{"line 15:", "connect-status", -1, "offset -1 out of range"},
	}
	if len(d.Problems) != len(wantProblems) {
		t.Fatalf("problems = %+v", d.Problems)
	}
	for i, w := range wantProblems {
		p := d.Problems[i]
		if !strings.HasPrefix(p.Reason, w.line) || !strings.Contains(p.Reason, w.reason) || p.Topic != w.topic || p.Offset != w.offset {
			t.Errorf("problem %d = %+v, want %+v", i, p, w)
		}
	}
	if r := d.Records[3]; r.Offset != 7 || r.Timestamp != 9 {
		t.Errorf("record 3 (repeated ts, last counts) = %+v", r)
	}
	if d.Problems[1].Key != "k" {
		t.Errorf("problem key = %q", d.Problems[1].Key)
	}
}

func TestReadKcatLongLine(t *testing.T) {
	big := strings.Repeat("x", 3<<20)
	input := `{"topic":"t","partition":0,"offset":0,"payload":"` + big + "\"}\n" + `{"topic":"t","partition":0,"offset":1,"payload":"small"}`
	d, err := ReadKcat(strings.NewReader(input), inspect.DefaultTopicNames())
	if err != nil || len(d.Records) != 2 || len(d.Records[0].Value) != len(big) || string(d.Records[1].Value) != "small" {
		t.Fatalf("got %d records, %v", len(d.Records), err)
	}
}

func TestReadKcatRecordsDoNotAlias(t *testing.T) {
	input := `{"topic":"t","partition":0,"offset":0,"key":"a","payload":"1"}` + "\n" + `{"topic":"t","partition":0,"offset":1,"key":"b","payload":"2"}`
	d, _ := ReadKcat(strings.NewReader(input), inspect.DefaultTopicNames())
	_ = append(d.Records[0].Key, 'Z')
	if string(d.Records[0].Value) != "1" || string(d.Records[1].Key) != "b" {
		t.Errorf("records share bytes: %+v", d.Records)
	}
}

func TestLoadFileDetection(t *testing.T) {
	dir := t.TempDir()
	var snap bytes.Buffer
	if err := WriteSnapshot(&snap, sampleDataset()); err != nil {
		t.Fatal(err)
	}
	compact := new(bytes.Buffer)
	if err := json.Compact(compact, snap.Bytes()); err != nil {
		t.Fatal(err)
	}
	// A reformatted snapshot whose keys come in another order.
	var generic map[string]any
	_ = json.Unmarshal(snap.Bytes(), &generic)
	sorted, _ := json.MarshalIndent(generic, "", " ")
	sortedCompact, _ := json.Marshal(generic)
	files := map[string]string{
		"snap.json":           snap.String(),
		"compact.json":        compact.String(),
		"sorted.json":         string(sorted),
		"sorted-compact.json": string(sortedCompact),
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := LoadFile(p, inspect.TopicNames{Config: "other"})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(d.Records) != 5 || d.Topics != inspect.DefaultTopicNames() || d.Source != "file:"+p || d.Group == nil {
			t.Errorf("%s: loaded %+v", name, d)
		}
	}
	// kcat dumps: with custom topic names, empty, and garbage.
	kcat := filepath.Join(dir, "dump.jsonl")
	_ = os.WriteFile(kcat, []byte(`{"topic":"my-configs","partition":0,"offset":0,"key":"k","payload":null}`+"\n"), 0o644)
	names := inspect.TopicNames{Config: "my-configs", Offset: "my-offsets", Status: "my-status"}
	d, err := LoadFile(kcat, names)
	if err != nil || len(d.Records) != 1 || d.Topics != names {
		t.Errorf("kcat: %+v %v", d, err)
	}
	empty := filepath.Join(dir, "empty")
	_ = os.WriteFile(empty, nil, 0o644)
	// An empty (or blank) file is a writer that failed, not an empty cluster.
	if d, err := LoadFile(empty, names); !errors.Is(err, ErrEmptyInput) {
		t.Errorf("empty: %+v %v, want ErrEmptyInput", d, err)
	}
	blank := filepath.Join(dir, "blank")
	_ = os.WriteFile(blank, []byte("\n \r\n\t\n"), 0o644)
	if d, err := LoadFile(blank, names); !errors.Is(err, ErrEmptyInput) {
		t.Errorf("blank: %+v %v, want ErrEmptyInput", d, err)
	}
	// A gzip-compressed dump (or snapshot) reads as what it holds.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write([]byte(`{"topic":"my-configs","partition":0,"offset":0,"key":"k","payload":null}` + "\n"))
	_ = zw.Close()
	gzPath := filepath.Join(dir, "dump.jsonl.gz")
	_ = os.WriteFile(gzPath, gz.Bytes(), 0o644)
	if d, err := LoadFile(gzPath, names); err != nil || len(d.Records) != 1 || d.Source != "file:"+gzPath {
		t.Errorf("gzip: %+v %v", d, err)
	}
	_ = os.WriteFile(gzPath, gz.Bytes()[:gz.Len()-6], 0o644)
	if _, err := LoadFile(gzPath, names); err == nil || !strings.Contains(err.Error(), "(gzip)") {
		t.Errorf("cut gzip: %v, want an error naming the gzip file", err)
	}
	garbage := filepath.Join(dir, "garbage")
	_ = os.WriteFile(garbage, []byte("\x00\x01binary\n{\"a\":1}\n"), 0o644)
	if d, err := LoadFile(garbage, names); err != nil || len(d.Problems) != 2 {
		t.Errorf("garbage: %+v %v", d, err)
	}
	// A pretty-printed JSON document that is not a snapshot.
	other := filepath.Join(dir, "other.json")
	_ = os.WriteFile(other, []byte("{\n  \"name\": 1\n}\n"), 0o644)
	if _, err := LoadFile(other, names); err == nil || !strings.Contains(err.Error(), "not a connectscope snapshot") {
		t.Errorf("other json: %v", err)
	}
}

func TestLoadFileMissing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "nope.json")
	_, err := LoadFile(p, inspect.DefaultTopicNames())
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || !strings.Contains(err.Error(), p) {
		t.Errorf("err = %v", err)
	}
	dir := t.TempDir()
	if _, err := LoadFile(dir, inspect.DefaultTopicNames()); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("directory: %v", err)
	}
}

func TestReadKcatEmptyIsNotNull(t *testing.T) {
	d, _ := ReadKcat(strings.NewReader(`{"topic":"t","partition":0,"offset":0,"key":"","payload":""}`), inspect.DefaultTopicNames())
	if len(d.Records) != 1 || d.Records[0].Key == nil || d.Records[0].Value == nil {
		t.Errorf("empty key/payload read as null: %+v", d.Records)
	}
}

func TestLoadFileSnapshotTopicFallback(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.json")
	_ = os.WriteFile(p, []byte(`{"snapshot":1,"topics":{"config":"cfg","offset":"","status":""},"records":[]}`), 0o644)
	d, err := LoadFile(p, inspect.DefaultTopicNames())
	want := inspect.TopicNames{Config: "cfg", Offset: "connect-offsets", Status: "connect-status"}
	if err != nil || d.Topics != want {
		t.Errorf("topics = %+v, %v", d, err)
	}
}

func TestLoadFileStdin(t *testing.T) {
	p := filepath.Join(t.TempDir(), "dump.jsonl")
	_ = os.WriteFile(p, []byte(`{"topic":"connect-status","partition":0,"offset":0,"key":"k","payload":"v"}`+"\n"), 0o644)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = saved }()
	d, err := LoadFile("-", inspect.DefaultTopicNames())
	if err != nil || len(d.Records) != 1 || d.Source != "file:-" {
		t.Errorf("stdin: %+v %v", d, err)
	}
}
