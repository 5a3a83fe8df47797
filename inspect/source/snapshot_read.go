package source

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/connectscope/connectscope/inspect"
)

// ReadSnapshot reads a snapshot file written by WriteSnapshot. It streams
// the records array, so memory is the dataset itself plus one record.
//
// One value (a record, the group) may take at most maxEntryBytes of the
// file: a longer one is refused as soon as it passes the bound, not read
// whole first.
func ReadSnapshot(r io.Reader) (*inspect.Dataset, error) {
	g := &entryGuard{r: r}
	dec := json.NewDecoder(g)
	dec.UseNumber()
	if err := expectDelim(dec, '{'); err != nil {
		return nil, fmt.Errorf("reading snapshot: not a JSON object: %w", err)
	}
	d := &inspect.Dataset{}
	version := -1
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("reading snapshot: %w", err)
		}
		name, _ := tok.(string)
		g.next()
		if err := readSnapshotField(dec, g, name, d, &version); err != nil {
			if version != -1 && version != SnapshotVersion {
				return nil, versionError(version)
			}
			return nil, fmt.Errorf("reading snapshot: field %q: %w", name, err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, fmt.Errorf("reading snapshot: %w", err)
	}
	if p, ok := trailingContent(dec, r); ok {
		d.Problems = append(d.Problems, p)
	}
	if version == -1 {
		return nil, errors.New(`reading snapshot: no "snapshot" version field: this is not a connectscope snapshot file`)
	}
	if d.Records == nil {
		d.Records = []inspect.Record{}
	}
	return d, nil
}

func versionError(v int) error {
	return fmt.Errorf("reading snapshot: snapshot version %d is not supported: this build of connectscope reads snapshot version %d", v, SnapshotVersion)
}

func readSnapshotField(dec *json.Decoder, g *entryGuard, name string, d *inspect.Dataset, version *int) error {
	switch name {
	case "snapshot":
		var n json.Number
		if err := dec.Decode(&n); err != nil {
			return err
		}
		v, err := n.Int64()
		if err != nil || v < 0 || v > 1<<30 {
			return fmt.Errorf("version %q is not a whole number", n)
		}
		*version = int(v)
		if v != SnapshotVersion {
			return versionError(int(v))
		}
	case "taken_at_ms":
		var v *int64
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if v != nil {
			d.TakenAtMs = *v
		}
	case "source":
		return decodeOptionalString(dec, &d.Source)
	case "isolation":
		return decodeOptionalString(dec, &d.Isolation)
	case "topics":
		var t snapshotTopics
		if err := dec.Decode(&t); err != nil {
			return err
		}
		d.Topics = inspect.TopicNames{Config: t.Config, Offset: t.Offset, Status: t.Status}
	case "end_offsets":
		var list []snapshotEndOffset
		if err := dec.Decode(&list); err != nil {
			return err
		}
		for _, e := range list {
			if d.EndOffsets == nil {
				d.EndOffsets = map[string]map[int32]int64{}
			}
			if d.EndOffsets[e.Topic] == nil {
				d.EndOffsets[e.Topic] = map[int32]int64{}
			}
			d.EndOffsets[e.Topic][e.Partition] = e.EndOffset
		}
	case "group":
		return dec.Decode(&d.Group)
	case "sink_groups":
		return dec.Decode(&d.SinkGroups)
	case "topic_descriptions":
		if err := dec.Decode(&d.TopicDescriptions); err != nil {
			return err
		}
		if len(d.TopicDescriptions) == 0 {
			d.TopicDescriptions = nil // written as [] for nil; keep round trips exact
		}
		for i := range d.TopicDescriptions {
			if d.TopicDescriptions[i].Configs == nil {
				d.TopicDescriptions[i].Configs = map[string]string{} // written as {} for null
			}
		}
		sortTopicDescriptions(d.TopicDescriptions)
	case "broker_configs":
		if err := dec.Decode(&d.BrokerConfigs); err != nil {
			return err
		}
		if len(d.BrokerConfigs) == 0 {
			d.BrokerConfigs = nil
		}
	case "problems":
		return dec.Decode(&d.Problems)
	case "records":
		return readSnapshotRecords(dec, g, d)
	default:
		// Fields added by later builds of the same version are skipped.
		var skip json.RawMessage
		return dec.Decode(&skip)
	}
	return nil
}

func decodeOptionalString(dec *json.Decoder, dst *string) error {
	var s *string
	if err := dec.Decode(&s); err != nil {
		return err
	}
	if s != nil {
		*dst = *s
	}
	return nil
}

func readSnapshotRecords(dec *json.Decoder, g *entryGuard, d *inspect.Dataset) error {
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	for i := 0; dec.More(); i++ {
		// Each record is its own value: one that does not decode (a number
		// as key, bad base64, an offset past int64) is one problem, and the
		// records after it are still read.
		var raw json.RawMessage
		g.next()
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("record %d: %w", i, err)
		}
		var sr snapshotRecord
		if err := json.Unmarshal(raw, &sr); err != nil || sr.Partition < 0 || sr.Offset < 0 {
			d.Problems = append(d.Problems, snapshotRecordProblem(i, sr, err))
			continue
		}
		rec := inspect.Record{Topic: sr.Topic, Partition: sr.Partition, Offset: sr.Offset, Timestamp: sr.TimestampMs}
		rec.Key = bytesOf(sr.Key, sr.KeyBase64)
		rec.Value = bytesOf(sr.Value, sr.ValueBase64)
		d.Records = append(d.Records, rec)
	}
	return expectDelim(dec, ']')
}

// bytesOf prefers the base64 form (used when the bytes are not UTF-8).
func bytesOf(text *string, raw []byte) []byte {
	switch {
	case raw != nil:
		return raw
	case text != nil:
		return append(make([]byte, 0, len(*text)), *text...)
	}
	return nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q, found %v", string(want), tok)
	}
	return nil
}

// snapshotRecordProblem describes record i of a snapshot that could not be
// read, with what was read of it (the decoder fills what it can).
func snapshotRecordProblem(i int, sr snapshotRecord, err error) inspect.Problem {
	p := inspect.Problem{Topic: sr.Topic, Partition: -1, Offset: -1}
	var reason string
	switch {
	case err != nil:
		reason = err.Error()
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			reason = fmt.Sprintf("field %q: want %s, got %s", te.Field, te.Type, te.Value)
		}
	case sr.Partition < 0:
		reason = fmt.Sprintf("partition %d out of range", sr.Partition)
	default:
		reason = fmt.Sprintf("offset %d out of range", sr.Offset)
	}
	if sr.Partition >= 0 {
		p.Partition = sr.Partition
	}
	if sr.Offset >= 0 && err == nil {
		p.Offset = sr.Offset
	}
	if sr.Key != nil {
		p.Key, p.HasKey = *sr.Key, true
	}
	p.Reason = fmt.Sprintf("snapshot record %d: %s", i, reason)
	return p
}

// trailingContent reports anything but white space after the snapshot's
// closing brace (a second snapshot, dump lines appended, garbage): it is
// not read, and says so instead of vanishing.
func trailingContent(dec *json.Decoder, r io.Reader) (inspect.Problem, bool) {
	offset := dec.InputOffset()
	rest := bufio.NewReader(io.MultiReader(dec.Buffered(), r))
	for n := int64(0); ; n++ {
		c, err := rest.ReadByte()
		if err != nil {
			return inspect.Problem{}, false
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		what := "content that is not part of it"
		switch {
		case c == '{':
			what = "another JSON object (a second snapshot, or dump lines appended?)"
		case c == 0xEF:
			what = "a byte-order mark and more content"
		}
		return inspect.Problem{Partition: -1, Offset: -1,
			Reason: fmt.Sprintf("the file goes on after the snapshot ends (byte %d): %s; it was not read", offset+n+1, what)}, true
	}
}

// entryGuard refuses to read more than maxEntryBytes for one value of a
// snapshot: next starts the count for the next value. (The decoder reads
// ahead by its buffer, which the bound's size leaves room for.)
type entryGuard struct {
	r io.Reader
	n int64
}

// errEntryTooLong is a snapshot value past maxEntryBytes.
var errEntryTooLong = fmt.Errorf("one entry is longer than %d MiB, so not a record: a record is at most %d MiB (a broker's socket.request.max.bytes); the file cannot be read past it", maxEntryBytes>>20, MaxRecordBytes>>20)

func (g *entryGuard) next() { g.n = 0 }

func (g *entryGuard) Read(p []byte) (int, error) {
	if g.n > maxEntryBytes {
		return 0, errEntryTooLong
	}
	n, err := g.r.Read(p)
	g.n += int64(n)
	return n, err
}
