package snapshot

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A path names one place in a settings document, the way Diff prints it:
// object keys joined by dots (call_park.expiration_period); a key that would
// read ambiguously, or that holds a character a terminal could act on, in
// brackets and quoted (["a.b"]); an array item by its identifying field
// (sms_etiquette_tool.sms_etiquette_policy[id=EtQ7r]) or, when the items
// have none, by position ([2]). Every path is printable as it is.

// StepKind says what a path step selects.
type StepKind int

const (
	// KeyStep selects an object's member Key.
	KeyStep StepKind = iota
	// IndexStep selects an array's item at Index.
	IndexStep
	// MatchStep selects the array item whose field Key equals Value.
	MatchStep
)

// Step is one step of a path.
type Step struct {
	Kind  StepKind
	Key   string // KeyStep: the member; MatchStep: the identifying field
	Value string // MatchStep: the field's value
	Index int    // IndexStep
}

// JoinPath appends an object key to a path.
func JoinPath(path, key string) string {
	if key == "" || strings.ContainsAny(key, ".[]\" ") || !printable(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// FormatPath writes steps as a path: the inverse of ParsePath.
func FormatPath(steps []Step) string {
	p := ""
	for _, s := range steps {
		switch s.Kind {
		case KeyStep:
			p = JoinPath(p, s.Key)
		case IndexStep:
			p = indexPath(p, s.Index)
		case MatchStep:
			p = itemPath(p, s.Key, s.Value)
		}
	}
	return p
}

func join(path, key string) string { return JoinPath(path, key) }

func itemPath(path, field, id string) string { return path + "[" + field + "=" + id + "]" }

func indexPath(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// itemID is an array item's identifying value as text.
func itemID(item any, field string) string { return fmt.Sprint(item.(map[string]any)[field]) }

// printable reports whether s is valid UTF-8 made of printable characters
// only, so it can reach a terminal as it is.
func printable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) })
}

// ParsePath splits a path as JoinPath and Diff write it into its steps. It
// is the inverse of the writing: ParsePath of any path Diff or Flatten
// prints succeeds.
func ParsePath(path string) ([]Step, error) {
	if path == "" {
		return nil, errors.New("the path is empty")
	}
	var steps []Step
	for i := 0; i < len(path); {
		if path[i] == '[' {
			step, n, err := parseBracket(path[i:])
			if err != nil {
				return nil, err
			}
			steps = append(steps, step)
			i += n
			continue
		}
		if len(steps) > 0 {
			if path[i] != '.' {
				return nil, fmt.Errorf("expected '.' or '[' after %q", path[:i])
			}
			i++
		}
		end := i
		for end < len(path) && path[end] != '.' && path[end] != '[' {
			end++
		}
		key := path[i:end]
		switch {
		case key == "":
			return nil, fmt.Errorf("empty key at character %d (quote an empty key as [\"\"])", i+1)
		case strings.ContainsAny(key, "]\" ") || !printable(key):
			return nil, fmt.Errorf("key %q holds characters that need quoting: write it as [%s]", key, strconv.Quote(key))
		}
		steps = append(steps, Step{Kind: KeyStep, Key: key})
		i = end
	}
	return steps, nil
}

// parseBracket reads one bracketed step at the start of s and returns it
// with the number of bytes it took.
func parseBracket(s string) (Step, int, error) {
	if strings.HasPrefix(s, `["`) {
		q, err := strconv.QuotedPrefix(s[1:])
		if err != nil {
			return Step{}, 0, fmt.Errorf("unterminated quoted key in %q", s)
		}
		key, _ := strconv.Unquote(q)
		n := 1 + len(q)
		if n >= len(s) || s[n] != ']' {
			return Step{}, 0, fmt.Errorf("expected ']' after the quoted key %s", q)
		}
		return Step{Kind: KeyStep, Key: key}, n + 1, nil
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return Step{}, 0, fmt.Errorf("missing ']' in %q", s)
	}
	inner := s[1:end]
	if field, value, ok := strings.Cut(inner, "="); ok {
		if field == "" || value == "" || !printable(inner) {
			return Step{}, 0, fmt.Errorf("[%s] should read [field=value], such as [id=abc]", inner)
		}
		return Step{Kind: MatchStep, Key: field, Value: value}, end + 1, nil
	}
	n, err := strconv.Atoi(inner)
	if err != nil || n < 0 || strings.HasPrefix(inner, "+") {
		return Step{}, 0, fmt.Errorf("[%s] is neither a position such as [0], an item such as [id=abc], nor a quoted key such as [\"a.b\"]", inner)
	}
	return Step{Kind: IndexStep, Index: n}, end + 1, nil
}

// Node is one place in a JSON document: its path and its value, decoded
// with numbers as json.Number (map[string]any, []any, json.Number, string,
// bool or nil).
type Node struct {
	Path  string
	Value any
}

// Flatten lists every place below a JSON document's root, each parent
// before its children and object keys in sorted order, named by the paths
// Diff prints. Array items are named by an identifying field when every
// item has a unique one (as Diff does when both sides agree), else by
// position.
func Flatten(doc []byte) ([]Node, error) {
	v, err := decode(doc)
	if err != nil {
		return nil, err
	}
	var out []Node
	flatten(&out, "", v)
	return out, nil
}

func flatten(out *[]Node, path string, v any) {
	if path != "" {
		*out = append(*out, Node{Path: path, Value: v})
	}
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			flatten(out, join(path, k), t[k])
		}
	case []any:
		field := identityField(t, nil)
		for i, it := range t {
			if field != "" {
				flatten(out, itemPath(path, field, itemID(it, field)), it)
			} else {
				flatten(out, indexPath(path, i), it)
			}
		}
	}
}
