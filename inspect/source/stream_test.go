package source

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/connectscope/connectscope/inspect"
	"github.com/connectscope/connectscope/inspect/store"
)

// streamSeeds are dumps with hostile lines between good ones.
var streamSeeds = []string{
	`{"topic":"connect-status","partition":0,"offset":0,"key":"status-connector-a","payload":"{\"state\":\"RUNNING\",\"trace\":null,\"worker_id\":\"w1\",\"generation\":1}"}
{"topic":"connect-status","partition":0,"offset":1,"key":"status-task-a-0","payload":"{\"state\":\"FAILED\",\"trace\":\"boom\",\"worker_id\":\"w1\",\"generation\":1}"}
{"topic":"connect-status","partition":-1,"offset":2,"key":"status-task-a-1","payload":"{}"}
not json at all
{"topic":"connect-offsets","partition":0,"offset":0,"key":"[\"a\",{}]","payload":"{}"}
{"topic":"connect-status","partition":0,"offset":3,"key":"status-frobnicate","payload":null}
{"topic":"connect-status","partition":0,"offset":4,"key":"status-connector-a","payload":null}
`,
	"\xEF\xBB\xBF" + `{"topic":"connect-status","partition":0,"offset":0,"key":"status-connector-b","payload":"{\"state\":\"PAUSED\",\"trace\":null,\"worker_id\":\"w2\",\"generation\":3}"}` + "\n\n\n",
	`{"topic":"connect-status","partition":0,"offset":0,"key":null,"payload":null}` + "\n" + `{"topic":"connect-status","partition":0,"offset":1,"key":"","payload":"x"}`,
}

// Streaming a dump through the status decoder gives exactly the result of
// loading it whole, and keeps none of the streamed records.
func TestStreamFileMatchesLoadFile(t *testing.T) {
	for i, dump := range streamSeeds {
		compareStreamed(t, i, []byte(dump))
	}
}

func compareStreamed(t *testing.T, i int, dump []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "dump.jsonl")
	if err := os.WriteFile(path, dump, 0o600); err != nil {
		t.Fatal(err)
	}
	topics := inspect.DefaultTopicNames()
	whole, werr := LoadFile(path, topics)
	dec := store.NewStatusDecoder(store.DecodeOptions{Topic: topics.Status})
	part, streamed, serr := StreamFile(context.Background(), path, topics, topics.Status, dec.Add)
	if (werr == nil) != (serr == nil) {
		t.Fatalf("seed %d: LoadFile %v, StreamFile %v", i, werr, serr)
	}
	if werr != nil {
		return
	}
	if !streamed {
		return // a snapshot: read whole either way
	}
	var statusRecs, others []inspect.Record
	for _, r := range whole.Records {
		if r.Topic == topics.Status {
			statusRecs = append(statusRecs, r)
		} else {
			others = append(others, r)
		}
	}
	want, _ := json.Marshal(store.DecodeStatus(statusRecs, store.DecodeOptions{Topic: topics.Status}))
	got, _ := json.Marshal(dec.Result())
	if string(got) != string(want) {
		t.Errorf("seed %d: streamed status differs:\n got %s\nwant %s", i, got, want)
	}
	if len(part.Records) != len(others) {
		t.Errorf("seed %d: dataset keeps %d records, want only the %d of other topics", i, len(part.Records), len(others))
	}
	if !reflect.DeepEqual(part.Problems, whole.Problems) {
		t.Errorf("seed %d: problems differ: %v vs %v", i, part.Problems, whole.Problems)
	}
}

// The offsets view streams the same way.
func TestStreamFileOffsets(t *testing.T) {
	dump := `{"topic":"connect-offsets","partition":0,"offset":0,"key":"[\"src\",{\"f\":1}]","payload":"{\"pos\":1}"}
{"topic":"connect-offsets","partition":0,"offset":1,"key":"[\"src\",{\"f\":1}]","payload":"{\"pos\":2}"}
{"topic":"connect-offsets","partition":0,"offset":2,"key":"[\"src\",{","payload":null}
{"topic":"connect-offsets","partition":0,"offset":3,"key":"[\"src\",{\"f\":2}]","payload":"{\"pos\":3}"}
{"topic":"connect-offsets","partition":0,"offset":4,"key":"[\"src\",{\"f\":2}]","payload":null}
{"topic":"connect-status","partition":0,"offset":0,"key":"status-connector-a","payload":null}
`
	path := filepath.Join(t.TempDir(), "offsets.jsonl")
	if err := os.WriteFile(path, []byte(dump), 0o600); err != nil {
		t.Fatal(err)
	}
	topics := inspect.DefaultTopicNames()
	whole, err := LoadFile(path, topics)
	if err != nil {
		t.Fatal(err)
	}
	var offs []inspect.Record
	for _, r := range whole.Records {
		if r.Topic == topics.Offset {
			offs = append(offs, r)
		}
	}
	want, _ := json.Marshal(store.DecodeOffsets(offs, store.DecodeOptions{Topic: topics.Offset}))
	dec := store.NewOffsetsDecoder(store.DecodeOptions{Topic: topics.Offset})
	part, streamed, err := StreamFile(context.Background(), path, topics, topics.Offset, func(r *inspect.Record) { dec.Add(*r) })
	if err != nil || !streamed {
		t.Fatalf("streamed %v, err %v", streamed, err)
	}
	got, _ := json.Marshal(dec.Result())
	if string(got) != string(want) {
		t.Errorf("streamed offsets differ:\n got %s\nwant %s", got, want)
	}
	if len(part.Records) != 1 {
		t.Errorf("dataset keeps %d records, want the 1 status record", len(part.Records))
	}
}

func FuzzStreamFile(f *testing.F) {
	for _, s := range streamSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, dump []byte) { compareStreamed(t, 0, dump) })
}
