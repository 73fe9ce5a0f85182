package snapshot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
)

func diffStrings(t *testing.T, before, after string) []string {
	t.Helper()
	changes, err := Diff([]byte(before), []byte(after))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(changes))
	for i, c := range changes {
		out[i] = c.String()
	}
	return out
}

func TestDiffReportsChangedAddedAndRemovedFields(t *testing.T) {
	before := `{"call_park":{"enable":true,"expiration_period":5,"sequence":0},
		"sms":{"enable":true,"international_sms":false},
		"voicemail":{"enable":true}}`
	after := `{"call_park":{"enable":true,"expiration_period":10,"sequence":0,"forward_to":{"id":"q1"}},
		"sms":{"enable":true},
		"voicemail":{"enable":true},
		"online_fax":{"enable":false}}`
	got := diffStrings(t, before, after)
	want := []string{
		`changed call_park.expiration_period: 5 -> 10`,
		`added call_park.forward_to: {"id":"q1"}`,
		`added online_fax: {"enable":false}`,
		`removed sms.international_sms (was false)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDiffMatchesListItemsByIdentity(t *testing.T) {
	before := `{"t":{"rules":[{"id":"a","active":true},{"id":"b","active":true},{"id":"c","active":true}],
		"items":[{"type":"sms","duration":1},{"type":"fax","duration":2}], "plain":[1,2,3]}}`
	after := `{"t":{"rules":[{"id":"c","active":true},{"id":"a","active":false},{"id":"d","active":true}],
		"items":[{"type":"fax","duration":2},{"type":"sms","duration":1.0}], "plain":[1,3]}}`
	got := diffStrings(t, before, after)
	want := []string{
		`changed t.plain[1]: 2 -> 3`,
		`removed t.plain[2] (was 3)`,
		`changed t.rules[id=a].active: true -> false`,
		`removed t.rules[id=b] (was {"active":true,"id":"b"})`,
		`added t.rules[id=d]: {"active":true,"id":"d"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDiffOddShapes(t *testing.T) {
	got := diffStrings(t, `{"a.b":1,"x":{"enable":true},"y":[1]}`, `{"a.b":2,"x":null,"y":{"k":1}}`)
	want := []string{`changed ["a.b"]: 1 -> 2`, `changed x: {"enable":true} -> null`, `changed y: [1] -> {"k":1}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q", got)
	}
	if got := diffStrings(t, `{"a":1}`, `{"a":1}`); len(got) != 0 {
		t.Errorf("no change reported as %q", got)
	}
	if _, err := Diff([]byte(`{`), []byte(`{}`)); err == nil {
		t.Error("bad JSON accepted")
	}
	c := Change{Kind: Changed, Path: "sms_etiquette_tool.sms_etiquette_policy[id=x].active"}
	if c.Setting() != "sms_etiquette_tool" {
		t.Errorf("setting %q", c.Setting())
	}
}

func TestSaveLoadCompare(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "policy.json")
	old, err := api.DecodePhoneSettings([]byte(`{"call_park":{"enable":true,"expiration_period":5},"sms":{"enable":false}}`))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s, err := New(old, []string{"call_park", "sms"}, "demo", at)
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(path, s); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("saved file: %v %v", fi, err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !loaded.SavedAt.Equal(at) || loaded.Source != "demo" || strings.Join(loaded.Types, ",") != "call_park,sms" {
		t.Errorf("loaded %+v", loaded)
	}
	now, _ := api.DecodePhoneSettings([]byte(`{"call_park":{"enable":true,"expiration_period":10},"sms":{"enable":false}}`))
	changes, err := loaded.Compare(now)
	if err != nil || len(changes) != 1 || changes[0].Path != "call_park.expiration_period" {
		t.Fatalf("compare: %v %v", changes, err)
	}
	// Saving again replaces the file whole.
	s2, _ := New(now, nil, "demo", at.Add(time.Hour))
	if err := Save(path, s2); err != nil {
		t.Fatal(err)
	}
	if l2, _ := Load(path); l2 == nil || len(l2.Types) != 0 {
		t.Errorf("second save: %+v", l2)
	}
}

func TestLoadAcceptsBareSettingsAndRejectsOthers(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s, err := Load(write("bare.json", `{"sms":{"enable":true}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ps, _ := s.PhoneSettings(); ps == nil || !ps.Has("sms") {
		t.Errorf("bare settings: %s", s.Settings)
	}
	for name, body := range map[string]string{
		"array.json":  `[]`,
		"kind.json":   `{"kind":"evdesk.events","version":1,"settings":{}}`,
		"future.json": `{"kind":"` + Kind + `","version":99,"settings":{}}`,
		"empty.json":  `{"kind":"` + Kind + `","version":1}`,
	} {
		if _, err := Load(write(name, body)); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
	var c Change
	if err := json.Unmarshal([]byte(`{"change":"added","path":"x","after":1}`), &c); err != nil || c.Kind != Added {
		t.Errorf("change JSON: %+v %v", c, err)
	}
}
