package api

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

const oddSettings = `{
  "call_park": {"enable": true, "locked": false, "locked_by": "invalid", "expiration_period": 15,
    "call_not_picked_up_action": 50, "forward_to": {"display_name": "Front Desk", "extension_number": 1000,
    "extension_type": "thirdPartyRoom"}, "future_field": {"nested": [1, 2, 3]}},
  "voicemail": {"enable": "yes"},
  "sms": [1, 2],
  "block_calls_as_threat": {"enable": true, "locked": true, "locked_by": "account", "threat_level": "high"},
  "brand_new_setting": {"enable": false, "knobs": {"a": 1.5}},
  "e2e_encryption": null
}`

func TestPhoneSettingsKeepWhatTheyDoNotKnow(t *testing.T) {
	s, err := DecodePhoneSettings([]byte(oddSettings))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 6 {
		t.Fatalf("len %d", s.Len())
	}
	// A known setting with an extra field: typed, and the field survives.
	if s.CallPark == nil || *s.CallPark.CallNotPickedUpAction != ParkActionForward || s.CallPark.ForwardTo.ExtensionType != "thirdPartyRoom" {
		t.Errorf("call park %+v", s.CallPark)
	}
	// Malformed settings: reported, not typed, kept raw.
	for _, k := range []string{"voicemail", "sms"} {
		if s.DecodeError(k) == nil {
			t.Errorf("%s: no decode error", k)
		}
		if _, ok := s.Raw(k); !ok {
			t.Errorf("%s: raw dropped", k)
		}
	}
	if s.Voicemail != nil || s.SMS != nil {
		t.Error("malformed settings half-decoded")
	}
	// Unshown and unknown: raw, with their common fields.
	if c, ok := s.Common("block_calls_as_threat"); !ok || !c.On() || !c.IsLocked() || c.LockedBy != LockedByAccount {
		t.Errorf("unshown common %+v", c)
	}
	if KindOfPhoneSetting("brand_new_setting") != PhoneSettingUnknown || KindOfPhoneSetting("block_calls_as_threat") != PhoneSettingUnshown ||
		KindOfPhoneSetting("call_park") != PhoneSettingTyped {
		t.Error("kinds")
	}
	if s.Typed("brand_new_setting") != nil || s.Typed("block_calls_as_threat") != nil {
		t.Error("raw settings typed")
	}
	// Round trip: every byte of meaning survives.
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	_ = json.Unmarshal(out, &a)
	_ = json.Unmarshal([]byte(oddSettings), &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("round trip changed the data:\n%s", out)
	}
	if got := s.Keys(); strings.Join(got, ",") != "voicemail,sms,e2e_encryption,call_park,block_calls_as_threat,brand_new_setting" {
		t.Errorf("keys %v", got)
	}
}

func TestPhoneSettingsRejectNonObjects(t *testing.T) {
	for _, in := range []string{`[]`, `"x"`, `{`, `12`} {
		if _, err := DecodePhoneSettings([]byte(in)); err == nil {
			t.Errorf("%s accepted", in)
		}
	}
	var zero PhoneSettings
	if b, _ := json.Marshal(zero); string(b) != "{}" {
		t.Errorf("zero value marshals to %s", b)
	}
}

func TestPhoneSettingsOptionsValidate(t *testing.T) {
	if err := (PhoneSettingsOptions{Types: PhoneSettingTypes}).Validate(); err != nil {
		t.Fatal(err)
	}
	if err := (PhoneSettingsOptions{}).Validate(); err != nil {
		t.Fatal(err)
	}
	err := PhoneSettingsOptions{Types: []string{"call_park", "callpark", "", "online_fax", "xyz"}}.Validate()
	var v *ValidationError
	if !errors.As(err, &v) || len(v.Problems) != 4 {
		t.Fatalf("got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{`"callpark" is not a phone setting type (did you mean "call_park"?)`, "setting_types[2]: is empty",
		`"online_fax" is not a phone setting type`, `"xyz" is not a phone setting type; see`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}
	if got := ParsePhoneSettingTypes(" sms, ,call_park,"); strings.Join(got, "|") != "sms|call_park" {
		t.Errorf("parse %v", got)
	}
	if q := (PhoneSettingsOptions{Types: []string{"sms", "sms", "voicemail"}}).query(); q.Get("setting_types") != "sms,voicemail" {
		t.Errorf("query %v", q)
	}
	if len(PhoneSettingTypes) != 43 {
		t.Errorf("%d setting types", len(PhoneSettingTypes))
	}
}

func TestPhoneCodeMeanings(t *testing.T) {
	cases := []struct {
		field string
		value int
		want  string
	}{
		{FieldCallForwardingType, 2, "medium restriction, external numbers and external contacts not allowed"},
		{FieldCallOverflowType, 4, "no restriction"},
		{FieldCallTransferringType, 1, "no restriction"},
		{FieldCallTransferringType, 4, "low restriction"},
		{FieldBlockCallAction, 9, "disconnect"},
		{FieldCallNotPickedUpAction, 100, "ring back the parker"},
		{FieldParkExpirationPeriod, 10, "10 minutes"},
		{FieldParkExpirationPeriod, 1, "1 minute"},
		{FieldDeleteType, 2, "permanent delete, deleted data cannot be recovered"},
		{FieldBeepTimeInterval, 120, "120 seconds"},
		{FieldBeepVolume, 60, "60%"},
		{FieldEtiquetteAction, 2, "block the message"},
	}
	for _, c := range cases {
		got, ok := PhoneCodeMeaning(c.field, c.value)
		if !ok || got.Text() != c.want {
			t.Errorf("%s=%d: %q (%v), want %q", c.field, c.value, got.Text(), ok, c.want)
		}
	}
	if _, ok := PhoneCodeMeaning(FieldParkExpirationPeriod, 11); ok {
		t.Error("11 minutes is not an allowed expiry")
	}
	if got, ok := PhoneCodeMeaning(FieldCallNotPickedUpAction, 7); ok || got.Label != "unknown value 7" {
		t.Errorf("unknown: %+v", got)
	}
	for _, f := range PhoneCodeFields() {
		if len(PhoneCodeValues(f)) == 0 {
			t.Errorf("%s has no values", f)
		}
	}
	for _, c := range []struct {
		d    int
		unit string
		want string
		ok   bool
	}{{2, "year", "2 years", true}, {-1, "month", "kept without limit", true}, {61, "day", "61 days", false},
		{18, "month", "18 months", true}, {11, "year", "11 years", false}, {1, "week", "1 week", false}} {
		if got, ok := RetentionText(c.d, c.unit); got != c.want || ok != c.ok {
			t.Errorf("%d %s: %q %v", c.d, c.unit, got, ok)
		}
	}
	if w, ok := PhoneWord("extension_type", "callQueue"); !ok || w != "call queue" {
		t.Errorf("word %q", w)
	}
	if PermanentDeleteText(-1) != "soft-deleted data is kept indefinitely" || PermanentDeleteText(30) != "soft-deleted data is removed for good after 30 days" {
		t.Error("permanent delete text")
	}
}

// FuzzPhoneSettingsDecode: no input panics the decoder or its accessors, and
// whatever decodes marshals back to JSON that decodes to the same keys.
func FuzzPhoneSettingsDecode(f *testing.F) {
	f.Add([]byte(oddSettings))
	f.Add([]byte(`{}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"call_park":{"forward_to":{"extension_number":1e99}}}`))
	f.Add([]byte(`{"auto_delete_data_after_retention_duration":{"items":[{"duration":-1,"time_unit":"year"},null]}}`))
	f.Add([]byte(`{"sms_etiquette_tool":{"sms_etiquette_policy":[{"rule":"1"}]},"":{}}`))
	f.Add([]byte(`{"auto_call_recording":{"play_recording_beep_tone":{"enable":true,"play_beep_volume":60},"inbound_audio_notification":{}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s PhoneSettings
		if err := json.Unmarshal(data, &s); err != nil {
			return
		}
		for _, k := range s.Keys() {
			_, _ = s.Raw(k)
			c, _ := s.Common(k)
			_, _ = c.On(), c.IsLocked()
			_ = s.Typed(k)
			_ = s.DecodeError(k)
			_ = s.Fields(k)
			_ = KindOfPhoneSetting(k)
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		var again PhoneSettings
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("re-decode %s: %v", out, err)
		}
		if strings.Join(again.Keys(), ",") != strings.Join(s.Keys(), ",") {
			t.Fatalf("keys changed: %v -> %v", s.Keys(), again.Keys())
		}
	})
}
