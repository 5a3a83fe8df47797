package store

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"

	"github.com/connectscope/connectscope/internal/vectors"
)

var statusKindNames = map[StatusKeyKind]string{StatusKeyConnector: "connector", StatusKeyTask: "task", StatusKeyTopic: "topic"}

// kafkaOf is the key as the shared table writes it ("" kind: not read).
func kafkaOf[K string | []byte](k StatusKey[K]) vectors.StatusKey {
	if !k.Valid() {
		return vectors.StatusKey{}
	}
	return vectors.StatusKey{Kind: statusKindNames[k.Kind], Connector: string(k.Connector), Task: k.Task, Topic: string(k.Topic)}
}

// TestParseStatusKeyHostile holds the parser, both its forms, to the shared
// table of what Kafka makes of hostile keys.
func TestParseStatusKeyHostile(t *testing.T) {
	for _, v := range vectors.HostileStatusKeys {
		want := v
		want.Key = ""
		text := keyText([]byte(v.Key))
		for form, got := range map[string]vectors.StatusKey{
			"record": kafkaOf(ParseStatusRecordKey([]byte(v.Key))),
			"bytes":  kafkaOf(ParseStatusKey([]byte(text))),
			"string": kafkaOf(ParseStatusKey(text)),
			"java":   javaStatusKey(text),
		} {
			if got != want {
				t.Errorf("%q (%s): %+v, want %+v", v.Key, form, got, want)
			}
		}
	}
}

// TestDecodeStatusHostileKeys runs the decoder's own path on the table: a
// status under a key Kafka reads is held under the piece the table names; a
// key it discards is a problem, its tombstone too.
func TestDecodeStatusHostileKeys(t *testing.T) {
	for _, v := range vectors.HostileStatusKeys {
		value := recRunning
		if v.Kind == "topic" {
			value = `{"topic":{"name":` + strconv.Quote(v.Topic) + `,"connector":` + strconv.Quote(v.Connector) + `,"task":0,"discoverTimestamp":1}}`
		}
		res := DecodeStatus(recNumbered(recSt(v.Key, value)), DecodeOptions{})
		var got vectors.StatusKey
		switch {
		case len(res.Connectors) == 1 && len(res.Tasks) == 0 && len(res.Topics) == 0:
			got = vectors.StatusKey{Kind: "connector", Connector: res.Connectors[0].Name}
		case len(res.Tasks) == 1 && len(res.Connectors) == 0 && len(res.Topics) == 0:
			got = vectors.StatusKey{Kind: "task", Connector: res.Tasks[0].Connector, Task: res.Tasks[0].Task}
		case len(res.Topics) == 1 && len(res.Connectors) == 0 && len(res.Tasks) == 0:
			got = vectors.StatusKey{Kind: "topic", Connector: res.Topics[0].Connector, Topic: res.Topics[0].Topic}
		case len(res.Connectors)+len(res.Tasks)+len(res.Topics) != 0:
			t.Errorf("%q: %+v %+v %+v", v.Key, res.Connectors, res.Tasks, res.Topics)
			continue
		}
		want := v
		want.Key = ""
		if got != want {
			t.Errorf("%q: held as %+v, want %+v", v.Key, got, want)
		}
		res = DecodeStatus(recNumbered(recSt(v.Key, value), recSt(v.Key, "<null>")), DecodeOptions{})
		tombstones, problems := 1, 0
		if v.Kind == "" {
			tombstones, problems = 0, 2 // the status and its tombstone
		}
		if res.Records.Tombstones != tombstones || res.Records.Problems != problems || len(res.Problems) != problems {
			t.Errorf("%q: %d tombstones, problems %+v, want %d and %d", v.Key, res.Records.Tombstones, res.Problems, tombstones, problems)
		}
		if len(res.Connectors)+len(res.Tasks)+len(res.Topics) != 0 {
			t.Errorf("%q: the tombstone left %+v %+v %+v", v.Key, res.Connectors, res.Tasks, res.Topics)
		}
	}
}

// TestParseStatusKeyAllocates nothing on the decoder's path.
func TestParseStatusKeyAllocates(t *testing.T) {
	for _, v := range vectors.HostileStatusKeys {
		key := []byte(keyText([]byte(v.Key)))
		if n := testing.AllocsPerRun(100, func() { ParseStatusKey(key) }); n != 0 && !strings.Contains(v.Key, "\U0001F600") {
			t.Errorf("%q: %v allocations", v.Key, n)
		}
	}
}

// TestBMPDigitsComeInRunsOfTen holds what javaDigit assumes of Go's table.
func TestBMPDigitsComeInRunsOfTen(t *testing.T) {
	for _, rg := range unicode.Nd.R16 {
		if rg.Stride != 1 || (rg.Hi-rg.Lo+1)%10 != 0 {
			t.Errorf("Nd range %#x-%#x stride %d", rg.Lo, rg.Hi, rg.Stride)
		}
	}
}

func FuzzParseStatusKey(f *testing.F) {
	for _, v := range vectors.HostileStatusKeys {
		f.Add([]byte(v.Key))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		text := keyText(raw)
		want := javaStatusKey(text)
		b, s, r := kafkaOf(ParseStatusKey([]byte(text))), kafkaOf(ParseStatusKey(text)), kafkaOf(ParseStatusRecordKey(raw))
		if b != want || s != want || r != want {
			t.Fatalf("%q: bytes %+v string %+v record %+v, Java %+v", raw, b, s, r, want)
		}
		// A raw key has its text's kind, and a connector or task key is
		// read as valid or not as its text is (the live merge's use).
		if rk := ParseStatusKey(raw); rk.Kind != ParseStatusKey(text).Kind || rk.Kind != StatusKeyTopic && rk.Valid() != (want.Kind != "") {
			t.Fatalf("%q: raw %+v, text %+v", raw, rk, want)
		}
		if (classifyKey(raw) == topicKindStatus) != (ParseStatusKey(raw).Kind != StatusKeyOther) {
			t.Fatalf("%q: classified %v", raw, classifyKey(raw))
		}
	})
}

// javaStatusKey is KafkaStatusBackingStore.read written out with Java's
// operations (on UTF-16 units), the reference of the fuzz target.
func javaStatusKey(key string) vectors.StatusKey {
	switch {
	case strings.HasPrefix(key, "status-connector-"):
		if name := key[len("status-connector-"):]; name != "" {
			return vectors.StatusKey{Kind: "connector", Connector: name}
		}
	case strings.HasPrefix(key, "status-task-"):
		parts := strings.Split(key, "-")
		for len(parts) > 0 && parts[len(parts)-1] == "" {
			parts = parts[:len(parts)-1]
		}
		if len(parts) < 4 {
			return vectors.StatusKey{}
		}
		n, ok := javaParseIntRef(parts[len(parts)-1])
		if name := strings.Join(parts[2:len(parts)-1], "-"); ok && name != "" {
			return vectors.StatusKey{Kind: "task", Connector: name, Task: n}
		}
	case strings.HasPrefix(key, "status-topic-"):
		u := utf16.Encode([]rune(key))
		colon := -1
		for i, c := range u {
			if c == ':' {
				colon = i
				break
			}
		}
		begin := len("status-topic-")
		if begin > colon || colon+len(":connector-") > len(u) {
			return vectors.StatusKey{}
		}
		topic, connector := string(utf16.Decode(u[begin:colon])), string(utf16.Decode(u[colon+len(":connector-"):]))
		if topic != "" && connector != "" {
			return vectors.StatusKey{Kind: "topic", Topic: topic, Connector: connector}
		}
	}
	return vectors.StatusKey{}
}

// javaParseIntRef is Integer.parseInt(s, 10) as Java writes it (negative
// accumulation, a sign, Character.digit on each UTF-16 unit).
func javaParseIntRef(s string) (int32, bool) {
	u := utf16.Encode([]rune(s))
	if len(u) == 0 {
		return 0, false
	}
	neg, limit, i := false, -int64(1<<31-1), 0
	if u[0] < '0' {
		switch u[0] {
		case '-':
			neg, limit = true, -1<<31
		case '+':
		default:
			return 0, false
		}
		if len(u) == 1 {
			return 0, false
		}
		i++
	}
	var result int64
	for ; i < len(u); i++ {
		d := -1
		if r := rune(u[i]); !utf16.IsSurrogate(r) && unicode.IsDigit(r) {
			for _, rg := range unicode.Nd.R16 {
				if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
					d = int(r - rune(rg.Lo))
				}
			}
		}
		if d < 0 || result < limit/10 {
			return 0, false
		}
		result *= 10
		if result < limit+int64(d) {
			return 0, false
		}
		result -= int64(d)
	}
	if neg {
		return int32(result), true
	}
	return int32(-result), true
}
