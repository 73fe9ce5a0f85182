package baseline

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/config"
)

func mustParse(t *testing.T, src string) *Baseline {
	t.Helper()
	b, err := Parse("policy.toml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return b
}

// problems parses src, expecting it broken, and returns "line: message"
// lines.
func problems(t *testing.T, src string) []string {
	t.Helper()
	_, err := Parse("policy.toml", []byte(src))
	var e *Error
	if !IsBroken(err) {
		t.Fatalf("parse accepted %q (err %v)", src, err)
	}
	e = err.(*Error)
	var out []string
	for _, p := range e.Problems {
		out = append(out, strings.TrimSpace(strings.Join([]string{itoa(p.Line), p.Msg}, ": ")))
	}
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestParseEveryForm(t *testing.T) {
	b := mustParse(t, `# the policy every account must keep
[expect]
"voicemail.enable" = true
"call_park.expiration_period" = 10
"auto_call_recording.recording_calls" = "both"
"call_park.call_not_picked_up_action" = { one_of = [9, 100] }
"auto_delete_data_after_retention_duration.permanently_delete_after_days" = { min = 7, max = 30.5 }
"block_external_calls.block_call_action" = { max = 1 }
"sms_etiquette_tool.sms_etiquette_policy[id=EtQ7rPasswords].active" = false

[expect.international_calling]
locked = true
enable = { one_of = [false] }
`)
	var got []string
	for _, e := range b.Expectations {
		got = append(got, itoa(e.Line)+" "+e.Path+" "+e.String())
	}
	want := []string{
		"3 voicemail.enable true",
		"4 call_park.expiration_period 10",
		`5 auto_call_recording.recording_calls "both"`,
		"6 call_park.call_not_picked_up_action one of 9, 100",
		"7 auto_delete_data_after_retention_duration.permanently_delete_after_days 7 to 30.5",
		"8 block_external_calls.block_call_action at most 1",
		"9 sms_etiquette_tool.sms_etiquette_policy[id=EtQ7rPasswords].active false",
		"12 international_calling.locked true",
		"13 international_calling.enable one of false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("expectations\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ts := b.SettingTypes(); strings.Join(ts, ",") != "voicemail,call_park,auto_call_recording,"+
		"auto_delete_data_after_retention_duration,block_external_calls,sms_etiquette_tool,international_calling" {
		t.Errorf("setting types %v", ts)
	}
	js, _ := json.Marshal(b.Expectations[3])
	if string(js) != `{"one_of":[9,100]}` {
		t.Errorf("one_of JSON %s", js)
	}
	js, _ = json.Marshal(b.Expectations[5])
	if string(js) != `{"max":1}` {
		t.Errorf("range JSON %s", js)
	}
	js, _ = json.Marshal(b.Expectations[2])
	if string(js) != `"both"` {
		t.Errorf("string JSON %s", js)
	}
	// Dotted keys without quotes mean the same path.
	b = mustParse(t, "[expect]\nvoicemail.enable = true\n")
	if b.Expectations[0].Path != "voicemail.enable" || b.Expectations[0].Line != 2 {
		t.Errorf("dotted key: %+v", b.Expectations[0])
	}
	// A key outside the 43 leaves the choice of settings to the server.
	if ts := mustParse(t, "[expect]\n\"online_fax.enable\" = true\n").SettingTypes(); ts != nil {
		t.Errorf("setting types with an unknown key: %v", ts)
	}
}

func TestParseReportsEveryProblemWithItsLine(t *testing.T) {
	got := problems(t, `title = "acme"
[expect]
"voicemail.enable" = "yes please"
"a" = [1, 2]
"b" = { one_of = [1, "x"] }
"c" = { min = 30, max = 5 }
"d" = { min = "5" }
"e" = { one_of = [1], max = 2 }
"f" = { between = [1, 2] }
"f2" = { one_of = [1], mni = 2 }
"g" = { one_of = [] }
"h" = nan
"i" = 2026-01-02
"j..k" = 1
"bell\u0007" = 1
[expect.voicemail]
enable = false

[[other]]
x = 1
`)
	want := []string{
		`1: unknown key "title": a baseline holds one table, [expect]`,
		`4: "a": a list is not a value: write { one_of = [...] } to accept any of several`,
		`5: "b": one_of mixes a number and a string: its values must be of one type`,
		`6: "c": min 30 is greater than max 5`,
		`7: "d": min must be a number, not a string`,
		`8: "e": one_of cannot be combined with min or max`,
		`9: "f.between": a list is not a value: write { one_of = [...] } to accept any of several`,
		`10: "f2": unknown key "mni" in an expectation: use one_of = [...], or min and max`,
		`11: "g": one_of needs a list of at least one value, such as one_of = [9, 100]`,
		`12: "h": NaN is not a finite number`,
		`13: "i": dates and times are not setting values: use a boolean, number or string`,
		`14: path "j..k": empty key at character 3 (quote an empty key as [""])`,
		`15: path "bell\a": key "bell\a" holds characters that need quoting: write it as ["bell\a"]`,
		`17: "voicemail.enable" is already expected on line 3`,
		`19: unknown key "other": a baseline holds one table, [expect]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseBrokenFiles(t *testing.T) {
	for src, want := range map[string]string{
		"":                                   `0: states no expectations`,
		"[expect]\n":                         `0: states no expectations`,
		"expect = 3\n":                       `1: expect must be a table`,
		"[expect]\n\"x\" = \n":               `2: expected value but found '\n' instead`,
		"[expect]\n\"x\" = 1\n\"x\" = 2\n":   `3: Key 'expect.x' has already been defined.`,
		"[expect]\n\"x\" = {}\n":             `2: "x" has an empty table: give it a value, one_of, min or max`,
		"[expect]\n\"x\" = \"\\u001b[2J\"\n": "", // a string may hold anything: it prints quoted
	} {
		if want == "" {
			b := mustParse(t, src)
			if s := b.Expectations[0].String(); s != `"\x1b[2J"` {
				t.Errorf("string with an escape prints as %s", s)
			}
			continue
		}
		got := problems(t, src)
		if len(got) != 1 || !strings.HasPrefix(got[0], want) {
			t.Errorf("%q: problems %q, want %q", src, got, want)
		}
	}
}

func TestLoadBoundsTheFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.toml")
	body := "[expect]\n\"voicemail.enable\" = true\n" + strings.Repeat("# padding\n", MaxFileSize/10)
	if err := os.WriteFile(big, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(big)
	if !IsBroken(err) || err.Error() != big+": is larger than 1024 KiB: a baseline is a short list of expectations" {
		t.Errorf("big file: %v", err)
	}
	ok := filepath.Join(dir, "ok.toml")
	if err := os.WriteFile(ok, []byte(body[:40]), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := Load(ok); err != nil || b.File != ok || len(b.Expectations) != 1 {
		t.Errorf("small file: %+v %v", b, err)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); err == nil || IsBroken(err) {
		t.Errorf("missing file: %v", err)
	}
}

func TestMatch(t *testing.T) {
	b := mustParse(t, `[expect]
a = 10
b = { one_of = ["x", "y"] }
c = { min = 5, max = 30 }
d = { min = 5 }
e = true
`)
	num := func(s string) any { return json.Number(s) }
	for i, c := range []struct {
		actual  any
		present bool
		want    bool
	}{
		{num("10"), true, true}, {num("10.0"), true, true}, {num("1e1"), true, true}, {num("11"), true, false},
		{"10", true, false}, {nil, true, false}, {num("10"), false, false},
	} {
		if got := b.Expectations[0].Match(c.actual, c.present); got != c.want {
			t.Errorf("a case %d (%v): %v", i, c.actual, got)
		}
	}
	if !b.Expectations[1].Match("y", true) || b.Expectations[1].Match("z", true) {
		t.Error("one_of")
	}
	for s, want := range map[string]bool{"5": true, "30": true, "4.999": false, "30.01": false, "17": true} {
		if got := b.Expectations[2].Match(num(s), true); got != want {
			t.Errorf("range with %s: %v", s, got)
		}
	}
	if !b.Expectations[3].Match(num("1e9"), true) || b.Expectations[3].Match(num("4"), true) || b.Expectations[3].Match("7", true) {
		t.Error("open range")
	}
	if !b.Expectations[4].Match(true, true) || b.Expectations[4].Match(false, true) || b.Expectations[4].Match("true", true) {
		t.Error("bool")
	}
	if b.Expectations[0].Match(num("1e999999999999"), true) {
		t.Error("a number that overflows matched")
	}
}

// largest is a baseline at the limits: MaxKeys-1 expectations in about
// 1 MiB, every one naming a field that does not exist.
func largest() []byte {
	var b strings.Builder
	b.WriteString("[expect]\n")
	for i := 0; i < MaxKeys-1; i++ {
		fmt.Fprintf(&b, "\"voicemail.zz%d\" = %q\n", i, strings.Repeat("x", 1000))
	}
	return []byte(b.String())
}

func TestParseBoundsTheKeysAndTheMessage(t *testing.T) {
	src := largest()
	b, err := Parse("big.toml", src)
	if err != nil || len(b.Expectations) != MaxKeys-1 {
		t.Fatalf("at the limit: %v", err)
	}
	settings, _ := api.DecodePhoneSettings([]byte(`{"voicemail":{"enable":true}}`))
	_, err = b.Check(settings)
	var e *Error
	if !errors.As(err, &e) || len(e.Problems) != MaxKeys-1 {
		t.Fatalf("check: %v", err)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxProblemsShown+1 || lines[maxProblemsShown] != fmt.Sprintf("big.toml: and %d more problems", MaxKeys-1-maxProblemsShown) {
		t.Errorf("message of %d lines ending %q", len(lines), lines[len(lines)-1])
	}
	over := append(src, "\"voicemail.enable\" = true\n\"voicemail.locked\" = true\n"...)
	if got := problems(t, string(over)); len(got) != 1 || got[0] != fmt.Sprintf("0: has %d keys: a baseline holds at most %d (expectations and their tables)", MaxKeys+2, MaxKeys) {
		t.Errorf("over the limit: %q", got)
	}
}

// BenchmarkParseAndCheckLargest measures the worst a baseline within the
// limits costs: parsing it and checking it, each of its paths unknown.
func BenchmarkParseAndCheckLargest(b *testing.B) {
	src := largest()
	settings, _ := api.DecodePhoneSettings([]byte(`{"voicemail":{"enable":true}}`))
	for b.Loop() {
		bl, err := Parse("big.toml", src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := bl.Check(settings); err == nil {
			b.Fatal("unknown paths passed")
		}
	}
}

// A baseline goes through the guard every TOML file of evdesk passes, with
// limits no larger than the config file's (whose benchmark of the costliest
// shapes bounds them). The key of 8,000 dotted parts that took the decoder
// 10.6 s and 1.6 GB is refused before decoding.
func TestAQuadraticBaselineIsRefusedBeforeDecoding(t *testing.T) {
	if limits.MaxBytes > config.ConfigLimits.MaxBytes || limits.MaxEntries > config.ConfigLimits.MaxEntries {
		t.Fatalf("baseline limits %+v exceed the config file's %+v", limits, config.ConfigLimits)
	}
	src := "[expect]\n" + strings.Repeat("a.", 8000) + "a = 1\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse("q.toml", []byte(src))
	runtime.ReadMemStats(&after)
	if got := problems(t, src); len(got) != 1 || got[0] != "2: a key with more than 6 dotted parts (evdesk's keys have at most 5, such as profiles.NAME.base_url)" {
		t.Fatalf("%v: %q", err, got)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("refusing it allocated %d KiB", grew>>10)
	}
}
