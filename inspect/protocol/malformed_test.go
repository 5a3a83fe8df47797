package protocol

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// A V1 assignment: leader "w1", url "http://w1:8083/", offset 3, assigned c:[0], revoked [], delay 0.
const v1Base = "0001000000027731000f687474703a2f2f77313a383038332f0000000000000003" +
	"00000001000163000000010000000000000000" + "00000000"

func TestDecodeAssignmentMalformed(t *testing.T) {
	base := mustHex(t, v1Base)
	cases := []struct {
		name  string
		in    []byte
		field string // the DecodeError's field
	}{
		{"empty", nil, "version"},
		{"one byte", []byte{0}, "version"},
		{"negative version", mustHex(t, "ffff0000"), "version"},
		{"no error field", mustHex(t, "0001"), "error"},
		{"no leader", mustHex(t, "00010000"), "leader length"},
		{"leader cut", mustHex(t, "000100000005777777"), "leader"},
		{"negative leader length", mustHex(t, "00010000ffff"), "leader"},
		{"offset cut", base[:30], "config_offset"},
		{"assigned count cut", base[:35], "assigned count"},
		{"entries cut", base[:39], "assigned[0].connector"},
		{"entry name length cut", base[:38], "assigned[0].connector length"},
		{"task ids cut", base[:46], "assigned[0].tasks[0]"},
		{"revoked count partly present", base[:len(base)-6], "revoked count"},
		{"delay partly present", base[:len(base)-2], "delay"},
		{"count beyond bytes", append(bytes.Clone(base[:33]), 0x7f, 0, 0, 0), "assigned"},
		{"negative task count", append(bytes.Clone(base[:40]), 0xff, 0xff, 0xff, 0xfe), "assigned[0].tasks"},
	}
	for _, c := range cases {
		a, err := DecodeAssignment(c.in)
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s: err = %v, want a DecodeError", c.name, err)
			continue
		}
		if de.Field != c.field {
			t.Errorf("%s: field = %q, want %q (%v)", c.name, de.Field, c.field, err)
		}
		if a == nil {
			t.Errorf("%s: no partial result", c.name)
		}
	}
	// Fields decoded before the fault are kept.
	a, err := DecodeAssignment(base[:len(base)-2])
	if err == nil || a.Leader != "w1" || a.ConfigOffset != 3 || len(a.Assigned) != 1 {
		t.Errorf("partial result = %+v, %v", a, err)
	}
}

func TestDecodeAssignmentLenient(t *testing.T) {
	base := mustHex(t, v1Base)
	// The buffer may end where a defaulted field starts.
	for _, cut := range []int{33, len(base) - 8, len(base) - 4} {
		a, err := DecodeAssignment(base[:cut])
		if err != nil {
			t.Errorf("cut at %d: %v", cut, err)
			continue
		}
		if a.DelayMs != 0 || len(a.Revoked) != 0 {
			t.Errorf("cut at %d: %+v", cut, a)
		}
	}
	// Counts below -1 read as null, with a warning.
	b := append(bytes.Clone(base[:33]), 0xff, 0xff, 0xff, 0xf0)
	a, err := DecodeAssignment(b)
	if err != nil || a.Assigned != nil || !hasWarning(a.Warnings, "read as null") {
		t.Errorf("count -16: %+v %v", a, err)
	}
}

func TestDecodeAssignmentWarnings(t *testing.T) {
	w := &wireWriter{blob: "test"}
	w.int16(1)
	w.int16(7)
	_ = w.str("leader", "w\xff1")
	_ = w.str("url", "u")
	w.int64(1)
	w.int32(2)
	_ = w.str("c", "c")
	w.int32(3)
	w.int32(-1)
	w.int32(-5)
	w.int32(0)
	_ = w.str("c", "c")
	w.int32(2)
	w.int32(-1)
	w.int32(0)
	w.int32(0)
	w.int32(-3)
	a, err := DecodeAssignment(w.buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"unknown error code 7", "not valid UTF-8", "negative task number",
		`connector "c" more than once`, "task c-0 more than once", "negative delay"} {
		if !hasWarning(a.Warnings, want) {
			t.Errorf("no warning %q in %q", want, a.Warnings)
		}
	}
	if a.Leader != "w\uFFFD1" {
		t.Errorf("leader = %q", a.Leader)
	}
	if got := taskStrings(a.Tasks()); strings.Join(got, ",") != "c--5,c-0" {
		t.Errorf("tasks = %q", got)
	}
	if got := a.Connectors(); len(got) != 1 {
		t.Errorf("connectors = %q", got)
	}
}

func TestDecodeMetadataMalformed(t *testing.T) {
	// V2 metadata "http://w1:8083/", offset 42, no allocation yet.
	head := mustHex(t, "0002000f687474703a2f2f77313a383038332f000000000000002a")
	alloc := mustHex(t, v1Base)
	withAlloc := func(length int32, body []byte) []byte {
		w := &wireWriter{buf: bytes.Clone(head)}
		w.int32(length)
		return append(w.buf, body...)
	}
	cases := []struct {
		name  string
		in    []byte
		field string
	}{
		{"negative version", mustHex(t, "8000"), "version"},
		{"url cut", head[:8], "url"},
		{"offset cut", head[:20], "config_offset"},
		{"allocation length partly present", append(bytes.Clone(head), 0, 0), "allocation length"},
		{"allocation length 0", withAlloc(0, nil), "allocation"},
		{"allocation longer than rest", withAlloc(int32(len(alloc)+1), alloc), "allocation"},
		{"nested negative version", withAlloc(4, mustHex(t, "fffe0000")), "version"},
		{"nested truncated", withAlloc(6, mustHex(t, "000100000002")), "leader"},
	}
	for _, c := range cases {
		m, err := DecodeMetadata(c.in)
		var de *DecodeError
		if !errors.As(err, &de) || de.Field != c.field {
			t.Errorf("%s: err = %v, want field %q", c.name, err, c.field)
		}
		if m == nil {
			t.Errorf("%s: no partial result", c.name)
		}
	}
	// V0 header followed by an allocation: Kafka reads it regardless of the version.
	v0 := bytes.Clone(head)
	v0[1] = 0
	w := &wireWriter{buf: v0}
	w.int32(int32(len(alloc)))
	m, err := DecodeMetadata(append(append(w.buf, alloc...), 0xca, 0xfe))
	if err != nil || m.Allocation == nil || m.Allocation.Version != 1 ||
		!hasWarning(m.Warnings, "differs from metadata version") || !hasWarning(m.Warnings, "2 trailing bytes") {
		t.Errorf("v0 with allocation: %+v %v", m, err)
	}
	// Length -7 reads as null with a warning.
	m, err = DecodeMetadata(withAlloc(-7, nil))
	if err != nil || m.Allocation != nil || !hasWarning(m.Warnings, "read as null") {
		t.Errorf("length -7: %+v %v", m, err)
	}
	// Absent allocation in V2 = null.
	m, err = DecodeMetadata(head)
	if err != nil || m.Allocation != nil || m.URL != "http://w1:8083/" {
		t.Errorf("absent allocation: %+v %v", m, err)
	}
}

func TestEncodeRejects(t *testing.T) {
	long := strings.Repeat("x", maxWireString+1)
	if _, err := EncodeAssignment(&Assignment{Version: 1, Leader: long}); err == nil || !strings.Contains(err.Error(), "leader") {
		t.Errorf("long leader: %v", err)
	}
	if _, err := EncodeAssignment(&Assignment{Version: -1}); err == nil {
		t.Error("negative version accepted")
	}
	if _, err := EncodeMetadata(&MemberMetadata{Version: 2, URL: long}); err == nil {
		t.Error("long url accepted")
	}
	if _, err := EncodeMetadata(nil); err == nil {
		t.Error("nil metadata accepted")
	}
	if _, err := JoinProtocols("cooperative", "u", 0, nil); err == nil {
		t.Error("unknown connect.protocol accepted")
	}
}

func TestJavaUTF8(t *testing.T) {
	cases := map[string]string{
		"ok":                  "ok",
		"a\xffb":              "a\uFFFDb",
		"\xe2\x82A":           "\uFFFDA",            // one maximal subpart
		"\xe0\x80":            "\uFFFD\uFFFD",       // E0 needs A0..BF second
		"\xf0\x90\x80":        "\uFFFD",             // cut 4-byte sequence
		"\xed\xa0\x80":        "\uFFFD\uFFFD\uFFFD", // surrogate: ED needs 80..9F
		"\xc0\xaf":            "\uFFFD\uFFFD",
		"caf\xc3\xa9\xf4\x90": "caf\u00e9\uFFFD\uFFFD",
	}
	for in, want := range cases {
		got, replaced := JavaUTF8([]byte(in))
		if got != want || replaced != (in != want) {
			t.Errorf("javaUTF8(%q) = %q %v, want %q", in, got, replaced, want)
		}
	}
}

func TestSelectProtocol(t *testing.T) {
	sess := []string{"sessioned", "compatible", "default"}
	comp := []string{"compatible", "default"}
	eager := []string{"default"}
	cases := []struct {
		offers [][]string
		want   string
	}{
		{[][]string{sess, sess}, "sessioned"},
		{[][]string{sess, comp, sess}, "compatible"},
		{[][]string{sess, eager}, "default"},
		{[][]string{sess, {"other"}}, ""},
		{nil, ""},
	}
	for _, c := range cases {
		if got := SelectProtocol(c.offers); got != c.want {
			t.Errorf("SelectProtocol(%v) = %q, want %q", c.offers, got, c.want)
		}
	}
}

func hasWarning(ws []string, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}
