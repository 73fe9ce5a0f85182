package registration

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/viewtest"
)

type rig struct {
	*uitest.Driver
	sim    *sim.Sim
	client *api.Client
	id     string
	screen *Screen
	// learned is what the screen handed its learner.
	learned []api.TicketRequest
}

func newRig(t *testing.T, w, h int, pick func(sim.Fixtures) string) *rig {
	t.Helper()
	srv := viewtest.NewServer(t)
	s, client := srv.Sim, srv.Client(t, sim.DemoToken)
	r := &rig{sim: s, client: client, id: pick(s.Fixtures())}
	r.Driver = viewtest.Open(t, w, h, func(c *ui.Context) ui.Screen {
		r.screen = New(c, views.Env{Client: client, Now: viewtest.Clock,
			LearnNames: func(_ string, asked []api.TicketRequest, res *api.TicketsResult) {
				if res != nil && len(res.Tickets) > 0 {
					r.learned = append(r.learned, asked...)
				}
			}}, r.id, "Pottery for Beginners").(*Screen)
		return r.screen
	})
	return r
}

func TestRecurringFlowRegistersAttendees(t *testing.T) {
	r := newRig(t, 100, 30, func(f sim.Fixtures) string { return f.RecurringEventID })
	r.Contains("[x] 1 Hub", "[x] 2 Published", "3 Access link Registration [registration]", "Ticket type General admission",
		"Registers   one or more sessions per ticket", "[ ] 4 Sessions    0 of", "not yet: choose one or more sessions")
	r.Lacks("multiple_sessions") // words, not the API's value
	r.Press("a")
	r.Contains("Cannot register yet: choose one or more sessions")
	// e chooses the link and the ticket type: keep the link, take VIP.
	r.Press("e")
	r.Contains("Link and ticket type for", "Access link", "Ticket type", "Staff and speakers [group-join]")
	r.Press("enter", "down", "enter")
	r.Press("space", "down", "down", "space")
	r.Contains("Ticket type VIP", "2 of")
	r.Golden("steps")
	r.Press("a")
	r.Contains("Register attendees for", "One a line")
	r.Type("ines.lopez@example.org, Ines, Lopez")
	r.Press("ctrl+j")
	r.Type("not-an-email")
	r.Press("enter")
	r.Contains("line 2: email")
	r.Press("backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	r.Type("kofi.mensah@example.org")
	r.Press("enter")
	r.Contains("OK registered 2 people (2 tickets)", "OK      ines.lopez@example.org: 1 ticket", "kofi.mensah@example.org")
	r.Golden("registered")
	regs := r.sim.RegistrantEmails(r.id)
	if !slices.Contains(regs, "ines.lopez@example.org") || !slices.Contains(regs, "kofi.mensah@example.org") {
		t.Fatalf("registrants lack the new people: %d", len(regs))
	}
	// The desks learn the names typed (roster.LearnTickets keeps them).
	if len(r.learned) != 2 || r.learned[0].FirstName != "Ines" || r.learned[0].LastName != "Lopez" {
		t.Fatalf("learned %+v", r.learned)
	}
	// The group-join link brings its own ticket type when the type is left
	// as it was.
	r.Press("e", "down", "enter", "enter")
	r.Contains("Staff and speakers [group-join]", "Ticket type Speaker")
	// ...but not over a type picked in the same form.
	r.Press("e", "up", "enter", "enter")
	r.Contains("Registration [registration]")
	r.Press("e", "down", "enter", "up", "enter")
	r.Contains("Staff and speakers [group-join]", "Ticket type VIP")
}

func TestAllOrNoneSessions(t *testing.T) {
	r := newRig(t, 100, 30, func(f sim.Fixtures) string { return f.RecurringEventID })
	n := len(r.offered(t))
	r.Press("A")
	r.Contains(fmt.Sprintf("%d of %d chosen", n, n))
	r.Press("space") // one off
	r.Contains(fmt.Sprintf("%d of %d chosen", n-1, n))
	r.Press("A") // not all chosen: all again
	r.Contains(fmt.Sprintf("%d of %d chosen", n, n))
	r.Press("A")
	r.Contains(fmt.Sprintf("0 of %d chosen", n))
}

// offered are the recurring event's sessions that have not ended by the
// tests' clock, straight from the server.
func (r *rig) offered(t *testing.T) []api.Session {
	t.Helper()
	all, err := r.client.Attendees.Sessions(context.Background(), r.id)
	if err != nil {
		t.Fatal(err)
	}
	var out []api.Session
	for _, ss := range all {
		if ss.EndTime.After(viewtest.Now) {
			out = append(out, ss)
		}
	}
	if len(out) == 0 || len(out) == len(all) {
		t.Fatalf("the fixture should have past and future sessions: %d of %d", len(out), len(all))
	}
	return out
}

// Sessions that are over are never offered, so they can neither be chosen
// nor sent.
func TestPastSessionsAreNeverOffered(t *testing.T) {
	r := newRig(t, 100, 40, func(f sim.Fixtures) string { return f.RecurringEventID })
	all, err := r.client.Attendees.Sessions(context.Background(), r.id)
	if err != nil {
		t.Fatal(err)
	}
	offered := r.offered(t)
	r.Contains(fmt.Sprintf("0 of %d chosen", len(offered)), fmt.Sprintf("%d sessions", len(offered)))
	for _, ss := range all {
		when := ss.StartTime.In(mustZone(t, ss.Timezone)).Format("Mon 02 Jan 15:04 MST")
		if slices.ContainsFunc(offered, func(o api.Session) bool { return o.SessionID == ss.SessionID }) {
			r.Contains(when)
		} else {
			r.Lacks(when)
		}
	}
	// A chooses every session offered; the request names only those.
	r.Press("A")
	req := r.screen.request("ana@example.org", nil)
	if len(req.Tickets) != 1 || len(req.Tickets[0].SessionIDs) != len(offered) {
		t.Fatalf("request: %+v", req.Tickets)
	}
	for _, id := range req.Tickets[0].SessionIDs {
		if !slices.ContainsFunc(offered, func(o api.Session) bool { return o.SessionID == id }) {
			t.Errorf("past session %s sent", id)
		}
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestNotOver(t *testing.T) {
	now := viewtest.Now
	at := func(d time.Duration) *time.Time { v := now.Add(d); return &v }
	all := []api.Session{
		{SessionID: "ended", StartTime: at(-2 * time.Hour), EndTime: at(-time.Hour)},
		{SessionID: "running", StartTime: at(-time.Hour), EndTime: at(time.Hour)},
		{SessionID: "later", StartTime: at(time.Hour), EndTime: at(2 * time.Hour)},
		{SessionID: "started, no end", StartTime: at(-time.Minute)},
		{SessionID: "no times"},
	}
	var got []string
	for _, ss := range notOver(all, now) {
		got = append(got, ss.SessionID)
	}
	if want := []string{"running", "later", "no times"}; !slices.Equal(got, want) {
		t.Errorf("offered %v, want %v", got, want)
	}
}

// A draft says at once, in words, that it takes no registrations; nothing
// else is offered.
func TestDraftEventIsRefusedAtOnce(t *testing.T) {
	r := newRig(t, 80, 24, func(f sim.Fixtures) string { return f.DraftEventID })
	r.Contains("registration closed", `CLOSED "Pottery for Beginners" is a draft: publish it first (p on the event`)
	r.Lacks("Access link", "5 Attendees")
	r.Press("a")
	r.Contains("Registration is closed")
	r.Lacks("One a line")
	r.Golden("draft_80x24")
	// Published meanwhile: r reloads the whole flow, which opens.
	if _, err := r.client.Events.Publish(context.Background(), r.id); err != nil {
		t.Fatal(err)
	}
	r.Press("r")
	r.Contains("[x] 2 Published", "3 Access link", "5 Attendees")
	r.Lacks("registration closed")
}

// A cancelled event keeps its PUBLISHED status; the screen still refuses it
// at once instead of failing at the create-tickets call.
func TestCancelledEventIsRefusedAtOnce(t *testing.T) {
	r := newRig(t, 80, 24, func(f sim.Fixtures) string { return f.CancelledEventID })
	e, err := r.client.Events.Get(context.Background(), r.id)
	if err != nil || e.Status != api.StatusPublished {
		t.Fatalf("fixture: %v %v", e, err)
	}
	before := len(r.sim.RegistrantEmails(r.id))
	r.Contains("registration closed", `CLOSED "Pottery for Beginners" was cancelled: a cancelled event takes no`)
	r.Lacks("[x] 2 Published", "Access link")
	r.Press("enter")
	r.Press("e")
	r.Lacks("One a line", "Link and ticket type")
	if n := len(r.sim.RegistrantEmails(r.id)); n != before {
		t.Errorf("registrants went from %d to %d", before, n)
	}
	r.Golden("cancelled_80x24")
}

// Every key of the flow means one thing, and none is the event detail's
// l (access links) or t (registration).
func TestKeysMeanOneThing(t *testing.T) {
	keys := ui.DefaultGlobalKeys()
	s := New(&ui.Context{Theme: ui.NewTheme(true, true), Keys: keys}, views.Env{}, "e1", "Pottery")
	var bindings []key.Binding
	for _, group := range s.FullHelp() {
		bindings = append(bindings, group...)
	}
	viewtest.OneMeaning(t, keys, bindings...)
	for _, b := range bindings {
		for _, k := range b.Keys() {
			if k == "l" || k == "t" {
				t.Errorf("%q is bound to %q here", k, b.Help().Desc)
			}
		}
	}
	for _, want := range []key.Binding{keys.Edit, keys.Toggle, keys.ToggleAll, keys.Add} {
		if !slices.ContainsFunc(bindings, func(b key.Binding) bool { return slices.Equal(b.Keys(), want.Keys()) }) {
			t.Errorf("no action on %v", want.Keys())
		}
	}
}

// TestRequiredQuestionsAreAskedInTheForm: the conference's form requires
// answers; the first attempt learns which (nobody is registered), the form
// then asks for each, keeps the attendees typed, and the tickets go through.
func TestRequiredQuestionsAreAskedInTheForm(t *testing.T) {
	r := newRig(t, 100, 34, func(f sim.Fixtures) string { return f.QuestionsEventID })
	r.Contains("[x] 2 Published", "press a to enter emails")
	r.Press("a")
	r.Type("lee.park@example.org, Lee, Park")
	r.Press("enter")
	r.Contains("NEEDS ANSWERS nobody was registered: the registration form requires 3 answers",
		"ASK     Job title", "ASK     Organization", "ASK     "+sim.WorkshopQuestion)
	if slices.Contains(r.sim.RegistrantEmails(r.id), "lee.park@example.org") {
		t.Fatal("registered without the answers")
	}
	r.Press("a")
	r.Contains("lee.park@example.org, Lee, Park", "Job title", "Required by the registration form")
	r.Golden("questions_form")
	r.Press("tab")
	r.Press("enter") // a blank answer is refused
	r.Contains("Job title is required by the registration form")
	r.Type("Engineer")
	r.Press("enter")
	r.Type("Contoso")
	r.Press("enter")
	r.Type(sim.WorkshopChoices[1])
	r.Press("enter")
	r.Contains("OK registered 1 person (1 ticket)", "OK      lee.park@example.org: 1 ticket")
	if !slices.Contains(r.sim.RegistrantEmails(r.id), "lee.park@example.org") {
		t.Fatal("not registered")
	}
}

// soldOut answers every create-tickets call as a server with no tickets
// left does, person by person (the documented errors array).
func soldOut(next http.Handler) http.Handler {
	return answerTickets(next, func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Tickets []struct {
				Email string `json:"email"`
			} `json:"tickets"`
		}
		_ = json.NewDecoder(r.Body).Decode(&in)
		out := api.TicketsResult{Tickets: []api.Ticket{}}
		for _, t := range in.Tickets {
			out.Errors = append(out.Errors, api.TicketError{Email: t.Email, ErrorCode: api.TicketErrNoStock,
				Message: "No tickets of this type are left."})
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(out)
	})
}

// answerTickets answers create-tickets calls with answer, and passes the
// others on to next.
func answerTickets(next http.Handler, answer http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/tickets") {
			next.ServeHTTP(w, r)
			return
		}
		answer(w, r)
	})
}

// A registration the server refuses person by person keeps each reason:
// E lists both people with the code and its meaning, wrapped at 80 columns.
func TestEShowsEveryRefusedPerson(t *testing.T) {
	r := registerTwo(t, soldOut, 80, 24)
	r.Contains("PARTLY registered 0 of 2 people", "E details")
	r.Press("E")
	r.Says("Register attendees", "Result registered 0 of 2 people",
		"Refused ines.lopez@example.org: no tickets of this type are left",
		"Refused kofi.mensah@example.org:", "[stock_not_exist]")
	r.Golden("refused_people_errors_80x24")
}

// refusedWhole answers every create-tickets call as a server that refuses
// the whole request does: 400 with the documented code and message.
func refusedWhole(next http.Handler) http.Handler {
	return answerTickets(next, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(api.Error{Code: api.CodeInvalidSaleDates, Message: "The ticket sale dates are invalid."})
	})
}

// A whole request the server refuses (a 4xx) registered nobody: each
// person says so with the refusal's meaning, never that the outcome is
// unknown.
func TestWholeRefusalSaysNobodyWasRegistered(t *testing.T) {
	r := registerTwo(t, refusedWhole, 120, 30)
	r.Contains("ERROR nobody was registered",
		"NOT REGISTERED ines.lopez@example.org: the request was refused (error 26401): the ticket type is not on sale",
		"NOT REGISTERED kofi.mensah@example.org: the request was refused (error 26401):")
	r.Lacks("UNKNOWN")
}

// registerTwo registers two people on the upcoming event of a simulator
// behind wrap, at w x h.
func registerTwo(t *testing.T, wrap func(http.Handler) http.Handler, w, h int) *uitest.Driver {
	t.Helper()
	srv := viewtest.NewServerWith(t, wrap)
	client := srv.Client(t, sim.DemoToken)
	id := srv.Fixtures().UpcomingEventID
	r := viewtest.Open(t, w, h, func(c *ui.Context) ui.Screen {
		return New(c, views.Env{Client: client, Now: viewtest.Clock}, id, "Pottery for Beginners")
	})
	r.Press("a")
	r.Contains("One a line")
	r.Type("ines.lopez@example.org")
	r.Press("ctrl+j")
	r.Type("kofi.mensah@example.org")
	r.Press("enter")
	return r
}
