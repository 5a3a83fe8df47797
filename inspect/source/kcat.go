package source

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"unicode/utf8"

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
	return readKcatStreaming(r, topics, expectLines, "", nil)
}

// readKcatStreaming is readKcat that hands the records of topic stream to
// each, one at a time, instead of keeping them: memory then follows what
// each keeps, not the size of the dump. Each such record's bytes are its
// own (no shared slab), so one the caller keeps pins nothing else.
func readKcatStreaming(r io.Reader, topics inspect.TopicNames, expectLines int, stream string, each func(*inspect.Record)) (*inspect.Dataset, error) {
	d := &inspect.Dataset{Topics: topics, Records: make([]inspect.Record, 0, expectLines)}
	kr := kcatReader{in: bufio.NewReaderSize(r, 64<<10), topics: map[string]string{}, stream: stream}
	if each != nil {
		// The decoder runs beside the scanner, on batches in file order:
		// on two cores the two halves of the work overlap.
		p := newPipeline(each)
		defer p.close()
		kr.each = p.add
	}
	for lineNo := 1; ; lineNo++ {
		line, err := kr.readLine()
		var bad *notRecordError
		if errors.As(err, &bad) {
			d.Problems = append(d.Problems, inspect.Problem{Partition: -1, Offset: -1, Reason: fmt.Sprintf("line %d: %v", lineNo, bad)})
			err = bad.next
		} else if len(line) > 0 {
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
	stream  string            // records of this topic go to each, not into the dataset
	each    func(*inspect.Record)
	out     inspect.Record // what each is handed: a local would escape, one allocation per line
}

// readLine returns the next line without its newline and surrounding
// whitespace. The slice is valid until the next call. A line longer than
// the buffer is assembled only while it can still be a record: one that
// does not start as a JSON object, or grows past maxEntryBytes, is read to
// its end without being kept and comes back as a *notRecordError.
func (k *kcatReader) readLine() ([]byte, error) {
	if cap(k.long) > 4<<20 {
		k.long = nil // one long line does not pin its memory for the rest
	}
	line, err := k.in.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return bytes.TrimSpace(line), err
	}
	if start := bytes.TrimLeft(line, " \t\r"); len(start) > 0 && start[0] != '{' {
		return nil, k.skipLine(len(line), "not a kcat -J envelope (it does not start with {)")
	}
	// The pieces are kept in blocks and joined once the line has ended
	// within the bound: growing one slice by doubling would hold the old
	// and the new copy at once, up to three times the line.
	blocks := [][]byte{append(make([]byte, 0, longBlock), line...)}
	size := len(line)
	for errors.Is(err, bufio.ErrBufferFull) {
		line, err = k.in.ReadSlice('\n')
		size += len(line)
		if size > maxEntryBytes {
			clear(blocks)
			return nil, k.skipLine(size, fmt.Sprintf("longer than %d MiB, so not a record: a record is at most %d MiB (a broker's socket.request.max.bytes) and its line at most twice that", maxEntryBytes>>20, MaxRecordBytes>>20))
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) && !errors.Is(err, io.EOF) {
			return nil, err // stopped (Ctrl-C): a cut line is not parsed
		}
		for len(line) > 0 {
			last := &blocks[len(blocks)-1]
			if len(*last) == cap(*last) {
				blocks = append(blocks, make([]byte, 0, longBlock))
				last = &blocks[len(blocks)-1]
			}
			n := min(len(line), cap(*last)-len(*last))
			*last = append(*last, line[:n]...)
			line = line[n:]
		}
	}
	k.long = slices.Grow(k.long[:0], size)
	for _, b := range blocks {
		k.long = append(k.long, b...)
	}
	return bytes.TrimSpace(k.long), err
}

// longBlock is the size of the pieces a long line is gathered in.
const longBlock = 1 << 20

// notRecordError is a line given up on before its end; next is the read
// error that ended it (io.EOF at the end of the input).
type notRecordError struct {
	what string
	next error
}

func (e *notRecordError) Error() string { return e.what }

// skipLine reads to the end of the current line, keeping nothing; read
// bytes are already consumed.
func (k *kcatReader) skipLine(read int, what string) error {
	for {
		line, err := k.in.ReadSlice('\n')
		read += len(line)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return &notRecordError{what: fmt.Sprintf("%s (%d bytes, skipped)", what, read), next: err}
		}
	}
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
		case !utf8.Valid(e.topic):
			// No Kafka topic name is (they are ASCII), and a snapshot could
			// not keep the bytes: the dump and its snapshot read alike.
			err = errors.New(`"topic" is not UTF-8 text`)
		case !e.hasPartition:
			err = errors.New(`no "partition" field`)
		case !e.hasOffset:
			err = errors.New(`no "offset" field`)
		case !e.hasPayld:
			err = errors.New(`no "payload" field (a tombstone is "payload":null)`)
		case e.partition < 0 || e.partition > 1<<31-1:
			err = fmt.Errorf("partition %d out of range", e.partition)
		case e.offset < 0:
			// Kafka never gives a record a negative offset; a snapshot
			// refuses one too, so the dump and its snapshot read alike.
			err = fmt.Errorf("offset %d out of range", e.offset)
		}
	}
	if err != nil {
		p := inspect.Problem{Partition: -1, Offset: -1, Reason: fmt.Sprintf("line %d: %v", lineNo, err)}
		if e.hasTopic && utf8.Valid(e.topic) {
			p.Topic = k.intern(e.topic)
		}
		if e.hasPartition && e.partition >= 0 && e.partition <= 1<<31-1 {
			p.Partition = int32(e.partition)
		}
		if e.hasOffset && e.offset >= 0 {
			p.Offset = e.offset
		}
		if e.hasKey && !e.keyNull {
			p.Key, p.HasKey = string(e.key), true
		}
		d.Problems = append(d.Problems, p)
		return
	}
	rec := inspect.Record{Topic: k.intern(e.topic), Partition: int32(e.partition), Offset: e.offset}
	if e.hasTs {
		rec.Timestamp = e.ts
	}
	if k.each != nil && rec.Topic == k.stream {
		// One allocation holds both: the record's bytes are still its own.
		hasKey := e.hasKey && !e.keyNull
		own := make([]byte, 0, len(e.key)*btoi(hasKey)+len(e.payload)*btoi(!e.payloadNull))
		if hasKey {
			own = append(own, e.key...)
			rec.Key = own[:len(own):len(own)]
		}
		if !e.payloadNull {
			start := len(own)
			own = append(own, e.payload...)
			rec.Value = own[start:len(own):len(own)]
		}
		k.out = rec
		k.each(&k.out)
		return
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

// pipeline hands records to a consumer goroutine in batches, keeping their
// order; close waits until the consumer has seen every record. Batches go
// back to the scanner through free once consumed, so a long dump allocates
// a few of them, not one per pipelineBatch records.
type pipeline struct {
	batch []inspect.Record
	ch    chan []inspect.Record
	free  chan []inspect.Record
	done  chan struct{}
}

const (
	pipelineBatch    = 512
	pipelineInFlight = 4
)

func newPipeline(each func(*inspect.Record)) *pipeline {
	p := &pipeline{
		ch:   make(chan []inspect.Record, pipelineInFlight),
		free: make(chan []inspect.Record, pipelineInFlight),
		done: make(chan struct{}),
	}
	go func() {
		defer close(p.done)
		for batch := range p.ch {
			for i := range batch {
				each(&batch[i])
			}
			clear(batch) // a reused batch must not pin the records it held
			select {
			case p.free <- batch[:0]:
			default:
			}
		}
	}()
	return p
}

func (p *pipeline) add(r *inspect.Record) {
	if p.batch == nil {
		select {
		case p.batch = <-p.free:
		default:
			p.batch = make([]inspect.Record, 0, pipelineBatch)
		}
	}
	p.batch = append(p.batch, *r)
	if len(p.batch) == pipelineBatch {
		p.ch <- p.batch
		p.batch = nil
	}
}

func (p *pipeline) close() {
	if len(p.batch) > 0 {
		p.ch <- p.batch
	}
	p.batch = nil
	close(p.ch)
	<-p.done
}
