// Package policy explains an account's phone settings in words: each
// setting's title, theme and purpose, and its extra fields as sentences.
// The console's phone screens and the CLI's tables say the same things.
package policy

import (
	"slices"
	"strings"

	"github.com/evdesk/evdesk/api"
)

// Themes the settings are grouped by, in display order.
var groupNames = []string{
	"Calling and routing",
	"Recording and transcription",
	"Voicemail",
	"Messaging",
	"Security",
	"Data retention",
	"Devices and apps",
	"Other (not in the spec)",
}

const (
	gCalling = iota
	gRecording
	gVoicemail
	gMessaging
	gSecurity
	gRetention
	gDevices
	gOther
)

// info is what evdesk says about a setting key: its title, theme and
// what it does, in a sentence.
type info struct {
	title string
	group int
	about string
}

var catalog = map[string]info{
	"select_outbound_caller_id":                   {"Outbound caller ID", gCalling, "Users choose which number their outgoing calls show."},
	"restricted_call_hours":                       {"Restricted call hours", gCalling, "Limits outgoing calls outside the hours the account sets."},
	"allowed_call_locations":                      {"Allowed call locations", gCalling, "Lets users call only from approved locations."},
	"international_calling":                       {"International calling", gCalling, "Users can call numbers abroad."},
	"outbound_calling":                            {"Outbound calling", gCalling, "Users can place outgoing calls (accounts on the newer outbound blocked-list option)."},
	"call_handling_forwarding_to_other_users":     {"Call forwarding", gCalling, "How far users may forward their calls to other people."},
	"call_overflow":                               {"Call overflow", gCalling, "Where unanswered calls may overflow to."},
	"call_transferring":                           {"Call transferring", gCalling, "Which destinations users may transfer calls to."},
	"elevate_to_meeting":                          {"Elevate to meeting", gCalling, "Users can turn a phone call into a video meeting."},
	"call_park":                                   {"Call park", gCalling, "Users park a call on a retrieval code and pick it up from another phone."},
	"delegation":                                  {"Delegation", gCalling, "Users can let others place and answer calls for them."},
	"audio_intercom":                              {"Audio intercom", gCalling, "Users can speak through a colleague's desk phone speaker."},
	"call_queue_opt_out_reason":                   {"Call queue opt-out reasons", gCalling, "The reasons users pick from when they leave a call queue."},
	"manage_call_routing_for_unassigned_numbers":  {"Unassigned number routing", gCalling, "What happens to calls to numbers no one is assigned to."},
	"external_calling_on_vendor_room_common_area": {"External calls from rooms", gCalling, "Room systems and common area phones can call outside the account."},
	"local_survivability_mode":                    {"Local survivability mode", gCalling, "Keeps calling working at a site when the cloud cannot be reached."},
	"peer_to_peer_media":                          {"Peer-to-peer media", gCalling, "Call audio flows directly between devices where it can."},

	"call_live_transcription": {"Live call transcription", gRecording, "Shows a live transcript during calls."},
	"auto_call_recording":     {"Automatic call recording", gRecording, "Records calls without anyone pressing record."},
	"ad_hoc_call_recording":   {"On-demand call recording", gRecording, "Users can start recording during a call."},

	"voicemail":                              {"Voicemail", gVoicemail, "Callers can leave voicemail (and videomail) for users."},
	"voicemail_transcription":                {"Voicemail transcription", gVoicemail, "Voicemails are turned into text."},
	"voicemail_notification_by_email":        {"Voicemail emails", gVoicemail, "Users get an email when a voicemail arrives."},
	"shared_voicemail_notification_by_email": {"Shared voicemail emails", gVoicemail, "Members of a shared voicemail box get the emails too (new policy framework only; not when the sharing extension has turned its emails off)."},
	"check_voicemails_over_phone":            {"Voicemail by phone", gVoicemail, "Users can dial in to listen to their voicemail."},
	"personal_audio_library":                 {"Personal audio library", gVoicemail, "Users can upload their own greetings and music on hold."},

	"sms":                {"SMS", gMessaging, "Users can send and receive text messages."},
	"outbound_sms":       {"Outbound SMS", gMessaging, "Users can send text messages (accounts on the newer outbound blocked-list option)."},
	"sms_etiquette_tool": {"SMS etiquette rules", gMessaging, "Outgoing messages are checked against the account's rules before they leave."},

	"e2e_encryption":                             {"End-to-end encryption", gSecurity, "Encrypts calls from device to device; it cannot be used with automatic call recording."},
	"advanced_encryption":                        {"Advanced encryption", gSecurity, "Stronger encryption options for phone data."},
	"block_calls_without_caller_id":              {"Block hidden caller IDs", gSecurity, "Rejects incoming calls that hide their number."},
	"block_external_calls":                       {"Block external calls", gSecurity, "Blocks calls from outside the account at the chosen times."},
	"block_list_for_inbound_calls_and_messaging": {"Block list", gSecurity, "Numbers on the block list cannot call or text users."},
	"block_calls_as_threat":                      {"Block threat calls", gSecurity, "Blocks calls flagged as threats."},
	"override_default_port":                      {"Custom media ports", gSecurity, "Call media uses a port range of the account's choosing."},

	"auto_delete_data_after_retention_duration": {"Automatic deletion", gRetention, "Phone data is deleted once it is older than its retention period."},

	"vendor_phone_on_mobile":          {"Phone on mobile", gDevices, "Users can make calls from the mobile app."},
	"vendor_phone_on_pwa":             {"Phone in the web app", gDevices, "Users can make calls from the web app."},
	"hand_off_to_room":                {"Hand off to room", gDevices, "Users can move a call to a meeting room system."},
	"mobile_switch_to_carrier":        {"Switch to carrier", gDevices, "Mobile users can move a call to their carrier's network."},
	"auto_call_from_third_party_apps": {"Call control from apps", gDevices, "Authorised marketplace apps can place and control calls."},
	"display_call_feedback_survey":    {"Call feedback survey", gDevices, "Users are asked to rate call quality after some calls."},
}

// entry finds a setting in the catalog, which is keyed by the spec's
// neutral spelling: acme_phone_on_mobile is vendor_phone_on_mobile.
func entry(key string) (info, bool) {
	in, ok := catalog[api.NeutralPhoneSettingKey(key)]
	return in, ok
}

// Title is a setting's name in words; unknown keys are spelled out.
func Title(key string) string {
	if in, ok := entry(key); ok {
		return in.title
	}
	t := strings.ReplaceAll(key, "_", " ")
	t = strings.ReplaceAll(t, "vendor ", "")
	if strings.TrimSpace(t) == "" {
		return "(unnamed)"
	}
	return capitalise(t)
}

// Groups are the themes settings are grouped by, in display order.
func Groups() []string { return slices.Clone(groupNames) }

// Group is the theme a setting belongs to.
func Group(key string) string { return groupNames[GroupIndex(key)] }

// GroupIndex is the place of a setting's theme in Groups.
func GroupIndex(key string) int {
	if in, ok := entry(key); ok {
		return in.group
	}
	return gOther
}

// About says what a setting does.
func About(key string) string {
	if in, ok := entry(key); ok {
		return in.about
	}
	return "Not one of the 43 settings the spec describes; shown as the server sent it."
}
