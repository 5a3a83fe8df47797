package workers

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/group"
	"github.com/connectscope/connectscope/inspect/rest"
)

func TestTrackerMeasuresRestarts(t *testing.T) {
	tr := NewTracker()
	look := func(at int64, members, health map[string]string) []Restart {
		return tr.Observe(Look{AtMs: at, Members: members, Health: health, Stage: map[string]string{"w1:1": "reading the config topic"}})
	}
	m := func(kv ...string) map[string]string {
		out := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	look(0, m("w1:1", "A", "w2:2", "X", "w3:3", "K", "w4:4", "Q"), m("w1:1", "healthy", "w2:2", "unsupported", "w3:3", "healthy", "w4:4", "healthy"))
	// w1 killed: still a member, no answer.
	look(1000, m("w1:1", "A", "w2:2", "X", "w3:3", "K", "w4:4", "Q"), m("w2:2", "unsupported", "w3:3", "healthy", "w4:4", "healthy"))
	// w1 and w2 out of the group, w4 stopped for good.
	look(2000, m("w3:3", "K"), m("w3:3", "healthy"))
	look(3000, m("w3:3", "K"), m("w1:1", "starting", "w3:3", "healthy"))
	if got := look(4000, m("w2:2", "C", "w3:3", "K"), m("w1:1", "starting", "w2:2", "unsupported", "w3:3", "healthy")); len(got) != 1 || got[0].Worker != "w2:2" || *got[0].RestartMs != 2000 || got[0].HealthMs != nil {
		t.Fatalf("w2 (no /health) back at 4000 after leaving at 2000: %+v", got)
	}
	look(5000, m("w2:2", "C", "w3:3", "K"), m("w1:1", "healthy", "w2:2", "unsupported", "w3:3", "healthy"))
	got := look(6000, m("w1:1", "B", "w2:2", "C", "w3:3", "K"), m("w1:1", "healthy", "w2:2", "unsupported", "w3:3", "healthy"))
	if len(got) != 1 {
		t.Fatalf("w1: %+v", got)
	}
	r := got[0]
	if r.DownAtMs != 1000 || *r.HealthMs != 4000 || *r.JoinMs != 5000 || *r.RestartMs != 5000 || len(r.Stages) != 1 {
		t.Errorf("w1 restart: %+v", r)
	}
	res := tr.Result("g", 0, 7000, 1000)
	if len(res.Restarts) != 3 || res.Workers["w1:1"] != 5000 || res.Workers["w2:2"] != 2000 || *res.MaxMs != 5000 {
		t.Errorf("result: %+v", res)
	}
	if _, ok := res.Workers["w3:3"]; ok {
		t.Error("w3 never restarted")
	}
	for _, r := range res.Restarts {
		if r.Worker == "w4:4" && (r.RestartMs != nil || r.DownAtMs != 2000) {
			t.Errorf("w4 never came back: %+v", r)
		}
	}
	b, _ := json.Marshal(res)
	var back RestartTimes
	if err := json.Unmarshal(b, &back); err != nil || back.Version != 1 || back.Workers["w1:1"] != 5000 {
		t.Errorf("file round trip: %v %s", err, b)
	}
}

func TestWatchRestartsStopsWithContext(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path == "/health" {
			w.Write([]byte(`{"status":"healthy","message":"Worker has completed startup and is ready to handle requests."}`))
			return
		}
		w.Write([]byte(`{"version":"4.1.0"}`))
	}))
	defer srv.Close()
	u := srv.URL + "/"
	describe := func(ctx context.Context) (*group.MembersResult, error) {
		return &group.MembersResult{Group: "g", Members: []group.MemberView{{MemberID: "A", URL: &u}}}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res := WatchRestarts(ctx, rest.New(rest.Options{}), describe, 50*time.Millisecond, nil)
	if res.Group != "g" || len(res.Restarts) != 0 || calls.Load() == 0 || res.MaxMs != nil {
		t.Errorf("%+v after %d calls", res, calls.Load())
	}
}

func TestRestartTable(t *testing.T) {
	d, r := int64(4000), int64(5000)
	rt := RestartTimes{Version: 1, IntervalMs: 1000, Restarts: []Restart{{Worker: "w1:1", DownAtMs: 0, HealthMs: &d, JoinMs: &r, RestartMs: &r, Stages: []string{}}}}
	var buf bytes.Buffer
	if err := format.Write(&buf, rt, format.Options{}); err != nil {
		t.Fatal(err)
	}
	if out := buf.String(); !strings.Contains(out, "w1:1") || !strings.Contains(out, "late by up to") {
		t.Errorf("table:\n%s", out)
	}
}

func TestParseRestartTimes(t *testing.T) {
	rt, err := ParseRestartTimes([]byte(`{"version":1,"workers":{"w1:8083":42000},"max_ms":50000,"future_field":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if ms, ok := rt.RestartFor("w1:8083"); !ok || ms != 42000 {
		t.Errorf("w1: %d %v", ms, ok)
	}
	if ms, ok := rt.RestartFor("w9:8083"); !ok || ms != 50000 {
		t.Errorf("unmeasured worker takes the longest: %d %v", ms, ok)
	}
	for _, bad := range []string{`{"version":2}`, `{}`, `not json`, `{"version":1,"workers":{"w":-1}}`, `{"version":1,"max_ms":-5}`} {
		if _, err := ParseRestartTimes([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	// A key given twice would be planned with whichever came last.
	for bad, want := range map[string]string{
		`{"version":1,"workers":{"w1:8083":42000,"w1:8083":500}}`:               `workers: key "w1:8083" given twice`,
		`{"version":1,"max_ms":9000,"workers":{},"max_ms":1}`:                   `the top level: key "max_ms" given twice`,
		`{"version":1,"restarts":[{"worker":"a"},{"worker":"b","worker":"c"}]}`: `restarts[1]: key "worker" given twice`,
	} {
		if _, err := ParseRestartTimes([]byte(bad)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", bad, err, want)
		}
	}
	empty, err := ParseRestartTimes([]byte(`{"version":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := empty.RestartFor("w1:8083"); ok {
		t.Error("nothing measured must say so")
	}
}

func FuzzParseRestartTimes(f *testing.F) {
	for _, s := range []string{`{"version":1,"workers":{"w1:8083":42000},"max_ms":42000}`, `{"version":1,"restarts":[{"worker":"\u001b[31m"}]}`, `{"version":1e400}`, `[]`, `null`, `{"version":1,"workers":{"a:1":1,"a:1":2}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rt, err := ParseRestartTimes(data)
		if err != nil {
			return
		}
		for _, ms := range rt.Workers {
			if ms < 0 {
				t.Fatalf("negative time accepted: %s", data)
			}
		}
		// Accepted: encoding/json's decoding of each object's keys, in
		// order, meets none twice.
		if dup := firstRepeatedKey(t, data); dup != "" {
			t.Fatalf("key %q given twice accepted: %s", dup, data)
		}
		if ms, ok := rt.RestartFor("x"); ok && ms < 0 {
			t.Fatalf("negative time: %s", data)
		}
	})
}

// firstRepeatedKey finds a key given twice in one object by decoding every
// object into ordered key lists with encoding/json's RawMessage, apart from
// the shared byte walk (jsonfile.Check).
func firstRepeatedKey(t *testing.T, data []byte) string {
	t.Helper()
	var walk func(raw json.RawMessage) string
	walk = func(raw json.RawMessage) string {
		raw = bytes.TrimSpace(raw)
		switch {
		case len(raw) > 0 && raw[0] == '[':
			var items []json.RawMessage
			if json.Unmarshal(raw, &items) != nil {
				return ""
			}
			for _, it := range items {
				if d := walk(it); d != "" {
					return d
				}
			}
		case len(raw) > 0 && raw[0] == '{':
			dec := json.NewDecoder(bytes.NewReader(raw))
			if _, err := dec.Token(); err != nil {
				return ""
			}
			seen := map[string]bool{}
			for dec.More() {
				tok, err := dec.Token()
				if err != nil {
					return ""
				}
				key, _ := tok.(string)
				if seen[key] {
					return key
				}
				seen[key] = true
				var v json.RawMessage
				if dec.Decode(&v) != nil {
					return ""
				}
				if d := walk(v); d != "" {
					return d
				}
			}
		}
		return ""
	}
	return walk(data)
}
