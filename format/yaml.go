package format

import (
	"bufio"
	"bytes"
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
// two levels (the result and its fields) are therefore laid out here as the
// JSON is read, and each smaller piece below them (a list item, a field) is
// encoded on its own and indented into place: the text is the same as one
// encoder gives, and memory is bounded by the largest item.
func writeYAML(w io.Writer, result any) error {
	b, err := marshalJSON(result, false)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	bw := bufio.NewWriter(w)
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("converting result to YAML: %w", err)
	}
	if err := streamYAML(bw, dec, tok, 0, 0); err != nil {
		return fmt.Errorf("writing YAML: %w", err)
	}
	return bw.Flush()
}

// streamDepth is how many container levels are laid out by streamYAML
// rather than handed to an encoder whole.
const streamDepth = 2

// streamYAML writes the value that starts with tok (already read) as a block
// at indent. depth counts the containers around it.
func streamYAML(w *bufio.Writer, dec *json.Decoder, tok json.Token, indent, depth int) error {
	open, isDelim := tok.(json.Delim)
	if !isDelim || depth >= streamDepth || !dec.More() {
		n, err := yamlNodeFrom(dec, tok)
		if err != nil {
			return err
		}
		return encodeYAMLPiece(w, n, indent)
	}
	if open == '[' {
		for dec.More() {
			first, err := dec.Token()
			if err != nil {
				return err
			}
			item, err := yamlNodeFrom(dec, first)
			if err != nil {
				return err
			}
			// A one-item sequence, so the "- " comes out as in the whole list.
			if err := encodeYAMLPiece(w, &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{item}}, indent); err != nil {
				return err
			}
		}
		_, err := dec.Token() // ']'
		return err
	}
	for dec.More() {
		keyTok, err := dec.Token()
		if err != nil {
			return err
		}
		key := yamlString(keyTok.(string))
		first, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := first.(json.Delim); ok && depth+1 < streamDepth && dec.More() {
			// A non-empty container laid out below its key, indented as
			// yaml.v3 indents it (two spaces, for mappings and lists alike).
			if err := writeYAMLKey(w, key, indent); err != nil {
				return err
			}
			if err := streamYAML(w, dec, d, indent+2, depth+1); err != nil {
				return err
			}
			continue
		}
		val, err := yamlNodeFrom(dec, first)
		if err != nil {
			return err
		}
		pair := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{key, val}}
		if err := encodeYAMLPiece(w, pair, indent); err != nil {
			return err
		}
	}
	_, err := dec.Token() // '}'
	return err
}

// writeYAMLKey writes "key:" with the key quoted as the encoder would.
func writeYAMLKey(w *bufio.Writer, key *yaml.Node, indent int) error {
	text, err := encodeYAMLString(&yaml.Node{Kind: yaml.MappingNode, Tag: "!!map",
		Content: []*yaml.Node{key, {Kind: yaml.ScalarNode, Tag: "!!null", Value: ""}}})
	if err != nil {
		return err
	}
	w.WriteString(strings.Repeat(" ", indent))
	w.WriteString(strings.TrimRight(text, " \n"))
	w.WriteString("\n")
	return nil
}

// encodeYAMLPiece encodes n as a document and writes it shifted right by indent.
func encodeYAMLPiece(w *bufio.Writer, n *yaml.Node, indent int) error {
	text, err := encodeYAMLString(n)
	if err != nil {
		return err
	}
	pad := strings.Repeat(" ", indent)
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		if line != "\n" {
			w.WriteString(pad)
		}
		w.WriteString(line)
	}
	return nil
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
