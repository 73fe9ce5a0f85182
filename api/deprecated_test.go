package api

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestEveryDeprecatedFieldIsKnown walks the published descriptions: every
// property they mark deprecated (deprecated: true, or "Deprecated" in its
// description) is in Deprecations, unless it is a request field the
// client never sends.
func TestEveryDeprecatedFieldIsKnown(t *testing.T) {
	neverSent := map[string]bool{"start_time": true, "end_time": true, "meeting_type": true}
	for _, c := range []struct{ file, prefix string }{
		{"events-openapi.json", ""}, {"phone-account-settings-openapi.json", ""},
	} {
		b, err := os.ReadFile("sim/testdata/conformance/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		found := 0
		var walk func(v any, props []string)
		walk = func(v any, props []string) {
			switch v := v.(type) {
			case map[string]any:
				desc, _ := v["description"].(string)
				if len(props) > 0 && (v["deprecated"] == true || strings.Contains(desc, "<b>Deprecated:</b>")) {
					found++
					name := props[len(props)-1]
					path := strings.Join(props, ".")
					_, phone := PhoneDeprecation(path)
					_, event := EventDeprecation(name)
					if !phone && !event && !neverSent[name] {
						t.Errorf("%s: %s is deprecated in the description but not in Deprecations", c.file, path)
					}
				}
				for k, sub := range v {
					if k == "properties" {
						if m, ok := sub.(map[string]any); ok {
							for name, p := range m {
								walk(p, append(append([]string(nil), props...), name))
							}
						}
						continue
					}
					walk(sub, props)
				}
			case []any:
				for _, sub := range v {
					walk(sub, props)
				}
			}
		}
		walk(doc, nil)
		if found == 0 {
			t.Fatalf("%s: no deprecated field found: the walk is broken", c.file)
		}
	}
	for _, d := range Deprecations {
		if len(d.Instead) == 0 || !strings.Contains(d.Note(), d.Instead[0]) {
			t.Errorf("%s names no replacement", d.Field)
		}
	}
}
