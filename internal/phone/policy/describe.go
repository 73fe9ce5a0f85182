package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/words"
)

// Describe puts a setting's extra fields in words, one sentence or list
// item ("- ...") per line. The meanings of codes come from api's tables.
func Describe(s *api.PhoneSettings, key string) []string {
	if s == nil || !s.Has(key) {
		return nil
	}
	if err := s.DecodeError(key); err != nil {
		return []string{"This setting does not have the shape the spec describes (" + err.Error() + "); press J to see it as received."}
	}
	var d describer
	switch v := s.Typed(key).(type) {
	case *api.CallLiveTranscription:
		d.liveTranscription(v)
	case *api.SelectOutboundCallerID:
		d.may(v.AllowHideOutboundCallerID, "Users may hide their caller ID.", "Users may not hide their caller ID.")
	case *api.PersonalAudioLibrary:
		d.allowed("Users may customise", "Users may not customise",
			opt{"music on hold", v.AllowMusicOnHoldCustomization},
			opt{"voicemail and message greetings", v.AllowVoicemailAndMessageGreetingCustomization})
	case *api.VoicemailSetting:
		d.allowed("Allowed", "Not allowed", opt{"videomail", v.AllowVideomail}, opt{"download", v.AllowDownload},
			opt{"delete", v.AllowDelete}, opt{"share", v.AllowShare}, opt{"virtual background", v.AllowVirtualBackground})
	case *api.VoicemailNotificationByEmail:
		d.allowed("The email includes", "The email leaves out",
			opt{"the voicemail file", v.IncludeVoicemailFile}, opt{"its transcription", v.IncludeVoicemailTranscription})
		d.may(v.ForwardVoicemailToEmail, "Voicemails are also forwarded to email.", "Voicemails are not forwarded to email.")
	case *api.RestrictedCallHours:
		d.restrictedHours(v)
	case *api.AllowedCallLocations:
		d.may(v.LocationsApplied, "Calls are limited to the allowed locations.", "No location limits are applied.")
		d.may(v.AllowInternalCalls, "Internal calls are allowed from anywhere.", "Internal calls are limited too.")
	case *api.AutoCallRecording:
		d.autoRecording(v, s)
	case *api.AdHocCallRecording:
		d.may(v.RecordingTranscription, "Recordings are transcribed.", "Recordings are not transcribed.")
		d.allowed("Users may", "Users may not", opt{"download recordings", v.AllowDownload}, opt{"delete recordings", v.AllowDelete})
		d.may(v.RecordingStartPrompt, "A prompt announces the recording.", "No prompt announces the recording.")
		d.may(v.RecordingExplicitConsent, "The other party must consent (press 1) before recording.", "No explicit consent is asked for.")
		d.beep(v.PlayRecordingBeepTone)
	case *api.SMSSetting:
		d.may(v.InternationalSMS, "International SMS is allowed.", "International SMS is not allowed (it can be allowed only while SMS is on).")
	case *api.SMSEtiquetteTool:
		d.etiquette(v)
	case *api.PhoneOnMobile:
		d.may(v.AllowCallingSMSMMS, "Calls, SMS and MMS from the mobile app are allowed.", "Calls, SMS and MMS from the mobile app are not allowed.")
	case *api.CallForwarding:
		d.code("Call forwarding", api.FieldCallForwardingType, v.CallForwardingType)
	case *api.CallOverflow:
		d.code("Call overflow", api.FieldCallOverflowType, v.CallOverflowType)
	case *api.CallTransferring:
		d.code("Call transferring", api.FieldCallTransferringType, v.CallTransferringType)
	case *api.CallPark:
		d.callPark(v)
	case *api.BlockExternalCalls:
		d.blockExternal(v)
	case *api.CallQueueOptOutReason:
		d.optOut(v)
	case *api.AutoDeleteData:
		d.retention(v)
	case *api.PhoneSettingCommon:
		d.commonOnly(key, s)
	default:
		switch api.KindOfPhoneSetting(key) {
		case api.PhoneSettingUnshown:
			d.add("The spec does not describe this setting's fields.")
		case api.PhoneSettingUnknown:
			d.add("This console does not know this setting.")
		}
		d.rawFields(s, key)
	}
	return d.lines
}

type describer struct{ lines []string }

func (d *describer) add(format string, args ...any) {
	d.lines = append(d.lines, fmt.Sprintf(format, args...))
}

// may adds yes or no depending on a flag; nothing when the flag is absent.
func (d *describer) may(flag *bool, yes, no string) {
	switch {
	case flag == nil:
	case *flag:
		d.lines = append(d.lines, yes)
	default:
		d.lines = append(d.lines, no)
	}
}

type opt struct {
	name string
	flag *bool
}

// allowed lists the options that are on and those that are off.
func (d *describer) allowed(yes, no string, opts ...opt) {
	var on, off []string
	for _, o := range opts {
		switch {
		case o.flag == nil:
		case *o.flag:
			on = append(on, o.name)
		default:
			off = append(off, o.name)
		}
	}
	if len(on) > 0 {
		d.add("%s: %s.", yes, strings.Join(on, ", "))
	}
	if len(off) > 0 {
		d.add("%s: %s.", no, strings.Join(off, ", "))
	}
}

func (d *describer) code(what, field string, v *int) {
	if v == nil {
		return
	}
	c, _ := api.PhoneCodeMeaning(field, *v)
	d.add("%s: %s.", what, c.Text())
}

func (d *describer) liveTranscription(v *api.CallLiveTranscription) {
	p := v.TranscriptionStartPrompt
	switch {
	case p == nil:
	case p.Enable != nil && !*p.Enable:
		d.add("No prompt plays before transcription starts.")
	case p.Removed():
		d.add("A prompt should play before transcription starts, but its audio %s was removed from the library: choose another.", quoteName(p.AudioName, p.AudioID))
	default:
		d.add("A prompt plays before transcription starts: %s.", quoteName(p.AudioName, p.AudioID))
	}
}

func quoteName(name, id string) string {
	switch {
	case name != "":
		return strconv.Quote(name)
	case id != "":
		return "(audio " + id + ")"
	}
	return "(no audio chosen)"
}

func (d *describer) restrictedHours(v *api.RestrictedCallHours) {
	if tz := v.TimeZone; tz != nil {
		switch {
		case tz.ID == "" && (tz.Name == api.SetByExtension || tz.Name == ""):
			d.add("Time zone: each extension's own.")
		case tz.Name != "" && tz.Name != tz.ID:
			d.add("Time zone: %s (%s).", tz.Name, tz.ID)
		default:
			d.add("Time zone: %s.", tz.ID)
		}
	}
	d.allowed("Restricted during", "Not restricted during",
		opt{"closed hours", v.RestrictedHoursApplied}, opt{"holidays", v.RestrictedHolidayHoursApplied})
	d.may(v.AllowInternalCalls, "Internal calls are still allowed.", "Internal calls are restricted too.")
}

func (d *describer) autoRecording(v *api.AutoCallRecording, s *api.PhoneSettings) {
	if v.RecordingCalls != "" {
		w, _ := api.PhoneWord("recording_calls", v.RecordingCalls)
		d.add("Records %s.", w)
	}
	d.may(v.RecordingTranscription, "Recordings are transcribed.", "Recordings are not transcribed.")
	d.may(v.AllowStopResumeRecording, "Users may pause and resume the recording.", "Users may not pause or resume the recording.")
	d.may(v.DisconnectOnRecordingFailure,
		"If recording fails and cannot reconnect within five seconds, the call is cut off (emergency calls excepted).",
		"Calls go on if recording fails.")
	d.beep(v.PlayRecordingBeepTone)
	d.notice("Inbound", v.InboundAudioNotification)
	d.notice("Outbound", v.OutboundAudioNotification)
	if in := v.InboundAudioNotification; in != nil &&
		(!sameFlag(v.RecordingStartPrompt, in.RecordingStartPrompt) || !sameFlag(v.RecordingExplicitConsent, in.RecordingExplicitConsent)) {
		d.add("Note: the deprecated top-level prompt and consent fields disagree with the inbound notification they should mirror.")
	}
	if v.On() && s.E2EEncryption != nil && s.E2EEncryption.On() {
		d.add("Conflict: end-to-end encryption is on too, and the two cannot be used together.")
	}
}

func sameFlag(a, b *bool) bool {
	return a == nil || b == nil || *a == *b
}

func (d *describer) notice(who string, n *api.AudioNotification) {
	if n == nil {
		return
	}
	var parts []string
	if n.RecordingStartPrompt != nil {
		if *n.RecordingStartPrompt {
			parts = append(parts, "hear a start prompt")
		} else {
			parts = append(parts, "hear no start prompt")
		}
	}
	if n.RecordingExplicitConsent != nil {
		if *n.RecordingExplicitConsent {
			parts = append(parts, "must press 1 to consent")
		} else {
			parts = append(parts, "are not asked to consent")
		}
	}
	if len(parts) > 0 {
		d.add("%s callers %s.", who, strings.Join(parts, " and "))
	}
}

func (d *describer) beep(b *api.BeepTone) {
	switch {
	case b == nil:
		return
	case b.Enable != nil && !*b.Enable:
		d.add("No beep tone plays during recording.")
		return
	}
	s := "A beep tone plays"
	if b.PlayBeepTimeInterval != nil {
		c, _ := api.PhoneCodeMeaning(api.FieldBeepTimeInterval, *b.PlayBeepTimeInterval)
		s += " every " + c.Label
	}
	if b.PlayBeepVolume != nil {
		c, _ := api.PhoneCodeMeaning(api.FieldBeepVolume, *b.PlayBeepVolume)
		s += " at " + c.Label + " volume"
	}
	if b.PlayBeepMember != "" {
		w, _ := api.PhoneWord("play_beep_member", b.PlayBeepMember)
		s += ", heard by " + w
	}
	d.add("%s.", s)
}

func (d *describer) etiquette(v *api.SMSEtiquetteTool) {
	active := 0
	for _, r := range v.SMSEtiquettePolicy {
		if r.Active != nil && *r.Active {
			active++
		}
	}
	d.add("%s (%d active):", words.Count(len(v.SMSEtiquettePolicy), "rule"), active)
	for _, r := range v.SMSEtiquettePolicy {
		parts := []string{}
		if r.Rule != nil {
			c, _ := api.PhoneCodeMeaning(api.FieldEtiquetteRule, *r.Rule)
			parts = append(parts, c.Label+" "+strconv.Quote(r.Content))
		}
		if r.Action != nil {
			c, _ := api.PhoneCodeMeaning(api.FieldEtiquetteAction, *r.Action)
			parts = append(parts, c.Label)
		}
		if r.Active != nil && !*r.Active {
			parts = append(parts, "inactive")
		}
		d.add("- %s: %s", words.OrDash(r.Name), strings.Join(parts, ", "))
	}
}

func (d *describer) callPark(v *api.CallPark) {
	s := "Parked calls"
	if v.ExpirationPeriod != nil {
		c, _ := api.PhoneCodeMeaning(api.FieldParkExpirationPeriod, *v.ExpirationPeriod)
		s += " expire after " + c.Label
	} else {
		s += " expire"
	}
	if v.CallNotPickedUpAction != nil {
		c, _ := api.PhoneCodeMeaning(api.FieldCallNotPickedUpAction, *v.CallNotPickedUpAction)
		s += ", then " + c.Label
		if *v.CallNotPickedUpAction == api.ParkActionForward && v.ForwardTo != nil {
			s += ": " + extensionText(v.ForwardTo)
		}
	}
	d.add("%s.", s)
	d.add("An expired call's retrieval code stops working; the next park gets a new one.")
	if v.Sequence != nil {
		c, _ := api.PhoneCodeMeaning(api.FieldParkSequence, *v.Sequence)
		if c.Detail != "" {
			d.add("%s.", capitalise(c.Detail))
		} else {
			d.add("Retrieval codes: %s.", c.Label)
		}
	}
}

func extensionText(f *api.ParkForwardTo) string {
	var parts []string
	if f.ExtensionType != "" {
		w, _ := api.PhoneWord("extension_type", f.ExtensionType)
		parts = append(parts, w)
	}
	if f.ExtensionNumber != nil {
		parts = append(parts, fmt.Sprintf("ext. %d", *f.ExtensionNumber))
	}
	name := words.OrDash(f.DisplayName)
	if len(parts) == 0 {
		return name
	}
	return name + " (" + strings.Join(parts, ", ") + ")"
}

func (d *describer) blockExternal(v *api.BlockExternalCalls) {
	d.allowed("Blocks external calls during", "Lets external calls through during",
		opt{"business hours", v.BlockBusinessHours}, opt{"closed hours", v.BlockClosedHours}, opt{"holidays", v.BlockHolidayHours})
	if v.BlockCallAction != nil {
		c, _ := api.PhoneCodeMeaning(api.FieldBlockCallAction, *v.BlockCallAction)
		d.add("Blocked calls: %s.", c.Text())
	}
}

func (d *describer) optOut(v *api.CallQueueOptOutReason) {
	on := 0
	for _, r := range v.Reasons {
		if r.Enable != nil && *r.Enable {
			on++
		}
	}
	d.add("%s (%d offered):", words.Count(len(v.Reasons), "reason"), on)
	for _, r := range v.Reasons {
		var tags []string
		if r.System != nil && *r.System {
			tags = append(tags, "system default, not editable")
		}
		if r.Enable != nil {
			tags = append(tags, onOff(*r.Enable))
		}
		d.add("- %s (%s)", words.OrDash(r.Code), strings.Join(tags, ", "))
	}
}

func (d *describer) retention(v *api.AutoDeleteData) {
	if len(v.Items) > 0 {
		d.add("Kept for:")
	}
	for _, it := range v.Items {
		what, _ := api.PhoneWord("type", it.Type)
		how := "not given"
		if it.Duration != nil {
			t, ok := api.RetentionText(*it.Duration, it.TimeUnit)
			how = t
			if !ok {
				how += " (outside the allowed range)"
			}
		}
		d.add("- %s: %s", capitalise(what), how)
	}
	if v.DeleteType != nil {
		c, _ := api.PhoneCodeMeaning(api.FieldDeleteType, *v.DeleteType)
		d.add("Deletion: %s.", c.Text())
	}
	if v.PermanentlyDeleteAfterDays != nil && (v.DeleteType == nil || *v.DeleteType == 1) {
		d.add("%s.", capitalise(api.PermanentDeleteText(*v.PermanentlyDeleteAfterDays)))
	}
}

func (d *describer) commonOnly(key string, s *api.PhoneSettings) {
	switch key {
	case "e2e_encryption":
		if s.E2EEncryption.On() && s.AutoCallRecording != nil && s.AutoCallRecording.On() {
			d.add("Conflict: automatic call recording is on too, and the two cannot be used together.")
		}
	case "auto_call_from_third_party_apps":
		d.add("The spec does not describe this setting's fields.")
		d.rawFields(s, key)
	}
}

// rawFields lists the fields beyond the common ones as dotted paths.
func (d *describer) rawFields(s *api.PhoneSettings, key string) {
	raw, _ := s.Raw(key)
	var leaves []string
	flatten(&leaves, "", decodeAny(raw), true)
	if len(leaves) == 0 {
		return
	}
	d.add("Fields as received:")
	for _, l := range leaves {
		d.add("- %s", l)
	}
}

func decodeAny(raw []byte) any {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// flatten lists scalar leaves as "path: value"; top skips the common fields.
func flatten(out *[]string, path string, v any, top bool) {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			if top && (k == "enable" || k == "locked" || k == "locked_by") {
				continue
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flatten(out, p, t[k], false)
		}
	case []any:
		if len(t) == 0 && path != "" {
			*out = append(*out, path+": (empty list)")
		}
		for i, it := range t {
			flatten(out, fmt.Sprintf("%s[%d]", path, i), it, false)
		}
	default:
		if path == "" {
			return
		}
		b, _ := json.Marshal(t)
		*out = append(*out, path+": "+string(b))
	}
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
