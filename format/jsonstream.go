package format

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/json"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// streamJSON writes v as marshalJSON(v, true) does, byte for byte, without
// holding the whole text: structs and slices are walked and written as they
// go, and only their leaves (and anything the walk does not mirror exactly:
// maps, tag options, custom marshalers, embeds it cannot promote) go through
// encoding/json, indented into place. A plan of a thousand workers prints
// hundreds of megabytes; marshalling it whole held all of them at once.
func streamJSON(w io.Writer, v any) error { return streamJSONForm(w, v, true) }

// streamJSONForm is streamJSON, or with indent false the compact form
// marshalJSON(v, false) gives (what the YAML writer reads: a third of the
// bytes to scan).
func streamJSONForm(w io.Writer, v any, indent bool) error {
	return streamJSONValues(w, []any{v}, indent)
}

// streamJSONLines writes each of vs in the compact form, one a line, as
// marshalJSON(v, false) gives each (-o jsonl).
func streamJSONLines(w io.Writer, vs []any) error { return streamJSONValues(w, vs, false) }

func streamJSONValues(w io.Writer, vs []any, indent bool) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	s := &jsonStream{w: bw, compact: !indent}
	for _, v := range vs {
		s.value(reflect.ValueOf(v), 0)
		s.raw("\n")
		if s.err != nil {
			break
		}
	}
	if err := bw.Flush(); s.err == nil {
		s.err = err
	}
	return s.err
}

type jsonStream struct {
	w       *bufio.Writer
	compact bool // no line breaks or indentation
	err     error
	num     []byte       // a number's digits
	ibuf    bytes.Buffer // a leaf indented
	enc     struct {
		b strings.Builder
		e *json.Encoder
	}
}

func (s *jsonStream) raw(t string) {
	if s.err == nil {
		_, s.err = s.w.WriteString(t)
	}
}

func (s *jsonStream) newline(depth int) {
	if s.compact {
		return
	}
	s.raw("\n")
	for i := 0; i < depth; i++ {
		s.raw("  ")
	}
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// value writes v at nesting depth (its first line is already indented).
func (s *jsonStream) value(v reflect.Value, depth int) {
	if s.err != nil {
		return
	}
	if !v.IsValid() {
		s.raw("null")
		return
	}
	t := v.Type()
	if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
		reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		s.leaf(v, depth)
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			s.raw("null")
			return
		}
		s.value(v.Elem(), depth)
	case reflect.Interface:
		if v.IsNil() {
			s.raw("null")
			return
		}
		s.value(v.Elem(), depth)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 || v.IsNil() || v.Len() == 0 {
			s.leaf(v, depth) // bytes as base64, null, []
			return
		}
		s.raw("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				s.raw(",")
			}
			s.newline(depth + 1)
			s.value(v.Index(i), depth+1)
		}
		s.newline(depth)
		s.raw("]")
	case reflect.Struct:
		fields, ok := structFields(t)
		if !ok || len(fields) == 0 {
			s.leaf(v, depth)
			return
		}
		s.raw("{")
		for i, f := range fields {
			if i > 0 {
				s.raw(",")
			}
			s.newline(depth + 1)
			s.raw(f.key)
			if !s.compact {
				s.raw(" ")
			}
			s.value(v.FieldByIndex(f.index), depth+1)
		}
		s.newline(depth)
		s.raw("}")
	case reflect.String:
		if str := v.String(); plainJSONString(str) {
			s.raw(`"`)
			s.raw(str)
			s.raw(`"`)
			return
		}
		s.leaf(v, depth)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s.num = strconv.AppendInt(s.num[:0], v.Int(), 10)
		s.rawBytes(s.num)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s.num = strconv.AppendUint(s.num[:0], v.Uint(), 10)
		s.rawBytes(s.num)
	case reflect.Bool:
		s.raw(strconv.FormatBool(v.Bool()))
	default:
		s.leaf(v, depth)
	}
}

func (s *jsonStream) rawBytes(b []byte) {
	if s.err == nil {
		_, s.err = s.w.Write(b)
	}
}

// plainJSONString reports a string encoding/json writes as it is, between
// quotes: printable ASCII without quote or backslash (anything else goes to
// encoding/json, whose escapes are the reference).
func plainJSONString(str string) bool {
	for i := 0; i < len(str); i++ {
		if b := str[i]; b < 0x20 || b > 0x7e || b == '"' || b == '\\' {
			return false
		}
	}
	return true
}

// leaf writes v through encoding/json, indented for its depth.
func (s *jsonStream) leaf(v reflect.Value, depth int) {
	if s.enc.e == nil {
		s.enc.e = json.NewEncoder(&s.enc.b)
		s.enc.e.SetEscapeHTML(false)
	}
	s.enc.b.Reset()
	if err := s.enc.e.Encode(v.Interface()); err != nil {
		if s.err == nil {
			s.err = err
		}
		return
	}
	compact := strings.TrimSuffix(s.enc.b.String(), "\n")
	if s.compact || !strings.ContainsAny(compact, "{[") {
		s.raw(compact)
		return
	}
	ind := strings.Repeat("  ", depth)
	s.ibuf.Reset()
	if err := json.Indent(&s.ibuf, []byte(compact), ind, "  "); err != nil {
		if s.err == nil {
			s.err = err
		}
		return
	}
	if s.err == nil {
		_, s.err = s.w.Write(s.ibuf.Bytes())
	}
}

type streamField struct {
	index []int  // the path to the field, through embedded structs
	key   string // `"name":`
}

var fieldCache sync.Map // reflect.Type -> []streamField, or nil when the walk would not match encoding/json

// structFields lists the fields encoding/json writes for t, in order, with
// ok false when t has anything the walk does not mirror (tag options such as
// omitempty or string, embedded pointers or tagged embeds, one name twice):
// such structs go to encoding/json whole. An untagged embedded struct's
// fields are promoted in place, as encoding/json orders them (by index
// path); a plan result embeds its head, and writing it whole held the
// whole plan.
func structFields(t reflect.Type) ([]streamField, bool) {
	if c, ok := fieldCache.Load(t); ok {
		fs := c.([]streamField)
		return fs, fs != nil
	}
	fs, ok := appendFields(nil, t, nil)
	if ok {
		seen := make(map[string]bool, len(fs))
		for _, f := range fs {
			if seen[f.key] {
				ok = false // Go's promotion rules decide; leave it to encoding/json
				break
			}
			seen[f.key] = true
		}
	}
	if !ok {
		fs = nil
	} else if fs == nil {
		fs = []streamField{}
	}
	fieldCache.Store(t, fs)
	return fs, ok
}

// appendFields adds t's written fields, below the index path at, to fs.
func appendFields(fs []streamField, t reflect.Type, at []int) ([]streamField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		if tag == "-" {
			continue
		}
		path := append(append([]int(nil), at...), i)
		if f.Anonymous {
			if hasTag || f.Type.Kind() != reflect.Struct || len(at) > 8 ||
				f.Type.Implements(jsonMarshaler) || f.Type.Implements(textMarshaler) ||
				reflect.PointerTo(f.Type).Implements(jsonMarshaler) || reflect.PointerTo(f.Type).Implements(textMarshaler) {
				return nil, false
			}
			var ok bool
			if fs, ok = appendFields(fs, f.Type, path); !ok {
				return nil, false
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if hasTag {
			n, opts, _ := strings.Cut(tag, ",")
			if opts != "" || !validTagName(n) {
				return nil, false
			}
			if n != "" {
				name = n
			}
		}
		k, err := json.Marshal(name)
		if err != nil {
			return nil, false
		}
		fs = append(fs, streamField{index: path, key: string(k) + ":"})
	}
	return fs, true
}

// validTagName is a tag name encoding/json takes as given: letters, digits
// and a few punctuation marks; anything else goes to encoding/json.
func validTagName(n string) bool {
	for _, r := range n {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '/' || r == '@' || r == ':':
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}
