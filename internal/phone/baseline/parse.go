package baseline

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/evdesk/evdesk/config"

	"github.com/evdesk/evdesk/internal/phone/snapshot"
)

// The forms of an expectation other than a plain value.
const (
	keyOneOf = "one_of"
	keyMin   = "min"
	keyMax   = "max"
)

// Parse reads a baseline from data; name names the file in problems. Every
// problem found is reported (an *Error), not only the first.
func Parse(name string, data []byte) (*Baseline, error) {
	if len(data) > MaxFileSize {
		return nil, tooLarge(name)
	}
	p := &parser{b: &Baseline{File: name}, seen: map[string]int{}}
	var top map[string]toml.Primitive
	md, err := config.DecodeTOML(name, data, limits, &top)
	if err != nil {
		var fe *config.FileError
		if errors.As(err, &fe) {
			p.problem(fe.Line, "%s", printableText(fe.Msg))
		} else {
			p.problem(0, "%s", printableText(err.Error()))
		}
		return nil, p.err()
	}
	p.md = &md
	if n := len(md.Keys()); n > MaxKeys {
		p.problem(0, "has %d keys: a baseline holds at most %d (expectations and their tables)", n, MaxKeys)
		return nil, p.err()
	}
	keys, lines := sortedKeys(p.md, top)
	for _, k := range keys {
		line := lines[k]
		if k != "expect" {
			p.problem(line, "unknown key %q: a baseline holds one table, [expect]", k)
			continue
		}
		var v any
		_ = p.md.PrimitiveDecode(top[k], &v)
		if _, ok := v.(map[string]any); !ok {
			p.problem(line, "expect must be a table: write [expect] and then one \"path\" = value a line")
			continue
		}
		p.table("", top[k], line)
	}
	if len(p.b.Expectations) == 0 && len(p.problems) == 0 {
		p.problem(0, "states no expectations: add lines such as \"voicemail.enable\" = true under [expect]")
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	sort.SliceStable(p.b.Expectations, func(i, j int) bool { return p.b.Expectations[i].Line < p.b.Expectations[j].Line })
	return p.b, nil
}

// tooLarge is the problem of a file over MaxFileSize.
func tooLarge(name string) error {
	return &Error{File: name, Problems: []Problem{{Msg: fmt.Sprintf("is larger than %d KiB: a baseline is a short list of expectations", MaxFileSize>>10)}}}
}

type parser struct {
	b        *Baseline
	md       *toml.MetaData
	seen     map[string]int // path -> line of its expectation
	problems []Problem
}

func (p *parser) problem(line int, format string, args ...any) {
	p.problems = append(p.problems, Problem{Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) err() error {
	if len(p.problems) == 0 {
		return nil
	}
	sort.SliceStable(p.problems, func(i, j int) bool { return p.problems[i].Line < p.problems[j].Line })
	return &Error{File: p.b.File, Problems: p.problems}
}

// table reads the entries of a table under [expect]; prefix is the path the
// table stands for ("" for [expect] itself).
func (p *parser) table(prefix string, prim toml.Primitive, line int) {
	var entries map[string]toml.Primitive
	if err := p.md.PrimitiveDecode(prim, &entries); err != nil {
		p.problem(line, "%s", printableText(err.Error()))
		return
	}
	if len(entries) == 0 && prefix != "" {
		p.problem(line, "%q has an empty table: give it a value, one_of, min or max", prefix)
	}
	keys, lines := sortedKeys(p.md, entries)
	for _, k := range keys {
		path := joinKey(prefix, k)
		at := lines[k]
		if at == 0 {
			at = line
		}
		var v any
		_ = p.md.PrimitiveDecode(entries[k], &v)
		if m, ok := v.(map[string]any); ok && !isForm(m) {
			p.table(path, entries[k], at)
			continue
		}
		p.expectation(path, at, v)
	}
}

// joinKey extends a path by a TOML key, which may itself be a path
// ("call_park.forward_to") or start with a list item ("[id=x].active").
func joinKey(prefix, key string) string {
	if prefix == "" || strings.HasPrefix(key, "[") {
		return prefix + key
	}
	return prefix + "." + key
}

// isForm reports whether a table is an expectation form rather than a
// nesting of paths.
func isForm(m map[string]any) bool {
	for _, k := range []string{keyOneOf, keyMin, keyMax} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

func (p *parser) expectation(path string, line int, v any) {
	if _, err := snapshot.ParsePath(path); err != nil {
		p.problem(line, "path %q: %v", path, err)
		return
	}
	if first, ok := p.seen[path]; ok {
		p.problem(line, "%q is already expected on line %d", path, first)
		return
	}
	e := Expectation{Path: path, Line: line}
	if m, ok := v.(map[string]any); ok {
		if msg := parseForm(&e, m); msg != "" {
			p.problem(line, "%q: %s", path, msg)
			return
		}
	} else {
		val, msg := parseValue(v)
		if msg != "" {
			p.problem(line, "%q: %s", path, msg)
			return
		}
		e.Equal = &val
	}
	p.seen[path] = line
	p.b.Expectations = append(p.b.Expectations, e)
}

// parseForm fills e from { one_of = [...] } or { min = x, max = y }; it
// returns what is wrong, or "".
func parseForm(e *Expectation, m map[string]any) string {
	for k := range m {
		if k != keyOneOf && k != keyMin && k != keyMax {
			return fmt.Sprintf("unknown key %q in an expectation: use one_of = [...], or min and max", k)
		}
	}
	list, hasOneOf := m[keyOneOf]
	_, hasMin := m[keyMin]
	_, hasMax := m[keyMax]
	if hasOneOf {
		if hasMin || hasMax {
			return "one_of cannot be combined with min or max"
		}
		items, ok := list.([]any)
		if !ok || len(items) == 0 {
			return "one_of needs a list of at least one value, such as one_of = [9, 100]"
		}
		for i, it := range items {
			v, msg := parseValue(it)
			if msg != "" {
				return fmt.Sprintf("one_of[%d]: %s", i, msg)
			}
			if len(e.OneOf) > 0 && v.Kind != e.OneOf[0].Kind {
				return fmt.Sprintf("one_of mixes %s and %s: its values must be of one type", e.OneOf[0].Kind.noun(), v.Kind.noun())
			}
			e.OneOf = append(e.OneOf, v)
		}
		return ""
	}
	for _, b := range []struct {
		key string
		dst **Value
	}{{keyMin, &e.Min}, {keyMax, &e.Max}} {
		raw, ok := m[b.key]
		if !ok {
			continue
		}
		v, msg := parseValue(raw)
		if msg != "" {
			return b.key + ": " + msg
		}
		if v.Kind != Number {
			return fmt.Sprintf("%s must be a number, not %s", b.key, v.Kind.noun())
		}
		*b.dst = &v
	}
	if e.Min != nil && e.Max != nil {
		if c, ok := compareNumbers(e.Min.Num, e.Max.Num); ok && c > 0 {
			return fmt.Sprintf("min %s is greater than max %s", e.Min.Num, e.Max.Num)
		}
	}
	return ""
}

// parseValue reads a TOML boolean, integer, float or string; it returns
// what is wrong with anything else.
func parseValue(v any) (Value, string) {
	switch t := v.(type) {
	case bool:
		return Value{Kind: Bool, Bool: t}, ""
	case int64:
		return Value{Kind: Number, Num: strconv.FormatInt(t, 10)}, ""
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return Value{}, fmt.Sprintf("%v is not a finite number", t)
		}
		return Value{Kind: Number, Num: strconv.FormatFloat(t, 'g', -1, 64)}, ""
	case string:
		return Value{Kind: String, Str: t}, ""
	case []any, []map[string]any:
		return Value{}, "a list is not a value: write { one_of = [...] } to accept any of several"
	case map[string]any:
		return Value{}, "a table is not a value here: use one_of, or min and max"
	}
	return Value{}, "dates and times are not setting values: use a boolean, number or string"
}

// sortedKeys orders a table's keys by line, then name, so problems and
// expectations come in file order; it returns each key's line too.
func sortedKeys(md *toml.MetaData, m map[string]toml.Primitive) ([]string, map[string]int) {
	keys := make([]string, 0, len(m))
	lines := make(map[string]int, len(m))
	for k, v := range m {
		keys = append(keys, k)
		lines[k] = lineOf(md, v)
	}
	sort.Slice(keys, func(i, j int) bool {
		if lines[keys[i]] != lines[keys[j]] {
			return lines[keys[i]] < lines[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys, lines
}

// lineOf is the line where a value's key is defined, 0 when unknown (a
// table only implied by a dotted key). BurntSushi/toml keeps key positions
// to itself, but names the line in its error for a Go type it cannot
// decode into: decoding into a channel fails on purpose, and the line is
// read from the message. (Its other positioned error, an Unmarshaler's,
// copies and splits the whole file each time: 1,000 keys of a large file
// took 2.6 s and 1 GB.)
func lineOf(md *toml.MetaData, prim toml.Primitive) int {
	var probe chan struct{}
	err := md.PrimitiveDecode(prim, &probe)
	if err == nil {
		return 0
	}
	if m := lineInError.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// lineInError finds the line in the decoder's message for a type it cannot
// decode into: `toml: line 3 (last key "a.b"): unsupported type chan`.
var lineInError = regexp.MustCompile(`^toml: line (\d+) \(`)
