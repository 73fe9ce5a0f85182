package baseline

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
)

// Result is an expectation with the account's value.
type Result struct {
	Expectation
	// Actual is the value as the account has it (compact JSON); nil when
	// the account's settings lack the path.
	Actual json.RawMessage
	Pass   bool
}

// MarshalJSON writes {"path", "line", "expect", "actual", "pass"}, actual
// left out when the account lacks the path. (Without it, the embedded
// Expectation's MarshalJSON would stand for the whole result.)
func (r Result) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Path   string          `json:"path"`
		Line   int             `json:"line"`
		Expect Expectation     `json:"expect"`
		Actual json.RawMessage `json:"actual,omitempty"`
		Pass   bool            `json:"pass"`
	}{r.Path, r.Line, r.Expectation, r.Actual, r.Pass})
}

// Check compares an account's settings with the baseline. It returns a
// result per expectation, in file order, or an *Error when the baseline
// does not fit the settings: a path that names no known place (with the
// nearest known path suggested), an expectation of the wrong type, or one
// naming an object or list rather than a value.
func (b *Baseline) Check(settings *api.PhoneSettings) ([]Result, error) {
	doc, err := json.Marshal(settings)
	if err != nil {
		return nil, fmt.Errorf("baseline: encode the settings: %w", err)
	}
	nodes, err := snapshot.Flatten(doc)
	if err != nil {
		return nil, fmt.Errorf("baseline: read the settings: %w", err)
	}
	actual := make(map[string]any, len(nodes))
	for _, n := range nodes {
		actual[n.Path] = n.Value
	}
	schema := phoneSchema()
	var problems []Problem
	var known []string // built when a path is unknown
	results := make([]Result, 0, len(b.Expectations))
	for _, e := range b.Expectations {
		steps, err := snapshot.ParsePath(e.Path)
		if err != nil { // Parse already refused it; a Baseline built by hand may not have
			problems = append(problems, Problem{Line: e.Line, Msg: fmt.Sprintf("path %q: %v", e.Path, err)})
			continue
		}
		sh := schema.lookup(steps)
		v, present := actual[e.Path]
		if sh == nil && !present {
			if known == nil {
				known = knownPaths(schema, nodes)
			}
			problems = append(problems, Problem{Line: e.Line, Msg: unknownPath(e.Path, steps, schema, actual, known)})
			continue
		}
		kind := kindOf(v)
		if sh != nil {
			kind = sh.kind
		}
		if msg := fitKind(e, kind, sh, v); msg != "" {
			problems = append(problems, Problem{Line: e.Line, Msg: msg})
			continue
		}
		r := Result{Expectation: e, Pass: e.Match(v, present)}
		if present {
			r.Actual, _ = json.Marshal(v)
		}
		results = append(results, r)
	}
	if len(problems) > 0 {
		return nil, &Error{File: b.File, Problems: problems}
	}
	return results, nil
}

// fitKind says what is wrong when an expectation cannot apply to a place of
// the given kind ("" when it can, or when the kind is unknown: a null).
func fitKind(e Expectation, kind Kind, sh *shape, v any) string {
	switch kind {
	case 0, e.Kind():
		return ""
	case Object, Array:
		msg := fmt.Sprintf("%q is %s, not a value: a baseline compares booleans, numbers and strings", e.Path, kind.noun())
		if f := exampleField(sh, v); kind == Object && f != "" {
			msg += fmt.Sprintf("; name one of its fields, such as %q", snapshot.JoinPath(e.Path, f))
		} else if kind == Array {
			msg += "; name a field of one item, as in " + e.Path + "[id=...].FIELD"
		}
		return msg
	}
	what := "the expectation " + e.String()
	if e.Equal == nil {
		what = "the expectation (" + e.String() + ")"
	}
	return fmt.Sprintf("%q is %s; %s is %s", e.Path, kind.noun(), what, e.Kind().noun())
}

// exampleField names a field of an object place, from the description or
// else the answer; "enable" when it has one.
func exampleField(sh *shape, v any) string {
	var keys []string
	if sh != nil {
		for k := range sh.fields {
			keys = append(keys, k)
		}
	}
	if m, ok := v.(map[string]any); ok && len(keys) == 0 {
		for k := range m {
			keys = append(keys, k)
		}
	}
	switch {
	case len(keys) == 0:
		return ""
	case slices.Contains(keys, "enable"):
		return "enable"
	}
	return slices.Min(keys)
}

// knownPaths are the description's paths and the answer's, once each.
func knownPaths(schema *shape, nodes []snapshot.Node) []string {
	var out []string
	schema.paths("", &out)
	seen := make(map[string]bool, len(out))
	for _, p := range out {
		seen[p] = true
	}
	for _, n := range nodes {
		if !seen[n.Path] {
			out = append(out, n.Path)
		}
	}
	return out
}

// unknownPath says that path names nothing known: when it extends a value
// (a typo in { min = ... } reads as a field), it says so; otherwise it
// suggests the nearest known path.
func unknownPath(path string, steps []snapshot.Step, schema *shape, actual map[string]any, known []string) string {
	msg := fmt.Sprintf("%q names no phone setting or field", path)
	if len(steps) > 1 {
		parent := snapshot.FormatPath(steps[:len(steps)-1])
		kind := kindOf(actual[parent])
		if sh := schema.lookup(steps[:len(steps)-1]); sh != nil {
			kind = sh.kind
		}
		if kind == Bool || kind == Number || kind == String {
			return msg + fmt.Sprintf(": %q is %s, which has no fields (a table after a path takes one_of, min or max)", parent, kind.noun())
		}
	}
	if near := api.NearestName(path, known); near != "" {
		return msg + fmt.Sprintf(" (did you mean %q?)", near)
	}
	if top := steps[0]; top.Kind == snapshot.KeyStep && schema.fields[top.Key] == nil {
		if _, ok := actual[snapshot.JoinPath("", top.Key)]; !ok {
			return msg + fmt.Sprintf(": %q is not one of the settings evdesk knows, and this account's answer does not carry it", top.Key)
		}
	}
	return msg + "; `evdesk phone settings -o json` shows the account's settings"
}
