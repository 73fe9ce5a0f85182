package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
)

// postTickets sends a raw create-tickets body (query appended to the path).
func postTickets(e *env, id, query string, body any) reply {
	e.t.Helper()
	return e.do("POST", "/events/"+id+"/tickets"+query, DemoToken, body)
}

func ticket(email string, extra ...any) map[string]any {
	t := map[string]any{"email": email}
	for i := 0; i+1 < len(extra); i += 2 {
		t[extra[i].(string)] = extra[i+1]
	}
	return t
}

// soldOut sells every seat of an event's ticket type (50 VIP seats).
func (e *env) soldOut(eventID, name string) {
	e.t.Helper()
	typeID := TicketTypeID(eventID, name)
	for batch := 0; ; batch++ {
		var tickets []any
		for i := range maxTicketsPerRequest {
			tickets = append(tickets, ticket(fmt.Sprintf("buyer%d.%d@example.org", batch, i), "ticket_type_id", typeID))
		}
		r := postTickets(e, eventID, "", map[string]any{"tickets": tickets})
		if r.status == 404 {
			return
		}
		var res api.TicketsResult
		r.decode(e.t, 201, &res)
		if len(res.Errors) > 0 {
			if res.Errors[0].ErrorCode != api.TicketErrNoStock {
				e.t.Fatalf("selling out: %+v", res.Errors[0])
			}
			return
		}
	}
}

// TestTicketCodesOfTheDescription: the request-wide codes (26501, 26502,
// 2007, 26401) and the per-ticket error codes, reached with raw requests.
func TestTicketCodesOfTheDescription(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	ev := f.UpcomingEventID
	postTickets(e, f.DraftEventID, "", map[string]any{"tickets": []any{ticket("a@example.org")}}).
		wantError(t, 400, api.CodeEventNotPublished)
	postTickets(e, ev, "", map[string]any{"tickets": []any{ticket("a@example.org", "ticket_type_id", "not an id!")}}).
		wantError(t, 400, api.CodeInvalidTicketType)
	e.soldOut(ev, "VIP")
	postTickets(e, ev, "", map[string]any{"tickets": []any{ticket("a@example.org", "ticket_type_id", TicketTypeID(ev, "VIP"))}}).
		wantError(t, 404, api.CodeNotEnoughStock)

	var res api.TicketsResult
	yes := true
	postTickets(e, ev, "", map[string]any{"tickets": []any{
		ticket("not-an-address"),
		ticket("b@example.org", "fast_join", yes, "registration_needed", yes),
		ticket("c@example.org", "custom_questions", []any{map[string]any{"title": "Q", "answer": "1"}, map[string]any{"title": "Q", "answer": "2"}}),
		ticket("d@example.org", "ticket_type_id", "NoSuchTicketType"),
		ticket("e@example.org"),
	}}).decode(t, 201, &res)
	want := []string{api.TicketErrEmailNotFound, api.TicketErrFastJoinWithRegistration, api.TicketErrDuplicateQuestions,
		api.TicketErrTicketTypeNotFound}
	if len(res.Errors) != len(want) || len(res.Tickets) != 1 || res.Tickets[0].Email != "e@example.org" {
		t.Fatalf("result %+v", res)
	}
	for i, w := range want {
		if res.Errors[i].ErrorCode != w || res.Errors[i].Message == "" {
			t.Errorf("error %d: %+v, want %s", i, res.Errors[i], w)
		}
	}

	// After the event ends its ticket types are off sale: 26401 for a
	// named type, invalid_sale_time for the default one.
	e.clock.Advance(400 * 24 * time.Hour)
	postTickets(e, ev, "", map[string]any{"tickets": []any{ticket("g@example.org", "ticket_type_id", TicketTypeID(ev, "Speaker"))}}).
		wantError(t, 400, api.CodeInvalidSaleDates)
	postTickets(e, ev, "", map[string]any{"tickets": []any{ticket("g@example.org")}}).decode(t, 201, &res)
	if len(res.Errors) != 1 || res.Errors[0].ErrorCode != api.TicketErrSaleTime {
		t.Fatalf("default type off sale: %+v", res)
	}
}

// TestTicketRequestLimits: the description's limits, with the client's
// check bypassed.
func TestTicketRequestLimits(t *testing.T) {
	e := newEnv(t, Options{})
	ev := e.sim.Fixtures().UpcomingEventID
	var many []any
	for range 31 {
		many = append(many, ticket("a@example.org"))
	}
	for name, c := range map[string]struct {
		query string
		body  map[string]any
		field string
	}{
		"31 tickets":       {"", map[string]any{"tickets": many}, "tickets"},
		"no tickets":       {"", map[string]any{"tickets": []any{}}, "tickets"},
		"long source":      {"", map[string]any{"registration_source": "seventeen-letters", "tickets": many[:1]}, "registration_source"},
		"level":            {"?validation_level=loose", map[string]any{"tickets": many[:1]}, "validation_level"},
		"long first name":  {"", map[string]any{"tickets": []any{ticket("a@example.org", "first_name", strings.Repeat("x", 65))}}, "tickets[0].first_name"},
		"long comments":    {"", map[string]any{"tickets": []any{ticket("a@example.org", "comments", strings.Repeat("x", 256))}}, "tickets[0].comments"},
		"long title":       {"", map[string]any{"tickets": []any{ticket("a@example.org", "custom_questions", []any{map[string]any{"title": strings.Repeat("q", 257)}})}}, "tickets[0].custom_questions[0].title"},
		"unknown session":  {"", map[string]any{"tickets": []any{ticket("a@example.org", "session_ids", []string{"nope"})}}, "tickets[0].session_ids[0]"},
		"long external id": {"", map[string]any{"tickets": []any{ticket("a@example.org", "external_ticket_id", strings.Repeat("x", 129))}}, "tickets[0].external_ticket_id"},
	} {
		r := postTickets(e, ev, c.query, c.body)
		if r.status != 400 || !r.hasField(c.field) {
			t.Errorf("%s: %d %s", name, r.status, clip(r.body))
		}
	}
	// At the limits, accepted.
	r := postTickets(e, ev, "?validation_level=strict", map[string]any{"registration_source": "sixteen-letters!",
		"tickets": []any{ticket("a@example.org", "first_name", strings.Repeat("x", 64), "comments", strings.Repeat("x", 255))}})
	r.wantError(t, 400, api.CodeUnconfiguredQuestions) // comments is not on this event's form
	postTickets(e, ev, "", map[string]any{"registration_source": "sixteen-letters!",
		"tickets": []any{ticket("a@example.org", "first_name", strings.Repeat("x", 64), "comments", strings.Repeat("x", 255))}}).decode(t, 201, nil)
}
