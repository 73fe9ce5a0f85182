package baseline

import (
	"encoding/json"
	"testing"

	"github.com/evdesk/evdesk/api"
)

// FuzzParse feeds the parser arbitrary files: it must never panic, and what
// it accepts must be usable: paths parse, lines are real, values print and
// encode, and checking against settings either works or reports problems.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"[expect]\n\"voicemail.enable\" = true\n",
		"[expect]\n\"call_park.call_not_picked_up_action\" = { one_of = [9, 100] }\n\"call_park.expiration_period\" = { min = 5, max = 30 }\n",
		"[expect.call_park]\nexpiration_period = 10.5\n\"forward_to.id\" = \"x\"\n",
		"[expect]\n\"q.r[code=Lunch break].enable\" = true\n\"a[0]\" = -1\n[\"x\"]\n",
		"[expect]\n\"x\" = { min = 1e308, max = inf }\n\"y\" = 1979-05-27\n",
		"title = 1\n[[expect]]\n",
	} {
		f.Add([]byte(seed))
	}
	settings, err := api.DecodePhoneSettings([]byte(`{"call_park":{"enable":true,"expiration_period":10},
		"voicemail":{"enable":false},"q":{"r":[{"code":"Lunch break","enable":true}]},"online_fax":null}`))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Parse("fuzz.toml", data)
		if err != nil {
			if !IsBroken(err) {
				t.Fatalf("not an *Error: %v", err)
			}
			return
		}
		for _, e := range b.Expectations {
			if e.Line < 1 {
				t.Errorf("%q has no line", e.Path)
			}
			if e.String() == "?" {
				t.Errorf("%q has no form", e.Path)
			}
			if js, err := json.Marshal(e); err != nil || !json.Valid(js) {
				t.Errorf("%q encodes as %s (%v)", e.Path, js, err)
			}
		}
		if _, err := b.Check(settings); err != nil && !IsBroken(err) {
			t.Errorf("check: %v", err)
		}
	})
}
