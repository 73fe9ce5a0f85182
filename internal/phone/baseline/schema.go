package baseline

import (
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
)

// shape is what the typed settings say about a place: its kind and, for an
// object, its fields; for a list, its items' shape.
type shape struct {
	kind   Kind
	fields map[string]*shape
	elem   *shape
}

// phoneSchema is the settings' typed description: the 43 keys, each with the
// fields of the type it decodes into (api.NewPhoneSettingValue).
var phoneSchema = sync.OnceValue(func() *shape {
	root := &shape{kind: Object, fields: map[string]*shape{}}
	for _, k := range api.PhoneSettingTypes {
		root.fields[k] = shapeOf(reflect.TypeOf(api.NewPhoneSettingValue(k)))
	}
	return root
})

func shapeOf(t reflect.Type) *shape {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return &shape{kind: Bool}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return &shape{kind: Number}
	case reflect.String:
		return &shape{kind: String}
	case reflect.Slice, reflect.Array:
		return &shape{kind: Array, elem: shapeOf(t.Elem())}
	case reflect.Struct:
		s := &shape{kind: Object, fields: map[string]*shape{}}
		addFields(s, t)
		return s
	}
	return &shape{kind: Object} // maps and anything else: fields unknown
}

// addFields adds a struct's JSON fields, flattening embedded structs the way
// encoding/json does.
func addFields(s *shape, t reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" || (!f.IsExported() && !f.Anonymous):
		case f.Anonymous && name == "":
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			addFields(s, ft)
		default:
			if name == "" {
				name = f.Name
			}
			s.fields[name] = shapeOf(f.Type)
		}
	}
}

// lookup follows a path's steps; nil when the description does not name
// the place.
func (s *shape) lookup(steps []snapshot.Step) *shape {
	for _, st := range steps {
		if s == nil {
			return nil
		}
		if st.Kind == snapshot.KeyStep {
			s = s.fields[st.Key]
		} else {
			s = s.elem
		}
	}
	return s
}

// paths lists the places the description names, for suggestions; list
// items have no path without an id, so lists stop at the list itself.
func (s *shape) paths(prefix string, out *[]string) {
	keys := make([]string, 0, len(s.fields))
	for k := range s.fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := snapshot.JoinPath(prefix, k)
		*out = append(*out, p)
		s.fields[k].paths(p, out)
	}
}
