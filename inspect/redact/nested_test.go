package redact

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type hostName string

// Nested redacts inside lists, maps and pointers, keeps every type (the
// JSON of a value without secrets is byte for byte the same) and hides a
// secret key's value wherever the key stands.
func TestNested(t *testing.T) {
	pw := "jdbc:postgresql://u:PtrPw@db/x"
	in := map[string]any{
		"urls":               []string{"http://u:ListPw@h/", "plain"},
		"byFile":             map[string][]string{"w.properties": {"token=MapPw"}},
		"pointer":            &pw,
		"named":              []hostName{"https://hooks.slack.com/services/T0/B0/HookPw"},
		"settings":           map[string]any{"ssl.key.password": "KeyPw", "retries": 3},
		"password=KeyAsText": 1,
		"array":              [2]string{"a", "Authorization: Bearer ArrPw"},
		"nothing":            nil,
	}
	out, ok := Nested("values", in).(map[string]any)
	if !ok {
		t.Fatalf("type changed: %T", Nested("values", in))
	}
	b, _ := json.Marshal(out)
	for _, s := range []string{"ListPw", "MapPw", "PtrPw", "HookPw", "KeyPw", "KeyAsText", "ArrPw"} {
		if strings.Contains(string(b), s) {
			t.Errorf("%s survives: %s", s, b)
		}
	}
	for k, v := range out {
		if w, ok := in[k]; ok && w != nil && reflect.TypeOf(v) != reflect.TypeOf(w) {
			t.Errorf("%s: %T became %T", k, w, v)
		}
	}
	if pw != "jdbc:postgresql://u:PtrPw@db/x" || in["urls"].([]string)[0] != "http://u:ListPw@h/" {
		t.Error("the input was changed in place")
	}
	plain := map[string]any{"files": []string{"a", "b"}, "n": map[string]int{"x": 1}}
	before, _ := json.Marshal(plain)
	after, _ := json.Marshal(Nested("values", plain))
	if string(before) != string(after) {
		t.Errorf("a value without secrets changed: %s → %s", before, after)
	}
}
