package api

import (
	"fmt"
	"slices"
	"strconv"
)

// This file is the one place that says what the phone settings' integer
// codes and enum words mean (phone spec 2.2-2.7). Views, the CLI and the
// simulator's tests all read these tables.

// PhoneCode is the meaning of one value of a coded field: a short label
// ("medium restriction") and, where the spec gives one, what it allows or
// forbids.
type PhoneCode struct {
	Value  int
	Label  string
	Detail string
}

// Text is the label with its detail: "medium restriction, external numbers
// and external contacts not allowed".
func (c PhoneCode) Text() string {
	if c.Detail == "" {
		return c.Label
	}
	return c.Label + ", " + c.Detail
}

// Coded fields. Forwarding and overflow share one scale; transferring has
// its own, numbered differently.
const (
	FieldCallForwardingType    = "call_forwarding_type"
	FieldCallOverflowType      = "call_overflow_type"
	FieldCallTransferringType  = "call_transferring_type"
	FieldBlockCallAction       = "block_call_action"
	FieldCallNotPickedUpAction = "call_not_picked_up_action"
	FieldParkExpirationPeriod  = "expiration_period"
	FieldParkSequence          = "sequence"
	FieldDeleteType            = "delete_type"
	FieldBeepVolume            = "play_beep_volume"
	FieldBeepTimeInterval      = "play_beep_time_interval"
	FieldEtiquetteRule         = "rule"
	FieldEtiquetteAction       = "action"
)

// Values of call_not_picked_up_action.
const (
	ParkActionVoicemail      = 0
	ParkActionDisconnect     = 9
	ParkActionForward        = 50
	ParkActionRingBackParker = 100
)

var forwardingScale = []PhoneCode{
	{1, "low restriction", "external numbers not allowed"},
	{2, "medium restriction", "external numbers and external contacts not allowed"},
	{3, "high restriction", "external numbers, external contacts and internal extensions without inbound automatic call recording not allowed"},
	{4, "no restriction", ""},
}

var phoneCodes = map[string][]PhoneCode{
	FieldCallForwardingType: forwardingScale,
	FieldCallOverflowType:   forwardingScale,
	FieldCallTransferringType: {
		{1, "no restriction", ""},
		{2, "medium restriction", ""},
		{3, "high restriction", "external numbers, unrecorded external contacts and internal extensions without inbound automatic recording not allowed"},
		{4, "low restriction", ""},
	},
	FieldBlockCallAction: {
		{0, "forward to voicemail or videomail", ""},
		{9, "disconnect", ""},
	},
	FieldCallNotPickedUpAction: {
		{ParkActionVoicemail, "forward to the parker's voicemail", ""},
		{ParkActionDisconnect, "disconnect", ""},
		{ParkActionForward, "forward to another extension", ""},
		{ParkActionRingBackParker, "ring back the parker", ""},
	},
	FieldParkExpirationPeriod: minutes(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60),
	FieldParkSequence: {
		{0, "random", "retrieval codes are assigned at random"},
		{1, "sequential", "retrieval codes are assigned in order to a busy-lamp key"},
	},
	FieldDeleteType: {
		{1, "soft delete", "deleted data can be recovered for a while"},
		{2, "permanent delete", "deleted data cannot be recovered"},
	},
	FieldBeepVolume:       percents(0, 20, 40, 60, 80, 100),
	FieldBeepTimeInterval: seconds(5, 10, 15, 20, 25, 30, 60, 120),
	FieldEtiquetteRule: {
		{1, "keywords", "comma-separated words of A-Z, a-z and 0-9"},
		{2, "regular expression", "no back references or zero-width assertions"},
	},
	FieldEtiquetteAction: {
		{1, "ask the user to confirm sending", ""},
		{2, "block the message", ""},
	},
}

func minutes(vs ...int) []PhoneCode {
	out := make([]PhoneCode, len(vs))
	for i, v := range vs {
		out[i] = PhoneCode{Value: v, Label: plural(v, "minute")}
	}
	return out
}

func seconds(vs ...int) []PhoneCode {
	out := make([]PhoneCode, len(vs))
	for i, v := range vs {
		out[i] = PhoneCode{Value: v, Label: plural(v, "second")}
	}
	return out
}

func percents(vs ...int) []PhoneCode {
	out := make([]PhoneCode, len(vs))
	for i, v := range vs {
		out[i] = PhoneCode{Value: v, Label: strconv.Itoa(v) + "%"}
	}
	return out
}

func plural(n int, unit string) string {
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, unit)
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// PhoneCodeMeaning returns what value means in field; ok is false for a
// value the spec does not list (show it as a number then).
func PhoneCodeMeaning(field string, value int) (PhoneCode, bool) {
	for _, c := range phoneCodes[field] {
		if c.Value == value {
			return c, true
		}
	}
	return PhoneCode{Value: value, Label: fmt.Sprintf("unknown value %d", value)}, false
}

// PhoneCodeValues lists the values a coded field allows, in order.
func PhoneCodeValues(field string) []PhoneCode { return slices.Clone(phoneCodes[field]) }

// PhoneCodeFields lists every coded field.
func PhoneCodeFields() []string {
	out := make([]string, 0, len(phoneCodes))
	for f := range phoneCodes {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}

// Enum words of string fields, with their meaning in plain words.
var phoneWords = map[string]map[string]string{
	"recording_calls":  {"inbound": "inbound calls", "outbound": "outbound calls", "both": "inbound and outbound calls"},
	"play_beep_member": {"allMembers": "everyone on the call", "recordingUser": "the user who records"},
	"time_unit":        {"year": "year", "month": "month", "day": "day"},
	"type": {
		"callLog": "call logs", "callSummary": "call summaries", "pushToTalkLog": "push-to-talk logs",
		"onDemandRecording": "on-demand recordings", "automaticRecording": "automatic recordings",
		"voicemail": "voicemail", "videomail": "videomail", "sms": "SMS", "fax": "faxes",
	},
	"extension_type": {
		"user": "user", "vendorRoom": "room", "commonArea": "common area phone", "thirdPartyRoom": "third-party room",
		"ciscoRoom/polycomRoom": "third-party room", "autoReceptionist": "auto receptionist",
		"callQueue": "call queue", "sharedLineGroup": "shared line group",
	},
	"locked_by": {LockedByAccount: "the account administrator", LockedByInvalid: "no one"},
}

// PhoneWord returns the plain-words meaning of an enum value of field
// ("recording_calls", "play_beep_member", "time_unit", "type" of a
// retention item, "extension_type", "locked_by"); unknown values come back
// as they are, with ok false.
//
// The provider's own rooms carry its name (vendorRoom): any path word in
// that place reads as a room.
func PhoneWord(field, value string) (string, bool) {
	if w, ok := phoneWords[field][value]; ok {
		return w, true
	}
	if field == "extension_type" && roomExtensionType(value) {
		return phoneWords[field][PhoneExtensionRoom(DefaultPathWord)], true
	}
	return value, false
}

// retentionLimits are the durations each time unit allows (-1: unlimited).
var retentionLimits = map[string]int{"year": 10, "month": 18, "day": 60}

// RetentionText says how long data is kept: "2 years", "kept without limit";
// ok is false when the duration or unit is outside the spec's ranges.
func RetentionText(duration int, unit string) (string, bool) {
	if duration == -1 {
		_, known := retentionLimits[unit]
		return "kept without limit", known
	}
	limit, known := retentionLimits[unit]
	return plural(duration, unit), known && duration >= 1 && duration <= limit
}

// PermanentDeleteText says when soft-deleted data is removed for good.
func PermanentDeleteText(days int) string {
	if days == -1 {
		return "soft-deleted data is kept indefinitely"
	}
	return "soft-deleted data is removed for good after " + plural(days, "day")
}
