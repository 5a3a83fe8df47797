package protocol

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

const protocolVectorDir = "../../../shared/vectors/protocol"

type vectorEntry struct {
	Connector string  `json:"connector"`
	Tasks     []int32 `json:"tasks"`
}

type vectorAssignment struct {
	HeaderVersion     int16          `json:"header_version"`
	Error             int16          `json:"error"`
	Leader            string         `json:"leader"`
	LeaderURL         string         `json:"leader_url"`
	ConfigOffset      int64          `json:"config_offset"`
	AssignmentEntries *[]vectorEntry `json:"assignment_entries"`
	RevokedEntries    *[]vectorEntry `json:"revoked_entries"`
	Delay             int32          `json:"delay"`
	Connectors        []string       `json:"connectors"`
	Tasks             []string       `json:"tasks"`
	RevokedConnectors []string       `json:"revoked_connectors"`
	RevokedTasks      []string       `json:"revoked_tasks"`
}

type vectorFile struct {
	Kind    string          `json:"kind"`
	Version int16           `json:"version"`
	Hex     *string         `json:"hex"`
	Name    string          `json:"name"`
	Decoded json.RawMessage `json:"decoded"`
}

type vectorMetadata struct {
	URL           string            `json:"url"`
	ConfigOffset  int64             `json:"config_offset"`
	AllocationHex *string           `json:"allocation_hex"`
	Allocation    *vectorAssignment `json:"allocation"`
}

type vectorJoin struct {
	Protocols []struct {
		Name        string `json:"name"`
		MetadataHex string `json:"metadata_hex"`
	} `json:"protocols"`
}

func loadProtocolVectors(t testing.TB) []vectorFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(protocolVectorDir, "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no protocol vectors in %s (err %v): the shared vectors must sit beside the repo", protocolVectorDir, err)
	}
	var out []vectorFile
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var v vectorFile
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out = append(out, v)
	}
	return out
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func toEntries(v *[]vectorEntry) []ConnectorEntry {
	if v == nil {
		return nil
	}
	out := []ConnectorEntry{}
	for _, e := range *v {
		out = append(out, ConnectorEntry{Connector: e.Connector, Tasks: slices.Clone(e.Tasks)})
	}
	return out
}

func taskStrings(ts []TaskRef) []string {
	out := []string{}
	for _, t := range ts {
		out = append(out, t.String())
	}
	return out
}

// checkAssignment compares a decoded assignment with a vector's "decoded" value.
func checkAssignment(t *testing.T, name string, got *Assignment, want *vectorAssignment) {
	t.Helper()
	if got.Version != want.HeaderVersion || got.Error != want.Error || got.Leader != want.Leader ||
		got.LeaderURL != want.LeaderURL || got.ConfigOffset != want.ConfigOffset || got.DelayMs != want.Delay {
		t.Errorf("%s: header fields = %+v, want %+v", name, got, want)
	}
	if !reflect.DeepEqual(got.Assigned, toEntries(want.AssignmentEntries)) {
		t.Errorf("%s: assigned entries = %#v, want %#v", name, got.Assigned, toEntries(want.AssignmentEntries))
	}
	if !reflect.DeepEqual(got.Revoked, toEntries(want.RevokedEntries)) {
		t.Errorf("%s: revoked entries = %#v, want %#v", name, got.Revoked, toEntries(want.RevokedEntries))
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"connectors", got.Connectors(), want.Connectors},
		{"tasks", taskStrings(got.Tasks()), want.Tasks},
		{"revoked connectors", got.RevokedConnectors(), want.RevokedConnectors},
		{"revoked tasks", taskStrings(got.RevokedTasks()), want.RevokedTasks},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s: %s = %q, want %q", name, c.what, c.got, c.want)
		}
	}
}

// sameEntrySet compares connector entries ignoring entry order (the order
// of Kafka's assigned entries comes from a Java HashSet).
func sameEntrySet(a, b []ConnectorEntry) bool {
	key := func(es []ConnectorEntry) []string {
		var out []string
		for _, e := range es {
			b, _ := json.Marshal(e)
			out = append(out, string(b))
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(a), key(b))
}

func TestProtocolVectors(t *testing.T) {
	vectors := loadProtocolVectors(t)
	counts := map[string]int{}
	for _, v := range vectors {
		counts[v.Kind]++
		decodeOnly := strings.HasSuffix(v.Name, "-decode-only")
		switch v.Kind {
		case "assignment":
			var want vectorAssignment
			if err := json.Unmarshal(v.Decoded, &want); err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			raw := mustHex(t, *v.Hex)
			got, err := DecodeAssignment(raw)
			if err != nil {
				t.Errorf("%s: decode: %v", v.Name, err)
				continue
			}
			checkAssignment(t, v.Name, got, &want)
			if decodeOnly && len(got.Warnings) == 0 && strings.Contains(v.Name, "trailing") {
				t.Errorf("%s: trailing bytes not noted", v.Name)
			}
			// Re-encode from the vector's decoded value.
			built := &Assignment{Version: want.HeaderVersion, Error: want.Error, Leader: want.Leader,
				LeaderURL: want.LeaderURL, ConfigOffset: want.ConfigOffset,
				Assigned: toEntries(want.AssignmentEntries), Revoked: toEntries(want.RevokedEntries), DelayMs: want.Delay}
			enc, err := EncodeAssignment(built)
			if err != nil {
				t.Errorf("%s: encode: %v", v.Name, err)
				continue
			}
			if decodeOnly {
				// Kafka never writes these shapes; our encoder writes what
				// Kafka would, which must decode to the same meaning.
				again, err := DecodeAssignment(enc)
				if err != nil {
					t.Errorf("%s: re-decode: %v", v.Name, err)
					continue
				}
				if !slices.Equal(again.Connectors(), got.Connectors()) || !slices.Equal(taskStrings(again.Tasks()), taskStrings(got.Tasks())) ||
					len(again.Revoked) != len(got.Revoked) || again.DelayMs != got.DelayMs {
					t.Errorf("%s: re-encoded value differs: %+v vs %+v", v.Name, again, got)
				}
			} else if hex.EncodeToString(enc) != *v.Hex {
				t.Errorf("%s: encode = %x, want %s", v.Name, enc, *v.Hex)
			}
			// Rebuilding the entries from the piece lists gives the same
			// entries up to Kafka's HashSet order.
			if want.AssignmentEntries != nil {
				fromLists := EntriesFor(got.Connectors(), got.Tasks())
				if !sameEntrySet(fromLists, got.Assigned) {
					t.Errorf("%s: EntriesFor = %v, want (as a set) %v", v.Name, fromLists, got.Assigned)
				}
			}
		case "metadata":
			var want vectorMetadata
			if err := json.Unmarshal(v.Decoded, &want); err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			raw := mustHex(t, *v.Hex)
			got, err := DecodeMetadata(raw)
			if err != nil {
				t.Errorf("%s: decode: %v", v.Name, err)
				continue
			}
			if got.Version != v.Version || got.URL != want.URL || got.ConfigOffset != want.ConfigOffset {
				t.Errorf("%s: got %+v, want %+v", v.Name, got, want)
			}
			if (got.Allocation == nil) != (want.Allocation == nil) {
				t.Errorf("%s: allocation = %+v, want %+v", v.Name, got.Allocation, want.Allocation)
				continue
			}
			m := &MemberMetadata{Version: v.Version, URL: want.URL, ConfigOffset: want.ConfigOffset}
			if want.Allocation != nil {
				checkAssignment(t, v.Name+" allocation", got.Allocation, want.Allocation)
				alloc, err := DecodeAssignment(mustHex(t, *want.AllocationHex))
				if err != nil {
					t.Fatalf("%s: allocation_hex: %v", v.Name, err)
				}
				m.Allocation = alloc
			}
			enc, err := EncodeMetadata(m)
			if err != nil {
				t.Errorf("%s: encode: %v", v.Name, err)
			} else if hex.EncodeToString(enc) != *v.Hex {
				t.Errorf("%s: encode = %x, want %s", v.Name, enc, *v.Hex)
			}
			if len(got.Warnings) != 0 {
				t.Errorf("%s: unexpected warnings %q", v.Name, got.Warnings)
			}
		case "join_protocols":
			var want vectorJoin
			if err := json.Unmarshal(v.Decoded, &want); err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			first, err := DecodeMetadata(mustHex(t, want.Protocols[0].MetadataHex))
			if err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			mode := map[int16]string{0: "eager", 1: "compatible", 2: "sessioned"}[v.Version]
			got, err := JoinProtocols(strings.ToUpper(mode), first.URL, first.ConfigOffset, first.Allocation)
			if err != nil {
				t.Fatalf("%s: %v", v.Name, err)
			}
			if len(got) != len(want.Protocols) {
				t.Fatalf("%s: %d protocols, want %d", v.Name, len(got), len(want.Protocols))
			}
			for i, p := range want.Protocols {
				if got[i].Name != p.Name || hex.EncodeToString(got[i].Metadata) != p.MetadataHex {
					t.Errorf("%s[%d]: got %s %x, want %s %s", v.Name, i, got[i].Name, got[i].Metadata, p.Name, p.MetadataHex)
				}
			}
		default:
			t.Errorf("%s: unknown kind %q", v.Name, v.Kind)
		}
	}
	if counts["assignment"] < 20 || counts["metadata"] < 10 || counts["join_protocols"] != 3 {
		t.Errorf("vector counts %v: the protocol vector set looks incomplete", counts)
	}
}

// TestSpecExamples encodes the worked examples of connect-internals.md §3–§4
// and checks their sizes and leading bytes.
func TestSpecExamples(t *testing.T) {
	url := "http://w1:8083/"
	owned := &Assignment{Version: 2, Leader: "w1-1", LeaderURL: url, ConfigOffset: 42,
		Assigned: EntriesFor([]string{"orders"}, []TaskRef{{"orders", 0}, {"orders", 1}}), Revoked: []ConnectorEntry{}}
	v1 := &Assignment{Version: 1, Leader: "w1-1", LeaderURL: url, ConfigOffset: 42,
		Assigned: EntriesFor([]string{"orders"}, []TaskRef{{"orders", 1}}),
		Revoked:  EntriesFor(nil, []TaskRef{{"orders", 2}}), DelayMs: 300000}
	v0 := &Assignment{Version: 0, Leader: "w1-1", LeaderURL: url, ConfigOffset: 42,
		Assigned: EntriesFor([]string{"orders"}, []TaskRef{{"orders", 0}})}
	mismatch := &Assignment{Version: 2, Error: AssignmentConfigMismatch, Leader: "w1-1", LeaderURL: url, ConfigOffset: 42}
	cases := []struct {
		name   string
		encode func() ([]byte, error)
		size   int
		prefix string
		suffix string
	}{
		{"V0 metadata", func() ([]byte, error) { return EncodeMetadata(&MemberMetadata{URL: url, ConfigOffset: 42}) }, 27, "0000000f", "000000000000002a"},
		{"V2 fresh metadata", func() ([]byte, error) { return EncodeMetadata(&MemberMetadata{Version: 2, URL: url, ConfigOffset: 42}) }, 31, "0002000f", "ffffffff"},
		{"V2 metadata owning orders", func() ([]byte, error) {
			return EncodeMetadata(&MemberMetadata{Version: 2, URL: url, ConfigOffset: 42, Allocation: owned})
		}, 102, "0002000f", "ffffffff000000000000000100000000" + "00000000"},
		{"V1 assignment", func() ([]byte, error) { return EncodeAssignment(v1) }, 83, "00010000", "000493e0"},
		{"V0 assignment", func() ([]byte, error) { return EncodeAssignment(v0) }, 59, "00000000", "ffffffff00000000"},
		{"CONFIG_MISMATCH", func() ([]byte, error) { return EncodeAssignment(mismatch) }, 47, "00020001", "000000000000000000000000"},
	}
	for _, c := range cases {
		b, err := c.encode()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		h := hex.EncodeToString(b)
		if len(b) != c.size || !strings.HasPrefix(h, c.prefix) || !strings.HasSuffix(h, c.suffix) {
			t.Errorf("%s: %d bytes %s, want %d bytes %s…%s", c.name, len(b), h, c.size, c.prefix, c.suffix)
		}
	}
}
