package changelog

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Filter selects entries: any of Tags, any of Areas, dated on or after
// Since. Empty parts select everything.
type Filter struct {
	Tags  []string
	Areas []string
	Since time.Time
}

// ParseTags reads --tag: comma-separated tags of the change log.
func ParseTags(s string) ([]string, error) {
	var out []string
	for _, t := range splitList(s) {
		if !slices.Contains(Tags, t) {
			return nil, fmt.Errorf("--tag %q is not a change log tag; use %s", t, strings.Join(Tags, ", "))
		}
		out = append(out, t)
	}
	return out, nil
}

// ParseAreas reads --area: comma-separated areas; evdesk's own are
// checked for spelling by their synonyms, others are taken as the feed
// names them.
func ParseAreas(s string) ([]string, error) {
	var out []string
	for _, a := range splitList(s) {
		if a == "" || len(a) > maxCategory {
			return nil, fmt.Errorf("--area %q: name an area such as %s", a, strings.Join(UsedAreas, ", "))
		}
		out = append(out, areaOf(a))
	}
	return out, nil
}

// ParseSince reads --since: a day (2026-09-01).
func ParseSince(s string) (time.Time, error) {
	if strings.TrimSpace(s) == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("--since %q is not a day; write it as 2026-09-01", s)
	}
	return t, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.Join(strings.Fields(strings.ToLower(p)), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Apply returns the entries f selects, in order.
func (f Filter) Apply(entries []Entry) []Entry {
	var out []Entry
	for _, e := range entries {
		if f.keeps(e) {
			out = append(out, e)
		}
	}
	return out
}

func (f Filter) keeps(e Entry) bool {
	if len(f.Tags) > 0 && !slices.ContainsFunc(f.Tags, e.HasTag) {
		return false
	}
	if len(f.Areas) > 0 && !slices.ContainsFunc(f.Areas, func(a string) bool { return slices.Contains(e.Areas, a) }) {
		return false
	}
	if !f.Since.IsZero() && (e.Date.IsZero() || e.Date.Before(f.Since)) {
		return false
	}
	return true
}
