// Package yamlfile reads a hand-written YAML file (a waiver list, a
// scenario, the config file of named clusters) as the one document it must
// be. yaml.v3 reads the first document of a stream and stops: a second one
// would hold what its author meant and the reader would lack, and a file
// connectscope rewrites (the config file) would lose it on the next write.
package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"
)

// SecondDocumentError is a second YAML document with content after the
// first; Line is where its content starts. Callers add what to do instead.
type SecondDocumentError struct{ Line int }

func (e *SecondDocumentError) Error() string {
	return fmt.Sprintf("line %d: a second YAML document", e.Line)
}

// Decode parses data's first YAML document into a node tree, a zero Node
// when data holds none, and refuses any later document that has content
// (an empty one, as a trailing "---" makes, is harmless).
func Decode(data []byte) (yaml.Node, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return yaml.Node{}, nil
		}
		return yaml.Node{}, err
	}
	for {
		var next yaml.Node
		switch err := dec.Decode(&next); {
		case errors.Is(err, io.EOF):
			return doc, nil
		case err != nil:
			return yaml.Node{}, err
		case len(next.Content) > 0 && next.Content[0].Tag != "!!null":
			return yaml.Node{}, &SecondDocumentError{Line: next.Content[0].Line}
		}
	}
}
