// Package baseline states what an account's phone policy must be and checks
// an account against it.
//
// A baseline is a TOML file with one table, [expect], mapping paths into the
// phone settings to the value each must have. Paths are the ones `evdesk
// phone settings --diff` prints (package snapshot): object keys joined by
// dots, list items by their identifying field ([id=...], [code=...]) or
// position ([0]). Quote each path, since it holds dots:
//
//	[expect]
//	"voicemail.enable" = true                                  # equal to a boolean,
//	"call_park.expiration_period" = 10                         # a number,
//	"auto_call_recording.recording_calls" = "both"             # or a string
//	"call_park.call_not_picked_up_action" = { one_of = [9, 100] }   # any of these
//	"auto_delete_data_after_retention_duration.permanently_delete_after_days" = { min = 7, max = 30 }
//	"block_external_calls.block_call_action" = { max = 1 }     # a bound may be left out
//
// Ranges are inclusive and numeric; one_of takes values of one type. Tables
// nest like paths: [expect.call_park] followed by expiration_period = 10
// means "call_park.expiration_period" = 10.
//
// A path is known when the phone settings' typed description names it (the
// 43 setting keys, the enable, locked and locked_by fields every setting
// has, and the fields of each setting whose shape the spec shows, list items
// included) or when the account's answer carries it; so the fields of
// settings kept raw (their shape is not shown) and of keys this evdesk does
// not know are known only from the answer. A known path the answer lacks
// fails its expectation ("absent"). A path that is not known, an
// expectation of the wrong type (a string for a boolean setting) or one
// naming an object rather than a value breaks the baseline: the error names
// the file and line, and suggests the nearest known path. So does any key
// outside [expect], and a file larger than MaxFileSize.
package baseline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
)

// MaxFileSize bounds a baseline file: it is a short list, and a bigger file
// is a mistake (or worse), not a policy.
const MaxFileSize = 1 << 20

// MaxKeys bounds the keys of a baseline (expectations and the tables that
// hold them), so that reading and checking one stays quick.
const MaxKeys = 1000

// limits bound a baseline before the TOML decoder reads it (the guard
// every TOML file of evdesk passes): its size, and its keys and values,
// room for MaxKeys and their one_of lists.
var limits = config.TOMLLimits{What: "baseline", MaxBytes: MaxFileSize, MaxEntries: 2 * MaxKeys}

// maxProblemsShown bounds the problems an Error's message lists.
const maxProblemsShown = 20

// Kind is a value's type.
type Kind int

const (
	Bool Kind = iota + 1
	Number
	String
	// Object and Array are kinds of places a path may name; they are not
	// values a baseline compares.
	Object
	Array
)

// noun names a kind in a sentence ("is a boolean").
func (k Kind) noun() string {
	switch k {
	case Bool:
		return "a boolean"
	case Number:
		return "a number"
	case String:
		return "a string"
	case Object:
		return "an object"
	case Array:
		return "a list"
	}
	return "a value of unknown type"
}

// kindOf is the kind of a value decoded by package snapshot; 0 for null.
func kindOf(v any) Kind {
	switch v.(type) {
	case bool:
		return Bool
	case json.Number:
		return Number
	case string:
		return String
	case map[string]any:
		return Object
	case []any:
		return Array
	}
	return 0
}

// Value is a boolean, number or string of a baseline.
type Value struct {
	Kind Kind
	Bool bool
	Str  string
	// Num is a number's decimal text; numbers compare by value (10 = 10.0).
	Num string
}

// String writes the value as in JSON, strings quoted with Go's escapes, so
// it prints safely.
func (v Value) String() string {
	switch v.Kind {
	case Bool:
		return strconv.FormatBool(v.Bool)
	case Number:
		return v.Num
	}
	return strconv.Quote(v.Str)
}

// MarshalJSON writes the value as a JSON value.
func (v Value) MarshalJSON() ([]byte, error) {
	switch v.Kind {
	case Bool:
		return json.Marshal(v.Bool)
	case Number:
		return []byte(v.Num), nil
	}
	return json.Marshal(v.Str)
}

// matches reports whether actual (as package snapshot decodes it) equals v.
func (v Value) matches(actual any) bool {
	switch a := actual.(type) {
	case bool:
		return v.Kind == Bool && v.Bool == a
	case string:
		return v.Kind == String && v.Str == a
	case json.Number:
		c, ok := compareNumbers(string(a), v.Num)
		return v.Kind == Number && ok && c == 0
	}
	return false
}

// compareNumbers compares two decimal texts by value; ok is false when one
// does not parse (or overflows even a big float).
func compareNumbers(a, b string) (int, bool) {
	x, _, err := big.ParseFloat(a, 10, 128, big.ToNearestEven)
	if err != nil {
		return 0, false
	}
	y, _, err := big.ParseFloat(b, 10, 128, big.ToNearestEven)
	if err != nil {
		return 0, false
	}
	return x.Cmp(y), true
}

// Expectation is one line of a baseline: exactly one of Equal, OneOf, or a
// range (Min, Max or both) is set.
type Expectation struct {
	Path  string
	Line  int
	Equal *Value
	OneOf []Value
	Min   *Value
	Max   *Value
}

// Kind is the kind of value the expectation compares.
func (e Expectation) Kind() Kind {
	switch {
	case e.Equal != nil:
		return e.Equal.Kind
	case len(e.OneOf) > 0:
		return e.OneOf[0].Kind
	}
	return Number
}

// String reads "true", "one of 9, 100", "5 to 30", "at least 5".
func (e Expectation) String() string {
	switch {
	case e.Equal != nil:
		return e.Equal.String()
	case len(e.OneOf) > 0:
		parts := make([]string, len(e.OneOf))
		for i, v := range e.OneOf {
			parts[i] = v.String()
		}
		return "one of " + strings.Join(parts, ", ")
	case e.Min != nil && e.Max != nil:
		return e.Min.String() + " to " + e.Max.String()
	case e.Min != nil:
		return "at least " + e.Min.String()
	case e.Max != nil:
		return "at most " + e.Max.String()
	}
	return "?"
}

// MarshalJSON writes the expectation as the file states it: a value,
// {"one_of": [...]} or {"min": x, "max": y}.
func (e Expectation) MarshalJSON() ([]byte, error) {
	switch {
	case e.Equal != nil:
		return json.Marshal(e.Equal)
	case len(e.OneOf) > 0:
		return json.Marshal(struct {
			OneOf []Value `json:"one_of"`
		}{e.OneOf})
	}
	return json.Marshal(struct {
		Min *Value `json:"min,omitempty"`
		Max *Value `json:"max,omitempty"`
	}{e.Min, e.Max})
}

// Match reports whether an actual value (as package snapshot decodes it;
// present false when the settings lack the path) meets the expectation.
func (e Expectation) Match(actual any, present bool) bool {
	if !present {
		return false
	}
	switch {
	case e.Equal != nil:
		return e.Equal.matches(actual)
	case len(e.OneOf) > 0:
		return slices.ContainsFunc(e.OneOf, func(v Value) bool { return v.matches(actual) })
	}
	n, ok := actual.(json.Number)
	if !ok {
		return false
	}
	for _, bound := range []struct {
		v    *Value
		sign int
	}{{e.Min, -1}, {e.Max, 1}} {
		if bound.v == nil {
			continue
		}
		if c, ok := compareNumbers(string(n), bound.v.Num); !ok || c == bound.sign {
			return false
		}
	}
	return true
}

// Baseline is a parsed baseline file: its expectations in file order.
type Baseline struct {
	File         string
	Expectations []Expectation
}

// SettingTypes lists the settings the baseline names, for the request's
// setting_types, so the answer carries them whatever the server's default
// selection; nil when a path names a key outside the 43 (which only the
// default answer can carry).
func (b *Baseline) SettingTypes() []string {
	var out []string
	for _, e := range b.Expectations {
		steps, err := snapshot.ParsePath(e.Path)
		if err != nil || steps[0].Kind != snapshot.KeyStep || !api.IsPhoneSettingType(steps[0].Key) {
			return nil
		}
		if !slices.Contains(out, steps[0].Key) {
			out = append(out, steps[0].Key)
		}
	}
	return out
}

// Problem is one thing wrong with a baseline, at a line (0: the whole file).
type Problem struct {
	Line int
	Msg  string
}

// Error is a broken baseline: every problem found, in line order.
type Error struct {
	File     string
	Problems []Problem
}

// Error lists the problems, one a line as file:line: message; past
// maxProblemsShown it says how many more there are.
func (e *Error) Error() string {
	var lines []string
	for i, p := range e.Problems {
		if i == maxProblemsShown {
			lines = append(lines, fmt.Sprintf("%s: and %d more problems", e.File, len(e.Problems)-i))
			break
		}
		if p.Line > 0 {
			lines = append(lines, fmt.Sprintf("%s:%d: %s", e.File, p.Line, p.Msg))
		} else {
			lines = append(lines, fmt.Sprintf("%s: %s", e.File, p.Msg))
		}
	}
	return strings.Join(lines, "\n")
}

// IsBroken reports whether err is a broken baseline (as opposed to, say, a
// file that cannot be read).
func IsBroken(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// Load reads and parses a baseline file, reading at most MaxFileSize bytes.
func Load(path string) (*Baseline, error) {
	data, err := config.ReadCapped(path, MaxFileSize)
	switch {
	case errors.Is(err, config.ErrTooLarge):
		return nil, tooLarge(path)
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("baseline: %w", err)
	case err != nil:
		return nil, fmt.Errorf("baseline %s: %w", path, err)
	}
	return Parse(path, data)
}

// printableText replaces the characters of s a terminal could act on by
// their Go escapes.
func printableText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsPrint(r) {
			b.WriteRune(r)
		} else {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

// Warnings are what a baseline should change though it is valid: an
// expectation on a field the provider deprecated, which will fail as
// "absent" once the field is removed. Each names the file, the line and
// the replacement.
func (b *Baseline) Warnings() []string {
	var out []string
	for _, e := range b.Expectations {
		if d, ok := api.PhoneDeprecation(e.Path); ok {
			out = append(out, fmt.Sprintf("%s:%d: %s is %s (it will fail as absent once removed)", b.File, e.Line, e.Path, d.Note()))
		}
	}
	return out
}
