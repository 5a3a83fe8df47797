package scenario

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/connectscope/connectscope/inspect/source/yamlfile"
	"gopkg.in/yaml.v3"
)

// YAML scenarios are read as the JSON they spell, node by node, with yaml.v3's
// rules for merge keys and key names, and a budget against hostile files.

// yamlToJSON reads a YAML scenario as the JSON it stands for. The document
// is parsed into yaml.v3's node tree and converted here rather than
// decoded by yaml.v3, whose duplicate-key check compares every key of a
// mapping with every other: a 60,000-connector step took seconds that way,
// and grows with the square of its size. Here a mapping costs one map
// insertion per key.
func yamlToJSON(data []byte) ([]byte, error) {
	doc, err := yamlfile.Decode(data)
	var second *yamlfile.SecondDocumentError
	if errors.As(err, &second) {
		return nil, fmt.Errorf("%w: give one scenario per file", err)
	}
	if err != nil {
		return nil, err
	}
	c := yamlConverter{budget: 2*countYAMLNodes(&doc) + 1000}
	v, err := c.value(&doc)
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("YAML content cannot be represented as JSON: %w", err)
	}
	return js, nil
}

// yamlConverter turns a YAML node tree into JSON-friendly values. Aliases
// are followed, within budget: a document of aliases of aliases (a "billion
// laughs") would otherwise expand without end.
type yamlConverter struct{ budget, depth int }

// maxYAMLDepth bounds nesting, which only an alias that contains itself
// makes deep.
const maxYAMLDepth = 1000

func countYAMLNodes(n *yaml.Node) int {
	total := 1
	for _, c := range n.Content {
		total += countYAMLNodes(c)
	}
	return total
}

func (c *yamlConverter) value(n *yaml.Node) (any, error) {
	if err := c.enter(n); err != nil {
		return nil, err
	}
	defer func() { c.depth-- }()
	switch n.Kind {
	case 0: // an empty document
		return nil, nil
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0])
	case yaml.AliasNode:
		return c.value(n.Alias)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, e := range n.Content {
			v, err := c.value(e)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		if err := c.mapping(n, out, nil, isStringMapping(n)); err != nil {
			return nil, err
		}
		return out, nil
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, err
		}
		return v, nil
	}
	return nil, fmt.Errorf("line %d: unexpected YAML node", n.Line)
}

// isStringMapping says whether yaml.v3 would decode n as a map with string
// keys: its own keys are all strings (or merges). Every key of such a
// mapping, merged ones too, is then named by its text (007 stays 007),
// where other mappings name a key by its value (007 is 7).
func isStringMapping(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if tag := n.Content[i].ShortTag(); tag != "!!str" && tag != "!!merge" {
			return false
		}
	}
	return true
}

// keyName names a mapping key as yaml.v3 does; skip reports a null key,
// which yaml.v3 leaves out of a string-keyed map. same is what yaml.v3
// compares when a merged key meets one already there: the key's value
// with its type in a mapping keyed by values (00 is 0, the int; 0.0 is
// not), its name in one keyed by text.
func (c *yamlConverter) keyName(k *yaml.Node, stringKeys bool) (name, same string, skip bool, err error) {
	if !stringKeys {
		key, err := c.value(k)
		return fmt.Sprint(key), fmt.Sprintf("%T %v", key, key), false, err
	}
	scalar := k
	if scalar.Kind == yaml.AliasNode && scalar.Alias != nil {
		scalar = scalar.Alias
	}
	if scalar.Kind != yaml.ScalarNode {
		return "", "", false, fmt.Errorf("line %d: a mapping key that is not text where the mapping's other keys are", k.Line)
	}
	if scalar.ShortTag() == "!!null" {
		return "", "", true, nil
	}
	err = scalar.Decode(&name)
	return name, name, false, err
}

// mapping adds n's keys to out as yaml.v3 decodes a mapping into a map:
// a key twice in one mapping (the same kind and text: 0 and 0.0 differ)
// is an error; the own keys go in first, then what the mapping's << key
// merges. merged is nil for a mapping decoded for itself; while a merge
// runs it holds every key already placed (keyName's same), which a merged
// key gives way to and then joins. stringKeys says how the outermost
// mapping names its keys (isStringMapping).
func (c *yamlConverter) mapping(n *yaml.Node, out map[string]any, merged map[string]bool, stringKeys bool) error {
	defined := make(map[string]int, len(n.Content)/2)
	hasMerge := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		id := fmt.Sprintf("%d:%s", k.Kind, k.Value)
		if line, ok := defined[id]; ok {
			return fmt.Errorf("line %d: mapping key %q already defined at line %d", k.Line, k.Value, line)
		}
		defined[id] = k.Line
		hasMerge = hasMerge || isMergeKey(k)
	}
	// placed is the set a merge gives way to: the running merge's, or,
	// for the first merge, every key of the mapping that merges, its own
	// << too; nested merges share it.
	placed := merged
	if placed == nil && hasMerge {
		placed = map[string]bool{mergeKeySame(stringKeys): true}
	}
	var mergeNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isMergeKey(k) {
			mergeNode = v
			continue
		}
		name, same, skip, err := c.keyName(k, stringKeys)
		if err != nil {
			return err
		}
		if skip {
			continue // a dropped null key holds no place ("" may follow)
		}
		if merged != nil && merged[same] {
			continue
		}
		if placed != nil {
			placed[same] = true
		}
		val, err := c.value(v)
		if err != nil {
			return err
		}
		out[name] = val
	}
	if mergeNode == nil {
		return nil
	}
	return c.merge(mergeNode, out, placed, stringKeys)
}

// isMergeKey is yaml.v3's test for a merge key: the text << untagged, with
// the non-specific tag ! or tagged !!merge (a quoted "<<" is text).
func isMergeKey(k *yaml.Node) bool {
	if k.Kind != yaml.ScalarNode || k.Value != "<<" {
		return false
	}
	switch k.Tag {
	case "", "!", "!!merge", "tag:yaml.org,2002:merge":
		return true
	}
	return false
}

// mergeKeySame is keyName's same for a << key, which yaml.v3 reads as the
// text <<.
func mergeKeySame(stringKeys bool) string {
	if stringKeys {
		return "<<"
	}
	return fmt.Sprintf("%T %v", "<<", "<<")
}

// enter counts a node against the budget and the depth; the caller
// decrements depth when done.
func (c *yamlConverter) enter(n *yaml.Node) error {
	c.budget--
	c.depth++
	if c.budget < 0 || c.depth > maxYAMLDepth {
		return fmt.Errorf("line %d: aliases expand the document too far", n.Line)
	}
	return nil
}

func (c *yamlConverter) merge(v *yaml.Node, out map[string]any, merged map[string]bool, stringKeys bool) error {
	if err := c.enter(v); err != nil {
		return err
	}
	defer func() { c.depth-- }()
	if v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	switch v.Kind {
	case yaml.MappingNode:
		return c.mapping(v, out, merged, stringKeys)
	case yaml.SequenceNode:
		for _, e := range v.Content {
			if e.Kind != yaml.MappingNode && (e.Kind != yaml.AliasNode || e.Alias == nil || e.Alias.Kind != yaml.MappingNode) {
				return fmt.Errorf("line %d: << merges a mapping or a list of mappings", e.Line)
			}
			if err := c.merge(e, out, merged, stringKeys); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("line %d: << merges a mapping or a list of mappings", v.Line)
}
