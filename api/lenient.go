package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// One bad item is one bad item: a value the client cannot read (a
// weekly_days of the wrong shape) is left out of its item, whose Unreadable
// names it, and the rest of the item, and of the page, stands.

// decodeLenient decodes the JSON object raw into v (a pointer). When the
// whole does not decode, every member that cannot be read is left out (in
// an object member, the innermost one that fails), the rest is decoded, and
// the dotted paths left out are returned, sorted.
func decodeLenient(raw json.RawMessage, v any) ([]string, error) {
	err := json.Unmarshal(raw, v)
	if err == nil {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return nil, err // not an object: nothing to keep
	}
	typ := reflect.TypeOf(v).Elem()
	fits := func(m map[string]json.RawMessage) bool {
		b, merr := json.Marshal(m)
		return merr == nil && json.Unmarshal(b, reflect.New(typ).Interface()) == nil
	}
	var bad []string
	prune(obj, "", func(m map[string]json.RawMessage) map[string]json.RawMessage { return m }, fits, &bad)
	if len(bad) == 0 {
		return nil, err // nothing to leave out explains it
	}
	b, merr := json.Marshal(obj)
	if merr != nil {
		return nil, err
	}
	reflect.ValueOf(v).Elem().SetZero()
	if derr := json.Unmarshal(b, v); derr != nil {
		return nil, errors.Join(err, derr)
	}
	slices.Sort(bad)
	return bad, nil
}

// prune removes from obj (found at path, inside the document wrap builds
// around it) the members that cannot be read, appending their paths to
// bad. A member that is an object is pruned inside when that is enough.
func prune(obj map[string]json.RawMessage, path string, wrap func(map[string]json.RawMessage) map[string]json.RawMessage,
	fits func(map[string]json.RawMessage) bool, bad *[]string) {
	for k, val := range obj {
		alone := wrap(map[string]json.RawMessage{k: val})
		if fits(alone) {
			continue
		}
		name := strings.TrimPrefix(path+"."+k, ".")
		var inner map[string]json.RawMessage
		if json.Unmarshal(val, &inner) == nil && len(inner) > 0 {
			innerWrap := func(m map[string]json.RawMessage) map[string]json.RawMessage {
				b, _ := json.Marshal(m)
				return wrap(map[string]json.RawMessage{k: b})
			}
			before := len(*bad)
			prune(inner, name, innerWrap, fits, bad)
			if len(*bad) > before && fits(innerWrap(inner)) {
				obj[k], _ = json.Marshal(inner)
				continue
			}
			*bad = (*bad)[:before]
		}
		*bad = append(*bad, name)
		delete(obj, k)
	}
}

// UnreadableText lists the paths of an item's unreadable fields for a
// person: at most three, each cut short when long (a hostile server chooses
// its keys), and how many more.
func UnreadableText(paths []string) string {
	const most, long = 3, 60
	shown := make([]string, 0, most)
	for _, p := range paths[:min(len(paths), most)] {
		if r := []rune(p); len(r) > long {
			p = string(r[:long]) + "…"
		}
		shown = append(shown, p)
	}
	text := strings.Join(shown, ", ")
	if n := len(paths) - most; n > 0 {
		text += fmt.Sprintf(" and %d more", n)
	}
	return text
}
