package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ChangeKind says what happened at a path.
type ChangeKind string

const (
	Added   ChangeKind = "added"
	Removed ChangeKind = "removed"
	Changed ChangeKind = "changed"
)

// Change is one difference. Before and After are compact JSON (absent for
// an added or removed path respectively).
type Change struct {
	Kind   ChangeKind      `json:"change"`
	Path   string          `json:"path"`
	Before json.RawMessage `json:"before,omitempty"`
	After  json.RawMessage `json:"after,omitempty"`
}

// Setting is the top-level key the change belongs to.
func (c Change) Setting() string {
	if i := strings.IndexAny(c.Path, ".["); i > 0 {
		return c.Path[:i]
	}
	return c.Path
}

// String reads "changed call_park.expiration_period: 5 -> 10".
func (c Change) String() string {
	switch c.Kind {
	case Added:
		return fmt.Sprintf("added %s: %s", c.Path, c.After)
	case Removed:
		return fmt.Sprintf("removed %s (was %s)", c.Path, c.Before)
	}
	return fmt.Sprintf("changed %s: %s -> %s", c.Path, c.Before, c.After)
}

// Diff compares two JSON documents and lists every difference, by path,
// keys in sorted order. Arrays of objects that share an identifying field
// (id, code, type...) are matched by it, so a reordered list is no change;
// other arrays are compared position by position.
func Diff(before, after []byte) ([]Change, error) {
	a, err := decode(before)
	if err != nil {
		return nil, fmt.Errorf("before: %w", err)
	}
	b, err := decode(after)
	if err != nil {
		return nil, fmt.Errorf("after: %w", err)
	}
	var out []Change
	walk(&out, "", a, b)
	return out, nil
}

func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func walk(out *[]Change, path string, a, b any) {
	switch av := a.(type) {
	case map[string]any:
		if bv, ok := b.(map[string]any); ok {
			walkObject(out, path, av, bv)
			return
		}
	case []any:
		if bv, ok := b.([]any); ok {
			walkArray(out, path, av, bv)
			return
		}
	}
	if !sameValue(a, b) {
		*out = append(*out, Change{Kind: Changed, Path: path, Before: compact(a), After: compact(b)})
	}
}

func walkObject(out *[]Change, path string, a, b map[string]any) {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := join(path, k)
		av, inA := a[k]
		bv, inB := b[k]
		switch {
		case !inA:
			*out = append(*out, Change{Kind: Added, Path: p, After: compact(bv)})
		case !inB:
			*out = append(*out, Change{Kind: Removed, Path: p, Before: compact(av)})
		default:
			walk(out, p, av, bv)
		}
	}
}

// identityFields name an array item, in order of preference.
var identityFields = []string{"id", "code", "type", "sms_template_id", "language", "extension_id", "name"}

func walkArray(out *[]Change, path string, a, b []any) {
	if field := identityField(a, b); field != "" {
		index := func(items []any) (map[string]any, []string) {
			m := map[string]any{}
			var order []string
			for _, it := range items {
				id := itemID(it, field)
				m[id] = it
				order = append(order, id)
			}
			return m, order
		}
		am, aOrder := index(a)
		bm, bOrder := index(b)
		ids := slices.Clone(aOrder)
		for _, id := range bOrder {
			if _, ok := am[id]; !ok {
				ids = append(ids, id)
			}
		}
		for _, id := range ids {
			p := itemPath(path, field, id)
			av, inA := am[id]
			bv, inB := bm[id]
			switch {
			case !inA:
				*out = append(*out, Change{Kind: Added, Path: p, After: compact(bv)})
			case !inB:
				*out = append(*out, Change{Kind: Removed, Path: p, Before: compact(av)})
			default:
				walk(out, p, av, bv)
			}
		}
		return
	}
	for i := 0; i < max(len(a), len(b)); i++ {
		p := indexPath(path, i)
		switch {
		case i >= len(a):
			*out = append(*out, Change{Kind: Added, Path: p, After: compact(b[i])})
		case i >= len(b):
			*out = append(*out, Change{Kind: Removed, Path: p, Before: compact(a[i])})
		default:
			walk(out, p, a[i], b[i])
		}
	}
}

// identityField returns a field that every item of both arrays has, as a
// string or number unique within its array; "" when there is none.
func identityField(a, b []any) string {
	if len(a)+len(b) == 0 {
		return ""
	}
	for _, f := range identityFields {
		if uniqueBy(a, f) && uniqueBy(b, f) {
			return f
		}
	}
	return ""
}

func uniqueBy(items []any, field string) bool {
	seen := map[string]bool{}
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return false
		}
		var id string
		switch v := m[field].(type) {
		case string:
			id = v
		case json.Number:
			id = v.String()
		default:
			return false
		}
		if id == "" || seen[id] || strings.ContainsAny(id, "[]") || !printable(id) {
			return false
		}
		seen[id] = true
	}
	return true
}

func sameValue(a, b any) bool {
	an, aok := a.(json.Number)
	bn, bok := b.(json.Number)
	if aok && bok { // 10 and 10.0 are the same number
		af, aerr := an.Float64()
		bf, berr := bn.Float64()
		if aerr == nil && berr == nil {
			return af == bf
		}
	}
	return reflect.DeepEqual(a, b)
}

func compact(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(strconv.Quote(fmt.Sprint(v)))
	}
	return b
}
