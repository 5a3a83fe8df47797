package live

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sort"

	"github.com/connectscope/connectscope/inspect"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Record batch v2 layout (Kafka's DefaultRecordBatch): the header fields'
// byte offsets within a batch.
const (
	batchLengthAt     = 8  // int32: bytes after this field
	batchMagicAt      = 16 // int8
	batchCRCAt        = 17 // uint32 over everything from attributes on
	batchAttributesAt = 21 // int16
	batchLastDeltaAt  = 23 // int32
	batchBaseTimeAt   = 27 // int64
	batchMaxTimeAt    = 35 // int64
	batchProducerAt   = 43 // int64
	batchCountAt      = 57 // int32
	batchHeaderLen    = 61

	attrCodecMask     = 0x07
	attrLogAppendTime = 0x08
	attrTransactional = 0x10
	attrControl       = 0x20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errOldMagic marks a response holding pre-0.11 message sets, which
// decodeBatches leaves to franz-go's general decoder.
var errOldMagic = errors.New("message format older than v2")

// decodeBatches appends the records of one partition's fetch answer with
// offsets in [c.next, c.end) to c.recs, and returns the offset to fetch
// next: past every complete batch, including control batches (transaction
// markers) and, under read_committed, aborted ones, which yield no records.
// A batch cut off at the end of the answer is left for the next fetch.
//
// It decodes v2 batches itself instead of through franz-go's record
// structs: reading a million records then allocates nothing per record
// beyond the Record kept, and keys and values stay slices of the answer.
func decodeBatches(c *cursor, rp *kmsg.FetchResponseTopicPartition, committed bool, dec kgo.Decompressor) (int64, error) {
	next := c.next
	in := rp.RecordBatches
	aborted := abortedTxns(rp, committed)
	abortedPIDs := map[int64]bool{}
	for len(in) >= batchHeaderLen {
		size := 12 + int(int32(binary.BigEndian.Uint32(in[batchLengthAt:])))
		if size < batchHeaderLen {
			return next, fmt.Errorf("batch at offset %d: length %d is too short", int64(binary.BigEndian.Uint64(in)), size)
		}
		if size > len(in) {
			break // truncated by the fetch size limit
		}
		if in[batchMagicAt] != 2 {
			return next, errOldMagic
		}
		batch := in[:size]
		in = in[size:]
		base := int64(binary.BigEndian.Uint64(batch))
		last := base + int64(int32(binary.BigEndian.Uint32(batch[batchLastDeltaAt:])))
		if crc32.Checksum(batch[batchAttributesAt:], castagnoli) != binary.BigEndian.Uint32(batch[batchCRCAt:]) {
			return next, fmt.Errorf("batch at offset %d: CRC mismatch (corrupt data)", base)
		}
		if last < next {
			continue // entirely before the requested offset
		}
		attrs := binary.BigEndian.Uint16(batch[batchAttributesAt:])
		pid := int64(binary.BigEndian.Uint64(batch[batchProducerAt:]))
		for len(aborted) > 0 && aborted[0].FirstOffset <= last {
			abortedPIDs[aborted[0].ProducerID] = true
			aborted = aborted[1:]
		}
		switch {
		case attrs&attrControl != 0:
			if abortedPIDs[pid] && isAbortMarker(batch[batchHeaderLen:]) {
				delete(abortedPIDs, pid)
			}
		case attrs&attrTransactional != 0 && abortedPIDs[pid]:
			// aborted: Connect's read_committed readers never see it
		default:
			if err := decodeRecords(c, batch, attrs, dec, next); err != nil {
				return next, fmt.Errorf("batch at offset %d: %w", base, err)
			}
			if c.sink != nil { // streamed: hand the batch over, reuse the buffer
				c.sink(c.recs)
				c.recs = c.recs[:0]
			}
		}
		next = last + 1
	}
	return next, nil
}

// abortedTxns lists the answer's aborted transactions by first offset;
// none under read_uncommitted.
func abortedTxns(rp *kmsg.FetchResponseTopicPartition, committed bool) []kmsg.FetchResponseTopicPartitionAbortedTransaction {
	if !committed || len(rp.AbortedTransactions) == 0 {
		return nil
	}
	out := append([]kmsg.FetchResponseTopicPartitionAbortedTransaction(nil), rp.AbortedTransactions...)
	sort.Slice(out, func(i, j int) bool { return out[i].FirstOffset < out[j].FirstOffset })
	return out
}

// isAbortMarker reads a control batch's first record key: int16 version,
// int16 type (0 = abort, 1 = commit).
func isAbortMarker(records []byte) bool {
	r := varintReader{b: records}
	r.varint() // record length
	r.byte()   // attributes
	r.varint() // timestamp delta
	r.varint() // offset delta
	klen := r.varint()
	key := r.bytes(klen)
	return r.err == nil && len(key) >= 4 && binary.BigEndian.Uint16(key[2:]) == 0
}

// decodeRecords appends a data batch's records with offsets in [from, end).
func decodeRecords(c *cursor, batch []byte, attrs uint16, dec kgo.Decompressor, from int64) error {
	base := int64(binary.BigEndian.Uint64(batch))
	baseTime := int64(binary.BigEndian.Uint64(batch[batchBaseTimeAt:]))
	maxTime := int64(binary.BigEndian.Uint64(batch[batchMaxTimeAt:]))
	count := int(int32(binary.BigEndian.Uint32(batch[batchCountAt:])))
	body := batch[batchHeaderLen:]
	if codec := kgo.CompressionCodecType(attrs & attrCodecMask); codec != kgo.CodecNone {
		var err error
		if body, err = dec.Decompress(body, codec); err != nil {
			return fmt.Errorf("decompressing: %w", err)
		}
	}
	r := varintReader{b: body}
	for i := 0; i < count; i++ {
		length := r.varint()
		start := r.pos
		r.byte() // attributes, unused
		tsDelta := r.varint()
		offDelta := r.varint()
		klen := r.varint()
		key := r.bytes(klen)
		vlen := r.varint()
		value := r.bytes(vlen)
		if r.err != nil {
			return fmt.Errorf("record %d: %w", i, r.err)
		}
		if end := start + int(length); end < r.pos || end > len(r.b) {
			return fmt.Errorf("record %d: length %d does not match its fields", i, length)
		} else {
			r.pos = end // skip headers: Connect's internal records carry none we use
		}
		off := base + offDelta
		if off < from || off >= c.end {
			continue
		}
		ts := baseTime + tsDelta
		if attrs&attrLogAppendTime != 0 {
			ts = maxTime
		}
		c.recs = append(c.recs, inspect.Record{Topic: c.topic, Partition: c.partition, Offset: off, Timestamp: ts, Key: key, Value: value})
	}
	return nil
}

// varintReader reads Kafka's zig-zag varints and length-prefixed bytes,
// remembering the first error.
type varintReader struct {
	b   []byte
	pos int
	err error
}

var errTruncated = errors.New("truncated record")

func (r *varintReader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.pos:])
	if n <= 0 {
		r.err = errTruncated
		return 0
	}
	r.pos += n
	return v
}

func (r *varintReader) byte() {
	if r.err == nil && r.pos >= len(r.b) {
		r.err = errTruncated
	}
	r.pos++
}

// bytes returns the next n bytes; n < 0 is null (nil).
func (r *varintReader) bytes(n int64) []byte {
	if r.err != nil || n < 0 {
		return nil
	}
	if n > int64(len(r.b)-r.pos) {
		r.err = errTruncated
		return nil
	}
	b := r.b[r.pos : r.pos+int(n) : r.pos+int(n)]
	r.pos += int(n)
	return b
}
