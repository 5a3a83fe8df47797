package source

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/connectscope/connectscope/inspect"
)

// ReadSnapshot reads a snapshot file written by WriteSnapshot. It streams
// the records array, so memory is the dataset itself plus one record.
func ReadSnapshot(r io.Reader) (*inspect.Dataset, error) {
	dec := json.NewDecoder(r)
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
		if err := readSnapshotField(dec, name, d, &version); err != nil {
			if version != -1 && version != SnapshotVersion {
				return nil, versionError(version)
			}
			return nil, fmt.Errorf("reading snapshot: field %q: %w", name, err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return nil, fmt.Errorf("reading snapshot: %w", err)
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

func readSnapshotField(dec *json.Decoder, name string, d *inspect.Dataset, version *int) error {
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
		return readSnapshotRecords(dec, d)
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

func readSnapshotRecords(dec *json.Decoder, d *inspect.Dataset) error {
	if err := expectDelim(dec, '['); err != nil {
		return err
	}
	for i := 0; dec.More(); i++ {
		var sr snapshotRecord
		if err := dec.Decode(&sr); err != nil {
			return fmt.Errorf("record %d: %w", i, err)
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
