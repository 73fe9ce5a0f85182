package api

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's scope table")

// TestTheScopeTableMatchesTheDescriptions: every operation of the
// published descriptions is in the table with the scopes its security
// lists, and every call of the table is one of them (the phone call's
// scopes from the phone document).
func TestTheScopeTableMatchesTheDescriptions(t *testing.T) {
	type op struct {
		Security []map[string][]string `json:"security"`
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	for _, name := range []string{"events-openapi.json", "phone-account-settings-openapi.json"} {
		b, err := os.ReadFile("sim/testdata/conformance/" + name)
		if err != nil {
			t.Fatal(err)
		}
		doc.Paths = nil
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		for path, ops := range doc.Paths {
			for method, raw := range ops {
				var o op
				if json.Unmarshal(raw, &o) != nil || method == "parameters" {
					continue
				}
				key := strings.ToUpper(method) + " " + path
				e, ok := endpointByKey(key)
				if !ok {
					t.Errorf("%s: in the description, not in the scope table", key)
					continue
				}
				var listed []string
				for _, sec := range o.Security {
					for _, scopes := range sec {
						listed = append(listed, scopes...)
					}
				}
				if len(listed) == 0 && path == "/phone/account_settings" {
					listed = []string{PhoneScope, PhoneGranularScope} // the phone document, section 4
				}
				for _, s := range e.Scopes(DefaultPathWord) {
					if !slices.Contains(listed, s) && !(path == "/phone/account_settings" && strings.HasSuffix(s, ":admin:admin")) {
						t.Errorf("%s: the table's %s is not in the description's security %v", key, s, listed)
					}
				}
			}
		}
	}
	for _, f := range Features {
		for _, key := range f.Calls {
			if _, ok := endpointByKey(key); !ok {
				t.Errorf("feature %q calls %s, which is not in the table", f.Name, key)
			}
		}
	}
}

// TestLeftOutFeatures: a login without the registrants scope leaves out
// the cancel count and the roster, and nothing else.
func TestLeftOutFeatures(t *testing.T) {
	granted := slices.DeleteFunc(RequestedScopes("vendor"), func(s string) bool { return s == "vendor_events_registrants:read" })
	var names []string
	for _, g := range LeftOut(granted, "vendor") {
		names = append(names, g.Feature+": "+strings.Join(g.Missing, " "))
	}
	want := []string{"Cancel count (who registered, before a cancel): vendor_events_registrants:read",
		"Check-in roster: names, ticket scans, search: vendor_events_registrants:read"}
	if !slices.Equal(names, want) {
		t.Fatalf("left out %q", names)
	}
	// A granular or :admin scope counts as well.
	if gaps := LeftOut(append(granted, "vendor_events:read:list_registrants:admin"), "vendor"); len(gaps) != 0 {
		t.Fatalf("the granular admin scope: %v", gaps)
	}
	if gaps := LeftOut(RequestedScopes("acme"), "acme"); len(gaps) != 0 {
		t.Fatalf("every requested scope: %v", gaps)
	}
}

// ScopeTable is the README's scope table, from the table in code.
func ScopeTable() string {
	var b strings.Builder
	b.WriteString("| feature | calls | scope (or its granular scope; either also as `:admin`) | plan |\n|---|---|---|---|\n")
	for _, f := range Features {
		var calls, scopes, plans []string
		for _, key := range f.Calls {
			e, _ := endpointByKey(key)
			calls = append(calls, "`"+strings.Replace(key, "/vendor_events/events/{eventId}", "P/{id}", 1)+"`")
			if s := fmt.Sprintf("`%s` (`%s`)", e.Scope, e.Granular); !slices.Contains(scopes, s) {
				scopes = append(scopes, s)
			}
			if e.Plan != "" && !slices.Contains(plans, e.Plan) {
				plans = append(plans, e.Plan)
			}
		}
		plan := strings.Join(plans, "; ")
		if plan == "" {
			plan = "not stated"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", f.Name, strings.Join(calls, "<br>"), strings.Join(scopes, "<br>"), plan)
	}
	return b.String()
}

// TestReadmeScopeTableIsCurrent: the README's scope table is the table in
// code; go test ./api -run ReadmeScope -update rewrites it.
func TestReadmeScopeTableIsCurrent(t *testing.T) {
	const path, begin, end = "../README.md", "<!-- scopes:begin -->\n", "<!-- scopes:end -->"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	i, j := strings.Index(readme, begin), strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q section", strings.TrimSpace(begin), end)
	}
	got := ScopeTable()
	if *update {
		if err := os.WriteFile(path, []byte(readme[:i+len(begin)]+got+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if readme[i+len(begin):j] != got {
		t.Errorf("README.md's scope table is stale: run go test ./api -run ReadmeScope -update\n--- want ---\n%s", got)
	}
}
