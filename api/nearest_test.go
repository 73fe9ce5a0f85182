package api

import (
	"reflect"
	"testing"
)

func TestNearestName(t *testing.T) {
	known := []string{"call_park.expiration_period", "call_park.enable", "voicemail.enable", "sms_etiquette_tool"}
	for in, want := range map[string]string{
		"voicemail.enabel":             "voicemail.enable",
		"Voicemail.Enable":             "voicemail.enable",
		"call_park.expiry_period":      "call_park.expiration_period",
		"etiquette":                    "sms_etiquette_tool",
		"enable":                       "", // in two names: no guess
		"international_calling.locked": "",
	} {
		if got := NearestName(in, known); got != want {
			t.Errorf("NearestName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNewPhoneSettingValueGivesEachKeysType(t *testing.T) {
	if v, ok := NewPhoneSettingValue("call_park").(*CallPark); !ok || v == nil {
		t.Errorf("call_park: %T", NewPhoneSettingValue("call_park"))
	}
	if _, ok := NewPhoneSettingValue("peer_to_peer_media").(*PhoneSettingCommon); !ok {
		t.Errorf("unshown setting: %T", NewPhoneSettingValue("peer_to_peer_media"))
	}
	if v := NewPhoneSettingValue("online_fax"); v != nil {
		t.Errorf("unknown key: %T", v)
	}
	for _, k := range PhoneSettingTypes {
		v := NewPhoneSettingValue(k)
		if v == nil || reflect.TypeOf(v).Kind() != reflect.Pointer || reflect.TypeOf(v).Elem().Kind() != reflect.Struct {
			t.Errorf("%s: %T", k, v)
		}
	}
}
