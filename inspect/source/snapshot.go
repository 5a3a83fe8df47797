package source

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/format/jsonout"
	"github.com/connectscope/connectscope/inspect"
)

// SnapshotVersion is the snapshot file version this build writes and reads.
const SnapshotVersion = 1

// snapshotTopics names the three internal topics in a snapshot file.
type snapshotTopics struct {
	Config string `json:"config"`
	Offset string `json:"offset"`
	Status string `json:"status"`
}

// snapshotRecord is one record in a snapshot file. Key and value are UTF-8
// text (null = null); bytes that are not valid UTF-8 go into *_base64 and
// the text field is null.
type snapshotRecord struct {
	Topic       string  `json:"topic"`
	Partition   int32   `json:"partition"`
	Offset      int64   `json:"offset"`
	TimestampMs int64   `json:"timestamp_ms"`
	Key         *string `json:"key"`
	KeyBase64   []byte  `json:"key_base64,omitempty"`
	Value       *string `json:"value"`
	ValueBase64 []byte  `json:"value_base64,omitempty"`
}

// snapshotEndOffset is the end offset of one partition at snapshot time.
type snapshotEndOffset struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	EndOffset int64  `json:"end_offset"`
}

// WriteSnapshot writes d as a snapshot file (format: README "Snapshot
// files"). Small fields come first, indented; records follow, one per line,
// in dataset order.
func WriteSnapshot(w io.Writer, d *inspect.Dataset) error {
	if d == nil {
		return errors.New("writing snapshot: no dataset")
	}
	// A name the cluster holds reaches the file as a JSON escape where
	// a terminal showing the file would act on it (format.RuneEscaper).
	esc := format.NewRuneEscaper(w)
	sw := &snapshotWriter{jsonout.New(esc, 256<<10)}
	sw.raw("{\n")
	sw.field("snapshot", SnapshotVersion, false)
	sw.field("taken_at_ms", nullIfZero(d.TakenAtMs), false)
	sw.field("source", nullIfEmpty(d.Source), false)
	sw.field("topics", snapshotTopics{Config: d.Topics.Config, Offset: d.Topics.Offset, Status: d.Topics.Status}, false)
	sw.field("isolation", nullIfEmpty(d.Isolation), false)
	writeListField(sw, "end_offsets", endOffsetList(d.EndOffsets))
	sw.field("group", normalizeGroup(d.Group), true)
	sink := d.SinkGroups
	if sink == nil {
		sink = []inspect.SinkGroup{}
	}
	writeListField(sw, "sink_groups", sink)
	writeListField(sw, "topic_descriptions", topicDescriptionList(d.TopicDescriptions))
	brokerConfigs := d.BrokerConfigs
	if brokerConfigs == nil {
		brokerConfigs = map[string]string{}
	}
	sw.field("broker_configs", brokerConfigs, false)
	problems := d.Problems
	if problems == nil {
		problems = []inspect.Problem{}
	}
	writeListField(sw, "problems", problems)
	sw.raw("  \"records\": ")
	sw.list(len(d.Records), func(i int) any { return snapshotRecordOf(&d.Records[i]) })
	sw.raw("\n}\n")
	if err := sw.Close(); err != nil {
		return fmt.Errorf("writing snapshot: %w", err)
	}
	if err := esc.Flush(); err != nil {
		return fmt.Errorf("writing snapshot: %w", err)
	}
	return nil
}

// snapshotWriter lays out a snapshot on the shared writer; its values go
// through encoding/json (HTML escaping included, as the format has it).
type snapshotWriter struct{ *jsonout.Writer }

func (s *snapshotWriter) raw(text string) {
	s.Raw(text)
	s.MaybeFlush()
}

func (s *snapshotWriter) marshal(v any, indent bool) []byte {
	if s.Err() != nil {
		return nil
	}
	var b []byte
	var err error
	if indent {
		b, err = json.MarshalIndent(v, "  ", "  ")
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		s.Fail(err)
	}
	return b
}

func (s *snapshotWriter) field(name string, v any, indent bool) {
	b := s.marshal(v, indent)
	s.raw("  \"" + name + "\": ")
	s.raw(string(b))
	s.raw(",\n")
}

// list writes a JSON array with one compact element per line.
func (s *snapshotWriter) list(n int, item func(i int) any) {
	s.raw("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			s.raw(",")
		}
		s.raw("\n    ")
		s.raw(string(s.marshal(item(i), false)))
	}
	if n > 0 {
		s.raw("\n  ")
	}
	s.raw("]")
}

func writeListField[T any](s *snapshotWriter, name string, items []T) {
	s.raw("  \"" + name + "\": ")
	s.list(len(items), func(i int) any { return items[i] })
	s.raw(",\n")
}

func snapshotRecordOf(r *inspect.Record) snapshotRecord {
	out := snapshotRecord{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset, TimestampMs: r.Timestamp}
	out.Key, out.KeyBase64 = textOrBytes(r.Key)
	out.Value, out.ValueBase64 = textOrBytes(r.Value)
	return out
}

// textOrBytes returns b as text when it is valid UTF-8, else as raw bytes
// (written as base64); nil stays null.
func textOrBytes(b []byte) (*string, []byte) {
	if b == nil {
		return nil, nil
	}
	if utf8.Valid(b) {
		s := string(b)
		return &s, nil
	}
	return nil, b
}

func nullIfZero(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return &v
}

func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func endOffsetList(m map[string]map[int32]int64) []snapshotEndOffset {
	out := []snapshotEndOffset{}
	for topic, parts := range m {
		for p, off := range parts {
			out = append(out, snapshotEndOffset{Topic: topic, Partition: p, EndOffset: off})
		}
	}
	slices.SortFunc(out, func(a, b snapshotEndOffset) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
	return out
}

// topicDescriptionList sorts by topic name and writes absent configs as {}.
func topicDescriptionList(in []inspect.TopicDescription) []inspect.TopicDescription {
	out := make([]inspect.TopicDescription, len(in))
	copy(out, in)
	for i := range out {
		if out[i].Configs == nil {
			out[i].Configs = map[string]string{}
		}
	}
	sortTopicDescriptions(out)
	return out
}

// sortTopicDescriptions puts descriptions in a snapshot's order, by name
// (stable: two of one name keep theirs). The writer and the reader both
// apply it, so a file written in another order reads as it writes back.
func sortTopicDescriptions(ds []inspect.TopicDescription) {
	slices.SortStableFunc(ds, func(a, b inspect.TopicDescription) int { return cmp.Compare(a.Name, b.Name) })
}

// normalizeGroup writes an absent member list as [] rather than null.
func normalizeGroup(g *inspect.GroupDescription) *inspect.GroupDescription {
	if g == nil || g.Members != nil {
		return g
	}
	c := *g
	c.Members = []inspect.GroupMember{}
	return &c
}
