package format

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// writeYAML prints the JSON form as YAML. gopkg.in/yaml.v3 is used because
// its yaml.Node tree keeps the order of mapping keys: we build that tree from
// the JSON form (instead of yaml.Marshal on the struct), so YAML shows exactly
// the JSON field names in the JSON order — the json tags are the contract,
// and no struct needs yaml tags that could drift from them.
func writeYAML(w io.Writer, result any) error {
	b, err := marshalJSON(result, false)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	doc, err := yamlNode(dec)
	if err != nil {
		return fmt.Errorf("converting result to YAML: %w", err)
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing YAML: %w", err)
	}
	return enc.Close()
}

// yamlNode reads one JSON value from dec as a yaml.Node. Scalars get their
// YAML tag and no style, so the encoder quotes only strings that need it
// (such as "123" or "true") and writes multi-line strings as blocks.
func yamlNode(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				val, err := yamlNode(dec)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key.(string)}, val)
			}
			_, err := dec.Token() // '}'
			return n, err
		case '[':
			n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			for dec.More() {
				val, err := yamlNode(dec)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, val)
			}
			_, err := dec.Token() // ']'
			return n, err
		}
		return nil, fmt.Errorf("unexpected %v", v)
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}, nil
	case json.Number:
		tag := "!!int"
		if bytes.ContainsAny([]byte(v), ".eE") {
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
