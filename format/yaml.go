package format

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// writeYAML prints the JSON form as YAML. gopkg.in/yaml.v3 is used because
// its yaml.Node tree keeps the order of mapping keys: we build nodes from the
// JSON form (instead of yaml.Marshal on the struct), so YAML shows exactly
// the JSON field names in the JSON order — the json tags are the contract,
// and no struct needs yaml tags that could drift from them.
//
// yaml.v3's emitter keeps every event of a document until it ends, and
// takes about ten times as long as the JSON writer. So every container is
// laid out here as the JSON is read, and only scalars (and empty
// containers) are the encoder's: each distinct short one is encoded once
// per output, and words and integers that it writes as they are are
// written without it. The text is the same as one encoder over the whole
// document gives (FuzzYAMLLaidOutMatchesOneDocument).
func writeYAML(w io.Writer, result any) error {
	// A plan of hundreds of megabytes is never held whole. (A failed
	// write to w, Ctrl-C's included, ends the walk and so the writer.)
	dec, stop := compactTokens(context.Background(), result)
	defer stop()
	y := &yamlStream{w: bufio.NewWriter(w), dec: dec, strs: map[string]string{}, numbers: map[string]string{}, keys: map[string]string{}}
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("converting result to YAML: %w", err)
	}
	if err := y.value(tok, 0); err != nil {
		return fmt.Errorf("writing YAML: %w", err)
	}
	return y.w.Flush()
}

// yamlStream writes YAML block by block as the JSON form is read.
type yamlStream struct {
	w   *bufio.Writer
	dec jsonTokens
	// lead, when set, replaces the indentation of the next line written:
	// a list item that is itself a container starts on its "- " line, as
	// the encoder writes it ("- key: v", "- - x").
	lead string
	// strs, numbers and keys are the encoder's text of the short strings,
	// numbers and keys met so far: a plan names the same workers and tasks
	// round after round.
	strs, numbers, keys map[string]string
}

// cachedBytes is the longest scalar or key kept in the caches, and
// cachedEntries how many each keeps before it starts again: memory stays
// bounded whatever the output.
const (
	cachedBytes   = 128
	cachedEntries = 1 << 16
)

// value writes the value that starts with tok (already read) as a block at
// indent, laying out a non-empty container here.
func (y *yamlStream) value(tok json.Token, indent int) error {
	open, isDelim := tok.(json.Delim)
	if !isDelim || !y.dec.More() {
		// The whole result is one scalar or an empty container.
		n, err := yamlNodeFrom(y.dec, tok)
		if err != nil {
			return err
		}
		return y.piece(n, indent)
	}
	for y.dec.More() {
		var key string
		if open == '{' {
			keyTok, err := y.dec.Token()
			if err != nil {
				return err
			}
			key = keyTok.(string)
		}
		first, err := y.dec.Token()
		if err != nil {
			return err
		}
		if d, ok := first.(json.Delim); ok && y.dec.More() {
			if open == '{' {
				// Below its key, indented as yaml.v3 indents it (two
				// spaces, for mappings and lists alike).
				if err := y.key(key, indent); err != nil {
					return err
				}
			} else {
				// Two columns in, its first line after "- ".
				y.mark(indent, "- ")
			}
			if err := y.value(d, indent+2); err != nil {
				return err
			}
			continue
		}
		if open == '[' {
			err = y.item("", first, indent)
		} else {
			err = y.field(key, first, indent)
		}
		if err != nil {
			return err
		}
		// A failed write (Ctrl-C, a closed pipe) ends the walk here.
		if _, err := y.w.Write(nil); err != nil {
			return err
		}
	}
	_, err := y.dec.Token() // the closing delimiter
	return err
}

// field writes "key: value" for the scalar or empty container that
// starts with tok.
func (y *yamlStream) field(key string, tok json.Token, indent int) error {
	keyText, err := y.keyText(key)
	if err != nil {
		return err
	}
	if strings.HasPrefix(keyText, "? ") {
		// A key the encoder writes as "? KEY": the pair as it writes it.
		val, err := yamlNodeFrom(y.dec, tok)
		if err != nil {
			return err
		}
		return y.piece(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{yamlString(key), val}}, indent)
	}
	return y.item(keyText, tok, indent)
}

// item writes the scalar or empty container that starts with tok at
// indent, as a list item (key "") or after "key: ".
func (y *yamlStream) item(key string, tok json.Token, indent int) error {
	text, err := y.scalar(tok)
	if err != nil {
		return err
	}
	if key == "" {
		y.block(text, indent, "- ")
	} else {
		y.block(text, indent, key, ": ")
	}
	return nil
}

// block writes text, as the encoder writes it at indent 0, at indent: its
// first line after the prefix (and the pending lead), the others shifted
// right by indent, blank lines left blank.
func (y *yamlStream) block(text string, indent int, prefix ...string) {
	first, rest, _ := strings.Cut(text, "\n")
	y.line(indent)
	for _, p := range prefix {
		y.w.WriteString(p)
	}
	y.w.WriteString(first)
	y.w.WriteByte('\n')
	for len(rest) > 0 {
		line, more, _ := strings.Cut(rest, "\n")
		if line != "" {
			y.w.WriteString(y.pad(indent))
			y.w.WriteString(line)
		}
		y.w.WriteByte('\n')
		rest = more
	}
}

// scalar returns the encoder's text, ending in a newline, of the scalar or
// the empty container that starts with tok (whose closing delimiter it
// reads), as a list item at indent 0 has it after "- ".
func (y *yamlStream) scalar(tok json.Token) (string, error) {
	var cache map[string]string
	var value string
	switch v := tok.(type) {
	case json.Delim:
		if _, err := y.dec.Token(); err != nil {
			return "", err
		}
		if v == '{' {
			return "{}\n", nil
		}
		return "[]\n", nil
	case bool:
		if v {
			return "true\n", nil
		}
		return "false\n", nil
	case nil:
		return "null\n", nil
	case json.Number:
		if plainInteger(string(v)) {
			return string(v) + "\n", nil
		}
		cache, value = y.numbers, string(v)
	case string:
		if plainWord(v) {
			return v + "\n", nil
		}
		cache, value = y.strs, v
	}
	if text, ok := cache[value]; ok {
		return text, nil
	}
	n, err := yamlNodeFrom(y.dec, tok)
	if err != nil {
		return "", err
	}
	text, err := encodeYAMLString(&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{n}})
	if err != nil {
		return "", err
	}
	text, ok := strings.CutPrefix(text, "- ")
	if !ok {
		return "", fmt.Errorf("the encoder wrote a list item as %q", text)
	}
	remember(cache, value, text)
	return text, nil
}

// remember keeps key's text in cache when key is short, starting the
// cache again when it is full.
func remember(cache map[string]string, key, text string) {
	if cache == nil || len(key) > cachedBytes {
		return
	}
	if len(cache) >= cachedEntries {
		clear(cache)
	}
	cache[key] = text
}

// plainWord reports whether the encoder writes the string s as it is: a
// letter then letters, digits and "_.-/", or a ':' followed by one of
// them, and no word that it or a YAML 1.1 reader reads as a bool or null.
// (It writes more strings plain; the others are asked of it.)
func plainWord(s string) bool {
	if s == "" || len(s) > cachedBytes || !isASCIILetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case isASCIILetter(c), c >= '0' && c <= '9', c == '_', c == '.', c == '-', c == '/':
		case c == ':' && i+1 < len(s) && s[i+1] != ':':
		default:
			return false
		}
	}
	switch s {
	case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return false
	}
	return !readsAsOtherIn11(s)
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// plainInteger reports whether the JSON number n is an integer the
// encoder writes as it is (one that fits an int64 for sure).
func plainInteger(n string) bool {
	digits := strings.TrimPrefix(n, "-")
	if digits == "" || len(digits) > 18 || (digits[0] == '0' && len(digits) > 1) {
		return false // a leading 0 reads as octal
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
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

// keyText is key as the encoder writes it before ": " (or as "? KEY\n:"
// when it writes the key on a line of its own).
func (y *yamlStream) keyText(key string) (string, error) {
	if plainWord(key) {
		return key, nil
	}
	if text, ok := y.keys[key]; ok {
		return text, nil
	}
	text, err := encodeYAMLString(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map",
		Content: []*yaml.Node{yamlString(key), {Kind: yaml.ScalarNode, Tag: "!!null", Value: ""}}})
	if err != nil {
		return "", err
	}
	text = strings.TrimRight(text, " \n")
	if !strings.HasPrefix(text, "? ") {
		text = strings.TrimSuffix(text, ":")
	}
	remember(y.keys, key, text)
	return text, nil
}

// key writes "key:" with the key quoted as the encoder would, for a
// container laid out below it.
func (y *yamlStream) key(key string, indent int) error {
	text, err := y.keyText(key)
	if err != nil {
		return err
	}
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
	y.w.WriteString(":\n")
	return nil
}

// piece encodes n as a document and writes it shifted right by indent.
func (y *yamlStream) piece(n *yaml.Node, indent int) error {
	text, err := encodeYAMLString(n)
	if err != nil {
		return err
	}
	y.block(text, indent)
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
func yamlNodeFrom(dec jsonTokens, tok json.Token) (*yaml.Node, error) {
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
// So is one holding U+2028 or U+2029: the encoder writes them raw, as
// line breaks, in a single-quoted scalar continued on an indented line
// (a break to an editor, and the text then depends on the depth), where
// double quotes give \L and \P on one line.
// And the string "<<": the encoder writes it plain, which every YAML
// reader takes for a merge key (a config key "<<" made the whole output
// unreadable: "map merge requires map or sequence of maps").
func yamlString(v string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
	if v == "<<" || readsAsOtherIn11(v) || strings.IndexFunc(v, quotedRune) >= 0 || (strings.IndexByte(v, '\n') >= 0 && !blockReadsBack(n)) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// readsAsOtherIn11 reports the strings that yaml.v3 writes plain, as
// YAML 1.2 has them, but that a YAML 1.1 reader (PyYAML, Ruby's Psych)
// takes for something else: a connector named "yes" read back as true,
// "1:20" as 80, "1_0.5" as 10.5, "=" as a value key. They are quoted,
// as yaml.Marshal quotes the old bools and base 60 numbers.
func readsAsOtherIn11(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"on", "On", "ON", "off", "Off", "OFF", "=":
		return true
	}
	return s != "" && strings.IndexByte("+-.0123456789", s[0]) >= 0 && yaml11Number.MatchString(s)
}

// yaml11Number is the ints and floats of the YAML 1.1 type repository
// (binary, octal, hex, base 60, underscores, .inf and .nan), loosely: a
// string it matches needlessly is only quoted.
var yaml11Number = regexp.MustCompile(`^[-+]?(0b[01_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(:[0-5]?[0-9])*(\.[0-9_]*)?([eE][-+]?[0-9]+)?|\.[0-9_]+([eE][-+]?[0-9]+)?|\.(inf|Inf|INF)|\.(nan|NaN|NAN))$`)

// quotedRune reports the runes that put a string in double quotes.
func quotedRune(r rune) bool { return actsOnTerminal(r) || isHiddenMark(r) }

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
func yamlNode(dec jsonTokens) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return yamlNodeFrom(dec, tok)
}
