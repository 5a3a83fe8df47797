package source

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/connectscope/connectscope/inspect"
)

// FuzzReadSnapshot: reading never panics, and whatever reads writes back
// to a file that reads as the same dataset.
func FuzzReadSnapshot(f *testing.F) {
	example, err := os.ReadFile(exampleSnapshotPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	var buf bytes.Buffer
	if err := WriteSnapshot(&buf, sampleDataset()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"snapshot":1,"records":[{"topic":"t","key":null,"value_base64":"/w=="}]}`))
	// The hostile inputs of hostile_test.go: bad records, trailing content, a BOM.
	for _, rec := range []string{`{"key":7}`, `{"value":{"a":1}}`, `{"timestamp_ms":"x"}`, `{"key_base64":"!!"}`,
		`{"offset":9223372036854775808}`, `{"partition":2147483648}`, `{"partition":-1}`, `"x"`} {
		f.Add([]byte(`{"snapshot":1,"records":[` + goodSnapshotRecord + `,` + rec + `]}`))
	}
	f.Add([]byte(`{"snapshot":1,"records":[]}{"snapshot":1,"records":[]}`))
	// Descriptions out of name order, and two of one name (a fuzz finding:
	// the writer sorted them, the reader kept the file's order).
	f.Add([]byte(`{"snapshot":1,"records":[],"topic_descriptions":[{"name":"s","exists":true,"partitions":5},{"name":"c","exists":true,"partitions":1},{"name":"c","exists":false}]}`))
	f.Add([]byte("\xEF\xBB\xBF{\"snapshot\":1,\"records\":[]} garbage"))
	f.Fuzz(func(t *testing.T, in []byte) {
		d, err := ReadSnapshot(bytes.NewReader(in))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteSnapshot(&out, d); err != nil {
			t.Fatalf("write: %v", err)
		}
		again, err := ReadSnapshot(&out)
		if err != nil {
			t.Fatalf("re-read: %v\n%s", err, out.String())
		}
		normalizeForCompare(d)
		normalizeForCompare(again)
		if !reflect.DeepEqual(d, again) {
			t.Fatalf("round trip changed\n%+v\ninto\n%+v", d, again)
		}
	})
}

// normalizeForCompare evens out what the writer normalizes on purpose:
// absent lists are written as [].
func normalizeForCompare(d *inspect.Dataset) {
	if d.Problems == nil {
		d.Problems = []inspect.Problem{}
	}
	if d.SinkGroups == nil {
		d.SinkGroups = []inspect.SinkGroup{}
	}
	if d.Group != nil && d.Group.Members == nil {
		d.Group.Members = []inspect.GroupMember{}
	}
	if len(d.EndOffsets) == 0 {
		d.EndOffsets = nil
	}
}
