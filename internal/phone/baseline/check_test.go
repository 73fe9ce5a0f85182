package baseline_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/phone/baseline"
)

// settingsOf reads, over HTTP from the simulator, the phone settings of the
// account token belongs to, asking for the settings b names.
func settingsOf(t *testing.T, token string, b *baseline.Baseline) *api.PhoneSettings {
	t.Helper()
	s := sim.New(sim.Options{NoRateLimit: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(token), api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	settings, err := c.Phone.AccountSettings(ctx, api.PhoneSettingsOptions{Types: b.SettingTypes()})
	if err != nil {
		t.Fatal(err)
	}
	return settings
}

func parse(t *testing.T, src string) *baseline.Baseline {
	t.Helper()
	b, err := baseline.Parse("policy.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// outcome reads "path: PASS|FAIL actual" per result.
func outcome(results []baseline.Result) string {
	var lines []string
	for _, r := range results {
		verdict := "FAIL"
		if r.Pass {
			verdict = "PASS"
		}
		actual := string(r.Actual)
		if r.Actual == nil {
			actual = "absent"
		}
		lines = append(lines, r.Path+": "+verdict+" "+actual)
	}
	return strings.Join(lines, "\n")
}

// policy is what the demo account keeps; the other host's account breaks
// three of its lines.
const policy = `[expect]
"voicemail.enable" = true
"international_calling.locked" = true
"call_park.expiration_period" = { min = 5, max = 15 }
"call_park.call_not_picked_up_action" = { one_of = [9, 100] }
"auto_call_recording.recording_calls" = { one_of = ["both", "inbound"] }
"auto_delete_data_after_retention_duration.permanently_delete_after_days" = 30
"sms_etiquette_tool.sms_etiquette_policy[id=EtQ7rPasswords].active" = false
"call_queue_opt_out_reason.call_queue_opt_out_reasons_list[code=Lunch break].system" = true
"override_default_port.min_port" = 20000
"restricted_call_hours.time_zone.id" = "Europe/Lisbon"
`

func TestCheckPassesOnTheAccountThatKeepsThePolicy(t *testing.T) {
	b := parse(t, policy)
	results, err := b.Check(settingsOf(t, sim.DemoToken, b))
	if err != nil {
		t.Fatal(err)
	}
	want := `voicemail.enable: PASS true
international_calling.locked: PASS true
call_park.expiration_period: PASS 10
call_park.call_not_picked_up_action: PASS 100
auto_call_recording.recording_calls: PASS "both"
auto_delete_data_after_retention_duration.permanently_delete_after_days: PASS 30
sms_etiquette_tool.sms_etiquette_policy[id=EtQ7rPasswords].active: PASS false
call_queue_opt_out_reason.call_queue_opt_out_reasons_list[code=Lunch break].system: PASS true
override_default_port.min_port: PASS 20000
restricted_call_hours.time_zone.id: PASS "Europe/Lisbon"`
	if got := outcome(results); got != want {
		t.Errorf("results\n%s\nwant\n%s", got, want)
	}
}

func TestCheckFailsWhereTheOtherAccountDrifts(t *testing.T) {
	b := parse(t, policy+`"call_park.forward_to.extension_type" = "callQueue"`+"\n")
	results, err := b.Check(settingsOf(t, sim.OtherHostToken, b))
	if err != nil {
		t.Fatal(err)
	}
	got := outcome(results)
	for _, want := range []string{
		"voicemail.enable: FAIL false",
		"international_calling.locked: FAIL false",
		"call_park.expiration_period: PASS 5",
		"call_park.call_not_picked_up_action: FAIL 50",
		`auto_call_recording.recording_calls: PASS "inbound"`,
		`call_park.forward_to.extension_type: PASS "callQueue"`,
	} {
		if !strings.Contains(got, want+"\n") && !strings.HasSuffix(got, want) {
			t.Errorf("results lack %q:\n%s", want, got)
		}
	}
	// The demo account has no forward_to: a known path it lacks fails.
	results, err = b.Check(settingsOf(t, sim.DemoToken, b))
	if err != nil {
		t.Fatal(err)
	}
	last := results[len(results)-1]
	if last.Pass || last.Actual != nil || last.Line != 12 {
		t.Errorf("absent field: %+v", last)
	}
	js, _ := json.Marshal(last)
	if string(js) != `{"path":"call_park.forward_to.extension_type","line":12,"expect":"callQueue","pass":false}` {
		t.Errorf("result JSON %s", js)
	}
	js, _ = json.Marshal(results[2])
	if string(js) != `{"path":"call_park.expiration_period","line":4,"expect":{"min":5,"max":15},"actual":10,"pass":true}` {
		t.Errorf("result JSON %s", js)
	}
}

func TestCheckRefusesABaselineThatDoesNotFit(t *testing.T) {
	b := parse(t, `[expect]
"voicemail.enabel" = true
"voicemail.enable" = "yes"
"call_park" = true
"call_park.expiration_period" = { mni = 5 }
"sms_etiquette_tool.sms_etiquette_policy" = 3
"call_park.sequence" = { one_of = ["a"] }
"international_calling.enable" = { max = 1 }
"online_fax.enable" = 1
"sms_etiquette_tool.sms_etiquette_policy[id=NoSuchRule].active" = true
"call_screening.enable" = false
"zzzz" = 1
"voicemail.allow_sharing" = true
"voicemail.xyzzy" = true
`)
	_, err := b.Check(settingsOf(t, sim.OtherHostToken, &baseline.Baseline{}))
	var be *baseline.Error
	if !errors.As(err, &be) {
		t.Fatalf("check: %v", err)
	}
	want := `policy.toml:2: "voicemail.enabel" names no phone setting or field (did you mean "voicemail.enable"?)
policy.toml:3: "voicemail.enable" is a boolean; the expectation "yes" is a string
policy.toml:4: "call_park" is an object, not a value: a baseline compares booleans, numbers and strings; name one of its fields, such as "call_park.enable"
policy.toml:5: "call_park.expiration_period.mni" names no phone setting or field: "call_park.expiration_period" is a number, which has no fields (a table after a path takes one_of, min or max)
policy.toml:6: "sms_etiquette_tool.sms_etiquette_policy" is a list, not a value: a baseline compares booleans, numbers and strings; name a field of one item, as in sms_etiquette_tool.sms_etiquette_policy[id=...].FIELD
policy.toml:7: "call_park.sequence" is a number; the expectation (one of "a") is a string
policy.toml:8: "international_calling.enable" is a boolean; the expectation (at most 1) is a number
policy.toml:9: "online_fax.enable" is a boolean; the expectation 1 is a number
policy.toml:11: "call_screening.enable" names no phone setting or field: "call_screening" is not one of the settings evdesk knows, and this account's answer does not carry it
policy.toml:12: "zzzz" names no phone setting or field: "zzzz" is not one of the settings evdesk knows, and this account's answer does not carry it
policy.toml:13: "voicemail.allow_sharing" names no phone setting or field (did you mean "voicemail.allow_share"?)
policy.toml:14: "voicemail.xyzzy" names no phone setting or field; ` + "`evdesk phone settings -o json`" + ` shows the account's settings`
	if err.Error() != want {
		t.Errorf("error\n%s\nwant\n%s", err, want)
	}
}

// A baseline on a deprecated field is valid and checked, and it warns with
// the line and the replacement.
func TestABaselineOnADeprecatedFieldWarns(t *testing.T) {
	b, err := baseline.Parse("policy.toml", []byte("[expect]\n\"voicemail.enable\" = true\n\"auto_call_recording.recording_explicit_consent\" = false\n"))
	if err != nil {
		t.Fatal(err)
	}
	w := b.Warnings()
	if len(w) != 1 || !strings.HasPrefix(w[0], "policy.toml:3: auto_call_recording.recording_explicit_consent is deprecated") ||
		!strings.Contains(w[0], "inbound_audio_notification.recording_explicit_consent") ||
		!strings.Contains(w[0], "outbound_audio_notification.recording_explicit_consent") {
		t.Fatalf("warnings %q", w)
	}
}
