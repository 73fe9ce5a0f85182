package sim

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/evdesk/evdesk/api"
)

func (s *Sim) ticketRoutes(b *regBook) {
	s.handle("GET", "/events/{eventId}/ticket_types",
		s.scopeFor("events_ticket_types:read", "events:read:list_ticket_types"), b.with(s.listTicketTypes))
	s.handle("POST", "/events/{eventId}/tickets",
		s.scopeFor("events_tickets:write", "events:write:ticket"), b.with(s.createTickets))
}

func (s *Sim) listTicketTypes(b *regBook, w http.ResponseWriter, r *http.Request, p *principal) error {
	s.st.mu.Lock()
	_, st, err := s.linkTarget(b, p, r)
	var out api.TicketTypeList
	if err == nil {
		out.TicketTypes = make([]api.TicketType, len(st.types))
		for i, t := range st.types {
			t.Sessions, t.BookmarkedSessions, t.Extra = slices.Clone(t.Sessions), slices.Clone(t.BookmarkedSessions), nil
			out.TicketTypes[i] = t
		}
		out.TotalRecords = len(st.types)
	}
	s.st.mu.Unlock()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// recurringOption is the registration option tickets of a recurring event
// follow: the default link's, else the first registration link's that has
// one, else all_sessions. "" for other events.
func (st *regState) recurringOption(e *eventRec) string {
	if e.ev.EventType != api.EventTypeRecurring {
		return ""
	}
	for _, l := range st.links {
		if l.IsDefault && l.RecurringRegistrationOption != "" {
			return l.RecurringRegistrationOption
		}
	}
	for _, l := range st.links {
		if l.Type == api.LinkRegistration && l.RecurringRegistrationOption != "" {
			return l.RecurringRegistrationOption
		}
	}
	return api.RecurringAllSessions
}

// joinLink is where a ticket holder joins: the default link, else the first.
func (st *regState) joinLink() string {
	for _, l := range st.links {
		if l.IsDefault {
			return l.URL
		}
	}
	if len(st.links) > 0 {
		return st.links[0].URL
	}
	return ""
}

func (s *Sim) createTickets(b *regBook, w http.ResponseWriter, r *http.Request, p *principal) error {
	var in api.TicketsRequest
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e, st, err := s.linkTarget(b, p, r)
	if err != nil {
		return err
	}
	switch {
	case e.isDraft():
		return errf(http.StatusBadRequest, api.CodeEventNotPublished, "Publish the event before registering attendees.")
	case e.cancelled:
		return errf(http.StatusBadRequest, api.CodeEventNotPublished, "The event was cancelled; attendees cannot register.")
	}
	if n := len(in.Tickets); n > api.MaxTicketsPerRequest {
		return fieldError(api.FieldError{Field: "tickets",
			Message: fmt.Sprintf("holds %d tickets; a request holds at most %d.", n, api.MaxTicketsPerRequest)})
	}
	// Flow rules 3 and 4 follow the event's registration option; the same
	// checks as the client's.
	in.Option = st.recurringOption(e)
	if err := in.Validate(); err != nil {
		return asFieldError(err)
	}
	a := s.attendanceOf(e)
	var problems []api.FieldError
	for i, t := range in.Tickets {
		for j, id := range t.SessionIDs {
			if _, ok := a.sessionIndex[id]; !ok {
				problems = append(problems, api.FieldError{Field: fmt.Sprintf("tickets[%d].session_ids[%d]", i, j),
					Message: fmt.Sprintf("%q is not a session of this event.", id)})
			}
		}
	}
	if len(problems) > 0 {
		return fieldError(problems...)
	}
	out := api.TicketsResult{Tickets: []api.Ticket{}, Errors: []api.TicketError{}}
	join := st.joinLink()
	for _, t := range in.Tickets {
		email := api.NormalizeEmail(t.Email)
		typeID := t.TicketTypeID
		if typeID == "" && len(st.types) > 0 {
			typeID = st.types[0].TicketTypeID
		}
		ti := st.ticketType(typeID)
		switch {
		case ti < 0:
			out.Errors = append(out.Errors, api.TicketError{Email: t.Email, ErrorCode: api.TicketErrTicketTypeNotFound,
				Message: "Ticket type could not be found."})
			continue
		case st.types[ti].Quantity > 0 && st.types[ti].SoldQuantity >= st.types[ti].Quantity:
			out.Errors = append(out.Errors, api.TicketError{Email: t.Email, ErrorCode: api.TicketErrNoStock,
				Message: "No tickets of this type are left."})
			continue
		}
		ri, known := a.byEmail[email]
		if !known {
			role := "ATTENDEE"
			if st.types[ti].Name == "Speaker" {
				role = "SPEAKER"
			}
			a.appendRegistrant(s, e, email, api.RegistrationRegistered, role)
			e.registrants++ // keeps the seed generator from topping up past it
			ri = a.byEmail[email]
		}
		st.types[ti].SoldQuantity++
		tk := a.registrants[ri].Tickets[0]
		id := tk.TicketID
		if len(t.SessionIDs) > 0 {
			id = makeID("ticket", e.ev.EventID, email, strings.Join(t.SessionIDs, ","))[:12]
		}
		made := api.Ticket{TicketID: id, Email: email, TicketTypeID: typeID, ExternalTicketID: t.ExternalTicketID,
			QRCodeURL: tk.QRCodeURL}
		if join != "" {
			made.EventJoinLink = join + "?tk=" + id
		}
		out.Tickets = append(out.Tickets, made)
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}
