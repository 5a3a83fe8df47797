// Package source reads datasets from files: kcat dumps of the internal
// topics and connectscope snapshot files (which it also writes).
package source

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/connectscope/connectscope/inspect"
)

// LoadFile reads a snapshot file (a JSON object with a "snapshot" version
// key) or a `kcat -J` dump (one JSON envelope per line) and returns its
// dataset. A kcat dump's records belong to the given topic names; a
// snapshot carries its own (the given ones fill any it leaves empty).
// Source is "file:PATH" either way; the path "-" reads standard input. A
// gzip-compressed file is read as what it holds; an empty file is
// ErrEmptyInput. A file that cannot be opened or read gives an error
// wrapping the os error.
func LoadFile(path string, topics inspect.TopicNames) (*inspect.Dataset, error) {
	return LoadFileContext(context.Background(), path, topics)
}

// LoadFileContext is LoadFile that stops when ctx ends (Ctrl-C, a
// completion's time bound): every read of the file, and of what gzip
// makes of it, first checks ctx, so a stop is noticed within one buffer's
// worth of input, inside a long line or a gzip member too. The error then
// wraps ctx's.
func LoadFileContext(ctx context.Context, path string, topics inspect.TopicNames) (*inspect.Dataset, error) {
	d, _, err := loadFile(ctx, path, topics, "", nil)
	return d, err
}

// StreamFile is LoadFile for a reader that decodes one topic as it goes:
// when the file is a kcat dump, the records of topic stream are handed to
// each in file order and left out of the dataset, so memory follows what
// each keeps (the distinct keys), not the size of the dump. A snapshot is
// read whole as LoadFile reads it; streamed says which happened.
func StreamFile(ctx context.Context, path string, topics inspect.TopicNames, stream string, each func(*inspect.Record)) (d *inspect.Dataset, streamed bool, err error) {
	return loadFile(ctx, path, topics, stream, each)
}

func loadFile(ctx context.Context, path string, topics inspect.TopicNames, stream string, each func(*inspect.Record)) (*inspect.Dataset, bool, error) {
	f, source := os.Stdin, path
	if path != "-" {
		var err error
		if f, err = os.Open(path); err != nil {
			return nil, false, fmt.Errorf("reading %s: %w", path, err)
		}
		defer f.Close()
	}
	in := bufio.NewReaderSize(ctxReader{ctx, f}, 1<<20)
	// A gzip-compressed file (`snapshot - | gzip`) is read as what it
	// holds; what it expands to is read as a stream, so a small file that
	// expands to gigabytes costs no more memory than its longest entry,
	// which is bounded (maxEntryBytes).
	if magic, _ := in.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(in)
		if err != nil {
			return nil, false, fmt.Errorf("reading %s: gzip: %w", path, err)
		}
		defer zr.Close()
		in = bufio.NewReaderSize(ctxReader{ctx, zr}, 1<<20)
		path += " (gzip)"
	}
	// A UTF-8 byte-order mark (Windows editors write one) is not content.
	if bom, _ := in.Peek(3); bytes.Equal(bom, []byte{0xEF, 0xBB, 0xBF}) {
		_, _ = in.Discard(3)
	}
	kind, err := sniffInput(in)
	if err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", path, err)
	}
	if isBlank(in) {
		return nil, false, fmt.Errorf("reading %s: %w", path, ErrEmptyInput)
	}
	streamed := false
	var d *inspect.Dataset
	if kind == inputSnapshot {
		d, err = ReadSnapshot(in)
		if err == nil {
			d.Topics = d.Topics.Or(topics) // the given names where the snapshot leaves one empty
		} else if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			err = fmt.Errorf("%w: the snapshot ends early (cut short while copying?): copy it again or take a new one", err)
		}
	} else {
		d, err = readKcatStreaming(in, topics, 0, stream, each)
		streamed = each != nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	d.Source = "file:" + source
	return d, streamed, nil
}

// ctxReader reads r until ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// MaxRecordBytes is the largest record connectscope expects in a Connect
// internal topic: 100 MiB, the broker's socket.request.max.bytes default,
// above which a broker refuses the produce request that would carry it.
// (Records are far smaller in practice: message.max.bytes and the
// producers' max.request.size default to 1 MiB.)
const MaxRecordBytes = 100 << 20

// maxEntryBytes bounds one entry of a file, a kcat line or a snapshot
// record: its record's bytes with room for JSON's escaping and base64.
// Reading stops assembling an entry here, so no input grows memory
// without bound.
const maxEntryBytes = 2 * MaxRecordBytes

// ErrEmptyInput is a --from file with nothing in it. An empty file is
// almost always a dump or snapshot whose writer failed, so it is an error,
// not a cluster without connectors.
var ErrEmptyInput = errors.New("the file is empty (or only blank lines): want a snapshot file or a kcat -J dump; check that the command that wrote it succeeded")

// isBlank says whether what is left to read is only white space, without
// consuming it (a dump of blank lines only is as empty as an empty file).
func isBlank(in *bufio.Reader) bool {
	head, err := in.Peek(in.Size()) // err: the input ends within the buffer
	return err != nil && len(bytes.TrimLeft(head, " \t\r\n")) == 0
}

type inputKind int

const (
	inputKcat inputKind = iota
	inputSnapshot
)

// kcatFields are the fields kcat -J writes; a line whose first field is one
// of them is a kcat envelope.
var kcatFields = map[string]bool{"topic": true, "partition": true, "offset": true, "tstype": true,
	"ts": true, "broker": true, "key": true, "payload": true, "headers": true}

// sniffInput decides what the file is from its start without consuming it:
// a snapshot when the first JSON field is "snapshot", or the first line is a
// complete object holding one, or the first line is not a complete JSON
// value (a pretty-printed document); a kcat dump otherwise (including an
// empty file and lines that are not JSON, which become problems).
func sniffInput(in *bufio.Reader) (inputKind, error) {
	head, err := in.Peek(64 << 10)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return inputKcat, err
	}
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return inputKcat, nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if _, err := dec.Token(); err == nil {
		if tok, err := dec.Token(); err == nil {
			if name, ok := tok.(string); ok {
				if name == "snapshot" {
					return inputSnapshot, nil
				}
				if kcatFields[name] {
					return inputKcat, nil
				}
			}
		}
	}
	first := trimmed
	if i := bytes.IndexByte(trimmed, '\n'); i >= 0 {
		first = trimmed[:i]
	} else if len(head) == 64<<10 {
		return inputSnapshot, nil // one huge line that does not start like kcat
	}
	if !json.Valid(first) {
		return inputSnapshot, nil
	}
	var probe struct {
		Snapshot json.RawMessage `json:"snapshot"`
	}
	if json.Unmarshal(first, &probe) == nil && probe.Snapshot != nil {
		return inputSnapshot, nil
	}
	return inputKcat, nil
}
