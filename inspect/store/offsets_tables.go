package store

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/connectscope/connectscope/format"
)

// Tables shows one row per stored source offset; wide adds where it is
// stored in the offsets topic.
func (r *OffsetsResult) Tables() []format.Table {
	t := format.Table{
		Title:  "Source offsets (" + r.Topic + ")",
		Header: []string{"CONNECTOR", "PARTITION", "OFFSET", "KAFKA PARTITION", "KAFKA OFFSET"},
		Wide:   []int{3, 4},
	}
	for _, o := range r.Offsets {
		t.Rows = append(t.Rows, []string{o.Connector, compactJSON(o.Partition), compactJSON(o.Offset),
			strconv.Itoa(int(o.KafkaPartition)), strconv.FormatInt(o.KafkaOffset, 10)})
	}
	return viewTables(r.Records, r.Problems, t)
}

// Items gives one JSON line per stored offset.
func (r *OffsetsResult) Items() []any { return format.Items(r.Offsets) }

func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}
