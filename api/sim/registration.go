package sim

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

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

// ticketsBody is a create-tickets body as sent.
type ticketsBody struct {
	RegistrationSource *string      `json:"registration_source"`
	Tickets            []ticketBody `json:"tickets"`
}

// ticketBody is one ticket as sent; pointers tell absent from empty.
type ticketBody struct {
	Email              *string        `json:"email"`
	TicketTypeID       *string        `json:"ticket_type_id"`
	ExternalTicketID   *string        `json:"external_ticket_id"`
	SendNotification   *bool          `json:"send_notification"`
	FastJoin           *bool          `json:"fast_join"`
	RegistrationNeeded *bool          `json:"registration_needed"`
	SessionIDs         []string       `json:"session_ids"`
	FirstName          *string        `json:"first_name"`
	LastName           *string        `json:"last_name"`
	Address            *string        `json:"address"`
	City               *string        `json:"city"`
	State              *string        `json:"state"`
	Zip                *string        `json:"zip"`
	Country            *string        `json:"country"`
	Phone              *string        `json:"phone"`
	Industry           *string        `json:"industry"`
	JobTitle           *string        `json:"job_title"`
	Organization       *string        `json:"organization"`
	OrganizationSize   *string        `json:"organization_size"`
	Comments           *string        `json:"comments"`
	CustomQuestions    []customAnswer `json:"custom_questions"`
}

// answers reads the ticket's answers to the registration questions.
func (t *ticketBody) answers() answers {
	return answersOf(map[string]*string{"first_name": t.FirstName, "last_name": t.LastName, "address": t.Address,
		"city": t.City, "state": t.State, "zip": t.Zip, "country": t.Country, "phone": t.Phone,
		"industry": t.Industry, "job_title": t.JobTitle, "organization": t.Organization,
		"organization_size": t.OrganizationSize, "comments": t.Comments}, t.CustomQuestions)
}

// ticketIDPattern is what a ticket_type_id may look like (else 26502).
var ticketIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// checkTickets applies the request's field rules (the description's limits
// and flow rules 3 and 4 for the event's registration option).
func checkTickets(in *ticketsBody, option string, a *attendance) error {
	var c checks
	c.atMost("tickets", len(in.Tickets), maxTicketsPerRequest, "tickets")
	if len(in.Tickets) == 0 {
		c.add("tickets", "is required: send 1 to %d tickets.", maxTicketsPerRequest)
	}
	if in.RegistrationSource != nil {
		c.longest("registration_source", *in.RegistrationSource, maxRegistrationSource)
	}
	for i, t := range in.Tickets {
		field := fmt.Sprintf("tickets[%d]", i)
		c.longest(field+".email", str(t.Email), maxTicketEmail)
		c.longest(field+".first_name", str(t.FirstName), maxTicketName)
		c.longest(field+".last_name", str(t.LastName), maxTicketName)
		c.longest(field+".external_ticket_id", str(t.ExternalTicketID), maxExternalTicketID)
		c.longest(field+".comments", str(t.Comments), maxComments)
		c.atMost(field+".custom_questions", len(t.CustomQuestions), maxCustomQuestions, "answers")
		for j, q := range t.CustomQuestions {
			c.longest(fmt.Sprintf("%s.custom_questions[%d].title", field, j), q.Title, maxQuestionTitle)
		}
		c.atMost(field+".session_ids", len(t.SessionIDs), maxTicketSessions, "sessions")
		for j, id := range t.SessionIDs {
			if _, ok := a.sessionIndex[id]; !ok {
				c.add(fmt.Sprintf("%s.session_ids[%d]", field, j), "%q is not a session of this event.", id)
			} else if slices.Index(t.SessionIDs, id) != j {
				c.add(fmt.Sprintf("%s.session_ids[%d]", field, j), "%q appears more than once.", id)
			}
		}
		switch n := len(t.SessionIDs); option {
		case "all_sessions":
			if n > 0 {
				c.add(field+".session_ids", "must be empty: the event registers for all sessions at once.")
			}
		case "single_session":
			if n != 1 {
				c.add(field+".session_ids", "holds %d sessions; the event registers one session per ticket.", n)
			}
		case "multiple_sessions":
			if n == 0 {
				c.add(field+".session_ids", "is required: the event registers for chosen sessions.")
			}
		}
	}
	return c.err()
}

// checkTicketTypes applies the request-wide ticket type codes: an id that
// cannot be one (26502), a type with nothing left (2007), a type not on
// sale now (26401).
func (st *regState) checkTicketTypes(in *ticketsBody, now time.Time) error {
	for _, t := range in.Tickets {
		id := str(t.TicketTypeID)
		if id == "" {
			continue
		}
		if !ticketIDPattern.MatchString(id) {
			return badRequest(api.CodeInvalidTicketType, "The ticket type ID is invalid.")
		}
		i := st.ticketType(id)
		if i < 0 {
			continue // answered per ticket
		}
		tt := st.types[i]
		if tt.Quantity > 0 && tt.SoldQuantity >= tt.Quantity {
			return errf(http.StatusNotFound, api.CodeNotEnoughStock, "Not enough stock or invalid ticket_type_id.")
		}
		if !onSale(tt, now) {
			return badRequest(api.CodeInvalidSaleDates, "The ticket sale dates are invalid.")
		}
	}
	return nil
}

// onSale reports whether a ticket type's sale window holds now.
func onSale(tt api.TicketType, now time.Time) bool {
	return (tt.StartTime == nil || !now.Before(*tt.StartTime)) && (tt.EndTime == nil || now.Before(*tt.EndTime))
}

// checkQuestions applies the registration form at validation_level: every
// ticket that does not defer to the online form (registration_needed)
// answers the required questions (260504); strict also refuses answers to
// questions the form does not have (260503); none checks nothing.
func checkQuestions(in *ticketsBody, form []question, level string) error {
	if level == "none" {
		return nil
	}
	var missing, unconfigured []string
	for _, t := range in.Tickets {
		if t.RegistrationNeeded != nil && *t.RegistrationNeeded {
			continue
		}
		a := t.answers()
		for _, m := range a.missing(form) {
			if !slices.Contains(missing, m) {
				missing = append(missing, m)
			}
		}
		for _, u := range a.unconfigured(form) {
			if !slices.Contains(unconfigured, u) {
				unconfigured = append(unconfigured, u)
			}
		}
	}
	if len(missing) > 0 {
		return badRequest(api.CodeMissingRequiredAnswers, "Missing required fields - "+fieldList(missing)+".")
	}
	if level == "strict" && len(unconfigured) > 0 {
		return badRequest(api.CodeUnconfiguredQuestions, "Nonconfigured fields - "+fieldList(unconfigured)+".")
	}
	return nil
}

func (s *Sim) createTickets(b *regBook, w http.ResponseWriter, r *http.Request, p *principal) error {
	var in ticketsBody
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	level := r.URL.Query().Get("validation_level")
	if level == "" {
		level = "standard"
	}
	now := s.now()
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e, st, err := s.linkTarget(b, p, r)
	if err != nil {
		return err
	}
	switch {
	case e.isDraft():
		return badRequest(api.CodeEventNotPublished, "Event is not published yet.")
	case e.cancelled:
		return badRequest(api.CodeEventNotPublished, "Event is not published: it was cancelled.")
	}
	var c checks
	c.among("validation_level", &level, validationLevels)
	if err := c.err(); err != nil {
		return err
	}
	a := s.attendanceOf(e)
	if err := checkTickets(&in, st.recurringOption(e), a); err != nil {
		return err
	}
	if err := st.checkTicketTypes(&in, now); err != nil {
		return err
	}
	form := s.formOf(e)
	if err := checkQuestions(&in, form, level); err != nil {
		return err
	}
	out := api.TicketsResult{Tickets: []api.Ticket{}, Errors: []api.TicketError{}}
	refuse := func(t ticketBody, code, msg string) {
		out.Errors = append(out.Errors, api.TicketError{Email: str(t.Email), ErrorCode: code, Message: msg})
	}
	join := st.joinLink()
	for _, t := range in.Tickets {
		email := normEmail(str(t.Email))
		needed := t.RegistrationNeeded != nil && *t.RegistrationNeeded
		ans := t.answers()
		typeID := str(t.TicketTypeID)
		if typeID == "" && len(st.types) > 0 {
			typeID = st.types[0].TicketTypeID
		}
		ti := st.ticketType(typeID)
		switch {
		case !validEmail(email):
			refuse(t, api.TicketErrEmailNotFound, "Invalid or missing email.")
			continue
		case t.FastJoin != nil && *t.FastJoin && needed:
			refuse(t, api.TicketErrFastJoinWithRegistration, "fast_join should not be true when the registration needed flag is true.")
			continue
		case ans.dup:
			refuse(t, api.TicketErrDuplicateQuestions, "A custom question is answered more than once.")
			continue
		case level != "none" && !needed && ans.badChoice(form):
			refuse(t, api.TicketErrInvalidAnswers, "Invalid question and answers.")
			continue
		case ti < 0:
			refuse(t, api.TicketErrTicketTypeNotFound, "Ticket type could not be found.")
			continue
		case st.types[ti].Quantity > 0 && st.types[ti].SoldQuantity >= st.types[ti].Quantity:
			refuse(t, api.TicketErrNoStock, "No tickets of this type are left.")
			continue
		case !onSale(st.types[ti], now):
			refuse(t, api.TicketErrSaleTime, "Invalid sale date for the ticket type ID.")
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
		made := api.Ticket{TicketID: id, Email: email, TicketTypeID: typeID, ExternalTicketID: str(t.ExternalTicketID),
			QRCodeURL: tk.QRCodeURL}
		switch {
		case needed:
			made.EventRegistrationLink = s.linkURL(id) + "/register"
		case join != "":
			made.EventJoinLink = join + "?tk=" + id
		}
		out.Tickets = append(out.Tickets, made)
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}
