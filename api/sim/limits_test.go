package sim

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
)

// rawEvent is a create body as raw JSON fields.
func rawEvent(calendar any) map[string]any {
	return map[string]any{"name": "Raw", "description": "d", "timezone": "UTC", "event_type": "SIMPLE_EVENT",
		"hub_id": HubID, "access_level": "PRIVATE_UNRESTRICTED", "attendance_type": "virtual", "meeting_type": "MEETING",
		"calendar": calendar}
}

// TestDateTimesMustBeUTCWholeSeconds: the spec's date-time form only.
func TestDateTimesMustBeUTCWholeSeconds(t *testing.T) {
	e := newEnv(t, Options{})
	for _, start := range []string{"2026-04-01T10:00:00+01:00", "2026-04-01T10:00:00.5Z", "2026-04-01 10:00:00", "2026-04-01T10:00Z", "tomorrow"} {
		r := e.do("POST", "/events", DemoToken, rawEvent([]any{map[string]any{"start_time": start, "end_time": "2026-04-01T12:00:00Z"}}))
		if r.status != 400 || !r.hasField("calendar[0].start_time") {
			t.Errorf("%s: %d %s", start, r.status, clip(r.body))
		}
	}
	r := e.do("POST", "/events", DemoToken, rawEvent([]any{map[string]any{"start_time": "2026-04-01T10:00:00Z", "end_time": "2026-04-01T12:00:00Z"}}))
	r.decode(t, 201, nil)
	id := func() string { var ev api.Event; _ = json.Unmarshal(r.body, &ev); return ev.EventID }()
	for field, v := range map[string]string{"lobby_start_time": "2026-04-01T09:00:00.000Z", "lobby_end_time": "2026-04-01T09:30:00-05:00"} {
		u := e.do("PATCH", "/events/"+id, DemoToken, map[string]any{field: v})
		if u.status != 400 || !u.hasField(field) {
			t.Errorf("%s %s: %d %s", field, v, u.status, clip(u.body))
		}
	}
	e.do("PATCH", "/events/"+id, DemoToken, map[string]any{"recurrence": map[string]any{"type": 1, "end_date_time": "2026-05-01"}}).
		decode(t, 400, nil)
}

// TestEventListLimits: the description's maxItems, with raw requests.
func TestEventListLimits(t *testing.T) {
	e := newEnv(t, Options{})
	cal := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			out[i] = map[string]any{"start_time": "2026-04-01T1" + string(rune('0'+i)) + ":00:00Z", "end_time": "2026-04-01T1" + string(rune('0'+i)) + ":30:00Z"}
		}
		return out
	}
	e.do("POST", "/events", DemoToken, rawEvent(cal(6))).decode(t, 201, nil)
	for field, body := range map[string]map[string]any{
		"calendar":             rawEvent(cal(7)),
		"tags":                 merge(rawEvent(cal(1)), "tags", strings.Split(strings.Repeat("t,", 201), ",")[:201]),
		"blocked_countries":    merge(rawEvent(cal(1)), "blocked_countries", strings.Split(strings.Repeat("US,", 201), ",")[:201]),
		"blocked_countries[0]": merge(rawEvent(cal(1)), "blocked_countries", []string{"UK"}),
		"categories":           merge(rawEvent(cal(1)), "categories", strings.Split(strings.Repeat("Other,", 21), ",")[:21]),
		"attendance_type":      merge(rawEvent(cal(1)), "attendance_type", "VIRTUAL"),
	} {
		if r := e.do("POST", "/events", DemoToken, body); r.status != 400 || !r.hasField(field) {
			t.Errorf("%s: %d %s", field, r.status, clip(r.body))
		}
	}
}

func merge(m map[string]any, k string, v any) map[string]any { m[k] = v; return m }

// TestExhibitorCreateRules: multi-session events take exhibitors, is_sponsor
// is true when absent, youtube_url is taken (the description's create has
// it), and an exhibitor_id in a
// create is answered 1020 or 2006.
func TestExhibitorCreateRules(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	ev := f.RecurringEventID
	tier := e.sim.SponsorTiers(ev)[0].ID
	base := func() map[string]any {
		return map[string]any{"name": "Fabrikam Stand", "contact_name": "Noah", "contact_email": "noah@fabrikam.example", "tier_id": tier}
	}
	var x api.Exhibitor
	e.do("POST", "/events/"+ev+"/exhibitors", DemoToken, merge(base(), "youtube_url", "https://youtube.com/@fab")).decode(t, 201, &x)
	if !x.IsSponsor || x.TierID != tier || x.YouTubeURL != "https://youtube.com/@fab" {
		t.Fatalf("created %+v (is_sponsor defaults to true; youtube_url is taken)", x)
	}
	noTier := base()
	delete(noTier, "tier_id")
	noTier["name"] = "Other stand"
	if r := e.do("POST", "/events/"+ev+"/exhibitors", DemoToken, noTier); r.status != 400 || !r.hasField("tier_id") {
		t.Errorf("a default sponsor without a tier: %d %s", r.status, r.body)
	}
	e.do("POST", "/events/"+ev+"/exhibitors", DemoToken, merge(base(), "exhibitor_id", "not valid!")).wantError(t, 400, api.CodeInvalidExhibitorID)
	e.do("POST", "/events/"+ev+"/exhibitors", DemoToken, merge(base(), "exhibitor_id", "NoSuchExhibitor00000")).wantError(t, 404, api.CodeExhibitorNotFound)
	e.do("POST", "/events/"+ev+"/exhibitors", DemoToken, merge(base(), "exhibitor_id", x.ExhibitorID)).wantError(t, 400, api.CodeInvalidExhibitorID)
	e.do("GET", "/events/"+f.UpcomingEventID+"/exhibitors", DemoToken, nil).wantError(t, 400, api.CodeUnsupportedEventType)
}
