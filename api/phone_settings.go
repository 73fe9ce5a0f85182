package api

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// PhoneSettingTypes are the 43 setting keys the endpoint accepts in
// setting_types, in the spec's order (phone spec section 4).
var PhoneSettingTypes = []string{
	"call_live_transcription", "local_survivability_mode", "external_calling_on_vendor_room_common_area",
	"select_outbound_caller_id", "personal_audio_library", "voicemail", "voicemail_transcription",
	"voicemail_notification_by_email", "shared_voicemail_notification_by_email", "restricted_call_hours",
	"allowed_call_locations", "check_voicemails_over_phone", "auto_call_recording", "ad_hoc_call_recording",
	"international_calling", "outbound_calling", "outbound_sms", "sms", "sms_etiquette_tool",
	"vendor_phone_on_mobile", "vendor_phone_on_pwa", "e2e_encryption", "call_handling_forwarding_to_other_users",
	"call_overflow", "call_transferring", "elevate_to_meeting", "call_park", "hand_off_to_room",
	"mobile_switch_to_carrier", "delegation", "audio_intercom", "block_calls_without_caller_id",
	"block_external_calls", "call_queue_opt_out_reason", "auto_delete_data_after_retention_duration",
	"auto_call_from_third_party_apps", "override_default_port", "peer_to_peer_media", "advanced_encryption",
	"display_call_feedback_survey", "block_list_for_inbound_calls_and_messaging", "block_calls_as_threat",
	"manage_call_routing_for_unassigned_numbers",
}

// unshownPhoneSettings are the keys whose fields the spec does not show;
// they are kept raw (their common fields are still read).
var unshownPhoneSettings = []string{
	"override_default_port", "peer_to_peer_media", "advanced_encryption", "display_call_feedback_survey",
	"block_list_for_inbound_calls_and_messaging", "block_calls_as_threat",
	"manage_call_routing_for_unassigned_numbers",
}

// PhoneSettingKind says how much this client knows about a setting key.
type PhoneSettingKind int

const (
	// PhoneSettingTyped: the spec shows its fields; Typed returns a struct.
	PhoneSettingTyped PhoneSettingKind = iota
	// PhoneSettingUnshown: one of the 43 keys, fields not shown; kept raw.
	PhoneSettingUnshown
	// PhoneSettingUnknown: not one of the 43 keys; kept raw.
	PhoneSettingUnknown
)

// IsPhoneSettingType reports whether key is one of the 43 setting keys, the
// three that carry the provider's name spelt with any path word.
func IsPhoneSettingType(key string) bool { return isPhoneSettingTypeFor("", key) }

// KindOfPhoneSetting classifies a key.
func KindOfPhoneSetting(key string) PhoneSettingKind {
	key = NeutralPhoneSettingKey(key)
	switch {
	case slices.Contains(unshownPhoneSettings, key):
		return PhoneSettingUnshown
	case IsPhoneSettingType(key):
		return PhoneSettingTyped
	}
	return PhoneSettingUnknown
}

// NewPhoneSettingValue returns a pointer to a zero value of the type a
// setting decodes into: the typed struct for a key of known shape (*CallPark
// for "call_park"), *PhoneSettingCommon for a key whose fields the spec does
// not show, nil for a key that is not one of the 43. Tools that need a
// setting's fields (a baseline naming call_park.expiration_period) read them
// from this type.
func NewPhoneSettingValue(key string) any {
	switch KindOfPhoneSetting(key) {
	case PhoneSettingUnknown:
		return nil
	case PhoneSettingUnshown:
		return &PhoneSettingCommon{}
	}
	var p PhoneSettings
	v, _ := p.decoders()[NeutralPhoneSettingKey(key)](json.RawMessage("{}")) // an empty object always decodes
	return v
}

// Lock levels of locked_by (phone spec 2.1).
const (
	LockedByInvalid = "invalid"
	LockedByAccount = "account"
)

// PhoneSettingCommon is what every setting carries (phone spec 2.1).
// Pointers tell a missing field from false.
type PhoneSettingCommon struct {
	Enable   *bool  `json:"enable,omitempty"`
	Locked   *bool  `json:"locked,omitempty"`
	LockedBy string `json:"locked_by,omitempty"`
}

// On reports whether the setting is enabled.
func (c PhoneSettingCommon) On() bool { return c.Enable != nil && *c.Enable }

// IsLocked reports whether users are prevented from changing it.
func (c PhoneSettingCommon) IsLocked() bool { return c.Locked != nil && *c.Locked }

// PhoneAudio is an audio prompt reference.
type PhoneAudio struct {
	Enable    *bool  `json:"enable,omitempty"`
	AudioID   string `json:"audio_id,omitempty"`
	AudioName string `json:"audio_name,omitempty"`
}

// RemovedAudioPrefix marks an audio id whose audio was removed from the
// library.
const RemovedAudioPrefix = "removed_"

// Removed reports whether the prompt's audio was removed from the library.
func (a PhoneAudio) Removed() bool { return strings.HasPrefix(a.AudioID, RemovedAudioPrefix) }

// CallLiveTranscription is call_live_transcription.
type CallLiveTranscription struct {
	PhoneSettingCommon
	TranscriptionStartPrompt *PhoneAudio `json:"transcription_start_prompt,omitempty"`
}

// SelectOutboundCallerID is select_outbound_caller_id.
type SelectOutboundCallerID struct {
	PhoneSettingCommon
	AllowHideOutboundCallerID *bool `json:"allow_hide_outbound_caller_id,omitempty"`
}

// PersonalAudioLibrary is personal_audio_library.
type PersonalAudioLibrary struct {
	PhoneSettingCommon
	AllowMusicOnHoldCustomization                 *bool `json:"allow_music_on_hold_customization,omitempty"`
	AllowVoicemailAndMessageGreetingCustomization *bool `json:"allow_voicemail_and_message_greeting_customization,omitempty"`
}

// VoicemailSetting is voicemail.
type VoicemailSetting struct {
	PhoneSettingCommon
	AllowVideomail         *bool `json:"allow_videomail,omitempty"`
	AllowDownload          *bool `json:"allow_download,omitempty"`
	AllowDelete            *bool `json:"allow_delete,omitempty"`
	AllowShare             *bool `json:"allow_share,omitempty"`
	AllowVirtualBackground *bool `json:"allow_virtual_background,omitempty"`
}

// VoicemailNotificationByEmail is voicemail_notification_by_email.
type VoicemailNotificationByEmail struct {
	PhoneSettingCommon
	IncludeVoicemailFile          *bool `json:"include_voicemail_file,omitempty"`
	IncludeVoicemailTranscription *bool `json:"include_voicemail_transcription,omitempty"`
	ForwardVoicemailToEmail       *bool `json:"forward_voicemail_to_email,omitempty"`
}

// PhoneTimeZone is a time zone reference; an empty ID with the name
// SetByExtension means each extension uses its own.
type PhoneTimeZone struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
}

// SetByExtension is the time zone name used when the id is empty.
const SetByExtension = "setByExtension"

// RestrictedCallHours is restricted_call_hours.
type RestrictedCallHours struct {
	PhoneSettingCommon
	TimeZone                      *PhoneTimeZone `json:"time_zone,omitempty"`
	RestrictedHoursApplied        *bool          `json:"restricted_hours_applied,omitempty"`
	RestrictedHolidayHoursApplied *bool          `json:"restricted_holiday_hours_applied,omitempty"`
	AllowInternalCalls            *bool          `json:"allow_internal_calls,omitempty"`
}

// AllowedCallLocations is allowed_call_locations.
type AllowedCallLocations struct {
	PhoneSettingCommon
	LocationsApplied   *bool `json:"locations_applied,omitempty"`
	AllowInternalCalls *bool `json:"allow_internal_calls,omitempty"`
}

// BeepTone is play_recording_beep_tone (phone spec 2.4); the other fields
// are present only when Enable is true.
type BeepTone struct {
	Enable               *bool  `json:"enable,omitempty"`
	PlayBeepMember       string `json:"play_beep_member,omitempty"`
	PlayBeepVolume       *int   `json:"play_beep_volume,omitempty"`
	PlayBeepTimeInterval *int   `json:"play_beep_time_interval,omitempty"`
}

// AudioNotification is inbound_ or outbound_audio_notification.
type AudioNotification struct {
	RecordingStartPrompt        *bool  `json:"recording_start_prompt,omitempty"`
	RecordingStartPromptAudioID string `json:"recording_start_prompt_audio_id,omitempty"`
	RecordingExplicitConsent    *bool  `json:"recording_explicit_consent,omitempty"`
}

// AutoCallRecording is auto_call_recording (phone spec 2.3). The three
// top-level prompt and consent fields are deprecated: they mirror the
// inbound notification.
type AutoCallRecording struct {
	PhoneSettingCommon
	RecordingCalls               string             `json:"recording_calls,omitempty"`
	RecordingTranscription       *bool              `json:"recording_transcription,omitempty"`
	RecordingStartPrompt         *bool              `json:"recording_start_prompt,omitempty"`
	RecordingStartPromptAudioID  string             `json:"recording_start_prompt_audio_id,omitempty"`
	RecordingExplicitConsent     *bool              `json:"recording_explicit_consent,omitempty"`
	AllowStopResumeRecording     *bool              `json:"allow_stop_resume_recording,omitempty"`
	DisconnectOnRecordingFailure *bool              `json:"disconnect_on_recording_failure,omitempty"`
	PlayRecordingBeepTone        *BeepTone          `json:"play_recording_beep_tone,omitempty"`
	InboundAudioNotification     *AudioNotification `json:"inbound_audio_notification,omitempty"`
	OutboundAudioNotification    *AudioNotification `json:"outbound_audio_notification,omitempty"`
}

// AdHocCallRecording is ad_hoc_call_recording.
type AdHocCallRecording struct {
	PhoneSettingCommon
	RecordingTranscription   *bool     `json:"recording_transcription,omitempty"`
	AllowDownload            *bool     `json:"allow_download,omitempty"`
	AllowDelete              *bool     `json:"allow_delete,omitempty"`
	RecordingStartPrompt     *bool     `json:"recording_start_prompt,omitempty"`
	RecordingExplicitConsent *bool     `json:"recording_explicit_consent,omitempty"`
	PlayRecordingBeepTone    *BeepTone `json:"play_recording_beep_tone,omitempty"`
}

// SMSSetting is sms.
type SMSSetting struct {
	PhoneSettingCommon
	InternationalSMS *bool `json:"international_sms,omitempty"`
}

// SMSEtiquetteRule is one sms_etiquette_policy item (phone spec 2.5).
type SMSEtiquetteRule struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty" text:"multiline"`
	Rule        *int   `json:"rule,omitempty"`
	Content     string `json:"content,omitempty"`
	Action      *int   `json:"action,omitempty"`
	Active      *bool  `json:"active,omitempty"`
}

// SMSEtiquetteTool is sms_etiquette_tool (at most 50 rules).
type SMSEtiquetteTool struct {
	PhoneSettingCommon
	SMSEtiquettePolicy []SMSEtiquetteRule `json:"sms_etiquette_policy,omitempty"`
}

// PhoneOnMobile is vendor_phone_on_mobile (spelt with the path word).
type PhoneOnMobile struct {
	PhoneSettingCommon
	AllowCallingSMSMMS *bool `json:"allow_calling_sms_mms,omitempty"`
}

// CallForwarding is call_handling_forwarding_to_other_users.
type CallForwarding struct {
	PhoneSettingCommon
	CallForwardingType *int `json:"call_forwarding_type,omitempty"`
}

// CallOverflow is call_overflow.
type CallOverflow struct {
	PhoneSettingCommon
	CallOverflowType *int `json:"call_overflow_type,omitempty"`
}

// CallTransferring is call_transferring.
type CallTransferring struct {
	PhoneSettingCommon
	CallTransferringType *int `json:"call_transferring_type,omitempty"`
}

// ParkForwardTo is call_park.forward_to.
type ParkForwardTo struct {
	DisplayName     string `json:"display_name,omitempty"`
	ExtensionID     string `json:"extension_id,omitempty"`
	ExtensionNumber *int64 `json:"extension_number,omitempty"`
	ExtensionType   string `json:"extension_type,omitempty"`
	ID              string `json:"id,omitempty"`
}

// CallPark is call_park (phone spec 2.6).
type CallPark struct {
	PhoneSettingCommon
	ExpirationPeriod      *int           `json:"expiration_period,omitempty"`
	CallNotPickedUpAction *int           `json:"call_not_picked_up_action,omitempty"`
	ForwardTo             *ParkForwardTo `json:"forward_to,omitempty"`
	Sequence              *int           `json:"sequence,omitempty"`
}

// BlockExternalCalls is block_external_calls.
type BlockExternalCalls struct {
	PhoneSettingCommon
	BlockBusinessHours *bool `json:"block_business_hours,omitempty"`
	BlockClosedHours   *bool `json:"block_closed_hours,omitempty"`
	BlockHolidayHours  *bool `json:"block_holiday_hours,omitempty"`
	BlockCallAction    *int  `json:"block_call_action,omitempty"`
}

// OptOutReason is one call queue opt-out reason.
type OptOutReason struct {
	Code string `json:"code,omitempty"`
	// System marks a default reason that cannot be edited.
	System *bool `json:"system,omitempty"`
	Enable *bool `json:"enable,omitempty"`
}

// CallQueueOptOutReason is call_queue_opt_out_reason (at most 30 reasons).
type CallQueueOptOutReason struct {
	PhoneSettingCommon
	Reasons []OptOutReason `json:"call_queue_opt_out_reasons_list,omitempty"`
}

// RetentionItem is one kind of data and how long it is kept.
type RetentionItem struct {
	Type     string `json:"type,omitempty"`
	Duration *int   `json:"duration,omitempty"`
	TimeUnit string `json:"time_unit,omitempty"`
}

// AutoDeleteData is auto_delete_data_after_retention_duration (phone spec 2.7).
type AutoDeleteData struct {
	PhoneSettingCommon
	Items                      []RetentionItem `json:"items,omitempty"`
	DeleteType                 *int            `json:"delete_type,omitempty"`
	PermanentlyDeleteAfterDays *int            `json:"permanently_delete_after_days,omitempty"`
}

// PhoneSettings is the answer of GET /phone/account_settings: one entry per
// setting key. Every entry is kept as received (Raw) and marshals back
// unchanged, including settings whose shape the spec does not show and keys
// this client does not know; settings of known shape are also decoded into
// the typed fields below. The typed fields are views of the raw data: to
// change what is marshalled, build a new value with DecodePhoneSettings.
type PhoneSettings struct {
	CallLiveTranscription                *CallLiveTranscription        `json:"-"`
	LocalSurvivabilityMode               *PhoneSettingCommon           `json:"-"`
	ExternalCallingOnRoomCommonArea      *PhoneSettingCommon           `json:"-"`
	SelectOutboundCallerID               *SelectOutboundCallerID       `json:"-"`
	PersonalAudioLibrary                 *PersonalAudioLibrary         `json:"-"`
	Voicemail                            *VoicemailSetting             `json:"-"`
	VoicemailTranscription               *PhoneSettingCommon           `json:"-"`
	VoicemailNotificationByEmail         *VoicemailNotificationByEmail `json:"-"`
	SharedVoicemailNotificationByEmail   *PhoneSettingCommon           `json:"-"`
	RestrictedCallHours                  *RestrictedCallHours          `json:"-"`
	AllowedCallLocations                 *AllowedCallLocations         `json:"-"`
	CheckVoicemailsOverPhone             *PhoneSettingCommon           `json:"-"`
	AutoCallRecording                    *AutoCallRecording            `json:"-"`
	AdHocCallRecording                   *AdHocCallRecording           `json:"-"`
	InternationalCalling                 *PhoneSettingCommon           `json:"-"`
	OutboundCalling                      *PhoneSettingCommon           `json:"-"`
	OutboundSMS                          *PhoneSettingCommon           `json:"-"`
	SMS                                  *SMSSetting                   `json:"-"`
	SMSEtiquetteTool                     *SMSEtiquetteTool             `json:"-"`
	PhoneOnMobile                        *PhoneOnMobile                `json:"-"`
	PhoneOnPWA                           *PhoneSettingCommon           `json:"-"`
	E2EEncryption                        *PhoneSettingCommon           `json:"-"`
	CallForwarding                       *CallForwarding               `json:"-"`
	CallOverflow                         *CallOverflow                 `json:"-"`
	CallTransferring                     *CallTransferring             `json:"-"`
	ElevateToMeeting                     *PhoneSettingCommon           `json:"-"`
	CallPark                             *CallPark                     `json:"-"`
	HandOffToRoom                        *PhoneSettingCommon           `json:"-"`
	MobileSwitchToCarrier                *PhoneSettingCommon           `json:"-"`
	Delegation                           *PhoneSettingCommon           `json:"-"`
	AudioIntercom                        *PhoneSettingCommon           `json:"-"`
	BlockCallsWithoutCallerID            *PhoneSettingCommon           `json:"-"`
	BlockExternalCalls                   *BlockExternalCalls           `json:"-"`
	CallQueueOptOutReason                *CallQueueOptOutReason        `json:"-"`
	AutoDeleteDataAfterRetentionDuration *AutoDeleteData               `json:"-"`
	AutoCallFromThirdPartyApps           *PhoneSettingCommon           `json:"-"`

	raw    map[string]json.RawMessage
	common map[string]PhoneSettingCommon
	typed  map[string]any
	errs   map[string]error
}

// decoders maps each typed key to the function that fills its field.
func (p *PhoneSettings) decoders() map[string]func(json.RawMessage) (any, error) {
	return map[string]func(json.RawMessage) (any, error){
		"call_live_transcription":                     func(r json.RawMessage) (any, error) { return decodeInto(&p.CallLiveTranscription, r) },
		"local_survivability_mode":                    func(r json.RawMessage) (any, error) { return decodeInto(&p.LocalSurvivabilityMode, r) },
		"external_calling_on_vendor_room_common_area": func(r json.RawMessage) (any, error) { return decodeInto(&p.ExternalCallingOnRoomCommonArea, r) },
		"select_outbound_caller_id":                   func(r json.RawMessage) (any, error) { return decodeInto(&p.SelectOutboundCallerID, r) },
		"personal_audio_library":                      func(r json.RawMessage) (any, error) { return decodeInto(&p.PersonalAudioLibrary, r) },
		"voicemail":                                   func(r json.RawMessage) (any, error) { return decodeInto(&p.Voicemail, r) },
		"voicemail_transcription":                     func(r json.RawMessage) (any, error) { return decodeInto(&p.VoicemailTranscription, r) },
		"voicemail_notification_by_email":             func(r json.RawMessage) (any, error) { return decodeInto(&p.VoicemailNotificationByEmail, r) },
		"shared_voicemail_notification_by_email":      func(r json.RawMessage) (any, error) { return decodeInto(&p.SharedVoicemailNotificationByEmail, r) },
		"restricted_call_hours":                       func(r json.RawMessage) (any, error) { return decodeInto(&p.RestrictedCallHours, r) },
		"allowed_call_locations":                      func(r json.RawMessage) (any, error) { return decodeInto(&p.AllowedCallLocations, r) },
		"check_voicemails_over_phone":                 func(r json.RawMessage) (any, error) { return decodeInto(&p.CheckVoicemailsOverPhone, r) },
		"auto_call_recording":                         func(r json.RawMessage) (any, error) { return decodeInto(&p.AutoCallRecording, r) },
		"ad_hoc_call_recording":                       func(r json.RawMessage) (any, error) { return decodeInto(&p.AdHocCallRecording, r) },
		"international_calling":                       func(r json.RawMessage) (any, error) { return decodeInto(&p.InternationalCalling, r) },
		"outbound_calling":                            func(r json.RawMessage) (any, error) { return decodeInto(&p.OutboundCalling, r) },
		"outbound_sms":                                func(r json.RawMessage) (any, error) { return decodeInto(&p.OutboundSMS, r) },
		"sms":                                         func(r json.RawMessage) (any, error) { return decodeInto(&p.SMS, r) },
		"sms_etiquette_tool":                          func(r json.RawMessage) (any, error) { return decodeInto(&p.SMSEtiquetteTool, r) },
		"vendor_phone_on_mobile":                      func(r json.RawMessage) (any, error) { return decodeInto(&p.PhoneOnMobile, r) },
		"vendor_phone_on_pwa":                         func(r json.RawMessage) (any, error) { return decodeInto(&p.PhoneOnPWA, r) },
		"e2e_encryption":                              func(r json.RawMessage) (any, error) { return decodeInto(&p.E2EEncryption, r) },
		"call_handling_forwarding_to_other_users":     func(r json.RawMessage) (any, error) { return decodeInto(&p.CallForwarding, r) },
		"call_overflow":                               func(r json.RawMessage) (any, error) { return decodeInto(&p.CallOverflow, r) },
		"call_transferring":                           func(r json.RawMessage) (any, error) { return decodeInto(&p.CallTransferring, r) },
		"elevate_to_meeting":                          func(r json.RawMessage) (any, error) { return decodeInto(&p.ElevateToMeeting, r) },
		"call_park":                                   func(r json.RawMessage) (any, error) { return decodeInto(&p.CallPark, r) },
		"hand_off_to_room":                            func(r json.RawMessage) (any, error) { return decodeInto(&p.HandOffToRoom, r) },
		"mobile_switch_to_carrier":                    func(r json.RawMessage) (any, error) { return decodeInto(&p.MobileSwitchToCarrier, r) },
		"delegation":                                  func(r json.RawMessage) (any, error) { return decodeInto(&p.Delegation, r) },
		"audio_intercom":                              func(r json.RawMessage) (any, error) { return decodeInto(&p.AudioIntercom, r) },
		"block_calls_without_caller_id":               func(r json.RawMessage) (any, error) { return decodeInto(&p.BlockCallsWithoutCallerID, r) },
		"block_external_calls":                        func(r json.RawMessage) (any, error) { return decodeInto(&p.BlockExternalCalls, r) },
		"call_queue_opt_out_reason":                   func(r json.RawMessage) (any, error) { return decodeInto(&p.CallQueueOptOutReason, r) },
		"auto_delete_data_after_retention_duration":   func(r json.RawMessage) (any, error) { return decodeInto(&p.AutoDeleteDataAfterRetentionDuration, r) },
		"auto_call_from_third_party_apps":             func(r json.RawMessage) (any, error) { return decodeInto(&p.AutoCallFromThirdPartyApps, r) },
	}
}

// decodeInto decodes r into a fresh T and stores it in *dst; on failure *dst
// stays nil, so a malformed setting never shows half-decoded values.
func decodeInto[T any](dst **T, r json.RawMessage) (any, error) {
	*dst = nil
	var v T
	if err := json.Unmarshal(r, &v); err != nil {
		return nil, err
	}
	*dst = &v
	return &v, nil
}

// DecodePhoneSettings decodes an answer of the endpoint (or a saved copy).
func DecodePhoneSettings(data []byte) (*PhoneSettings, error) {
	var p PhoneSettings
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// UnmarshalJSON keeps every entry raw, then decodes each one's common fields
// and, for keys of known shape, its typed struct. A setting that does not
// decode does not fail the whole answer: DecodeError reports it and its raw
// JSON stays available.
func (p *PhoneSettings) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("phone settings: %w", err)
	}
	*p = PhoneSettings{raw: map[string]json.RawMessage{}, common: map[string]PhoneSettingCommon{},
		typed: map[string]any{}, errs: map[string]error{}}
	decoders := p.decoders()
	for k, v := range raw {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			p.raw[k] = json.RawMessage("null")
			continue
		}
		p.raw[k] = append(json.RawMessage(nil), v...)
		var c PhoneSettingCommon
		if err := json.Unmarshal(v, &c); err != nil {
			p.errs[k] = err
			continue
		}
		p.common[k] = c
		if dec := decoders[NeutralPhoneSettingKey(k)]; dec != nil {
			t, err := dec(v)
			if err != nil {
				p.errs[k] = err
				continue
			}
			p.typed[k] = t
		}
	}
	return nil
}

// filterStrings rewrites the strings of every setting (see WithStringFilter)
// and decodes the settings again from the result.
func (p *PhoneSettings) filterStrings(f StringFilter) {
	raw := make(map[string]json.RawMessage, len(p.raw))
	for k, v := range p.raw {
		raw[f(k, false)] = filterRaw(v, f)
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return
	}
	_ = p.UnmarshalJSON(data)
}

// MarshalJSON writes every entry exactly as received (keys sorted).
func (p PhoneSettings) MarshalJSON() ([]byte, error) {
	if p.raw == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(p.raw)
}

// Len is the number of settings in the answer.
func (p *PhoneSettings) Len() int { return len(p.raw) }

// Has reports whether the answer carries key.
func (p *PhoneSettings) Has(key string) bool { _, ok := p.raw[key]; return ok }

// Keys lists the answer's keys: the known ones in the spec's order (the
// three that carry the provider's name, spelt as the server does), then any
// others sorted.
func (p *PhoneSettings) Keys() []string {
	var known, other []string
	for k := range p.raw {
		if IsPhoneSettingType(k) {
			known = append(known, k)
		} else {
			other = append(other, k)
		}
	}
	order := func(k string) int { return slices.Index(PhoneSettingTypes, NeutralPhoneSettingKey(k)) }
	slices.SortFunc(known, func(a, b string) int { return cmp.Or(cmp.Compare(order(a), order(b)), strings.Compare(a, b)) })
	sort.Strings(other)
	return append(known, other...)
}

// Raw returns a setting's JSON as received.
func (p *PhoneSettings) Raw(key string) (json.RawMessage, bool) {
	r, ok := p.raw[key]
	return r, ok
}

// Common returns a setting's enable and lock fields; ok is false when the
// key is absent or its value is not an object.
func (p *PhoneSettings) Common(key string) (PhoneSettingCommon, bool) {
	c, ok := p.common[key]
	return c, ok
}

// Typed returns the decoded struct of a setting of known shape (for
// example *CallPark for "call_park"), or nil.
func (p *PhoneSettings) Typed(key string) any { return p.typed[key] }

// DecodeError reports why a present setting could not be decoded, or nil.
func (p *PhoneSettings) DecodeError(key string) error { return p.errs[key] }

// Fields lists a setting's raw fields beyond enable, locked and locked_by,
// sorted; useful for settings kept raw.
func (p *PhoneSettings) Fields(key string) []string {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(p.raw[key], &obj); err != nil {
		return nil
	}
	var out []string
	for k := range obj {
		if k != "enable" && k != "locked" && k != "locked_by" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
