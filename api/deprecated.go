package api

import "strings"

// Deprecation is a field the published descriptions mark deprecated, and
// what replaces it. Every view that shows the field marks it, and a
// baseline or diff that names it warns with the replacement.
type Deprecation struct {
	// Field is the field's path: a phone setting's "<setting>.<field>" (as
	// snapshots and baselines write paths), or an event's field name.
	Field string
	// Instead names what replaces it.
	Instead []string
	// Resource is "phone setting" or "event".
	Resource string
}

const (
	resourcePhone = "phone setting"
	resourceEvent = "event"
)

// Deprecations lists the deprecated fields evdesk reads or sends: the
// three top-level prompt and consent fields of auto_call_recording (the
// phone description and change log: announced for removal; the inbound and
// outbound notification fields replace them), and an event's
// physical_location (the events description; venue replaces it). The
// events description also marks start_time, end_time and an update's
// meeting_type deprecated in requests, which evdesk never sends.
var Deprecations = []Deprecation{
	{"auto_call_recording.recording_start_prompt", []string{
		"auto_call_recording.inbound_audio_notification.recording_start_prompt",
		"auto_call_recording.outbound_audio_notification.recording_start_prompt"}, resourcePhone},
	{"auto_call_recording.recording_start_prompt_audio_id", []string{
		"auto_call_recording.inbound_audio_notification.recording_start_prompt_audio_id",
		"auto_call_recording.outbound_audio_notification.recording_start_prompt_audio_id"}, resourcePhone},
	{"auto_call_recording.recording_explicit_consent", []string{
		"auto_call_recording.inbound_audio_notification.recording_explicit_consent",
		"auto_call_recording.outbound_audio_notification.recording_explicit_consent"}, resourcePhone},
	{"physical_location", []string{"venue"}, resourceEvent},
}

// PhoneDeprecation finds a deprecated phone setting field by its path
// ("auto_call_recording.recording_start_prompt"); a path below it counts.
func PhoneDeprecation(path string) (Deprecation, bool) {
	for _, d := range Deprecations {
		if d.Resource == resourcePhone && (path == d.Field || strings.HasPrefix(path, d.Field+".")) {
			return d, true
		}
	}
	return Deprecation{}, false
}

// EventDeprecation finds a deprecated event field by name.
func EventDeprecation(field string) (Deprecation, bool) {
	for _, d := range Deprecations {
		if d.Resource == resourceEvent && d.Field == field {
			return d, true
		}
	}
	return Deprecation{}, false
}

// Note says it for a person: "deprecated by the provider, to be removed:
// use X and Y".
func (d Deprecation) Note() string {
	return "deprecated by the provider, to be removed: use " + strings.Join(d.Instead, " and ") + " instead"
}

// DeprecatedFields lists the deprecated fields a phone setting's answer
// carries, as field names within the setting.
func (p *PhoneSettings) DeprecatedFields(key string) []string {
	var out []string
	for _, f := range p.Fields(key) {
		if _, ok := PhoneDeprecation(key + "." + f); ok {
			out = append(out, f)
		}
	}
	return out
}
