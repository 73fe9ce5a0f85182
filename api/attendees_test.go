package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

func TestCheckInEventAndSession(t *testing.T) {
	f, _ := newCheckInFixture(t)
	ctx := context.Background()
	id, sid := f.ids.LargeConferenceEventID, f.ids.LargeConferenceSessionID
	regs := f.sim.RegistrantEmails(id)

	failed, err := f.client.Attendees.CheckIn(ctx, id, "", []string{" " + strings.ToUpper(regs[0]), regs[1], "walk.in@example.org"}, "Desk-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 1 || failed[0].Email != "walk.in@example.org" || failed[0].Message == "" {
		t.Fatalf("failed %+v", failed)
	}
	if got := emailsOf(f.sim.CheckIns(id, "")); !slices.Equal(got, regs[:2]) {
		t.Fatalf("event check-ins %v", got)
	}
	// A session is checked in on its own.
	if failed, err = f.client.Attendees.CheckIn(ctx, id, sid, []string{regs[0]}, "Door B"); err != nil || len(failed) != 0 {
		t.Fatalf("session check-in: %v %v", failed, err)
	}
	if got := f.sim.CheckIns(id, sid); len(got) != 1 || got[0].Email != regs[0] || got[0].Source != "Door B" {
		t.Fatalf("session check-ins %+v", got)
	}
	// The history reads back with the action in lower case.
	var listed []api.AttendeeAction
	for a, err := range f.client.Attendees.List(ctx, id, "", api.ListAttendeeActionsOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, a)
	}
	if len(listed) != 2 || listed[0] != (api.AttendeeAction{Action: api.ActionCheckIn, Email: regs[0], Source: "Desk-1"}) {
		t.Fatalf("listed %+v", listed)
	}
	one, err := f.client.Attendees.ListPage(ctx, id, sid, api.ListAttendeeActionsOptions{Email: strings.ToUpper(regs[0])}, "")
	if err != nil || one.TotalRecords != 1 || one.Attendees[0].Source != "Door B" {
		t.Fatalf("filtered session listing: %+v %v", one, err)
	}
}

func TestCheckInSplitsBatchesOf300(t *testing.T) {
	f, log := newCheckInFixture(t)
	ctx := context.Background()
	id := f.ids.LargeConferenceEventID
	regs := f.sim.RegistrantEmails(id)

	if _, err := f.client.Attendees.CheckIn(ctx, id, "", regs[:301], "Desk-1"); err != nil {
		t.Fatal(err)
	}
	if got := log.requests(); !slices.Equal(got, []int{300, 1}) {
		t.Fatalf("301 emails went out as %v", got)
	}
	if got := emailsOf(f.sim.CheckIns(id, "")); !slices.Equal(got, regs[:301]) {
		t.Fatalf("%d check-ins recorded", len(got))
	}
	// Duplicates (after normalising) are sent once: 300 distinct fit one request.
	dups := append(slices.Clone(regs[400:700]), strings.ToUpper(regs[400]), regs[401]+" ")
	if _, err := f.client.Attendees.CheckIn(ctx, id, "", dups, "Desk-1"); err != nil {
		t.Fatal(err)
	}
	if got := log.requests(); len(got) != 3 || got[2] != 300 {
		t.Fatalf("requests %v", got)
	}
	// 1000 go out as 300, 300, 300, 100, with refusals gathered from all.
	list := append(slices.Clone(regs[1000:1999]), "ghost@example.org")
	failed, err := f.client.Attendees.CheckIn(ctx, id, "", list, "Desk-1")
	if err != nil || len(failed) != 1 || failed[0].Email != "ghost@example.org" {
		t.Fatalf("failed %v, err %v", failed, err)
	}
	if got := log.requests()[3:]; !slices.Equal(got, []int{300, 300, 300, 100}) {
		t.Fatalf("1000 emails went out as %v", got)
	}
}

func TestCheckInValidation(t *testing.T) {
	f, log := newCheckInFixture(t)
	ctx := context.Background()
	id := f.ids.LargeConferenceEventID
	var ve *api.ValidationError
	_, err := f.client.Attendees.CheckIn(ctx, id, "", nil, "")
	if !errors.As(err, &ve) || ve.Problems[0].Field != "attendees" {
		t.Errorf("no emails: %v", err)
	}
	_, err = f.client.Attendees.CheckIn(ctx, id, "", []string{"ok@example.org", "not an email", "a@b"}, "")
	if !errors.As(err, &ve) || len(ve.Problems) != 2 || ve.Problems[0].Field != "attendees[1].email" || ve.Problems[1].Field != "attendees[2].email" {
		t.Errorf("bad emails: %v", err)
	}
	if _, err := f.client.Attendees.CheckIn(ctx, "", "", []string{"ok@example.org"}, ""); !errors.Is(err, api.ErrNoEventID) {
		t.Errorf("no event id: %v", err)
	}
	if n := len(log.requests()); n != 0 {
		t.Fatalf("%d requests sent for invalid input", n)
	}

	// The request type's own rules.
	req := &api.AttendeeActionRequest{}
	for range 301 {
		req.Attendees = append(req.Attendees, api.AttendeeAction{Action: "Check-in", Email: "x@example.org"})
	}
	err = req.Validate()
	if !errors.As(err, &ve) || ve.Problems[0].Field != "attendees" || ve.Problems[1].Field != "attendees[0].action" {
		t.Fatalf("301 with a capitalised action: %v", err)
	}
	for _, bad := range []string{"", "plain", "@example.org", "a@example", "a b@example.org", "a@@example.org", "a@example..org"} {
		if api.CheckEmail(bad) == nil {
			t.Errorf("%q passes as an email address", bad)
		}
	}
	for _, good := range []string{"ana.costa@example.org", "o'neil+desk@mail.example.co.uk"} {
		if err := api.CheckEmail(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
}

func TestCheckInErrorCodes(t *testing.T) {
	f, _ := newCheckInFixture(t)
	ctx := context.Background()
	id := f.ids.LargeConferenceEventID
	one := []string{f.sim.RegistrantEmails(id)[0]}
	_, err := f.client.Attendees.CheckIn(ctx, id, "NoSuchSession000000000", one, "")
	wantCode(t, err, 404, api.CodeSessionNotFound)
	_, err = f.client.Attendees.CheckIn(ctx, "NoSuchEvent000000000000", "", one, "")
	wantCode(t, err, 404, api.CodeEventNotFoundForUpdate)
	_, err = f.client.Attendees.CheckIn(ctx, "NoSuchEvent000000000000", f.ids.LargeConferenceSessionID, one, "")
	wantCode(t, err, 404, api.CodeEventNotFoundForUpdate)
	_, err = f.client.Attendees.CheckIn(ctx, f.ids.OtherHostEventID, "", one, "")
	wantCode(t, err, 403, api.CodeEventAccessDenied)
	_, err = f.client.Attendees.ListPage(ctx, "NoSuchEvent000000000000", "", api.ListAttendeeActionsOptions{}, "")
	wantCode(t, err, 404, api.CodeEventNotFound)
	_, err = f.client.Attendees.ListPage(ctx, id, "NoSuchSession000000000", api.ListAttendeeActionsOptions{}, "")
	wantCode(t, err, 404, api.CodeSessionNotFound)
	_, err = f.client.Attendees.Sessions(ctx, f.ids.OtherHostEventID)
	wantCode(t, err, 403, api.CodeEventAccessDenied)
	_, err = f.client.Attendees.RegistrantsPage(ctx, "NoSuchEvent000000000000", api.ListRegistrantsOptions{}, "")
	wantCode(t, err, 404, api.CodeEventNotFound)
	if !strings.Contains(err.Error(), "event not found") {
		t.Errorf("message %q", err)
	}
	// A later request failing reports which one, and keeps earlier refusals.
	regs := f.sim.RegistrantEmails(id)
	list := append([]string{"ghost@example.org"}, regs[:400]...)
	c, err := api.New(api.WithBaseURL(f.srv.URL+"/v2"), api.WithToken(sim.ReadOnlyToken), api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Attendees.CheckIn(ctx, id, "", list, ""); !api.IsStatus(err, 403) || !strings.Contains(err.Error(), "request 1 of 2") {
		t.Errorf("read-only token: %v", err)
	}
}

func TestCheckInHistoryPagesAcrossTokenExpiry(t *testing.T) {
	f, _ := newCheckInFixture(t)
	ctx := context.Background()
	id, sid := f.ids.LargeConferenceEventID, f.ids.LargeConferenceSessionID
	regs := f.sim.RegistrantEmails(id)
	if _, err := f.client.Attendees.CheckIn(ctx, id, sid, regs[:700], "Desk-1"); err != nil {
		t.Fatal(err)
	}
	p := f.client.Attendees.Pager(id, sid, api.ListAttendeeActionsOptions{PageSize: 150})
	var got []string
	for a, err := range p.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, a.Email)
		if len(got) == 200 {
			f.clock.Advance(16 * time.Minute) // the token in hand is stale now
		}
	}
	if !slices.Equal(got, regs[:700]) || p.Total() != 700 || p.Restarts() != 1 {
		t.Fatalf("delivered %d of %d, restarts %d", len(got), p.Total(), p.Restarts())
	}
}

func TestRegistrantsAndSessions(t *testing.T) {
	f, _ := newCheckInFixture(t)
	ctx := context.Background()
	id := f.ids.LargeConferenceEventID
	p := f.client.Attendees.RegistrantsPager(id, api.ListRegistrantsOptions{PageSize: 300})
	n := 0
	pages := 0
	for !p.Done() {
		items, err := p.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range items {
			if api.CheckEmail(r.Email) != nil || r.RegistrationStatus == "" || len(r.Tickets) == 0 {
				t.Fatalf("registrant %+v", r)
			}
			n++
		}
	}
	if n != sim.LargeConferenceRegistrants || p.Total() != n || pages != (n+299)/300 {
		t.Fatalf("%d registrants in %d pages, total %d", n, pages, p.Total())
	}
	sessions, err := f.client.Attendees.Sessions(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) < 4 || sessions[0].SessionID != f.ids.LargeConferenceSessionID || sessions[0].StartTime == nil {
		t.Fatalf("sessions %+v", sessions)
	}
	if none, err := f.client.Attendees.Sessions(ctx, f.ids.UpcomingEventID); err != nil || none == nil || len(none) != 0 {
		t.Fatalf("sessions of a single-session event: %v %v", none, err)
	}
}

func TestUnknownFieldsAreKept(t *testing.T) {
	in := `{"session_id":"s1","name":"Keynote","type":4,"room_capacity":250,"badges":{"color":"red"}}`
	var s api.Session
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	if s.SessionID != "s1" || s.Type != api.SessionTypeNone || len(s.Extra) != 2 || string(s.Extra["room_capacity"]) != "250" {
		t.Fatalf("decoded %+v", s)
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	_ = json.Unmarshal(out, &back)
	if back["room_capacity"] != float64(250) || back["name"] != "Keynote" {
		t.Fatalf("encoded %s", out)
	}
	var r api.Registrant
	if err := json.Unmarshal([]byte(`{"email":"a@example.org","registration_status":"Registered","first_name":"Ana"}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.RegistrationStatus != api.RegistrationRegistered || string(r.Extra["first_name"]) != `"Ana"` {
		t.Fatalf("registrant %+v", r)
	}
}

// TestCheckInThroughFaults: the PATCH is repeatable, so 5xx answers and lost
// responses are retried, and each attendee is recorded once.
func TestCheckInThroughFaults(t *testing.T) {
	f, log := newCheckInFixture(t)
	ctx := context.Background()
	id := f.ids.LargeConferenceEventID
	regs := f.sim.RegistrantEmails(id)
	f.sim.SetFaults(0, 0.2, 0.2)
	for i := 0; i < 3000; i += 300 {
		if _, err := f.client.Attendees.CheckIn(ctx, id, "", regs[i:i+300], "Desk-1"); err != nil {
			t.Fatal(err)
		}
	}
	if got := emailsOf(f.sim.CheckIns(id, "")); !slices.Equal(got, regs[:3000]) {
		t.Fatalf("%d recorded", len(got))
	}
	if n := len(log.requests()); n <= 10 {
		t.Errorf("%d requests: the faults did not bite", n)
	}
}

func TestCheckEmailRefusesInvisibleCharacters(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\x1b[2J@x.org", "contains a control character (U+001B) at position 2"},
		{"a@x.org\x00", "contains a control character (U+0000) at position 8"},
		{"a\x7f@x.org", "contains a control character (U+007F) at position 2"},
		{"a\u0085b@x.org", "contains a control character (U+0085) at position 2"},
		{"a\u009b2J@x.org", "contains a control character (U+009B) at position 2"},
		{"\u202eabc@x.org", "contains a bidirectional control character (U+202E) at position 1"},
		{"ab\u2066c@x.org", "contains a bidirectional control character (U+2066) at position 3"},
		{"ab@x\u200f.org", "contains a bidirectional control character (U+200F) at position 5"},
		{"a b@x.org", "contains a space (U+0020) at position 2"},
		{"ab@x.org\n", "contains a control character (U+000A) at position 9"},
		{"ab\u00a0@x.org", "contains a space (U+00A0) at position 3"},
		{"ab\u3000@x.org", "contains a space (U+3000) at position 3"},
		{"é\xff@x.org", "is not valid UTF-8 (at position 2)"},
		{"a@x.org\xc3", "is not valid UTF-8 (at position 8)"},
	} {
		err := api.CheckEmail(c.in)
		if want := fmt.Sprintf("%q is not an email address: it ", c.in) + c.want; err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
	// A literal replacement character is text, not broken encoding; other
	// rules still apply to the address around it.
	for _, good := range []string{"jos\u00e9@exampl\u00e9.org", "\ufffd@x.org", "用户@例子.广告"} {
		if err := api.CheckEmail(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
}

func FuzzCheckEmail(f *testing.F) {
	for _, s := range []string{"ana@example.org", "a\x1b[2J@x.org", "\u202e@x.org", "a\xff@x.org", "a b@x.org"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if api.CheckEmail(s) != nil {
			return
		}
		if !utf8.ValidString(s) {
			t.Fatalf("%q passes but is not UTF-8", s)
		}
		for _, r := range s {
			if unicode.IsControl(r) || unicode.IsSpace(r) || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) {
				t.Fatalf("%q passes with %U", s, r)
			}
		}
	})
}
