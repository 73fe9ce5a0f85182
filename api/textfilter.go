package api

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// StringFilter rewrites one string of a decoded answer; multiline is true
// for fields whose text may hold line breaks (descriptions).
type StringFilter func(s string, multiline bool) string

// WithStringFilter passes every string of every decoded answer, and the
// text of every error answer, through f before the caller sees it. The
// console sets the terminal sanitiser here, so no screen can print a
// server's escape sequence; the CLI leaves it unset, so -o json stays
// faithful to what the server sent. Fields tagged `text:"multiline"` keep
// their line breaks; raw JSON (json.RawMessage, kept for fields of unshown
// shape) is rewritten too, its strings filtered as one-line text.
func WithStringFilter(f StringFilter) Option { return func(c *Client) { c.filter = f } }

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// stringFilterer is a type that keeps its data where the walker cannot see
// it (unexported raw JSON) and filters it itself.
type stringFilterer interface {
	filterStrings(f StringFilter)
}

// filterStrings rewrites, in place, every string reachable from v (a
// pointer to a decoded answer).
func filterStrings(v any, f StringFilter) {
	if f == nil || v == nil {
		return
	}
	walkStrings(reflect.ValueOf(v), f, false)
}

func walkStrings(v reflect.Value, f StringFilter, multiline bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Kind() == reflect.Interface {
			if s, ok := v.Interface().(string); ok && v.CanSet() {
				v.Set(reflect.ValueOf(f(s, multiline)))
				return
			}
		}
		walkStrings(v.Elem(), f, multiline)
	case reflect.String:
		if v.CanSet() {
			if s := v.String(); s != "" {
				v.SetString(f(s, multiline))
			}
		}
	case reflect.Struct:
		if v.CanAddr() {
			if sf, ok := v.Addr().Interface().(stringFilterer); ok {
				sf.filterStrings(f)
				return
			}
		}
		t := v.Type()
		for i := range v.NumField() {
			if sf := t.Field(i); sf.IsExported() {
				walkStrings(v.Field(i), f, sf.Tag.Get("text") == "multiline")
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type() == rawMessageType {
			if v.CanSet() {
				v.SetBytes(filterRaw(v.Bytes(), f))
			}
			return
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes are not text
		}
		for i := range v.Len() {
			walkStrings(v.Index(i), f, multiline)
		}
	case reflect.Map:
		walkMap(v, f, multiline)
	}
}

// walkMap rewrites a map's string keys and values; map entries are not
// addressable, so each changed entry is stored again.
func walkMap(v reflect.Value, f StringFilter, multiline bool) {
	if v.IsNil() {
		return
	}
	t := v.Type()
	keys := v.MapKeys()
	for _, k := range keys {
		val := v.MapIndex(k)
		nv := reflect.New(t.Elem()).Elem()
		nv.Set(val)
		walkStrings(nv, f, multiline)
		nk := k
		if k.Kind() == reflect.String {
			if s := f(k.String(), false); s != k.String() {
				nk = reflect.New(t.Key()).Elem()
				nk.SetString(s)
				v.SetMapIndex(k, reflect.Value{})
			}
		}
		v.SetMapIndex(nk, nv)
	}
}

// filterRaw rewrites the strings (keys too) inside raw JSON. Numbers stay
// exact; raw that does not decode is returned as it is (its displayer must
// still sanitise what it shows).
func filterRaw(raw []byte, f StringFilter) []byte {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return raw
	}
	walkStrings(reflect.ValueOf(&v), f, false)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return raw
	}
	return bytes.TrimRight(out.Bytes(), "\n")
}
