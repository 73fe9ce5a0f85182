package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/evdesk/evdesk/api"
)

// conformanceFile is the path of one of the provider's published
// descriptions, kept in testdata/conformance so the checks always run.
func conformanceFile(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join("testdata", "conformance", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("conformance description missing: %v", err)
	}
	return p
}

// conformance sends requests to the simulator and checks requests and
// answers against the provider's OpenAPI description.
type conformance struct {
	t      *testing.T
	env    *env
	router routers.Router
	opts   *openapi3filter.Options
	checks int
	token  string // the caller's bearer token; DemoToken unless a test changes it
}

func newConformance(t *testing.T) *conformance { return loadConformance(t, "events-openapi.json") }

// loadConformance checks exchanges against one of the provider's files.
func loadConformance(t *testing.T, file string) *conformance {
	path := conformanceFile(t, file)
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	e := newEnv(t, Options{})
	doc.Servers = openapi3.Servers{{URL: e.srv.URL + "/v2"}}
	// legacy.NewRouter checks the document. The published file leaves the
	// OAuth token URL empty and capitalises some examples against their
	// enums; neither matters here, so fill the URL in memory and skip
	// example checks.
	if ss := doc.Components.SecuritySchemes["openapi_oauth"]; ss != nil && ss.Value != nil && ss.Value.Flows != nil {
		for _, f := range []*openapi3.OAuthFlow{ss.Value.Flows.AuthorizationCode, ss.Value.Flows.Implicit,
			ss.Value.Flows.Password, ss.Value.Flows.ClientCredentials} {
			if f != nil && f.TokenURL == "" {
				f.TokenURL = e.srv.URL + "/oauth/token"
			}
		}
	}
	router, err := legacy.NewRouter(doc, openapi3.DisableExamplesValidation())
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	return &conformance{t: t, env: e, router: router, token: DemoToken, opts: &openapi3filter.Options{
		IncludeResponseStatus: true,
		MultiError:            true,
		AuthenticationFunc:    func(context.Context, *openapi3filter.AuthenticationInput) error { return nil },
	}}
}

// do sends method path (below /v2) with body, checks the request against
// the description, checks the answer's status and validates the answer.
func (c *conformance) do(method, path string, body any, want int) []byte {
	c.t.Helper()
	return c.send(method, path, body, want, true)
}

// bad sends a request that breaks the description on purpose and validates
// the answer only.
func (c *conformance) bad(method, path string, body any, want int) []byte {
	c.t.Helper()
	return c.send(method, path, body, want, false)
}

func (c *conformance) send(method, path string, body any, want int, checkRequest bool) []byte {
	c.t.Helper()
	var raw []byte
	if body != nil {
		var err error
		if raw, err = json.Marshal(body); err != nil {
			c.t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, c.env.srv.URL+"/v2"+path, bytes.NewReader(raw))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		c.t.Fatalf("%s %s: not in the description: %v", method, path, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: c.opts}
	if err := openapi3filter.ValidateRequest(context.Background(), in); checkRequest && err != nil && !tolerated(err) {
		c.t.Errorf("%s %s: request does not conform: %v", method, path, err)
	}
	req.Body = io.NopCloser(bytes.NewReader(raw))
	resp, err := c.env.srv.Client().Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	if resp.StatusCode != want {
		c.t.Fatalf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, clip(got))
	}
	// A status the description does not list (one the spec adds) is held
	// to the provider's error body instead.
	if route.Operation.Responses.Status(resp.StatusCode) == nil {
		var e struct {
			Code    *int    `json:"code"`
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(got, &e); err != nil || e.Code == nil || e.Message == nil {
			c.t.Errorf("%s %s: %d body is not {code, message}: %s", method, path, resp.StatusCode, clip(got))
		}
		c.checks++
		return got
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.StatusCode,
		Header: resp.Header, Options: c.opts}
	out.SetBodyBytes(got)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil && !tolerated(err) {
		c.t.Errorf("%s %s: answer does not conform: %v\n%s", method, path, err, clip(got))
	}
	c.checks++
	return got
}

// tolerated reports whether every problem in err is an enum mismatch that
// comes from the description rather than the simulator: a value that differs
// from an allowed one only in case (the provider's samples capitalise some),
// or an enum written on an array schema (create's categories) whose items
// are all allowed values.
func tolerated(err error) bool {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		for _, e := range me {
			if !tolerated(e) {
				return false
			}
		}
		return len(me) > 0
	}
	var se *openapi3.SchemaError
	if !errors.As(err, &se) || se.SchemaField != "enum" || se.Schema == nil {
		return false
	}
	allowed := func(v any) bool {
		s, ok := v.(string)
		if !ok {
			return false
		}
		for _, e := range se.Schema.Enum {
			if es, ok := e.(string); ok && strings.EqualFold(es, s) {
				return true
			}
		}
		return false
	}
	if items, ok := se.Value.([]any); ok && se.Schema.Type.Is("array") {
		for _, it := range items {
			if !allowed(it) {
				return false
			}
		}
		return true
	}
	return allowed(se.Value)
}

func TestConformanceEvents(t *testing.T) {
	c := newConformance(t)
	f := c.env.sim.Fixtures()
	now := c.env.clock.Now()

	// Listings: every role and status, and a second page.
	for _, q := range []string{"", "?role_type=attendee&event_status_type=past",
		"?role_type=host", "?role_type=host&event_status_type=past", "?role_type=host&event_status_type=draft",
		"?role_type=host&event_status_type=cancelled&page_size=300"} {
		c.do("GET", "/vendor_events/events"+q, nil, 200)
	}
	var page api.EventList
	_ = json.Unmarshal(c.do("GET", "/vendor_events/events?role_type=host&page_size=5", nil, 200), &page)
	c.do("GET", "/vendor_events/events?role_type=host&page_size=5&next_page_token="+page.NextPageToken, nil, 200)
	c.bad("GET", "/vendor_events/events?role_type=host&page_size=301", nil, 400)
	c.do("GET", "/vendor_events/events?role_type=host&next_page_token=stale", nil, 400)

	// Get every kind of event, recurrence in compact form included.
	for _, id := range []string{f.UpcomingEventID, f.DraftEventID, f.PastEventID, f.CancelledEventID,
		f.ConferenceEventID, f.RecurringEventID, f.MonthlyEventID} {
		c.do("GET", "/vendor_events/events/"+id, nil, 200)
	}
	c.do("GET", "/vendor_events/events/NoSuchEvent000000000000", nil, 404)
	c.do("GET", "/vendor_events/events/"+f.OtherHostEventID, nil, 403)

	// Create: plain, recurring weekly and monthly (array days), conference.
	in := validCreate(now)
	c.do("POST", "/vendor_events/events", in, 201)
	wd := api.NewWeekDays(false, 2, 4, 6)
	in.EventType = api.EventTypeRecurring
	in.Recurrence = &api.Recurrence{Type: api.RecurrenceWeekly, RepeatInterval: 1, Duration: 45, EndTimes: 6, WeeklyDays: &wd}
	var created api.Event
	_ = json.Unmarshal(c.do("POST", "/vendor_events/events", in, 201), &created)
	md := api.NewMonthDays(false, 12)
	until := now.Add(120 * 24 * time.Hour).Truncate(time.Hour)
	in.Recurrence = &api.Recurrence{Type: api.RecurrenceMonthly, RepeatInterval: 1, Duration: 60, EndDateTime: &until, MonthlyDays: &md}
	c.do("POST", "/vendor_events/events", in, 201)
	in = validCreate(now)
	in.EventType, in.MeetingType, in.AttendanceType = api.EventTypeConference, "", api.AttendanceHybrid
	in.PhysicalLocation = "Praça das Indústrias 1, 1300-307 Lisboa, PT"
	c.do("POST", "/vendor_events/events", in, 201)
	bad := validCreate(now)
	bad.HubID = OtherHostHubID
	c.do("POST", "/vendor_events/events", bad, 403)
	bad = validCreate(now)
	bad.Calendar[0].EndTime = bad.Calendar[0].StartTime
	c.do("POST", "/vendor_events/events", bad, 400)

	// The created series reads back in compact form.
	c.do("GET", "/vendor_events/events/"+created.EventID, nil, 200)

	// Update, delete.
	c.do("PATCH", "/vendor_events/events/"+f.UpcomingEventID, api.EventUpdate{Name: ptr("Atlas Launch"), Tagline: ptr("Now with more Atlas.")}, 204)
	wd = api.NewWeekDays(true, 3)
	c.do("PATCH", "/vendor_events/events/"+created.EventID, api.EventUpdate{Recurrence: &api.Recurrence{Type: api.RecurrenceWeekly, RepeatInterval: 2, Duration: 30, EndTimes: 4, WeeklyDays: &wd}}, 204)
	c.do("PATCH", "/vendor_events/events/"+f.PastEventID, api.EventUpdate{Name: ptr("x")}, 400)
	c.do("PATCH", "/vendor_events/events/NoSuchEvent000000000000", api.EventUpdate{Name: ptr("x")}, 404)
	c.do("DELETE", "/vendor_events/events/"+f.UpcomingEventID, nil, 400)
	c.do("DELETE", "/vendor_events/events/"+f.OtherHostEventID, nil, 403)

	// Event actions.
	var res api.ActionResult
	_ = json.Unmarshal(c.do("POST", "/vendor_events/events/"+f.ConferenceEventID+"/event_actions",
		api.EventAction{Operation: "duplicate", DuplicateEvent: &api.DuplicateEvent{Name: "Summit copy", StartTime: now.Add(90 * 24 * time.Hour).Truncate(time.Hour), Timezone: "Europe/Lisbon"}}, 201), &res)
	c.do("GET", "/vendor_events/events/"+res.EventID, nil, 200)
	c.do("POST", "/vendor_events/events/"+res.EventID+"/event_actions", api.EventAction{Operation: "publish"}, 201)
	c.do("POST", "/vendor_events/events/"+f.UpcomingEventID+"/event_actions", api.EventAction{Operation: "cancel", CancelMessage: "Postponed to next quarter."}, 201)
	c.do("POST", "/vendor_events/events/"+f.UpcomingEventID+"/event_actions", api.EventAction{Operation: "publish"}, 400)
	c.do("POST", "/vendor_events/events/"+f.OtherHostEventID+"/event_actions", api.EventAction{Operation: "publish"}, 403)
	c.do("POST", "/vendor_events/events/NoSuchEvent000000000000/event_actions", api.EventAction{Operation: "publish"}, 404)
	c.do("DELETE", "/vendor_events/events/"+res.EventID, nil, 400)
	c.do("DELETE", "/vendor_events/events/"+f.DraftEventID, nil, 204)

	// Hubs.
	c.do("GET", "/vendor_events/hubs?role_type=host", nil, 200)
	c.do("GET", "/vendor_events/hubs?role_type=attendee", nil, 200)

	// 429 is described for every endpoint.
	c.env.sim.SetRPS(1)
	c.do("GET", "/vendor_events/hubs?role_type=host", nil, 200)
	c.do("GET", "/vendor_events/hubs?role_type=host", nil, 429)
	t.Logf("%d exchanges validated", c.checks)
}

// TestConformanceCatchesShapeErrors proves the harness is not vacuous: an
// event read back with create's array days, or a wrong enum, fails.
func TestConformanceCatchesShapeErrors(t *testing.T) {
	c := newConformance(t)
	id := c.env.sim.Fixtures().RecurringEventID
	req, _ := http.NewRequest("GET", c.env.srv.URL+"/v2/vendor_events/events/"+id, nil)
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		t.Fatal(err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: c.opts}
	rec := c.env.record(id)
	ev := rec.view(viewCreate) // array days: wrong for get
	for name, body := range map[string]any{
		"array weekly_days": ev,
		"bad attendance":    map[string]any{"event_id": id, "attendance_type": "on-site"},
		"status number":     map[string]any{"event_id": id, "status": 1},
	} {
		b, _ := json.Marshal(body)
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: 200,
			Header: http.Header{"Content-Type": {"application/json"}}, Options: c.opts}
		out.SetBodyBytes(b)
		if err := openapi3filter.ValidateResponse(context.Background(), out); err == nil || tolerated(err) {
			t.Errorf("%s: not caught (%v)", name, err)
		}
	}
	// A capitalised enum value is tolerated.
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: 200,
		Header: http.Header{"Content-Type": {"application/json"}}, Options: c.opts}
	out.SetBodyBytes([]byte(`{"event_id":"x","attendance_type":"Hybrid"}`))
	if err := openapi3filter.ValidateResponse(context.Background(), out); err == nil || !tolerated(err) {
		t.Errorf("capitalised enum: %v", err)
	}
}

func TestConformanceAttendees(t *testing.T) {
	c := newConformance(t)
	f := c.env.sim.Fixtures()
	id, sid := f.LargeConferenceEventID, f.LargeConferenceSessionID
	regs := c.env.sim.RegistrantEmails(id)
	batch := func(emails ...string) api.AttendeeActionRequest {
		req := api.AttendeeActionRequest{Source: "Desk-1"}
		for _, e := range emails {
			req.Attendees = append(req.Attendees, api.AttendeeAction{Action: api.ActionCheckIn, Email: e})
		}
		return req
	}
	events := "/vendor_events/events/"

	// Check-ins at the event and at a session, with a stranger in the batch.
	c.do("PATCH", events+id+"/attendee_action", batch(regs[0], regs[1], "stranger@example.org"), 201)
	c.do("PATCH", events+id+"/sessions/"+sid+"/attendee_action", batch(regs[:300]...), 201)
	c.bad("PATCH", events+id+"/attendee_action", batch(regs[:301]...), 400)
	c.do("PATCH", events+id+"/sessions/NoSuchSession000000000/attendee_action", batch(regs[0]), 404)
	c.do("PATCH", events+"NoSuchEvent000000000000/attendee_action", batch(regs[0]), 404)
	c.do("PATCH", events+f.OtherHostEventID+"/attendee_action", batch(regs[0]), 403)

	// Listings, first and second pages, filtered by email.
	c.do("GET", events+id+"/attendee_action", nil, 200)
	var page api.AttendeeActionList
	_ = json.Unmarshal(c.do("GET", events+id+"/sessions/"+sid+"/attendee_action?page_size=120", nil, 200), &page)
	c.do("GET", events+id+"/sessions/"+sid+"/attendee_action?page_size=120&next_page_token="+page.NextPageToken, nil, 200)
	c.do("GET", events+id+"/attendee_action?email="+regs[1], nil, 200)
	c.do("GET", events+"NoSuchEvent000000000000/attendee_action", nil, 404)

	// Sessions of a conference and of a recurring series; registrants.
	for _, ev := range []string{id, f.ConferenceEventID, f.RecurringEventID, f.UpcomingEventID} {
		c.do("GET", events+ev+"/sessions", nil, 200)
	}
	c.do("GET", events+f.OtherHostEventID+"/sessions", nil, 403)
	var regPage api.RegistrantList
	_ = json.Unmarshal(c.do("GET", events+id+"/registrants?page_size=300", nil, 200), &regPage)
	c.do("GET", events+id+"/registrants?page_size=300&next_page_token="+regPage.NextPageToken, nil, 200)
	c.do("GET", events+f.UpcomingEventID+"/registrants", nil, 200)
	c.do("GET", events+"NoSuchEvent000000000000/registrants", nil, 404)
	t.Logf("%d exchanges validated", c.checks)
}

func TestConformanceCoeditorsAndEmails(t *testing.T) {
	c := newConformance(t)
	f := c.env.sim.Fixtures()
	events := "/vendor_events/events/"

	// Co-editors: list an event that has some, then add, update and remove
	// on one that has none (the description's listing holds at most 3).
	empty := ""
	for _, id := range []string{f.UpcomingEventID, f.ConferenceEventID, f.PastEventID, f.DraftEventID, f.RecurringEventID,
		f.MonthlyEventID, f.NoRegistrantsEventID, f.LargeConferenceEventID, f.CancelledEventID} {
		c.do("GET", events+id+"/coeditors", nil, 200)
		if empty == "" && len(c.env.sim.Coeditors(id)) == 0 {
			empty = id
		}
	}
	if empty == "" {
		t.Fatal("no seeded event without co-editors")
	}
	add := api.CoeditorRequest{Operation: api.CoeditorAdd, Coeditors: []api.Coeditor{
		{Email: "ines.lopez@example.org", PermissionGroups: []string{api.PermRegistrationJoin, api.PermEmail}},
		{Email: DemoHostEmail, PermissionGroups: []string{api.PermPublish}},
		{Email: "kofi.mensah@example.org", PermissionGroups: api.PermissionGroupValues()},
	}}
	c.do("PATCH", events+empty+"/coeditors", add, 201)
	c.do("PATCH", events+empty+"/coeditors", add, 201) // every one refused now
	c.do("GET", events+empty+"/coeditors", nil, 200)
	c.do("PATCH", events+empty+"/coeditors", api.CoeditorRequest{Operation: api.CoeditorUpdate,
		Coeditors: []api.Coeditor{{Email: "ines.lopez@example.org", PermissionGroups: []string{api.PermAnalytics}}}}, 201)
	c.do("PATCH", events+empty+"/coeditors", api.CoeditorRequest{Operation: api.CoeditorDelete,
		Coeditors: []api.Coeditor{{Email: "kofi.mensah@example.org"}}}, 201)
	four := append(add.Coeditors, api.Coeditor{Email: "d@example.org"})
	c.bad("PATCH", events+empty+"/coeditors", api.CoeditorRequest{Operation: api.CoeditorAdd, Coeditors: four}, 400)
	c.bad("PATCH", events+empty+"/coeditors", map[string]any{"operation": "add",
		"coeditors": []map[string]any{{"email": "a@example.org", "permission_groups": []string{"Registration and Join"}}}}, 400)
	c.do("GET", events+"NoSuchEvent000000000000/coeditors", nil, 404)
	c.do("GET", events+f.OtherHostEventID+"/coeditors", nil, 403)
	c.do("PATCH", events+"NoSuchEvent000000000000/coeditors", add, 404)
	c.do("PATCH", events+f.OtherHostEventID+"/coeditors", add, 403)

	// Email types of every kind of event, filtered, and a second page.
	for _, id := range []string{f.UpcomingEventID, f.PastEventID, f.DraftEventID, f.CancelledEventID, f.RecurringEventID, f.BigEmailEventID} {
		c.do("GET", events+id+"/email_types", nil, 200)
	}
	for _, st := range api.EmailTypeStatuses {
		c.do("GET", events+f.UpcomingEventID+"/email_types?status="+st.Value, nil, 200)
	}
	var types api.EmailTypeList
	_ = json.Unmarshal(c.do("GET", events+f.UpcomingEventID+"/email_types?page_size=3", nil, 200), &types)
	c.do("GET", events+f.UpcomingEventID+"/email_types?page_size=3&next_page_token="+types.NextPageToken, nil, 200)
	// A bad status is a 400 (spec 7: every endpoint); the description lists
	// no 400 for this listing, so emails_test.go checks it instead.
	c.do("GET", events+"NoSuchEvent000000000000/email_types", nil, 404)
	c.do("GET", events+f.OtherHostEventID+"/email_types", nil, 403)

	// Send status: the big list's pages, each status, a search; every type
	// of a past and a cancelled event.
	big := events + f.BigEmailEventID + "/email_types/" + f.BigEmailTypeID + "/send_status"
	var page api.EmailSendList
	_ = json.Unmarshal(c.do("GET", big+"?page_size=300", nil, 200), &page)
	c.do("GET", big+"?page_size=300&next_page_token="+page.NextPageToken, nil, 200)
	for _, st := range api.SendStatuses {
		c.do("GET", big+"?status="+st.Value+"&page_size=300", nil, 200)
	}
	c.do("GET", big+"?search_text=silva", nil, 200)
	c.bad("GET", big+"?status=bounced", nil, 400)
	c.bad("GET", big+"?page_size=301", nil, 400)
	for _, id := range []string{f.PastEventID, f.CancelledEventID, f.UpcomingEventID} {
		for _, typeID := range c.env.sim.EmailTypeIDs(id) {
			c.do("GET", events+id+"/email_types/"+typeID+"/send_status?page_size=300", nil, 200)
		}
	}
	c.do("GET", events+"NoSuchEvent000000000000/email_types/"+f.BigEmailTypeID+"/send_status", nil, 404)
	c.do("GET", events+f.OtherHostEventID+"/email_types/"+f.BigEmailTypeID+"/send_status", nil, 403)
	t.Logf("%d exchanges validated", c.checks)
}

func TestConformanceAccessLinksAndRegistration(t *testing.T) {
	c := newConformance(t)
	f := c.env.sim.Fixtures()
	events := "/vendor_events/events/"
	ev := f.RecurringEventID
	links := events + ev + "/access_links"

	// Links: list (seeded), create with every field, get, update, delete.
	for _, id := range []string{ev, f.ConferenceEventID, f.DraftEventID, f.UpcomingEventID} {
		c.do("GET", events+id+"/access_links", nil, 200)
	}
	full := map[string]any{"name": "Partners", "type": "registration", "authentication_method": "vendor_account_otp",
		"is_default": true, "allow_domain_list": []string{"northwind.example", "contoso.example"},
		"email_restrict_list": []string{"ana@example.org"}, "recurring_registration_option": "single_session",
		"security_at_join": map[string]bool{"email_authentication": true, "security_code_verification": true}}
	var made api.AccessLink
	_ = json.Unmarshal(c.do("POST", links, full, 201), &made)
	c.do("POST", links, map[string]any{"name": "Crew", "type": "group-join", "authentication_method": "corporate_idp",
		"idp_name": "okta", "ticket_type_id": TicketTypeID(ev, "Speaker")}, 201)
	c.do("GET", links+"/"+made.AccessLinkID, nil, 200)
	c.do("PATCH", links+"/"+made.AccessLinkID, map[string]any{"name": "Partners 2027", "is_default": true,
		"recurring_registration_option": "multiple_sessions"}, 204)
	c.do("POST", links, map[string]any{"name": "partners 2027", "type": "registration", "authentication_method": "bypass_auth"}, 400)
	c.do("POST", links, map[string]any{"name": "Crew 2", "type": "group-join", "authentication_method": "bypass_auth",
		"ticket_type_id": "NoSuchType"}, 400)
	c.do("GET", links+"/NoSuchLink", nil, 404)
	c.do("PATCH", links+"/NoSuchLink", map[string]any{"name": "x"}, 404)
	c.do("DELETE", links+"/NoSuchLink", nil, 404)
	c.do("GET", events+f.OtherHostEventID+"/access_links", nil, 403)

	// Ticket types and tickets.
	c.do("GET", events+ev+"/ticket_types", nil, 200)
	c.do("GET", events+"NoSuchEvent000000000000/ticket_types", nil, 404)
	sessions := c.env.sim.SessionIDs(ev)
	c.do("POST", events+ev+"/tickets", map[string]any{"tickets": []any{
		map[string]any{"email": "ines.lopez@example.org", "first_name": "Ines", "last_name": "Lopez",
			"ticket_type_id": TicketTypeID(ev, "VIP"), "send_notification": false, "session_ids": sessions[:2]},
		map[string]any{"email": "kofi@example.org", "ticket_type_id": "NoSuchType", "session_ids": sessions[:1]},
	}}, 201)
	c.do("POST", events+ev+"/tickets", map[string]any{"tickets": []any{map[string]any{"email": "a@example.org"}}}, 400)
	c.do("POST", events+f.DraftEventID+"/tickets", map[string]any{"tickets": []any{map[string]any{"email": "a@example.org"}}}, 400)
	c.do("DELETE", links+"/"+made.AccessLinkID, nil, 204)
	t.Logf("%d exchanges validated", c.checks)
}

func TestConformanceExhibitors(t *testing.T) {
	c := newConformance(t)
	f := c.env.sim.Fixtures()
	path := "/vendor_events/events/" + f.ConferenceEventID + "/exhibitors"
	c.do("GET", path, nil, 200)
	tier := c.env.sim.SponsorTiers(f.ConferenceEventID)[0].ID
	sessions := c.env.sim.SessionIDs(f.ConferenceEventID)
	// The client's own request body, every field set.
	sponsor := api.ExhibitorCreate{Name: "Contoso Catering", ContactName: "Lee Park", ContactEmail: "lee@contoso.example",
		IsSponsor: true, TierID: tier, AssociatedSessions: sessions[:2], Description: "Lunch for everyone.",
		Website: "https://contoso.example", PrivacyPolicy: "https://contoso.example/privacy",
		LinkedInURL: "https://linkedin.com/company/contoso", TwitterURL: "https://twitter.com/contoso",
		InstagramURL: "https://instagram.com/contoso", FacebookURL: "https://facebook.com/contoso"}
	if err := sponsor.Validate(); err != nil {
		t.Fatal(err)
	}
	c.do("POST", path, sponsor, 201)
	// A non-sponsor still sends is_sponsor and an empty tier_id (both required).
	c.do("POST", path, api.ExhibitorCreate{Name: "Coho Kiosk", ContactName: "Ben Carter", ContactEmail: "ben@coho.example"}, 201)
	c.do("GET", path, nil, 200)
	c.bad("POST", path, map[string]any{"name": "No contact"}, 400)
	c.do("POST", path, api.ExhibitorCreate{Name: "Bad tier", ContactName: "A", ContactEmail: "a@example.org",
		IsSponsor: true, TierID: "NoSuchTier"}, 400)
	c.do("GET", "/vendor_events/events/"+f.UpcomingEventID+"/exhibitors", nil, 400)  // 1006
	c.do("GET", "/vendor_events/events/"+f.AttendedEventID+"/exhibitors", nil, 403)  // 3011
	c.do("GET", "/vendor_events/events/"+f.OtherHostEventID+"/exhibitors", nil, 403) // 260200
	c.do("GET", "/vendor_events/events/NoSuchEvent000000000000/exhibitors", nil, 404)
	t.Logf("%d exchanges validated", c.checks)
}
