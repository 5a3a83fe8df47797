package format

import (
	"bufio"
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"text/tabwriter"
)

// writeSchema prints the paths and types of the result's JSON form, one per
// line (like rpk's `-o help`), so a runbook author can write --jq without
// first reading a whole result. It works from the Go type, so every field is
// listed even when this result left it empty.
func writeSchema(w io.Writer, result any) error {
	bw := bufio.NewWriter(w)
	tw := tabwriter.NewWriter(bw, 0, 8, 3, ' ', 0)
	t := reflect.TypeOf(result)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem() // the result itself is never null
	}
	walkSchema(tw, ".", t, map[reflect.Type]bool{})
	if err := tw.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}

var (
	rawMessageType = reflect.TypeOf(json.RawMessage(nil))
	marshalerType  = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
	textType       = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
)

func walkSchema(w io.Writer, path string, t reflect.Type, seen map[reflect.Type]bool) {
	if t == nil {
		fmt.Fprintf(w, "%s\tnull\n", path)
		return
	}
	nullable := false
	for t.Kind() == reflect.Pointer {
		nullable = true
		t = t.Elem()
	}
	orNull := func(s string) string {
		if nullable {
			return s + " or null"
		}
		return s
	}
	if t == rawMessageType || t.Implements(marshalerType) || reflect.PointerTo(t).Implements(marshalerType) {
		fmt.Fprintf(w, "%s\t%s\n", path, orNull("any"))
		return
	}
	if t.Implements(textType) || reflect.PointerTo(t).Implements(textType) {
		fmt.Fprintf(w, "%s\t%s\n", path, orNull("string")) // encoding/json writes text marshalers as strings
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		fmt.Fprintf(w, "%s\t%s\n", path, orNull("object"))
		if seen[t] {
			return // a recursive type is listed once
		}
		seen[t] = true
		for _, f := range jsonFields(t) {
			walkSchema(w, join(path, f.name), f.typ, seen)
		}
		delete(seen, t)
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			fmt.Fprintf(w, "%s\t%s\n", path, orNull("string (base64)"))
			return
		}
		fmt.Fprintf(w, "%s\t%s\n", path, "array") // nil slices are written as null only by mistake; lists are [] by contract
		walkSchema(w, path+"[]", t.Elem(), seen)
	case reflect.Map:
		fmt.Fprintf(w, "%s\t%s\n", path, orNull("object"))
		walkSchema(w, path+"[KEY]", t.Elem(), seen)
	case reflect.Interface:
		fmt.Fprintf(w, "%s\tany\n", path)
	case reflect.Bool:
		fmt.Fprintf(w, "%s\t%s\n", path, orNull("boolean"))
	case reflect.String:
		fmt.Fprintf(w, "%s\t%s\n", path, orNull("string"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		fmt.Fprintf(w, "%s\t%s\n", path, orNull("integer"))
	case reflect.Float32, reflect.Float64:
		fmt.Fprintf(w, "%s\t%s\n", path, orNull("number"))
	default:
		fmt.Fprintf(w, "%s\t%s\n", path, orNull(t.Kind().String()))
	}
}

func join(path, name string) string {
	if path == "." {
		return "." + name
	}
	return path + "." + name
}

type schemaField struct {
	name string
	typ  reflect.Type
}

// jsonFields lists a struct's fields as encoding/json writes them: tag names,
// "-" skipped, unexported skipped, embedded structs flattened.
func jsonFields(t reflect.Type) []schemaField {
	var out []schemaField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, jsonFields(ft)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, schemaField{name: name, typ: f.Type})
	}
	return out
}
