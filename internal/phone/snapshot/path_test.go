package snapshot

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFlattenNamesEveryPlaceAsDiffDoes(t *testing.T) {
	doc := `{"call_park":{"enable":true,"expiration_period":10,"forward_to":{"id":"q1"}},
		"queue":{"reasons":[{"code":"Lunch break","enable":true},{"code":"Training","enable":false}]},
		"plain":[1,2], "a.b":{"":null}, "esc\u001b[2J":1}`
	nodes, err := Flatten([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, n := range nodes {
		paths = append(paths, n.Path)
	}
	want := []string{`["a.b"]`, `["a.b"][""]`, "call_park", "call_park.enable", "call_park.expiration_period",
		"call_park.forward_to", "call_park.forward_to.id", `["esc\x1b[2J"]`, "plain", "plain[0]", "plain[1]",
		"queue", "queue.reasons", "queue.reasons[code=Lunch break]", "queue.reasons[code=Lunch break].code",
		"queue.reasons[code=Lunch break].enable", "queue.reasons[code=Training]", "queue.reasons[code=Training].code",
		"queue.reasons[code=Training].enable"}
	if strings.Join(paths, "\n") != strings.Join(want, "\n") {
		t.Errorf("paths\n%s\nwant\n%s", strings.Join(paths, "\n"), strings.Join(want, "\n"))
	}
	if n := nodes[4]; n.Value != json.Number("10") {
		t.Errorf("expiration_period value %#v", n.Value)
	}
	// Diff names the same places.
	changes, _ := Diff([]byte(doc), []byte(strings.Replace(doc, `"enable":false`, `"enable":true`, 1)))
	if len(changes) != 1 || changes[0].Path != "queue.reasons[code=Training].enable" {
		t.Errorf("diff %v", changes)
	}
	for _, p := range paths {
		steps, err := ParsePath(p)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", p, err)
			continue
		}
		if got := FormatPath(steps); got != p {
			t.Errorf("round trip of %q gave %q", p, got)
		}
		if !printable(p) {
			t.Errorf("path %q is not printable", p)
		}
	}
	if _, err := Flatten([]byte(`{`)); err == nil {
		t.Error("bad JSON flattened")
	}
}

func TestIdentityValuesThatCannotPrintFallBackToPositions(t *testing.T) {
	nodes, err := Flatten([]byte(`{"r":[{"id":"a\u0007"},{"id":"b"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if nodes[1].Path != "r[0]" {
		t.Errorf("item path %q", nodes[1].Path)
	}
}

func TestParsePathSteps(t *testing.T) {
	steps, err := ParsePath(`sms_etiquette_tool.sms_etiquette_policy[id=Et.Q7].active`)
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{{Kind: KeyStep, Key: "sms_etiquette_tool"}, {Kind: KeyStep, Key: "sms_etiquette_policy"},
		{Kind: MatchStep, Key: "id", Value: "Et.Q7"}, {Kind: KeyStep, Key: "active"}}
	if len(steps) != len(want) {
		t.Fatalf("steps %+v", steps)
	}
	for i := range want {
		if steps[i] != want[i] {
			t.Errorf("step %d: %+v, want %+v", i, steps[i], want[i])
		}
	}
	steps, err = ParsePath(`["a.b"][3].c`)
	if err != nil || len(steps) != 3 || steps[0].Key != "a.b" || steps[1] != (Step{Kind: IndexStep, Index: 3}) {
		t.Errorf("quoted and index: %+v %v", steps, err)
	}
	for bad, why := range map[string]string{
		"":            "empty",
		".a":          "empty key",
		"a..b":        "empty key",
		"a.":          "empty key",
		"a[":          "missing ']'",
		"a[x]":        "neither a position",
		"a[-1]":       "neither a position",
		"a[=x]":       "[field=value]",
		`a["b`:        "unterminated",
		`a["b"x`:      "expected ']'",
		"a[0]b":       "expected '.'",
		"a b":         "need quoting",
		"a\x1b[2J":    "need quoting",
		"bell\x07":    "need quoting",
		"a[id=x\x07]": "[field=value]",
	} {
		if _, err := ParsePath(bad); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ParsePath(%q) = %v, want an error about %q", bad, err, why)
		}
	}
}
