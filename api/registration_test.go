package api_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

func TestTicketsValidateFlowRules(t *testing.T) {
	one := func(sessions ...string) api.TicketRequest {
		return api.TicketRequest{Email: "ana@example.org", SessionIDs: sessions}
	}
	cases := []struct {
		option string
		ticket api.TicketRequest
		field  string // "" when valid
	}{
		{api.RecurringAllSessions, one(), ""},
		{api.RecurringAllSessions, one("s1"), "tickets[0].session_ids"},
		{api.RecurringSingleSession, one("s1"), ""},
		{api.RecurringSingleSession, one(), "tickets[0].session_ids"},
		{api.RecurringSingleSession, one("s1", "s2"), "tickets[0].session_ids"},
		{api.RecurringMultipleSessions, one("s1"), ""},
		{api.RecurringMultipleSessions, one("s1", "s2"), ""},
		{api.RecurringMultipleSessions, one(), "tickets[0].session_ids"},
		{api.RecurringMultipleSessions, one("s1", "s1"), "tickets[0].session_ids[1]"},
		{"", one(), ""},
		{"", api.TicketRequest{Email: "nope"}, "tickets[0].email"},
		{"", api.TicketRequest{Email: "a@x.org", FirstName: string(make([]rune, 65))}, "tickets[0].first_name"},
		{"weekly", one(), "recurring_registration_option"},
	}
	for i, tc := range cases {
		r := api.TicketsRequest{Option: tc.option, Tickets: []api.TicketRequest{tc.ticket}}
		err := r.Validate()
		if tc.field == "" {
			if err != nil {
				t.Errorf("case %d: %v", i, err)
			}
			continue
		}
		wantProblem(t, err, tc.field)
	}
	wantProblem(t, (&api.TicketsRequest{}).Validate(), "tickets")
	// Single session: the same person may hold one ticket per session.
	r := api.TicketsRequest{Option: api.RecurringSingleSession, Tickets: api.BuildTickets(api.RecurringSingleSession,
		api.TicketRequest{Email: "Ana@Example.org"}, []string{"s1", "s2"})}
	if err := r.Validate(); err != nil || len(r.Tickets) != 2 || r.Tickets[1].SessionIDs[0] != "s2" || r.Tickets[0].Email != "ana@example.org" {
		t.Fatalf("%+v %v", r.Tickets, err)
	}
	r.Tickets = append(r.Tickets, r.Tickets[0])
	wantProblem(t, r.Validate(), "tickets[2].email")
	if got := api.BuildTickets(api.RecurringMultipleSessions, api.TicketRequest{Email: "a@x.org"}, []string{"s1", "s2"}); len(got) != 1 || len(got[0].SessionIDs) != 2 {
		t.Fatalf("multiple %+v", got)
	}
	if got := api.BuildTickets(api.RecurringAllSessions, api.TicketRequest{Email: "a@x.org"}, []string{"s1"}); len(got) != 1 || got[0].SessionIDs != nil {
		t.Fatalf("all %+v", got)
	}
}

func TestTicketTypesAndTicketsRegisterPeople(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	ev := f.ids.RecurringEventID
	types, err := f.client.Registration.TicketTypes(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tt := range types {
		names = append(names, tt.Label())
	}
	if !slices.Equal(names, []string{"General admission", "VIP", "Speaker"}) || types[1].Free || types[1].Price != "149.00" {
		t.Fatalf("ticket types %+v", types)
	}
	sessions, err := f.client.Attendees.Sessions(ctx, ev)
	if err != nil || len(sessions) < 3 {
		t.Fatal(len(sessions), err)
	}
	// The seeded default link of the recurring series takes one or more
	// sessions per ticket.
	ids := []string{sessions[0].SessionID, sessions[2].SessionID}
	var tickets []api.TicketRequest
	for _, p := range []struct{ email, first, last string }{{"Ines.Lopez@example.org", "Ines", "Lopez"}, {"kofi.mensah@example.org", "Kofi", "Mensah"}} {
		tickets = append(tickets, api.BuildTickets(api.RecurringMultipleSessions,
			api.TicketRequest{Email: p.email, FirstName: p.first, LastName: p.last, TicketTypeID: types[1].TicketTypeID}, ids)...)
	}
	tickets = append(tickets, api.TicketRequest{Email: "nobody@example.org", TicketTypeID: "NoSuchType", SessionIDs: ids})
	before := f.posts.Load()
	res, err := f.client.Registration.CreateTickets(ctx, ev, &api.TicketsRequest{Option: api.RecurringMultipleSessions, Tickets: tickets})
	if err != nil {
		t.Fatal(err)
	}
	if f.posts.Load()-before != 1 {
		t.Fatal("create tickets sent more than one POST")
	}
	if len(res.Tickets) != 2 || res.Tickets[0].Email != "ines.lopez@example.org" || res.Tickets[0].TicketID == "" ||
		res.Tickets[0].TicketTypeID != types[1].TicketTypeID || res.Tickets[0].EventJoinLink == "" {
		t.Fatalf("tickets %+v", res.Tickets)
	}
	if len(res.Errors) != 1 || res.Errors[0].ErrorCode != api.TicketErrTicketTypeNotFound {
		t.Fatalf("errors %+v", res.Errors)
	}
	// The new people are registrants, and the desk can check them in.
	var found []string
	for r, err := range f.client.Attendees.Registrants(ctx, ev, api.ListRegistrantsOptions{PageSize: 300}) {
		if err != nil {
			t.Fatal(err)
		}
		if r.Email == "ines.lopez@example.org" || r.Email == "kofi.mensah@example.org" {
			found = append(found, r.Email)
		}
	}
	if len(found) != 2 {
		t.Fatalf("registrants found %v", found)
	}
	failed, err := f.client.Attendees.CheckIn(ctx, ev, "", []string{"ines.lopez@example.org"}, "desk 1")
	if err != nil || len(failed) != 0 {
		t.Fatalf("check-in %v %v", failed, err)
	}
	// Sold counts go up.
	types2, _ := f.client.Registration.TicketTypes(ctx, ev)
	if types2[1].SoldQuantity != types[1].SoldQuantity+2 {
		t.Fatalf("sold %d then %d", types[1].SoldQuantity, types2[1].SoldQuantity)
	}
}

func TestTicketsFlowRulesOnTheServer(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	ev := f.ids.RecurringEventID
	sessions, err := f.client.Attendees.Sessions(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	s0 := sessions[0].SessionID
	// The default link takes multiple_sessions: a ticket without sessions
	// is refused (rule 3), so is a session of another event.
	_, err = f.client.Registration.RawCreateTickets(ctx, ev, map[string]any{"tickets": []any{map[string]any{"email": "a@example.org"}}})
	wantCode(t, err, http.StatusBadRequest, 300)
	_, err = f.client.Registration.RawCreateTickets(ctx, ev, map[string]any{"tickets": []any{
		map[string]any{"email": "a@example.org", "session_ids": []string{f.ids.ConferenceSessionID}}}})
	wantCode(t, err, http.StatusBadRequest, 300)
	// Make a single-session link the default: two sessions on one ticket
	// are refused, one ticket per session is fine.
	made, err := f.client.AccessLinks.Create(ctx, ev, &api.AccessLinkCreate{Name: "One at a time", Type: api.LinkRegistration,
		AuthenticationMethod: api.AuthBypass, IsDefault: true, RecurringRegistrationOption: api.RecurringSingleSession})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.client.Registration.RawCreateTickets(ctx, ev, map[string]any{"tickets": []any{
		map[string]any{"email": "a@example.org", "session_ids": []string{s0, sessions[1].SessionID}}}})
	wantCode(t, err, http.StatusBadRequest, 300)
	res, err := f.client.Registration.CreateTickets(ctx, ev, &api.TicketsRequest{Option: made.RecurringRegistrationOption,
		Tickets: api.BuildTickets(made.RecurringRegistrationOption, api.TicketRequest{Email: "a@example.org"}, []string{s0, sessions[1].SessionID})})
	if err != nil || len(res.Tickets) != 2 || res.Tickets[0].TicketID == res.Tickets[1].TicketID {
		t.Fatalf("%+v %v", res, err)
	}
	// An all-sessions default refuses session ids.
	all := api.RecurringAllSessions
	if err := f.client.AccessLinks.Update(ctx, ev, made.AccessLinkID, &api.AccessLinkUpdate{RecurringRegistrationOption: &all}); err != nil {
		t.Fatal(err)
	}
	_, err = f.client.Registration.RawCreateTickets(ctx, ev, map[string]any{"tickets": []any{
		map[string]any{"email": "b@example.org", "session_ids": []string{s0}}}})
	wantCode(t, err, http.StatusBadRequest, 300)
	if _, err := f.client.Registration.CreateTickets(ctx, ev, &api.TicketsRequest{Option: all,
		Tickets: []api.TicketRequest{{Email: "b@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	// Rule 2: a draft event takes no tickets.
	_, err = f.client.Registration.CreateTickets(ctx, f.ids.DraftEventID, &api.TicketsRequest{Tickets: []api.TicketRequest{{Email: "c@example.org"}}})
	if !api.IsStatus(err, http.StatusBadRequest) {
		t.Fatalf("draft: %v", err)
	}
	// More than 30 go in batches of 30; the server refuses 31 at once.
	var many []api.TicketRequest
	for i := range 31 {
		many = append(many, api.TicketRequest{Email: fmt.Sprintf("guest%02d@example.org", i)})
	}
	_, err = f.client.Registration.RawCreateTickets(ctx, ev, map[string]any{"tickets": many})
	wantCode(t, err, http.StatusBadRequest, 300)
	before := f.posts.Load()
	res, err = f.client.Registration.CreateTickets(ctx, ev, &api.TicketsRequest{Option: all, Tickets: many})
	if err != nil || len(res.Tickets) != 31 || f.posts.Load()-before != 2 {
		t.Fatalf("batches: %d tickets, %d posts, %v", len(res.Tickets), f.posts.Load()-before, err)
	}
	// Event errors.
	_, err = f.client.Registration.TicketTypes(ctx, "NoSuchEvent000000000000")
	wantCode(t, err, http.StatusNotFound, api.CodeEventNotFound)
	_, err = f.client.Registration.CreateTickets(ctx, f.ids.OtherHostEventID, &api.TicketsRequest{Tickets: []api.TicketRequest{{Email: "c@example.org"}}})
	wantCode(t, err, http.StatusForbidden, api.CodeEventAccessDenied)
}

// TestRequiredQuestionsRefuseTicketsWithoutAnswers: an event whose form has
// required questions refuses tickets that do not answer them (260504),
// naming them; with the answers, the same tickets go through.
func TestRequiredQuestionsRefuseTicketsWithoutAnswers(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	ev := f.ids.QuestionsEventID
	ticket := api.TicketRequest{Email: "lee.park@example.org", FirstName: "Lee"}
	_, err := f.client.Registration.CreateTickets(ctx, ev, &api.TicketsRequest{Tickets: []api.TicketRequest{ticket}})
	wantCode(t, err, http.StatusBadRequest, api.CodeMissingRequiredAnswers)
	missing := api.QuestionsIn(err)
	if !slices.Equal(missing, f.sim.RequiredQuestions(ev)[1:]) || !slices.Contains(missing, sim.WorkshopQuestion) {
		t.Fatalf("named %v, the form requires %v", missing, f.sim.RequiredQuestions(ev))
	}
	for _, q := range missing {
		ticket.SetAnswer(q, "Engineer")
	}
	ticket.SetAnswer(sim.WorkshopQuestion, sim.WorkshopChoices[0])
	if ticket.JobTitle != "Engineer" || ticket.Answer(sim.WorkshopQuestion) != sim.WorkshopChoices[0] || len(ticket.CustomQuestions) != 1 {
		t.Fatalf("answers %+v", ticket)
	}
	res, err := f.client.Registration.CreateTickets(ctx, ev, &api.TicketsRequest{RegistrationSource: "evdesk",
		Tickets: []api.TicketRequest{ticket}})
	if err != nil || len(res.Tickets) != 1 || len(res.Errors) != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	// An answer outside the question's choices is refused for that ticket.
	other := ticket
	other.Email, other.CustomQuestions = "sam@example.org", nil
	other.SetAnswer(sim.WorkshopQuestion, "Pottery")
	res, err = f.client.Registration.CreateTickets(ctx, ev, &api.TicketsRequest{Tickets: []api.TicketRequest{other}})
	if err != nil || len(res.Errors) != 1 || res.Errors[0].ErrorCode != api.TicketErrInvalidAnswers {
		t.Fatalf("bad choice: %+v %v", res, err)
	}
	// Strict validation refuses answers to questions the form lacks.
	extra := ticket
	extra.Email, extra.Phone = "kim@example.org", "5550100"
	_, err = f.client.Registration.CreateTickets(ctx, ev, &api.TicketsRequest{ValidationLevel: api.ValidationStrict,
		Tickets: []api.TicketRequest{extra}})
	wantCode(t, err, http.StatusBadRequest, api.CodeUnconfiguredQuestions)
	if got := api.QuestionsIn(err); !slices.Equal(got, []string{"phone"}) {
		t.Fatalf("unconfigured %v", got)
	}
	// registration_needed defers the questions to the online form.
	yes := true
	deferred := api.TicketRequest{Email: "noor@example.org", RegistrationNeeded: &yes}
	res, err = f.client.Registration.CreateTickets(ctx, ev, &api.TicketsRequest{Tickets: []api.TicketRequest{deferred}})
	if err != nil || len(res.Tickets) != 1 || res.Tickets[0].EventRegistrationLink == "" || res.Tickets[0].EventJoinLink != "" {
		t.Fatalf("registration needed: %+v %v", res, err)
	}
	// Validation none checks nothing.
	_, err = f.client.Registration.CreateTickets(ctx, ev, &api.TicketsRequest{ValidationLevel: api.ValidationNone,
		Tickets: []api.TicketRequest{{Email: "ola@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
}

func TestQuestionsInReadsTheServersList(t *testing.T) {
	err := &api.Error{Status: 400, Code: api.CodeMissingRequiredAnswers,
		Message: `Missing required fields - ["email", "phone", "Foo,Bar", "Foo\"Bar"].`}
	if got := api.QuestionsIn(err); !slices.Equal(got, []string{"email", "phone", "Foo,Bar", `Foo"Bar`}) {
		t.Fatalf("got %q", got)
	}
	for _, e := range []error{&api.Error{Code: api.CodeMissingRequiredAnswers, Message: "Missing required fields."},
		&api.Error{Code: 300, Message: `["x"]`}, fmt.Errorf("plain")} {
		if got := api.QuestionsIn(e); got != nil {
			t.Errorf("%v: %q", e, got)
		}
	}
}

func TestTicketAnswersAndLimitsValidate(t *testing.T) {
	yes := true
	long := func(n int) string { return string(make([]rune, n)) }
	for _, tc := range []struct {
		req   api.TicketsRequest
		field string
	}{
		{api.TicketsRequest{RegistrationSource: "a-source-longer-than-16", Tickets: []api.TicketRequest{{Email: "a@x.org"}}}, "registration_source"},
		{api.TicketsRequest{ValidationLevel: "loose", Tickets: []api.TicketRequest{{Email: "a@x.org"}}}, "validation_level"},
		{api.TicketsRequest{Tickets: []api.TicketRequest{{Email: "a@x.org", FastJoin: &yes, RegistrationNeeded: &yes}}}, "tickets[0].fast_join"},
		{api.TicketsRequest{Tickets: []api.TicketRequest{{Email: "a@x.org", Comments: "x" + long(255)}}}, "tickets[0].comments"},
		{api.TicketsRequest{Tickets: []api.TicketRequest{{Email: "a@x.org", Country: "UK"}}}, "tickets[0].country"},
		{api.TicketsRequest{Tickets: []api.TicketRequest{{Email: "a@x.org", CustomQuestions: []api.CustomAnswer{{Title: "Q"}, {Title: "Q"}}}}}, "tickets[0].custom_questions[1].title"},
		{api.TicketsRequest{Tickets: []api.TicketRequest{{Email: "a@x.org", CustomQuestions: []api.CustomAnswer{{Title: "x" + long(256)}}}}}, "tickets[0].custom_questions[0].title"},
	} {
		wantProblem(t, tc.req.Validate(), tc.field)
	}
	if q, a, err := api.ParseAnswer("Which workshop? = Design review"); err != nil || q != "Which workshop?" || a != "Design review" {
		t.Errorf("parse: %q %q %v", q, a, err)
	}
	if _, _, err := api.ParseAnswer("no equals sign"); err == nil {
		t.Error("an answer without = accepted")
	}
}
