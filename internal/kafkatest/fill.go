package kafkatest

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"
)

// StatusRecord is the i-th record of a synthetic status topic: task
// statuses of 2,000 connectors with 10 tasks each, rewritten over and over
// with rising generations, as a busy cluster's status topic looks before
// compaction.
func StatusRecord(i int) *kgo.Record {
	conn, task := (i/10)%2000, i%10
	gen := i / 20000
	state := "RUNNING"
	if i%97 == 0 {
		state = "UNASSIGNED"
	}
	key := "status-task-connector-" + strconv.Itoa(conn) + "-" + strconv.Itoa(task)
	value := `{"state":"` + state + `","trace":null,"worker_id":"10.0.` + strconv.Itoa(conn%16) + `.` + strconv.Itoa(task) +
		`:8083","generation":` + strconv.Itoa(gen) + `}`
	return &kgo.Record{Topic: StatusTopic, Partition: -1, Key: []byte(key), Value: []byte(value)}
}

// OffsetRecord is the i-th record of a synthetic offsets topic: source
// offsets of 500 connectors over 200 tables each, advancing.
func OffsetRecord(i int) *kgo.Record {
	conn, table := i%500, (i/500)%200
	key := `["source-` + strconv.Itoa(conn) + `",{"table":"table_` + strconv.Itoa(table) + `"}]`
	value := `{"lsn":` + strconv.Itoa(1_000_000+i) + `,"txid":` + strconv.Itoa(i) + `}`
	return &kgo.Record{Topic: OffsetTopic, Partition: -1, Key: []byte(key), Value: []byte(value)}
}

// Fill produces n records made by gen to the cluster at addrs, placed by key
// hash, uncompressed (Connect's producers' default), and returns the bytes
// of keys and values written.
func Fill(ctx context.Context, addrs []string, n int, gen func(int) *kgo.Record, extra ...kgo.Opt) (int64, error) {
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(addrs...), kgo.ClientID("kafkatest-fill"),
		kgo.RecordPartitioner(manualOrHash{}), kgo.ProducerBatchCompression(kgo.NoCompression()),
		kgo.ProducerBatchMaxBytes(1 << 20), kgo.MaxBufferedRecords(1 << 16)}, extra...)...)
	if err != nil {
		return 0, err
	}
	defer cl.Close()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		bytes    int64
	)
	for i := range n {
		r := gen(i)
		bytes += int64(len(r.Key) + len(r.Value))
		wg.Add(1)
		cl.Produce(ctx, r, func(_ *kgo.Record, err error) {
			defer wg.Done()
			if err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return 0, fmt.Errorf("filling: %w", firstErr)
	}
	return bytes, nil
}
