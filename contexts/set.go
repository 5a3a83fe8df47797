package contexts

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/connectscope/connectscope/format"
	"github.com/connectscope/connectscope/inspect/source/boundedfile"

	"gopkg.in/yaml.v3"
)

// Keys are the settings a context may hold, in the order set-context writes
// new ones.
var Keys = []string{
	"bootstrap-server", "worker-config", "group", "config-topic", "offset-topic", "status-topic",
	"timeout", "isolation", "tls", "tls-ca", "tls-cert", "tls-key", "tls-server-name",
	"tls-insecure-skip-verify", "sasl-mechanism", "sasl-user", "sasl-password-env", "sasl-password-file",
}

// Setting is one key of a context and its value: a string, a bool or a
// list of strings (worker-config).
type Setting struct {
	Key   string
	Value any
}

// SetContext creates context name or changes the given keys of it, and
// writes the file (creating it and its directory when missing), leaving
// every other line and comment as it was. The result is loaded again, so
// a setting Load would refuse is refused here too, before anything is
// written.
func (f *File) SetContext(name string, settings []Setting) error {
	if name == "" {
		return fmt.Errorf("a context needs a name")
	}
	if format.EscapeTerminal(name) != name {
		// It could not be typed back, and would print as something else.
		return fmt.Errorf("context name %q holds a control character, a line break or an invisible mark: give a name of printable characters", name)
	}
	var doc yaml.Node
	b, err := boundedfile.Read(f.Path, MaxConfigFile)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("reading %s: %w", f.Path, err)
	}
	if len(bytes.TrimSpace(b)) > 0 {
		if doc, err = parse(f.Path, b); err != nil {
			return err
		}
	}
	if len(doc.Content) == 0 || doc.Content[0].Tag == "!!null" {
		// A file of comments alone (or an empty "---") parses to no node
		// to hang them on: they head the new document rather than vanish.
		doc = yaml.Node{Kind: yaml.DocumentNode, HeadComment: commentLines(b),
			Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("%s: the file is not a mapping of current-context and contexts", f.Path)
	}
	ctxs := mapping(root, "contexts")
	ctx := mapping(ctxs, name)
	ctx.Style = 0 // a context written as {} becomes a block as it grows
	for _, s := range settings {
		setKey(ctx, s.Key, valueNode(s.Value))
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("writing %s: %w", f.Path, err)
	}
	// Check what would be written as Load would read it.
	tmp, err := os.CreateTemp("", "connectscope-config-*.yaml")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(out.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	tmp.Close()
	if _, err := Load(tmp.Name()); err != nil {
		return fmt.Errorf("%s", strings.ReplaceAll(err.Error(), tmp.Name(), f.Path))
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return fmt.Errorf("writing %s: %w", f.Path, err)
	}
	return writeFileAtomic(f.Path, out.Bytes())
}

// commentLines are the # lines of a file that holds no document.
func commentLines(b []byte) string {
	var kept []string
	for _, line := range strings.Split(string(b), "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "#") {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

// mapping finds key's mapping in m, adding an empty one when missing.
func mapping(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			if v.Kind != yaml.MappingNode { // "prod:" with nothing after it
				*v = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", LineComment: v.LineComment}
			}
			return v
		}
	}
	v := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
	return v
}

func setKey(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v.LineComment = m.Content[i+1].LineComment
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

func valueNode(v any) *yaml.Node {
	switch x := v.(type) {
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(x)}
	case []string:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, s := range x {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s})
		}
		return n
	default:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fmt.Sprint(x)}
	}
}
