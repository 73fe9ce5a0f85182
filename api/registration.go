package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// RegistrationService covers the endpoints of the recurring-event
// registration flow beside hubs and sessions (spec 4.6): ticket types and
// tickets. Creating tickets registers the people they name.
type RegistrationService struct{ c *Client }

// Limits of a create-tickets request (from the provider's description).
const (
	MaxTicketsPerRequest = 30
	maxTicketSessions    = 200
	maxTicketNameLength  = 64
	maxTicketIDLength    = 128
	maxTicketEmailLength = 128
)

// TicketType is one ticket type of an event. The spec shows only the id; the
// other fields follow the provider's description, unknown ones in Extra.
type TicketType struct {
	TicketTypeID       string     `json:"ticket_type_id"`
	Name               string     `json:"name,omitempty"`
	Description        string     `json:"description,omitempty" text:"multiline"`
	Currency           string     `json:"currency,omitempty"`
	Free               bool       `json:"free"`
	Price              string     `json:"price,omitempty"`
	Quantity           int        `json:"quantity,omitempty"`
	SoldQuantity       int        `json:"sold_quantity"`
	StartTime          *time.Time `json:"start_time,omitempty"`
	EndTime            *time.Time `json:"end_time,omitempty"`
	Sessions           []string   `json:"sessions,omitempty"`
	BookmarkedSessions []string   `json:"bookmarked_sessions,omitempty"`

	Extra map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes a ticket type, keeping unknown fields in Extra.
func (t *TicketType) UnmarshalJSON(b []byte) error {
	type plain TicketType
	return unmarshalKeeping(b, (*plain)(t), &t.Extra)
}

// MarshalJSON encodes a ticket type with its Extra fields.
func (t TicketType) MarshalJSON() ([]byte, error) {
	type plain TicketType
	return marshalKeeping(plain(t), t.Extra)
}

// Label is the ticket type's name, or its id when it has none.
func (t TicketType) Label() string {
	if t.Name != "" {
		return t.Name
	}
	return t.TicketTypeID
}

// TicketTypeList is the answer of the ticket-types listing.
type TicketTypeList struct {
	TotalRecords int          `json:"total_records"`
	TicketTypes  []TicketType `json:"ticket_types"`
}

// TicketRequest is one ticket to create (spec 2.11).
type TicketRequest struct {
	Email            string   `json:"email"`
	TicketTypeID     string   `json:"ticket_type_id,omitempty"`
	ExternalTicketID string   `json:"external_ticket_id,omitempty"`
	SendNotification *bool    `json:"send_notification,omitempty"`
	FastJoin         *bool    `json:"fast_join,omitempty"`
	FirstName        string   `json:"first_name,omitempty"`
	LastName         string   `json:"last_name,omitempty"`
	SessionIDs       []string `json:"session_ids,omitempty"`
}

// TicketsRequest is the body of a create-tickets call.
type TicketsRequest struct {
	Tickets []TicketRequest `json:"tickets"`

	// Option is the recurring_registration_option of the access link the
	// people register through (not sent); "" skips flow rules 3 and 4.
	Option string `json:"-"`
}

// Validate checks each ticket (an address, field lengths) and flow rules 3
// and 4 for the link's recurring option: all_sessions tickets carry no
// sessions, single_session tickets exactly one, multiple_sessions tickets one
// or more. More than 30 tickets are allowed: Create sends them in batches.
func (r *TicketsRequest) Validate() error {
	var v validator
	r.validate(&v)
	return v.err()
}

func (r *TicketsRequest) validate(v *validator) {
	if len(r.Tickets) == 0 {
		v.add("tickets", "is required: send at least one ticket")
	}
	v.oneOf("recurring_registration_option", r.Option, RecurringOptions)
	seen := map[string]bool{}
	for i, t := range r.Tickets {
		field := fmt.Sprintf("tickets[%d]", i)
		if err := CheckEmail(t.Email); err != nil {
			v.add(field+".email", "%v", err)
		} else if len(t.Email) > maxTicketEmailLength {
			v.add(field+".email", "is %d characters long; at most %d are allowed", len(t.Email), maxTicketEmailLength)
		}
		for _, f := range []struct{ name, value string }{{"first_name", t.FirstName}, {"last_name", t.LastName}} {
			if n := len([]rune(f.value)); n > maxTicketNameLength {
				v.add(field+"."+f.name, "is %d characters long; at most %d are allowed", n, maxTicketNameLength)
			}
		}
		if n := len(t.ExternalTicketID); n > maxTicketIDLength {
			v.add(field+".external_ticket_id", "is %d characters long; at most %d are allowed", n, maxTicketIDLength)
		}
		if n := len(t.SessionIDs); n > maxTicketSessions {
			v.add(field+".session_ids", "holds %d sessions; at most %d are allowed", n, maxTicketSessions)
		}
		for j, id := range t.SessionIDs {
			if strings.TrimSpace(id) == "" {
				v.add(fmt.Sprintf("%s.session_ids[%d]", field, j), "is empty")
			} else if slices.Index(t.SessionIDs, id) != j {
				v.add(fmt.Sprintf("%s.session_ids[%d]", field, j), "%q appears more than once", id)
			}
		}
		switch n := len(t.SessionIDs); r.Option {
		case RecurringAllSessions:
			if n > 0 {
				v.add(field+".session_ids", "must be empty: the link registers for all sessions")
			}
		case RecurringSingleSession:
			if n != 1 {
				v.add(field+".session_ids", "holds %d sessions; a single-session link takes exactly one per ticket", n)
			}
		case RecurringMultipleSessions:
			if n == 0 {
				v.add(field+".session_ids", "is required: choose one or more sessions")
			}
		}
		key := NormalizeEmail(t.Email)
		if r.Option == RecurringSingleSession && len(t.SessionIDs) == 1 {
			key += "\x00" + t.SessionIDs[0]
		}
		if seen[key] {
			v.add(field+".email", "%q appears more than once", t.Email)
		}
		seen[key] = true
	}
}

// BuildTickets expands one person's ticket for the link's recurring option
// (flow rule 4): one ticket per session for single_session, one ticket with
// every chosen session for multiple_sessions, one ticket with no sessions for
// all_sessions (and for a link with no option, when no sessions are chosen).
func BuildTickets(option string, base TicketRequest, sessionIDs []string) []TicketRequest {
	base.Email = NormalizeEmail(base.Email)
	base.SessionIDs = nil
	switch {
	case option == RecurringAllSessions || len(sessionIDs) == 0:
		return []TicketRequest{base}
	case option == RecurringSingleSession:
		out := make([]TicketRequest, len(sessionIDs))
		for i, id := range sessionIDs {
			t := base
			t.SessionIDs = []string{id}
			out[i] = t
		}
		return out
	}
	base.SessionIDs = slices.Clone(sessionIDs)
	return []TicketRequest{base}
}

// Ticket is a created ticket (from the provider's description).
type Ticket struct {
	TicketID              string `json:"ticket_id,omitempty"`
	Email                 string `json:"email"`
	TicketTypeID          string `json:"ticket_type_id"`
	ExternalTicketID      string `json:"external_ticket_id,omitempty"`
	EventJoinLink         string `json:"event_join_link,omitempty"`
	EventRegistrationLink string `json:"event_registration_link,omitempty"`
	QRCodeURL             string `json:"qr_code_url,omitempty"`
}

// Error codes of a refused ticket: the eight values of the provider's
// description (its text names two more, TicketErrMissingAnswers and
// TicketErrUnconfiguredQuestions).
const (
	TicketErrEmailNotFound            = "email_not_found"
	TicketErrTicketTypeNotFound       = "ticket_type_notfound"
	TicketErrNoStock                  = "stock_not_exist"
	TicketErrSaleTime                 = "invalid_sale_time"
	TicketErrInvalidAnswers           = "invalid_api_registration_questions_answers"
	TicketErrNotGenerated             = "ticket_generated_failed"
	TicketErrFastJoinWithRegistration = "fast_join_with_registrationNeeded"
	TicketErrDuplicateQuestions       = "tickets_duplicate_custom_questions"
	TicketErrMissingAnswers           = "missing_required_questions"
	TicketErrUnconfiguredQuestions    = "non_configured_questions"
)

var ticketErrMeanings = map[string]string{
	TicketErrEmailNotFound:            "the email address is missing or not valid",
	TicketErrTicketTypeNotFound:       "the ticket type was not found (name one: the event's default ticket type is gone)",
	TicketErrNoStock:                  "no tickets of this type are left",
	TicketErrSaleTime:                 "the ticket type is not on sale now",
	TicketErrInvalidAnswers:           "the answers to the registration questions are not valid",
	TicketErrNotGenerated:             "the ticket could not be generated; try again",
	TicketErrFastJoinWithRegistration: "fast join cannot be combined with registration_needed",
	TicketErrDuplicateQuestions:       "a custom question is answered more than once",
	TicketErrMissingAnswers:           "required registration questions were not answered",
	TicketErrUnconfiguredQuestions:    "the answers name questions the registration form does not have",
}

// TicketError is one ticket the server refused, and why.
type TicketError struct {
	Email     string `json:"email"`
	ErrorCode string `json:"error_code,omitempty"`
	Message   string `json:"message,omitempty"`
}

// Meaning is what the error code means in words; the server's message when
// the code is not one the description lists.
func (e TicketError) Meaning() string {
	if m, ok := ticketErrMeanings[e.ErrorCode]; ok {
		return m
	}
	if e.Message != "" {
		return e.Message
	}
	return e.ErrorCode
}

// TicketsResult is the answer of a create-tickets call: tickets made and
// tickets refused.
type TicketsResult struct {
	Tickets []Ticket      `json:"tickets"`
	Errors  []TicketError `json:"errors"`
}

// TicketTypes lists the ticket types of an event.
func (s *RegistrationService) TicketTypes(ctx context.Context, eventID string) ([]TicketType, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	var out TicketTypeList
	if err := s.c.do(ctx, call{op: "list ticket types", method: http.MethodGet,
		path: s.c.eventsPath("events", eventID, "ticket_types"), repeatable: true}, &out); err != nil {
		return nil, err
	}
	if out.TicketTypes == nil {
		out.TicketTypes = []TicketType{}
	}
	return out.TicketTypes, nil
}

// CreateTickets validates the whole request, then sends it in batches of at
// most 30 tickets, in order. Refused tickets come back in the result's
// Errors: that is data, not an error. A POST is never repeated after a
// failure of unknown outcome (it could register people twice); when a later
// batch fails, the result holds the batches that went through and the error
// says which batch failed.
func (s *RegistrationService) CreateTickets(ctx context.Context, eventID string, req *TicketsRequest) (*TicketsResult, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	all := make([]TicketRequest, len(req.Tickets))
	for i, t := range req.Tickets {
		t.Email = NormalizeEmail(t.Email)
		t.FirstName, t.LastName = strings.TrimSpace(t.FirstName), strings.TrimSpace(t.LastName)
		all[i] = t
	}
	res := &TicketsResult{Tickets: []Ticket{}, Errors: []TicketError{}}
	batches := (len(all) + MaxTicketsPerRequest - 1) / MaxTicketsPerRequest
	for i := range batches {
		lo := i * MaxTicketsPerRequest
		hi := min(lo+MaxTicketsPerRequest, len(all))
		var out TicketsResult
		err := s.c.do(ctx, call{op: "create tickets", method: http.MethodPost,
			path: s.c.eventsPath("events", eventID, "tickets"), body: &TicketsRequest{Tickets: all[lo:hi]}}, &out)
		if err != nil {
			if batches > 1 {
				err = fmt.Errorf("request %d of %d (tickets %d to %d): %w", i+1, batches, lo+1, hi, err)
			}
			return res, err
		}
		res.Tickets = append(res.Tickets, out.Tickets...)
		res.Errors = append(res.Errors, out.Errors...)
	}
	return res, nil
}
