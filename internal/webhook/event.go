package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/evdesk/evdesk/internal/sanitize"
)

// ValidationEvent is the endpoint URL validation challenge.
const ValidationEvent = "endpoint.url_validation"

// Fields the change log adds to named events.
const (
	FieldThinClientPluginVersion = "vendor_thin_client_plugin_version"
	FieldRCReason                = "rc_reason"
	FieldExternalStorageURL      = "external_storage_url"
)

// Events the change log names, each with its change (section 6 of the
// change log document).
const (
	EventPhoneCalloutFailed     = "meeting.participant_phone_callout_failed"
	EventMeetingParticipantData = "meeting.participant_data"
	EventWebinarParticipantData = "webinar.participant_data"
	EventMeetingDataSummary     = "meeting.participant_data_summary"
	EventWebinarDataSummary     = "webinar.participant_data_summary"
	EventSessionUserData        = "session.user_data"
	EventSessionUserDataSummary = "session.user_data_summary"
	EventRecordingCompleted     = "session.recording_completed"
)

// Named is one event the change log names: what changed, and the new
// fields evdesk reads from it.
type Named struct {
	Event  string
	Change string
	Fields []string
}

// NamedEvents lists the events the change log names, in its order.
var NamedEvents = []Named{
	{EventPhoneCalloutFailed, "new event", nil},
	{EventMeetingParticipantData, "new fields", []string{FieldThinClientPluginVersion, FieldRCReason}},
	{EventWebinarParticipantData, "new fields", []string{FieldThinClientPluginVersion, FieldRCReason}},
	{EventMeetingDataSummary, "new fields", []string{FieldThinClientPluginVersion, FieldRCReason}},
	{EventWebinarDataSummary, "new fields", []string{FieldThinClientPluginVersion, FieldRCReason}},
	{EventSessionUserData, "new field", []string{FieldRCReason}},
	{EventSessionUserDataSummary, "new field", []string{FieldRCReason}},
	{EventRecordingCompleted, "new field", []string{FieldExternalStorageURL}},
}

// LookupNamed returns the change log's entry for an event name.
func LookupNamed(event string) (Named, bool) {
	i := slices.IndexFunc(NamedEvents, func(n Named) bool { return n.Event == event })
	if i < 0 {
		return Named{}, false
	}
	return NamedEvents[i], true
}

// Event is one accepted delivery. The change log shows neither the
// delivery format nor the payloads: evdesk reads the envelope's event name
// and, for the named events, their new fields by name wherever the payload
// holds them. Everything else stays in Body, exactly as received.
type Event struct {
	Name string `json:"event"`
	// Named is true for an event the change log names; Change says what
	// it changed ("new event", "new fields").
	Named  bool   `json:"named"`
	Change string `json:"change,omitempty"`
	// Fields holds the new fields found, by name (a named field the
	// payload lacks is absent).
	Fields     map[string]string `json:"fields,omitempty"`
	Timestamp  time.Time         `json:"timestamp"`   // the delivery's x-zm-request-timestamp
	ReceivedAt time.Time         `json:"received_at"` // by this listener's clock
	Body       json.RawMessage   `json:"body"`

	signature string // as received, for a forward
}

// ExternalStorageURL is a recording's location, or "".
func (e Event) ExternalStorageURL() string { return e.Fields[FieldExternalStorageURL] }

// envelope is the part of every delivery evdesk reads first.
type envelope struct {
	Event   string          `json:"event"`
	Payload json.RawMessage `json:"payload"`
}

// Bounds on a payload's tree when looking for a field.
const (
	maxFieldDepth = 32
	maxFieldValue = 8 << 10
	maxEventName  = 200
	maxPlainToken = 1 << 10
)

// ErrBodyShape is a delivery whose body evdesk cannot read.
var ErrBodyShape = errors.New("the body is not a JSON object with an \"event\" name")

// parseEnvelope reads the event name and payload of a body.
func parseEnvelope(body []byte) (envelope, error) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return env, fmt.Errorf("%w: %v", ErrBodyShape, err)
	}
	if strings.TrimSpace(env.Event) == "" || len(env.Event) > maxEventName {
		return env, ErrBodyShape
	}
	return env, nil
}

// plainToken reads the challenge's plainToken from its payload.
func plainToken(payload json.RawMessage) (string, error) {
	var p struct {
		PlainToken string `json:"plainToken"`
	}
	if err := json.Unmarshal(payload, &p); err != nil || p.PlainToken == "" || len(p.PlainToken) > maxPlainToken {
		return "", errors.New("the validation challenge has no plainToken (a string of at most 1 KiB) in its payload")
	}
	return p.PlainToken, nil
}

// newEvent types an accepted body.
func newEvent(env envelope, body []byte, signature string, sent, received time.Time) Event {
	ev := Event{Name: env.Event, Timestamp: sent.UTC(), ReceivedAt: received.UTC(), Body: json.RawMessage(body),
		signature: signature}
	n, ok := LookupNamed(env.Event)
	if !ok {
		return ev
	}
	ev.Named, ev.Change = true, n.Change
	if len(n.Fields) == 0 || len(env.Payload) == 0 {
		return ev
	}
	var tree any
	dec := json.NewDecoder(bytes.NewReader(env.Payload))
	dec.UseNumber()
	if dec.Decode(&tree) != nil {
		return ev
	}
	for _, f := range n.Fields {
		if v, ok := findField(tree, f, 0); ok {
			if ev.Fields == nil {
				ev.Fields = map[string]string{}
			}
			ev.Fields[f] = v
		}
	}
	return ev
}

// findField looks for the first member named name in a decoded tree, in
// object key order (sorted, so the result does not depend on map order),
// and returns its value as text.
func findField(v any, name string, depth int) (string, bool) {
	if depth > maxFieldDepth {
		return "", false
	}
	switch t := v.(type) {
	case map[string]any:
		if val, ok := t[name]; ok {
			if s, ok := scalarText(val); ok {
				return s, true
			}
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if s, ok := findField(t[k], name, depth+1); ok {
				return s, true
			}
		}
	case []any:
		for _, e := range t {
			if s, ok := findField(e, name, depth+1); ok {
				return s, true
			}
		}
	}
	return "", false
}

// scalarText is a string, number or boolean as text, bounded in length.
func scalarText(v any) (string, bool) {
	var s string
	switch t := v.(type) {
	case string:
		s = t
	case json.Number:
		s = t.String()
	case bool:
		s = fmt.Sprint(t)
	default:
		return "", false
	}
	if len(s) > maxFieldValue {
		s = s[:maxFieldValue]
	}
	return s, true
}

// Words is the event as one line of words for a person: time, name, and
// the change log's new fields, sanitised.
func (e Event) Words() string {
	var b strings.Builder
	b.WriteString(e.ReceivedAt.UTC().Format("15:04:05Z")) // the day is in -o json
	b.WriteString("  ")
	b.WriteString(sanitize.Line(e.Name))
	switch {
	case !e.Named:
		fmt.Fprintf(&b, "  (%d bytes; not in the change log: -o json shows it whole)", len(e.Body))
	case len(e.Fields) == 0 && e.Change == "new event":
		b.WriteString("  (new event)")
	default:
		n, _ := LookupNamed(e.Name)
		for _, f := range n.Fields {
			v, ok := e.Fields[f]
			if !ok {
				v = "(absent)"
			}
			b.WriteString("  " + f + "=" + sanitize.Line(v))
		}
	}
	return b.String()
}
