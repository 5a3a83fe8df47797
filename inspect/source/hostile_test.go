package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

const goodSnapshotRecord = `{"topic":"connect-status","partition":0,"offset":5,"timestamp_ms":1,"key":"status-connector-a","value":"{}"}`

// One bad record in a snapshot is one problem naming it; the records
// around it are read.
func TestSnapshotBadRecordIsOneProblem(t *testing.T) {
	bad := []struct{ record, reason string }{
		{`{"topic":"connect-status","partition":0,"offset":1,"key":7,"value":"v"}`, `field "key"`},
		{`{"topic":"connect-status","partition":0,"offset":1,"key":"k","value":{"a":1}}`, `field "value"`},
		{`{"topic":"connect-status","partition":0,"offset":1,"timestamp_ms":"yesterday","key":"k","value":"v"}`, `field "timestamp_ms"`},
		{`{"topic":"connect-status","partition":0,"offset":1,"key_base64":"!!","value":"v"}`, "base64"},
		{`{"topic":"connect-status","partition":0,"offset":9223372036854775808,"key":"k","value":"v"}`, `field "offset"`},
		{`{"topic":"connect-status","partition":2147483648,"offset":1,"key":"k","value":"v"}`, `field "partition"`},
		{`{"topic":"connect-status","partition":-1,"offset":1,"key":"k","value":"v"}`, "partition -1 out of range"},
		{`{"topic":"connect-status","partition":0,"offset":-4,"key":"k","value":"v"}`, "offset -4 out of range"},
		{`"not a record"`, "snapshot record 1"},
		{`[1,2]`, "snapshot record 1"},
		{`null`, ""}, // decodes as an empty record: kept as one (as before)
	}
	for _, tc := range bad {
		in := `{"snapshot": 1, "records": [` + goodSnapshotRecord + ",\n" + tc.record + ",\n" + goodSnapshotRecord + `]}`
		d, err := ReadSnapshot(strings.NewReader(in))
		if err != nil {
			t.Errorf("%s: refused the whole snapshot: %v", tc.record, err)
			continue
		}
		if tc.reason == "" {
			continue
		}
		if len(d.Records) != 2 || len(d.Problems) != 1 {
			t.Errorf("%s: %d records and %d problems (%v), want 2 and 1", tc.record, len(d.Records), len(d.Problems), d.Problems)
			continue
		}
		if !strings.Contains(d.Problems[0].Reason, tc.reason) || !strings.Contains(d.Problems[0].Reason, "snapshot record 1") {
			t.Errorf("%s: problem %q, want it to say %q", tc.record, d.Problems[0].Reason, tc.reason)
		}
	}
}

// Content after the snapshot's object is reported, not dropped.
func TestSnapshotTrailingContentIsReported(t *testing.T) {
	snap := `{"snapshot": 1, "records": [` + goodSnapshotRecord + `]}`
	cases := map[string]string{
		"a second snapshot":   snap + "\n" + snap + "\n",
		"appended dump lines": snap + "\n" + `{"topic":"connect-status","partition":0,"offset":9,"key":"k","payload":"v"}` + "\n",
		"garbage":             snap + "garbage",
		"a second BOM":        snap + "\n\xEF\xBB\xBF{}",
	}
	for name, in := range cases {
		d, err := ReadSnapshot(strings.NewReader(in))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(d.Records) != 1 || len(d.Problems) != 1 || !strings.Contains(d.Problems[0].Reason, "goes on after the snapshot ends") {
			t.Errorf("%s: records %d problems %v", name, len(d.Records), d.Problems)
		}
	}
	d, err := ReadSnapshot(strings.NewReader(snap + "\n \t\r\n"))
	if err != nil || len(d.Problems) != 0 {
		t.Errorf("white space after the snapshot: %v %v", err, d.Problems)
	}
}

// A UTF-8 byte-order mark is skipped: a snapshot stays a snapshot, and a
// dump keeps its first record.
func TestByteOrderMarkSkipped(t *testing.T) {
	dir := t.TempDir()
	bom := "\xEF\xBB\xBF"
	snap := filepath.Join(dir, "snap.json")
	if err := os.WriteFile(snap, []byte(bom+`{"snapshot": 1, "records": [`+goodSnapshotRecord+`]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := LoadFile(snap, inspect.DefaultTopicNames())
	if err != nil || len(d.Records) != 1 || len(d.Problems) != 0 {
		t.Fatalf("snapshot with BOM: %v, %+v", err, d)
	}
	dump := filepath.Join(dir, "dump.jsonl")
	line := `{"topic":"connect-status","partition":0,"offset":%d,"key":"status-connector-a","payload":"{}"}`
	if err := os.WriteFile(dump, []byte(bom+strings.Replace(line, "%d", "0", 1)+"\n"+strings.Replace(line, "%d", "1", 1)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err = LoadFile(dump, inspect.DefaultTopicNames())
	if err != nil || len(d.Records) != 2 || len(d.Problems) != 0 {
		t.Fatalf("dump with BOM: %v, records %d problems %v", err, len(d.Records), d.Problems)
	}
}
