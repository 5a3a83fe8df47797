package format

import (
	"bytes"
	"fmt"
)

// Tagged is a list's elements as a Lister gives them, each with one more
// member before its own, key: value, which says what kind of item a line
// is where a result lists several kinds: {"kind":"task",…the task's
// members}. The elements must encode as JSON objects without a member key.
func Tagged[T any](key, value string, list []T) []any {
	out := make([]any, len(list))
	for i := range list {
		out[i] = taggedItem{key, value, list[i]}
	}
	return out
}

type taggedItem struct {
	key, value string
	item       any
}

// MarshalJSON writes the key member, then the item's own members: the
// bytes of a struct of the key field with the item embedded. HTML is not
// escaped here: the encoder around it escapes, or not, the whole.
func (t taggedItem) MarshalJSON() ([]byte, error) {
	var parts [3][]byte
	for i, v := range []any{t.key, t.value, t.item} {
		b, err := marshalJSON(v, false)
		if err != nil {
			return nil, err
		}
		parts[i] = bytes.TrimSpace(b)
	}
	body := parts[2]
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("%s %s: not a JSON object", t.key, t.value)
	}
	out := fmt.Appendf(nil, "{%s:%s", parts[0], parts[1])
	if len(body) > 2 { // not {}: the item's members follow
		out = append(out, ',')
	}
	return append(out, body[1:]...), nil
}
