package redact

import "reflect"

// Strings redacts, as Text does, every string that ptr reaches: struct
// fields, list elements, map keys and values, through pointers and
// interfaces. It is for reports built from files and the cluster, whose
// free text (a host, a group.id, a topic) can hold a credential that no key
// names: a worker file's line ending in a backslash joins the next line, a
// password, to the value above it. Values under a secret key are the
// caller's to hide first (Value, Nested); pointed-to strings are replaced,
// not written through, since they may be shared.
func Strings(ptr any) {
	rv := reflect.ValueOf(ptr)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return
	}
	inPlace(rv.Elem(), map[uintptr]bool{})
}

// inPlace redacts the settable value rv in place where nested cannot
// rebuild it (structs, and the lists and pointers that reach them) and
// sets what nested rebuilds elsewhere; seen stops at a struct pointer met
// before (reports do not cycle, but a walk must end anyway).
func inPlace(rv reflect.Value, seen map[uintptr]bool) {
	switch rv.Kind() {
	case reflect.Struct:
		for i := 0; i < rv.NumField(); i++ {
			if f := rv.Field(i); f.CanSet() {
				inPlace(f, seen)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < rv.Len(); i++ {
			inPlace(rv.Index(i), seen)
		}
	case reflect.Pointer:
		if rv.IsNil() {
			return
		}
		if rv.Elem().Kind() != reflect.Struct {
			setNested(rv)
			return
		}
		if seen[rv.Pointer()] {
			return
		}
		seen[rv.Pointer()] = true
		inPlace(rv.Elem(), seen)
	default: // strings, maps, interfaces
		setNested(rv)
	}
}

// setNested sets rv to nested's text-redacted copy when that changed it.
func setNested(rv reflect.Value) {
	if out, changed := nested("", rv, false); changed {
		rv.Set(out)
	}
}
