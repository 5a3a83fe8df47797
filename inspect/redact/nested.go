package redact

import "reflect"

// Nested is what output shows for a value found under key inside a
// structure (a finding's values): strings as Value shows them; lists
// element by element under the same key; maps with each key redacted as
// text (a key can be data, such as a group.id a line continuation joined
// to the next line's password) and each value under its own key. Other
// values (numbers, booleans, nil) are kept. Types are kept, so the JSON
// of what holds no secret is unchanged.
func Nested(key string, v any) any {
	if v == nil {
		return nil
	}
	if s, ok := v.(string); ok {
		return Value(key, s)
	}
	rv := reflect.ValueOf(v)
	out, changed := nested(key, rv, true)
	if !changed {
		return v
	}
	return out.Interface()
}

// nested walks rv; changed is false when nothing in it was redacted, and
// then out is rv itself. byKey hides a secret key's strings whole (Value);
// without it every string is redacted as text.
func nested(key string, rv reflect.Value, byKey bool) (out reflect.Value, changed bool) {
	switch rv.Kind() {
	case reflect.String:
		var s string
		if byKey {
			s = Value(key, rv.String())
		} else {
			s = Text(rv.String())
		}
		if s == rv.String() {
			return rv, false
		}
		n := reflect.New(rv.Type()).Elem()
		n.SetString(s)
		return n, true
	case reflect.Interface, reflect.Pointer:
		if rv.IsNil() {
			return rv, false
		}
		e, ch := nested(key, rv.Elem(), byKey)
		if !ch {
			return rv, false
		}
		if rv.Kind() == reflect.Interface {
			n := reflect.New(rv.Type()).Elem()
			n.Set(e)
			return n, true
		}
		p := reflect.New(rv.Type().Elem())
		p.Elem().Set(e)
		return p, true
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return rv, false
		}
		var n reflect.Value
		for i := 0; i < rv.Len(); i++ {
			e, ch := nested(key, rv.Index(i), byKey)
			if !ch {
				continue
			}
			if !n.IsValid() {
				n = copyList(rv)
			}
			n.Index(i).Set(e)
		}
		if !n.IsValid() {
			return rv, false
		}
		return n, true
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String || rv.IsNil() {
			return rv, false
		}
		n := reflect.MakeMapWithSize(rv.Type(), rv.Len())
		changed := false
		for it := rv.MapRange(); it.Next(); {
			k := it.Key()
			v, ch := nested(k.String(), it.Value(), byKey)
			if t := Text(k.String()); t != k.String() {
				nk := reflect.New(k.Type()).Elem()
				nk.SetString(t)
				k, ch = nk, true
			}
			changed = changed || ch
			n.SetMapIndex(k, v)
		}
		if !changed {
			return rv, false
		}
		return n, true
	}
	return rv, false
}

// copyList is a new list of rv's type holding its elements.
func copyList(rv reflect.Value) reflect.Value {
	if rv.Kind() == reflect.Array {
		n := reflect.New(rv.Type()).Elem()
		reflect.Copy(n, rv)
		return n
	}
	n := reflect.MakeSlice(rv.Type(), rv.Len(), rv.Len())
	reflect.Copy(n, rv)
	return n
}
