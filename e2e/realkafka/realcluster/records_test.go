//go:build e2e

package realcluster

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// configRecord is one record of the config topic, in log order.
type configRecord struct {
	Key   string
	Value string
}

// configRecords reads the whole config topic (one partition) with a plain
// consumer, to see the order in which Connect wrote its records.
func (c *cluster) configRecords() []configRecord {
	c.t.Helper()
	topic := c.group + "-configs"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.b.Bootstrap()), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	if err != nil {
		c.t.Fatal(err)
	}
	defer cl.Close()
	ends, err := kadm.NewClient(cl).ListEndOffsets(ctx, topic)
	if err != nil {
		c.t.Fatalf("end offset of %s: %v", topic, err)
	}
	end, ok := ends.Lookup(topic, 0)
	if !ok || end.Err != nil {
		c.t.Fatalf("end offset of %s: %v", topic, end.Err)
	}
	var out []configRecord
	for int64(len(out)) < end.Offset {
		fs := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			c.t.Fatalf("reading %s: %d of %d records: %v", topic, len(out), end.Offset, err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			if r.Offset < end.Offset {
				out = append(out, configRecord{Key: string(r.Key), Value: string(r.Value)})
			}
		})
	}
	return out
}

// lastIndex is the position of the last record with key whose value
// contains sub ("" matches any), or -1.
func lastIndex(recs []configRecord, key, sub string) int {
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Key == key && (sub == "" || strings.Contains(recs[i].Value, sub)) {
			return i
		}
	}
	return -1
}

func describe(recs []configRecord, from int) string {
	out := ""
	for i := from; i < len(recs); i++ {
		out += fmt.Sprintf("\n  %d %s %s", i, recs[i].Key, recs[i].Value)
	}
	return out
}
