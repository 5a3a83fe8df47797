package source

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/connectscope/connectscope/inspect"
)

// ReadKcat reads a `kcat -J` dump: one JSON envelope per line with topic,
// partition, offset, ts, key and payload (payload null = tombstone; other
// fields such as tstype, broker or headers are ignored). Records keep file
// order, which is replay order. A line that is not such an envelope becomes
// a Problem ("line N: …") and reading goes on. Blank lines are skipped.
func ReadKcat(r io.Reader, topics inspect.TopicNames) (*inspect.Dataset, error) {
	return readKcat(r, topics, 0)
}

// readKcat is ReadKcat with a guess of the number of lines, so the record
// slice is allocated once instead of grown (the biggest cost on large dumps).
func readKcat(r io.Reader, topics inspect.TopicNames, expectLines int) (*inspect.Dataset, error) {
	d := &inspect.Dataset{Topics: topics, Records: make([]inspect.Record, 0, expectLines)}
	kr := kcatReader{in: bufio.NewReaderSize(r, 64<<10), topics: map[string]string{}}
	for lineNo := 1; ; lineNo++ {
		line, err := kr.readLine()
		if len(line) > 0 {
			kr.parseLine(d, lineNo, line)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading kcat dump at line %d: %w", lineNo, err)
		}
	}
	return d, nil
}

// kcatReader holds the buffers reused across lines: one line buffer, one
// unescape buffer per field, and a slab the record bytes are carved from,
// so a million-line dump costs few allocations.
type kcatReader struct {
	in      *bufio.Reader
	long    []byte // a line longer than the bufio buffer is assembled here
	env     kcatEnvelope
	scratch [3][]byte // unescape buffers: topic, key, payload
	scan    kcatScanner
	slab    []byte
	topics  map[string]string // interned topic names
}

// readLine returns the next line without its newline and surrounding
// whitespace. The slice is valid until the next call.
func (k *kcatReader) readLine() ([]byte, error) {
	line, err := k.in.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		k.long = append(k.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = k.in.ReadSlice('\n')
			k.long = append(k.long, line...)
		}
		line = k.long
	}
	return bytes.TrimSpace(line), err
}

// kcatEnvelope is one decoded line; byte fields point into the line or the
// scratch buffers until copied.
type kcatEnvelope struct {
	topic, key, payload         []byte
	partition, offset, ts       int64
	hasTopic, hasPartition      bool
	hasOffset, hasKey, hasPayld bool
	keyNull, payloadNull, hasTs bool
}

func (k *kcatReader) parseLine(d *inspect.Dataset, lineNo int, line []byte) {
	k.env = kcatEnvelope{}
	err := k.scanEnvelope(line)
	e := &k.env
	if err == nil {
		switch {
		case !e.hasTopic:
			err = errors.New(`no "topic" field`)
		case len(e.topic) == 0:
			err = errors.New(`"topic" is empty`)
		case !e.hasPartition:
			err = errors.New(`no "partition" field`)
		case !e.hasOffset:
			err = errors.New(`no "offset" field`)
		case !e.hasPayld:
			err = errors.New(`no "payload" field (a tombstone is "payload":null)`)
		case e.partition < 0 || e.partition > 1<<31-1:
			err = fmt.Errorf("partition %d out of range", e.partition)
		}
	}
	if err != nil {
		p := inspect.Problem{Partition: -1, Offset: -1, Reason: fmt.Sprintf("line %d: %v", lineNo, err)}
		if e.hasTopic {
			p.Topic = k.intern(e.topic)
		}
		if e.hasPartition && e.partition >= 0 && e.partition <= 1<<31-1 {
			p.Partition = int32(e.partition)
		}
		if e.hasOffset {
			p.Offset = e.offset
		}
		if e.hasKey && !e.keyNull {
			p.Key = string(e.key)
		}
		d.Problems = append(d.Problems, p)
		return
	}
	rec := inspect.Record{Topic: k.intern(e.topic), Partition: int32(e.partition), Offset: e.offset}
	if e.hasTs {
		rec.Timestamp = e.ts
	}
	if e.hasKey && !e.keyNull {
		rec.Key = k.keep(e.key)
	}
	if !e.payloadNull {
		rec.Value = k.keep(e.payload)
	}
	d.Records = append(d.Records, rec)
}

func (k *kcatReader) intern(b []byte) string {
	if s, ok := k.topics[string(b)]; ok {
		return s
	}
	s := string(b)
	k.topics[s] = s
	return s
}

// keep copies b into the slab and returns a slice whose capacity ends at its
// length, so appending to one record's bytes never touches another's.
func (k *kcatReader) keep(b []byte) []byte {
	const slabSize = 1 << 20
	if len(b) == 0 {
		return []byte{} // empty, not null: a nil Value would read as a tombstone
	}
	if len(b) > slabSize/8 {
		return append(make([]byte, 0, len(b)), b...)
	}
	if cap(k.slab)-len(k.slab) < len(b) {
		k.slab = make([]byte, 0, slabSize)
	}
	start := len(k.slab)
	k.slab = append(k.slab, b...)
	return k.slab[start:len(k.slab):len(k.slab)]
}
