package format

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// selfWriting has a fast JSON writer whose layout (list on one line) differs
// from encoding/json's indented one, so the test can tell which path ran.
type selfWriting struct {
	Names []string `json:"names"`
}

func (s selfWriting) WriteJSON(w io.Writer) error {
	b, err := json.Marshal(s.Names)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "{\n  \"names\": "+string(b)+"\n}\n")
	return err
}

func TestWriteJSONUsesResultWriter(t *testing.T) {
	res := selfWriting{Names: []string{"a", "b"}}
	var buf bytes.Buffer
	if err := Write(&buf, res, Options{Output: OutputJSON}); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"names\": [\"a\",\"b\"]\n}\n"; buf.String() != want {
		t.Errorf("-o json = %q, want the result's own %q", buf.String(), want)
	}
}

func TestJQIgnoresResultWriter(t *testing.T) {
	res := selfWriting{Names: []string{"a", "b"}}
	var buf bytes.Buffer
	if err := Write(&buf, res, Options{Output: OutputJSON, JQ: "."}); err != nil {
		t.Fatal(err)
	}
	var got selfWriting
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("--jq output is not JSON: %v\n%s", err, buf.String())
	}
	if buf.String() == "{\n  \"names\": [\"a\",\"b\"]\n}\n" {
		t.Errorf("--jq printed the result's own layout:\n%s", buf.String())
	}
}
