package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/evdesk/evdesk/api"
)

// The phone endpoint: GET /v2/phone/account_settings (phone spec 4). The
// policy is read-only, so it is built per request from the caller's
// account: the demo account has a realistic policy covering all 43 keys,
// the other host's account a variation of it, and the no-phone account none
// (403).

// Messages of the phone endpoint's errors. The 400 text is the provider's
// own; the 403's code and wording follow the same convention, since the spec
// shows none.
const (
	msgInvalidSettingTypes = "Setting type(s) supplied in query parameter setting_types is invalid."
	msgPhoneNotSetUp       = "Phone service has not been set up on this account. It needs a Business or Enterprise plan and a phone license."
)

// phoneSettingKeys are the 43 keys setting_types accepts (phone spec 4), in
// the spec's order, "%s" standing for the provider's name (the path word).
var phoneSettingKeys = []string{
	"call_live_transcription", "local_survivability_mode", "external_calling_on_%s_room_common_area",
	"select_outbound_caller_id", "personal_audio_library", "voicemail", "voicemail_transcription",
	"voicemail_notification_by_email", "shared_voicemail_notification_by_email", "restricted_call_hours",
	"allowed_call_locations", "check_voicemails_over_phone", "auto_call_recording", "ad_hoc_call_recording",
	"international_calling", "outbound_calling", "outbound_sms", "sms", "sms_etiquette_tool",
	"%s_phone_on_mobile", "%s_phone_on_pwa", "e2e_encryption", "call_handling_forwarding_to_other_users",
	"call_overflow", "call_transferring", "elevate_to_meeting", "call_park", "hand_off_to_room",
	"mobile_switch_to_carrier", "delegation", "audio_intercom", "block_calls_without_caller_id",
	"block_external_calls", "call_queue_opt_out_reason", "auto_delete_data_after_retention_duration",
	"auto_call_from_third_party_apps", "override_default_port", "peer_to_peer_media", "advanced_encryption",
	"display_call_feedback_survey", "block_list_for_inbound_calls_and_messaging", "block_calls_as_threat",
	"manage_call_routing_for_unassigned_numbers",
}

// phoneKeys lists the 43 keys with the simulator's word.
func (s *Sim) phoneKeys() []string {
	out := make([]string, len(phoneSettingKeys))
	for i, k := range phoneSettingKeys {
		out[i] = s.branded(k)
	}
	return out
}

// branded puts the simulator's word where a name carries the provider's.
func (s *Sim) branded(k string) string {
	if strings.Contains(k, "%s") {
		return fmt.Sprintf(k, s.word)
	}
	return k
}

// phoneExtras are settings of the provider's description beyond the spec's
// 43. A full answer (no setting_types) carries them, as the provider's does,
// so clients meet keys they do not know.
var phoneExtras = []string{"online_fax", "call_screening"}

func (s *Sim) phoneRoutes() {
	need := scope{classic: api.PhoneScope, granular: api.PhoneGranularScope}
	s.mux.HandleFunc("GET /v2/phone/account_settings", func(w http.ResponseWriter, r *http.Request) {
		p := principalFrom(r.Context())
		if !need.grantedTo(p) {
			writeError(w, &apiError{Status: http.StatusForbidden, Code: CodeMissingScope,
				Message: "Invalid access token, does not contain scopes: [" + strings.Join(need.names(), ", ") + "]"})
			return
		}
		policy := s.phonePolicyFor(p.user.AccountID)
		if policy == nil {
			writeError(w, &apiError{Status: http.StatusForbidden, Code: CodePhoneNotSetUp, Message: msgPhoneNotSetUp})
			return
		}
		keys, err := parseSettingTypes(r.URL.Query()["setting_types"], s.phoneKeys())
		if err != nil {
			writeErr(w, err)
			return
		}
		if keys == nil {
			keys = append(s.phoneKeys(), phoneExtras...)
		}
		writeOrderedJSON(w, keys, policy)
	})
}

// parseSettingTypes reads setting_types (comma-separated; the parameter may
// also repeat) against the known keys. nil means "not given".
func parseSettingTypes(values, known []string) ([]string, error) {
	var keys, bad []string
	for _, v := range values {
		for _, k := range strings.Split(v, ",") {
			k = strings.TrimSpace(k)
			switch {
			case k == "" || slices.Contains(keys, k):
			case !slices.Contains(known, k):
				bad = append(bad, k)
			default:
				keys = append(keys, k)
			}
		}
	}
	if len(bad) > 0 {
		quoted := make([]string, len(bad))
		for i, b := range bad {
			quoted[i] = fmt.Sprintf("%q", b)
		}
		return nil, &apiError{Status: http.StatusBadRequest, Code: api.CodeInvalidSettingTypes,
			Message: msgInvalidSettingTypes + " Not setting types: " + strings.Join(quoted, ", ") + "."}
	}
	return keys, nil
}

// writeOrderedJSON answers 200 with the policy's keys in the given order,
// so the answer reads in the spec's order.
func writeOrderedJSON(w http.ResponseWriter, keys []string, policy map[string]obj) {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, k := range keys {
		v, ok := policy[k]
		if !ok {
			continue
		}
		val, err := json.Marshal(v)
		if err != nil {
			writeErr(w, err)
			return
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteString("}\n")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b.Bytes())
}

// obj is a JSON object literal.
type obj = map[string]any

// phonePolicyFor returns an account's phone settings, or nil when the
// account has no phone service. The keys that carry the provider's name
// carry the simulator's word.
func (s *Sim) phonePolicyFor(accountID string) map[string]obj {
	var policy map[string]obj
	switch accountID {
	case DemoAccountID:
		policy = demoPhonePolicy()
	case OtherAccountID:
		policy = otherPhonePolicy()
	default:
		return nil
	}
	out := make(map[string]obj, len(policy))
	for k, v := range policy {
		out[s.branded(k)] = v
	}
	return out
}

// setting builds a setting with the common fields (locked_by is "account"
// when locked, "invalid" otherwise, as the provider answers) and extras.
func setting(enable, locked bool, extra obj) obj {
	o := obj{"enable": enable, "locked": locked, "locked_by": api.LockedByInvalid}
	if locked {
		o["locked_by"] = api.LockedByAccount
	}
	for k, v := range extra {
		o[k] = v
	}
	return o
}

// demoPhonePolicy is the demo account's policy: every one of the 43
// settings, a mix of on and off, locked and not, and realistic extra
// fields (one prompt whose audio was removed, three SMS etiquette rules,
// retention per kind of data).
func demoPhonePolicy() map[string]obj {
	notice := obj{"recording_start_prompt": true, "recording_start_prompt_audio_id": "aUd1oRecNotice01", "recording_explicit_consent": false}
	return map[string]obj{
		"call_live_transcription": setting(true, false, obj{"transcription_start_prompt": obj{
			"enable": true, "audio_id": api.RemovedAudioPrefix + "aUd1oTrNotice7", "audio_name": "Transcription notice (2025)"}}),
		"local_survivability_mode":                setting(true, true, nil),
		"external_calling_on_%s_room_common_area": setting(false, false, nil),
		"select_outbound_caller_id":               setting(true, false, obj{"allow_hide_outbound_caller_id": false}),
		"personal_audio_library": setting(true, false, obj{"allow_music_on_hold_customization": true,
			"allow_voicemail_and_message_greeting_customization": true}),
		"voicemail": setting(true, true, obj{"allow_videomail": true, "allow_download": true, "allow_delete": false,
			"allow_share": true, "allow_virtual_background": false}),
		"voicemail_transcription": setting(true, false, nil),
		"voicemail_notification_by_email": setting(true, false, obj{"include_voicemail_file": true,
			"include_voicemail_transcription": true, "forward_voicemail_to_email": false}),
		"shared_voicemail_notification_by_email": setting(false, false, nil),
		"restricted_call_hours": setting(true, true, obj{"time_zone": obj{"id": "Europe/Lisbon", "name": "Lisbon"},
			"restricted_hours_applied": true, "restricted_holiday_hours_applied": true, "allow_internal_calls": true}),
		"allowed_call_locations":      setting(false, false, obj{"locations_applied": false, "allow_internal_calls": true}),
		"check_voicemails_over_phone": setting(true, false, nil),
		"auto_call_recording": setting(true, true, obj{
			"recording_calls": "both", "recording_transcription": true,
			"recording_start_prompt": true, "recording_start_prompt_audio_id": "aUd1oRecNotice01", "recording_explicit_consent": false,
			"allow_stop_resume_recording": false, "disconnect_on_recording_failure": true,
			"play_recording_beep_tone":   obj{"enable": true, "play_beep_member": "allMembers", "play_beep_volume": 60, "play_beep_time_interval": 15},
			"inbound_audio_notification": notice, "outbound_audio_notification": notice,
		}),
		"ad_hoc_call_recording": setting(true, false, obj{"recording_transcription": true, "allow_download": true,
			"allow_delete": false, "recording_start_prompt": true, "recording_explicit_consent": true,
			"play_recording_beep_tone": obj{"enable": false}}),
		"international_calling": setting(false, true, nil),
		"outbound_calling":      setting(true, false, nil),
		"outbound_sms":          setting(true, false, nil),
		"sms":                   setting(true, false, obj{"international_sms": false}),
		"sms_etiquette_tool": setting(true, true, obj{"sms_etiquette_policy": []obj{
			{"id": "EtQ7rCardNumbers", "name": "Card numbers", "description": "Stops messages that carry a payment card number.",
				"rule": 2, "content": "([0-9][ -]?){13,16}", "action": 2, "active": true},
			{"id": "EtQ7rUrgentWords", "name": "Pressure words", "description": "Asks before sending words that rush the reader.",
				"rule": 1, "content": "urgent,asap,immediately", "action": 1, "active": true},
			{"id": "EtQ7rPasswords", "name": "Passwords", "description": "Asks before sending what looks like a password.",
				"rule": 1, "content": "password,passcode,PIN", "action": 1, "active": false},
		}}),
		"%s_phone_on_mobile":                      setting(true, false, obj{"allow_calling_sms_mms": true}),
		"%s_phone_on_pwa":                         setting(false, false, nil),
		"e2e_encryption":                          setting(false, false, nil),
		"call_handling_forwarding_to_other_users": setting(true, true, obj{"call_forwarding_type": 2}),
		"call_overflow":                           setting(true, false, obj{"call_overflow_type": 1}),
		"call_transferring":                       setting(true, false, obj{"call_transferring_type": 3}),
		"elevate_to_meeting":                      setting(true, false, nil),
		"call_park": setting(true, false, obj{"expiration_period": 10,
			"call_not_picked_up_action": api.ParkActionRingBackParker, "sequence": 0}),
		"hand_off_to_room":              setting(true, false, nil),
		"mobile_switch_to_carrier":      setting(false, false, nil),
		"delegation":                    setting(true, false, nil),
		"audio_intercom":                setting(false, true, nil),
		"block_calls_without_caller_id": setting(true, false, nil),
		"block_external_calls": setting(false, false, obj{"block_business_hours": false, "block_closed_hours": true,
			"block_holiday_hours": true, "block_call_action": 0}),
		"call_queue_opt_out_reason": setting(true, false, obj{"call_queue_opt_out_reasons_list": []obj{
			{"code": "Lunch break", "system": true, "enable": true},
			{"code": "In a meeting", "system": true, "enable": true},
			{"code": "Training", "system": false, "enable": true},
			{"code": "Desk setup", "system": false, "enable": false},
		}}),
		"auto_delete_data_after_retention_duration": setting(true, true, obj{
			"items": []obj{
				{"type": "callLog", "duration": 2, "time_unit": "year"},
				{"type": "callSummary", "duration": 1, "time_unit": "year"},
				{"type": "pushToTalkLog", "duration": 30, "time_unit": "day"},
				{"type": "onDemandRecording", "duration": 6, "time_unit": "month"},
				{"type": "automaticRecording", "duration": 1, "time_unit": "year"},
				{"type": "voicemail", "duration": 6, "time_unit": "month"},
				{"type": "videomail", "duration": 3, "time_unit": "month"},
				{"type": "sms", "duration": -1, "time_unit": "year"},
				{"type": "fax", "duration": 60, "time_unit": "day"},
			},
			"delete_type": 1, "permanently_delete_after_days": 30,
		}),
		"auto_call_from_third_party_apps": setting(true, false, nil),
		// Settings whose fields the spec does not show: fields from the
		// provider's description.
		"override_default_port": setting(false, false, obj{"min_port": 20000, "max_port": 20999}),
		"peer_to_peer_media":    setting(true, false, nil),
		"advanced_encryption":   setting(true, true, obj{"disable_incoming_unencrypted_voicemail": false}),
		"display_call_feedback_survey": setting(true, false, obj{"feedback_type": 1,
			"feedback_mos": obj{"enable": true, "min": "1", "max": "3.5"}, "feedback_duration": obj{"enable": false, "min": 0, "max": 30}}),
		"block_list_for_inbound_calls_and_messaging": setting(true, true, nil),
		"block_calls_as_threat":                      setting(true, false, nil),
		"manage_call_routing_for_unassigned_numbers": setting(true, false, obj{"incoming_call_action": "disconnect"}),
		// Beyond the spec's 43.
		"online_fax":     setting(true, false, obj{"enable_new_fax_email_notifications": true, "include_fax_as_attachment": true}),
		"call_screening": setting(false, false, obj{"exclude_user_company_contacts": true}),
	}
}

// otherPhonePolicy is the second host's account: the demo policy with a
// looser stance in a few places, so comparing the two shows drift.
func otherPhonePolicy() map[string]obj {
	p := demoPhonePolicy()
	p["voicemail"] = setting(false, false, obj{"allow_videomail": false, "allow_download": true, "allow_delete": true,
		"allow_share": false, "allow_virtual_background": false})
	p["international_calling"] = setting(true, false, nil)
	p["call_handling_forwarding_to_other_users"] = setting(true, false, obj{"call_forwarding_type": 4})
	p["call_park"] = setting(true, true, obj{"expiration_period": 5,
		"call_not_picked_up_action": api.ParkActionForward, "sequence": 1,
		"forward_to": obj{"display_name": "Front Desk", "extension_id": "eXt9FrontDesk01", "extension_number": 1000,
			"extension_type": "callQueue", "id": "eXt9FrontDesk01"}})
	p["e2e_encryption"] = setting(true, false, nil)
	p["auto_call_recording"] = setting(false, false, obj{"recording_calls": "inbound"})
	delete(p, "call_screening")
	return p
}
