package format

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// writeYAML prints the JSON form as YAML. gopkg.in/yaml.v3 is used because
// its yaml.Node tree keeps the order of mapping keys: we build nodes from the
// JSON form (instead of yaml.Marshal on the struct), so YAML shows exactly
// the JSON field names in the JSON order — the json tags are the contract,
// and no struct needs yaml tags that could drift from them.
//
// yaml.v3's emitter keeps every event of a document until it ends, so one
// encoder over a large result needs many times its size in memory. The top
// two levels (the result and its fields), and any container below them
// whose JSON is streamBytes or more, are therefore laid out here as the
// JSON is read, and each smaller piece (a list item, a field) is encoded
// on its own and indented into place: the text is the same as one encoder
// gives, and memory is bounded by about streamBytes' worth of encoder.
func writeYAML(w io.Writer, result any) error {
	// The JSON form is read as it is written (streamJSON, in its own
	// goroutine): a plan of hundreds of megabytes is never held whole.
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(streamJSONForm(pw, result, false)) }()
	defer pr.Close() // a walk that stops early ends the writer's too
	in := bufio.NewReaderSize(pr, max(streamBytes, 4096))
	dec := json.NewDecoder(in)
	dec.UseNumber()
	y := &yamlStream{w: bufio.NewWriter(w), dec: dec, in: in}
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("converting result to YAML: %w", err)
	}
	if err := y.value(tok, 0, 0); err != nil {
		return fmt.Errorf("writing YAML: %w", err)
	}
	return y.w.Flush()
}

// streamDepth is how many container levels are always laid out by
// yamlStream rather than handed to an encoder whole.
const streamDepth = 2

// streamBytes is the JSON size from which a deeper container is laid out
// too: a plan round that lists a million tasks took 2.4 GB encoded whole.
// A variable so that tests can lay out every level.
var streamBytes = 64 << 10

// runBytes ends a run of items encoded together: fewer encoders than one
// an item, each small (BenchmarkWriteYAML: 4 KiB runs took 16% less time
// and 23% less garbage than one item at a time; 512 B and 16 KiB runs no
// better than that).
const runBytes = 4 << 10

// yamlStream writes YAML block by block as the JSON form is read.
type yamlStream struct {
	w   *bufio.Writer
	dec *json.Decoder
	in  *bufio.Reader // what dec reads, to measure a container before reading it
	// lead, when set, replaces the indentation of the next line written:
	// a list item that is itself a container starts on its "- " line, as
	// the encoder writes it ("- key: v", "- - x").
	lead string
}

// value writes the value that starts with tok (already read) as a block at
// indent, laying a non-empty container out here: the caller has decided it
// is one to lay out (the result itself, or below streamDepth, or big).
// depth counts the containers around it.
func (y *yamlStream) value(tok json.Token, indent, depth int) error {
	open, isDelim := tok.(json.Delim)
	if !isDelim || !y.dec.More() {
		n, err := yamlNodeFrom(y.dec, tok)
		if err != nil {
			return err
		}
		return y.piece(n, indent)
	}
	// Items and fields not laid out here are encoded a run at a time, as a
	// list or mapping of their own: the "- " and "key: " come out as in
	// the whole document, and a run ends at runBytes of JSON.
	run := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	if open == '{' {
		run = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	runFrom := y.dec.InputOffset()
	flush := func() error {
		if len(run.Content) == 0 {
			return nil
		}
		err := y.piece(run, indent)
		run.Content, runFrom = run.Content[:0], y.dec.InputOffset()
		return err
	}
	for y.dec.More() {
		var key *yaml.Node
		if open == '{' {
			keyTok, err := y.dec.Token()
			if err != nil {
				return err
			}
			key = yamlString(keyTok.(string))
		}
		first, err := y.dec.Token()
		if err != nil {
			return err
		}
		if d, ok := first.(json.Delim); ok && y.dec.More() && (depth+1 < streamDepth || y.big(d)) {
			if err := flush(); err != nil {
				return err
			}
			if key != nil {
				// Below its key, indented as yaml.v3 indents it (two
				// spaces, for mappings and lists alike).
				if err := y.key(key, indent); err != nil {
					return err
				}
			} else {
				// Two columns in, its first line after "- ".
				y.mark(indent, "- ")
			}
			if err := y.value(d, indent+2, depth+1); err != nil {
				return err
			}
			runFrom = y.dec.InputOffset()
			continue
		}
		val, err := yamlNodeFrom(y.dec, first)
		if err != nil {
			return err
		}
		if key != nil {
			run.Content = append(run.Content, key)
		}
		run.Content = append(run.Content, val)
		if y.dec.InputOffset()-runFrom >= runBytes {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	_, err := y.dec.Token() // the closing delimiter
	return err
}

// big reports whether the container whose opening token open was just
// read spans streamBytes or more of the JSON: what follows it is in the
// decoder's buffer, then in the reader's (read in place, not copied: this
// runs for every container below streamDepth).
func (y *yamlStream) big(open json.Delim) bool {
	s := spanScan{limit: streamBytes}
	done := s.feed([]byte{byte(open)})
	var chunk [512]byte
	for buffered := y.dec.Buffered(); !done; {
		k, err := buffered.Read(chunk[:])
		if done = s.feed(chunk[:k]); err != nil {
			break
		}
	}
	if !done {
		ahead, _ := y.in.Peek(min(s.limit-s.n, y.in.Size())) // fewer at the end of the JSON
		s.feed(ahead)
	}
	return s.n >= s.limit
}

// spanScan measures the JSON container it is fed, chunk by chunk, up to
// limit bytes.
type spanScan struct {
	limit, n, depth   int
	inString, escaped bool
}

// feed scans b and reports whether the container has closed or limit is
// reached (n is then the container's length, or limit).
func (s *spanScan) feed(b []byte) bool {
	for _, c := range b {
		if s.n >= s.limit {
			return true
		}
		s.n++
		switch {
		case s.escaped:
			s.escaped = false
		case s.inString:
			if c == '\\' {
				s.escaped = true
			} else if c == '"' {
				s.inString = false
			}
		case c == '"':
			s.inString = true
		case c == '{' || c == '[':
			s.depth++
		case c == '}' || c == ']':
			if s.depth--; s.depth == 0 {
				return true
			}
		}
	}
	return s.n >= s.limit
}

func (y *yamlStream) pad(indent int) string { return strings.Repeat(" ", indent) }

// mark sets the lead of the next line, the content of which is two
// columns right of indent, to end in m: after a lead still pending ("- - x"
// for a list first in a list) or after the indentation.
func (y *yamlStream) mark(indent int, m string) {
	if y.lead == "" {
		y.lead = y.pad(indent)
	}
	y.lead += m
}

// line starts a line at indent (or after the pending lead).
func (y *yamlStream) line(indent int) {
	if y.lead != "" {
		y.w.WriteString(y.lead)
		y.lead = ""
		return
	}
	y.w.WriteString(y.pad(indent))
}

// key writes "key:" with the key quoted as the encoder would.
func (y *yamlStream) key(key *yaml.Node, indent int) error {
	text, err := encodeYAMLString(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map",
		Content: []*yaml.Node{key, {Kind: yaml.ScalarNode, Tag: "!!null", Value: ""}}})
	if err != nil {
		return err
	}
	text = strings.TrimRight(text, " \n")
	if rest, ok := strings.CutSuffix(text, "\n:"); ok && strings.HasPrefix(text, "? ") {
		// A key the encoder writes as "? KEY" (over 128 bytes, or many
		// lines): its value follows on the ": " line.
		for _, l := range strings.Split(rest, "\n") {
			y.line(indent)
			y.w.WriteString(l)
			y.w.WriteString("\n")
		}
		y.mark(indent, ": ")
		return nil
	}
	y.line(indent)
	y.w.WriteString(text)
	y.w.WriteString("\n")
	return nil
}

// piece encodes n as a document and writes it shifted right by indent.
func (y *yamlStream) piece(n *yaml.Node, indent int) error {
	text, err := encodeYAMLString(n)
	if err != nil {
		return err
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		if line != "\n" {
			y.line(indent)
		}
		y.w.WriteString(line)
	}
	// A failed write (Ctrl-C, a closed pipe) ends the walk here, a run
	// later, rather than after the whole result.
	_, err = y.w.Write(nil)
	return err
}

func encodeYAMLString(n *yaml.Node) (string, error) {
	var sb strings.Builder
	enc := yaml.NewEncoder(&sb)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return sb.String(), nil
}

// yamlNodeFrom reads the JSON value that starts with tok (already read) as a
// yaml.Node. Scalars get their YAML tag and no style, so the encoder quotes
// only strings that need it (such as "123" or "true") and writes multi-line
// strings as blocks.
func yamlNodeFrom(dec *json.Decoder, tok json.Token) (*yaml.Node, error) {
	switch v := tok.(type) {
	case json.Delim:
		var n *yaml.Node
		switch v {
		case '{':
			n = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				val, err := yamlNode(dec)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, yamlString(key.(string)), val)
			}
		case '[':
			n = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			for dec.More() {
				val, err := yamlNode(dec)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, val)
			}
		default:
			return nil, fmt.Errorf("unexpected %v", v)
		}
		_, err := dec.Token() // the closing delimiter
		return n, err
	case string:
		return yamlString(v), nil
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(string(v), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v.String()}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(v)}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// yamlString is a string scalar. One holding a rune a terminal acts on is
// double-quoted, the one style in which RuneEscaper's \uXXXX escape reads
// back as the same character (the encoder would write a bidi mark plain).
// So is a multi-line one that the encoder's block style would not read
// back as itself: yaml.v3 3.0.1 writes "\n" as "|2+" with no line under
// it (read back as ""), and "\t\n" as a block its own parser refuses.
// And the string "<<": the encoder writes it plain, which every YAML
// reader takes for a merge key (a config key "<<" made the whole output
// unreadable: "map merge requires map or sequence of maps").
func yamlString(v string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
	if v == "<<" || hasTerminalRune(v) || (strings.IndexByte(v, '\n') >= 0 && !blockReadsBack(n)) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// blockReadsBack reports whether the encoder's own choice for the string
// scalar n reads back as n's value.
func blockReadsBack(n *yaml.Node) bool {
	text, err := encodeYAMLString(&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{n}})
	if err != nil {
		return false
	}
	var back []string
	return yaml.Unmarshal([]byte(text), &back) == nil && len(back) == 1 && back[0] == n.Value
}

// yamlNode reads the next JSON value from dec as a yaml.Node.
func yamlNode(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return yamlNodeFrom(dec, tok)
}
