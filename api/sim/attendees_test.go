package sim

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
)

var believableEmail = regexp.MustCompile(`^[a-z]+([._]?[a-z]+)?[0-9]*@[a-z]+(\.[a-z]+)+$`)

func TestRegistrantsSeed(t *testing.T) {
	s := New(Options{Now: newFakeClock(testEpoch).Now})
	f := s.Fixtures()
	emails := s.RegistrantEmails(f.LargeConferenceEventID)
	if len(emails) != LargeConferenceRegistrants {
		t.Fatalf("large conference has %d registrants", len(emails))
	}
	seen := map[string]bool{}
	for _, e := range emails {
		if seen[e] {
			t.Fatalf("%s registered twice", e)
		}
		seen[e] = true
		if !believableEmail.MatchString(e) || api.CheckEmail(e) != nil {
			t.Fatalf("%q does not look like a person's address", e)
		}
	}
	// The same people on every run, whatever the order of first use.
	again := New(Options{Now: newFakeClock(testEpoch.Add(3 * time.Hour)).Now})
	again.RegistrantEmails(f.UpcomingEventID)
	if !slices.Equal(again.RegistrantEmails(f.LargeConferenceEventID), emails) {
		t.Error("registrants differ between runs")
	}
	// Every published event has as many registrants as its count; drafts none.
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	small := 0
	for _, e := range s.st.events {
		n := len(s.attendanceOf(e).registrants)
		if n != e.registrants {
			t.Errorf("%s: %d registrants listed, count %d", e.ev.Name, n, e.registrants)
		}
		if e.isDraft() && n != 0 {
			t.Errorf("draft %s has registrants", e.ev.Name)
		}
		if n > 0 && n < 50 {
			small++
		}
	}
	if small == 0 {
		t.Error("no event with a handful of registrants")
	}
	// A host registered for another host's event is on its list.
	if _, ok := s.attendanceOf(s.st.events[f.AttendedEventID]).byEmail[DemoHostEmail]; !ok {
		t.Error("the demo host is not among the registrants of the event it attends")
	}
}

func TestSessionsSeed(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	var large, conf, rec, simple api.SessionList
	e.do("GET", "/events/"+f.LargeConferenceEventID+"/sessions", DemoToken, nil).decode(t, 200, &large)
	e.do("GET", "/events/"+f.ConferenceEventID+"/sessions", DemoToken, nil).decode(t, 200, &conf)
	e.do("GET", "/events/"+f.RecurringEventID+"/sessions", DemoToken, nil).decode(t, 200, &rec)
	e.do("GET", "/events/"+f.UpcomingEventID+"/sessions", DemoToken, nil).decode(t, 200, &simple)
	if len(large.Sessions) != 12 || large.TotalRecords != 12 || len(conf.Sessions) != 12 || len(rec.Sessions) != 8 {
		t.Fatalf("sessions: large %d, conference %d, recurring %d", len(large.Sessions), len(conf.Sessions), len(rec.Sessions))
	}
	if simple.Sessions == nil || len(simple.Sessions) != 0 {
		t.Errorf("single-session event: %+v", simple)
	}
	if large.Sessions[0].SessionID != f.LargeConferenceSessionID || conf.Sessions[0].SessionID != f.ConferenceSessionID ||
		rec.Sessions[0].SessionID != f.RecurringSessionID {
		t.Error("fixtures do not name the first sessions")
	}
	ids := map[string]bool{}
	for _, l := range []api.SessionList{large, conf, rec} {
		for i, ss := range l.Sessions {
			if !seededID.MatchString(ss.SessionID) || ids[ss.SessionID] {
				t.Errorf("session id %q", ss.SessionID)
			}
			ids[ss.SessionID] = true
			if ss.Name == "" || ss.StartTime == nil || ss.EndTime == nil || !ss.EndTime.After(*ss.StartTime) {
				t.Errorf("session %+v", ss)
			}
			if i > 0 && ss.StartTime.Before(*l.Sessions[i-1].StartTime) {
				t.Errorf("%s starts before the session listed ahead of it", ss.Name)
			}
		}
	}
	if large.Sessions[0].Name != "Opening Keynote" || len(large.Sessions[0].Speakers) != 1 || large.Sessions[0].WebinarID == 0 ||
		!strings.Contains(large.Sessions[0].PhysicalLocation, "Sands Expo") {
		t.Errorf("keynote: %+v", large.Sessions[0])
	}
	if rec.Sessions[0].Type != api.SessionTypeNone { // pottery is in person
		t.Errorf("recurring in-person session type %d", rec.Sessions[0].Type)
	}
	e.do("GET", "/events/NoSuchEvent000000000000/sessions", DemoToken, nil).wantError(t, 404, api.CodeEventNotFound)
	e.do("GET", "/events/"+f.OtherHostEventID+"/sessions", DemoToken, nil).wantError(t, 403, api.CodeEventAccessDenied)
}

// patch sends a check-in batch to the event or, with sid, to one session.
func (e *env) patch(token, id, sid string, body any) reply {
	e.t.Helper()
	path := "/events/" + id + "/attendee_action"
	if sid != "" {
		path = "/events/" + id + "/sessions/" + sid + "/attendee_action"
	}
	return e.do("PATCH", path, token, body)
}

func checkInBodyOf(source string, emails ...string) map[string]any {
	var at []map[string]string
	for _, em := range emails {
		at = append(at, map[string]string{"email": em, "action": "check-in"})
	}
	return map[string]any{"attendees": at, "source": source}
}

func TestCheckInRecordsOnceWithTimeAndSource(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	id, sid := f.LargeConferenceEventID, f.LargeConferenceSessionID
	regs := e.sim.RegistrantEmails(id)

	var res struct {
		Errors []api.BatchError `json:"errors"`
	}
	// Mixed case and spaces are the same person; strangers are reported.
	e.patch(DemoToken, id, "", checkInBodyOf("Desk-1", "  "+strings.ToUpper(regs[0])+" ", regs[1], "nobody@example.org")).decode(t, 201, &res)
	if len(res.Errors) != 1 || res.Errors[0].Email != "nobody@example.org" || !strings.Contains(res.Errors[0].Message, "not registered") {
		t.Fatalf("errors %+v", res.Errors)
	}
	e.clock.Advance(time.Minute)
	// A repeat is a success that records nothing new.
	e.patch(DemoToken, id, "", checkInBodyOf("Desk-2", regs[0], regs[2])).decode(t, 201, &res)
	if len(res.Errors) != 0 {
		t.Fatalf("repeat: %+v", res.Errors)
	}
	got := e.sim.CheckIns(id, "")
	want := []CheckInRecord{{regs[0], "Desk-1", testEpoch}, {regs[1], "Desk-1", testEpoch}, {regs[2], "Desk-2", testEpoch.Add(time.Minute)}}
	if !slices.Equal(got, want) {
		t.Fatalf("records %+v\nwant %+v", got, want)
	}
	// A session keeps its own list; a per-attendee source wins.
	body := map[string]any{"attendees": []map[string]string{{"email": regs[0], "action": "Check-in", "source": "Door B"}}, "source": "Desk-1"}
	e.patch(DemoToken, id, sid, body).decode(t, 201, &res)
	if got := e.sim.CheckIns(id, sid); len(got) != 1 || got[0].Source != "Door B" {
		t.Fatalf("session records %+v", got)
	}
	if len(e.sim.CheckIns(id, "")) != 3 || len(e.sim.CheckIns(id, e.sim.SessionIDs(id)[1])) != 0 {
		t.Error("a session check-in leaked into another list")
	}
}

func TestCheckInErrors(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	id, sid := f.LargeConferenceEventID, f.LargeConferenceSessionID
	regs := e.sim.RegistrantEmails(id)

	r := e.patch(DemoToken, id, "", checkInBodyOf("d", regs[:301]...))
	r.wantError(t, 400, CodeValidation)
	if !r.hasField("attendees") {
		t.Errorf("301 attendees: %s", r.body)
	}
	if len(e.sim.CheckIns(id, "")) != 0 {
		t.Fatal("a refused batch recorded check-ins")
	}
	e.patch(DemoToken, id, "", checkInBodyOf("d", regs[:300]...)).decode(t, 201, nil)
	e.patch(DemoToken, id, "", map[string]any{"attendees": []any{}}).wantError(t, 400, CodeValidation)
	r = e.patch(DemoToken, id, "", map[string]any{"attendees": []map[string]string{{"email": regs[0], "action": "check-out"}}})
	if r.wantError(t, 400, CodeValidation); !r.hasField("attendees[0].action") {
		t.Errorf("bad action: %s", r.body)
	}
	r = e.patch(DemoToken, id, "", map[string]any{"attendees": []map[string]string{{"action": "check-in"}}})
	if r.wantError(t, 400, CodeValidation); !r.hasField("attendees[0].email") {
		t.Errorf("no email: %s", r.body)
	}
	one := checkInBodyOf("d", regs[0])
	e.patch(DemoToken, id, "NoSuchSession000000000", one).wantError(t, 404, api.CodeSessionNotFound)
	e.patch(DemoToken, f.UpcomingEventID, sid, one).wantError(t, 404, api.CodeSessionNotFound) // another event's session
	e.patch(DemoToken, "NoSuchEvent000000000000", "", one).wantError(t, 404, api.CodeEventNotFoundForUpdate)
	e.patch(DemoToken, "NoSuchEvent000000000000", sid, one).wantError(t, 404, api.CodeEventNotFoundForUpdate)
	e.patch(DemoToken, f.OtherHostEventID, "", one).wantError(t, 403, api.CodeEventAccessDenied)
	e.do("GET", "/events/NoSuchEvent000000000000/attendee_action", DemoToken, nil).wantError(t, 404, api.CodeEventNotFound)
	e.do("GET", "/events/"+id+"/sessions/NoSuchSession000000000/attendee_action", DemoToken, nil).wantError(t, 404, api.CodeSessionNotFound)
	e.do("GET", "/events/"+f.OtherHostEventID+"/attendee_action", DemoToken, nil).wantError(t, 403, api.CodeEventAccessDenied)
	e.do("GET", "/events/"+f.OtherHostEventID+"/registrants", DemoToken, nil).wantError(t, 403, api.CodeEventAccessDenied)
	e.do("GET", "/events/NoSuchEvent000000000000/registrants", DemoToken, nil).wantError(t, 404, api.CodeEventNotFound)

	// Scopes: read-only may list but not check in; the granular scopes of
	// the session endpoints are their own.
	e.patch(ReadOnlyToken, id, "", one).wantError(t, 403, CodeMissingScope)
	e.do("GET", "/events/"+id+"/attendee_action", ReadOnlyToken, nil).decode(t, 200, nil)
	e.do("GET", "/events/"+id+"/registrants", ReadOnlyToken, nil).decode(t, 200, nil)
	e.sim.st.mu.Lock()
	u := e.sim.st.users[DemoHostID]
	e.sim.st.addToken("event-desk", u, []string{"vendor_events:update:batch_attendee_actions"})
	e.sim.st.addToken("session-desk", u, []string{"vendor_events:update:batch_session_attendee_actions:admin"})
	e.sim.st.mu.Unlock()
	e.patch("event-desk", id, "", one).decode(t, 201, nil)
	e.patch("event-desk", id, sid, one).wantError(t, 403, CodeMissingScope)
	e.patch("session-desk", id, sid, one).decode(t, 201, nil)
	e.patch("session-desk", id, "", one).wantError(t, 403, CodeMissingScope)
}

func TestCheckInListing(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	id := f.LargeConferenceEventID
	regs := e.sim.RegistrantEmails(id)
	e.patch(DemoToken, id, "", checkInBodyOf("Desk-1", regs[:250]...)).decode(t, 201, nil)

	var all []string
	q := url.Values{"page_size": {"100"}}
	for range 10 {
		var page struct {
			Attendees     []map[string]string `json:"attendees"`
			NextPageToken string              `json:"next_page_token"`
			TotalRecords  int                 `json:"total_records"`
		}
		e.do("GET", "/events/"+id+"/attendee_action?"+q.Encode(), DemoToken, nil).decode(t, 200, &page)
		if page.TotalRecords != 250 {
			t.Fatalf("total_records %d", page.TotalRecords)
		}
		for _, a := range page.Attendees {
			if a["action"] != "Check-in" || a["source"] != "Desk-1" {
				t.Fatalf("entry %v", a)
			}
			all = append(all, a["email"])
		}
		if page.NextPageToken == "" {
			break
		}
		q.Set("next_page_token", page.NextPageToken)
	}
	if !slices.Equal(all, regs[:250]) {
		t.Fatalf("listed %d entries, not the 250 check-ins in order", len(all))
	}
	var one struct {
		Attendees    []map[string]string `json:"attendees"`
		TotalRecords int                 `json:"total_records"`
	}
	e.do("GET", "/events/"+id+"/attendee_action?email="+url.QueryEscape(strings.ToUpper(regs[7])), DemoToken, nil).decode(t, 200, &one)
	if one.TotalRecords != 1 || one.Attendees[0]["email"] != regs[7] {
		t.Errorf("email filter: %+v", one)
	}
	e.do("GET", "/events/"+id+"/attendee_action?page_size=301", DemoToken, nil).wantError(t, 400, CodeValidation)

	// Registrants page through the whole crowd, each once.
	seen := map[string]bool{}
	rq := url.Values{"page_size": {"300"}}
	for range 100 {
		var page api.RegistrantList
		e.do("GET", "/events/"+id+"/registrants?"+rq.Encode(), DemoToken, nil).decode(t, 200, &page)
		for _, r := range page.Registrants {
			if seen[r.Email] || len(r.Tickets) != 1 || r.Tickets[0].QRCodeURL == "" || r.RegistrationStatus == "" {
				t.Fatalf("registrant %+v", r)
			}
			seen[r.Email] = true
		}
		if page.NextPageToken == "" {
			break
		}
		rq.Set("next_page_token", page.NextPageToken)
	}
	if len(seen) != LargeConferenceRegistrants {
		t.Fatalf("paged through %d registrants", len(seen))
	}
}

// TestCheckInBehindFaults shows the fault knobs cover the new routes: a 5xx
// records nothing, a response lost after the change still recorded it.
func TestCheckInBehindFaults(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	id := f.LargeConferenceEventID
	regs := e.sim.RegistrantEmails(id)
	e.sim.SetFaults(0, 1, 0)
	r := e.patch(DemoToken, id, "", checkInBodyOf("d", regs[0]))
	if r.status < 500 || len(e.sim.CheckIns(id, "")) != 0 {
		t.Fatalf("with every request failing: %d, %d records", r.status, len(e.sim.CheckIns(id, "")))
	}
	e.sim.SetFaults(0, 0, 1)
	applied := 0
	for i := range 20 {
		if _, err := e.try(t.Context(), "PATCH", "/events/"+id+"/attendee_action", DemoToken, checkInBodyOf("d", regs[i])); err == nil {
			t.Fatal("a dropped connection answered")
		}
		applied = len(e.sim.CheckIns(id, ""))
	}
	if applied == 0 || applied == 20 {
		t.Fatalf("%d of 20 dropped check-ins applied; want some (dropped after) and not all (dropped before)", applied)
	}
}

func TestRegistrantsJSONShape(t *testing.T) {
	e := newEnv(t, Options{})
	var raw map[string]json.RawMessage
	e.do("GET", "/events/"+e.sim.Fixtures().UpcomingEventID+"/registrants?page_size=2", DemoToken, nil).decode(t, 200, &raw)
	for _, k := range []string{"registrants", "next_page_token", "total_records"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("no %s in %s", k, fmt.Sprint(raw))
		}
	}
}
