package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
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
	MaxTicketsPerRequest        = 30
	maxTicketSessions           = 200
	maxTicketNameLength         = 64
	maxTicketIDLength           = 128
	maxTicketEmailLength        = 128
	MaxRegistrationSourceLength = 16
	maxCommentsLength           = 255
	maxCustomQuestions          = 100
	maxQuestionTitleLength      = 256
)

// Validation levels of a create-tickets request (query validation_level).
const (
	// ValidationStandard (the default) refuses tickets that leave a
	// required question unanswered (260504) and ignores answers to
	// questions the form does not have.
	ValidationStandard = "standard"
	// ValidationStrict also refuses answers to questions the form does not
	// have (260503).
	ValidationStrict = "strict"
	// ValidationNone checks no answers.
	ValidationNone = "none"
)

// ValidationLevels lists the validation_level values.
var ValidationLevels = []string{ValidationStandard, ValidationStrict, ValidationNone}

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

// TicketRequest is one ticket to create (spec 2.11), with the answers to
// the event's registration questions: the standard questions are fields,
// custom questions go by title (SetAnswer fills either by name).
type TicketRequest struct {
	Email            string   `json:"email"`
	TicketTypeID     string   `json:"ticket_type_id,omitempty"`
	ExternalTicketID string   `json:"external_ticket_id,omitempty"`
	SendNotification *bool    `json:"send_notification,omitempty"`
	FastJoin         *bool    `json:"fast_join,omitempty"`
	SessionIDs       []string `json:"session_ids,omitempty"`
	// RegistrationNeeded sends the person the online registration form
	// instead of answering its questions here (the answers are then
	// ignored, and the ticket carries a registration link, not a join
	// link). It cannot be combined with FastJoin.
	RegistrationNeeded *bool `json:"registration_needed,omitempty"`

	FirstName        string         `json:"first_name,omitempty"`
	LastName         string         `json:"last_name,omitempty"`
	Address          string         `json:"address,omitempty"`
	City             string         `json:"city,omitempty"`
	State            string         `json:"state,omitempty"`
	Zip              string         `json:"zip,omitempty"`
	Country          string         `json:"country,omitempty"`
	Phone            string         `json:"phone,omitempty"`
	Industry         string         `json:"industry,omitempty"`
	JobTitle         string         `json:"job_title,omitempty"`
	Organization     string         `json:"organization,omitempty"`
	OrganizationSize string         `json:"organization_size,omitempty"`
	Comments         string         `json:"comments,omitempty"`
	CustomQuestions  []CustomAnswer `json:"custom_questions,omitempty"`
}

// CustomAnswer is the answer to one custom registration question.
type CustomAnswer struct {
	Title  string `json:"title"`
	Answer string `json:"answer"`
}

// StandardQuestions are the registration questions that are fields of a
// ticket, by their JSON names (the names the service's messages use).
var StandardQuestions = []string{"first_name", "last_name", "address", "city", "state", "zip", "country",
	"phone", "industry", "job_title", "organization", "organization_size", "comments"}

// questionLabels name the standard questions for people.
var questionLabels = map[string]string{"first_name": "First name", "last_name": "Last name", "address": "Address",
	"city": "City", "state": "State or province", "zip": "ZIP or postal code", "country": "Country (two-letter code, such as US)",
	"phone": "Phone", "industry": "Industry", "job_title": "Job title", "organization": "Organization",
	"organization_size": "Organization size (employees)", "comments": "Questions and comments"}

// QuestionLabel names a registration question for people: a standard one in
// words ("job_title" is "Job title"), a custom one by its title.
func QuestionLabel(question string) string {
	if l, ok := questionLabels[question]; ok {
		return l
	}
	return question
}

// standardField returns the field of t that answers a standard question.
func (t *TicketRequest) standardField(name string) *string {
	return map[string]*string{"first_name": &t.FirstName, "last_name": &t.LastName, "address": &t.Address,
		"city": &t.City, "state": &t.State, "zip": &t.Zip, "country": &t.Country, "phone": &t.Phone,
		"industry": &t.Industry, "job_title": &t.JobTitle, "organization": &t.Organization,
		"organization_size": &t.OrganizationSize, "comments": &t.Comments}[name]
}

// SetAnswer answers a registration question: a standard one by its JSON
// name (job_title), a custom one by its title, replacing an earlier answer.
func (t *TicketRequest) SetAnswer(question, answer string) {
	question = strings.TrimSpace(question)
	if f := t.standardField(question); f != nil {
		*f = answer
		return
	}
	for i, c := range t.CustomQuestions {
		if c.Title == question {
			t.CustomQuestions[i].Answer = answer
			return
		}
	}
	t.CustomQuestions = append(t.CustomQuestions, CustomAnswer{Title: question, Answer: answer})
}

// Answer is the ticket's answer to a question ("" when none).
func (t *TicketRequest) Answer(question string) string {
	if f := t.standardField(question); f != nil {
		return *f
	}
	for _, c := range t.CustomQuestions {
		if c.Title == question {
			return c.Answer
		}
	}
	return ""
}

// ParseAnswer reads "QUESTION=ANSWER" (the question a standard field's
// JSON name or a custom question's title; the first = separates them).
func ParseAnswer(s string) (question, answer string, err error) {
	q, a, ok := strings.Cut(s, "=")
	if q = strings.TrimSpace(q); !ok || q == "" {
		return "", "", fmt.Errorf("%q is not QUESTION=ANSWER (for example job_title=Engineer)", s)
	}
	return q, strings.TrimSpace(a), nil
}

// TicketsRequest is the body of a create-tickets call.
type TicketsRequest struct {
	// RegistrationSource says where the registrations come from (at most
	// 16 characters), for the event's reports.
	RegistrationSource string          `json:"registration_source,omitempty"`
	Tickets            []TicketRequest `json:"tickets"`

	// ValidationLevel is how strictly the server checks the answers to the
	// registration questions (query validation_level); "" is the server's
	// default, ValidationStandard.
	ValidationLevel string `json:"-"`
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
	v.oneOf("validation_level", r.ValidationLevel, ValidationLevels)
	if n := len([]rune(r.RegistrationSource)); n > MaxRegistrationSourceLength {
		v.add("registration_source", "is %d characters long; at most %d are allowed", n, MaxRegistrationSourceLength)
	}
	seen := map[string]bool{}
	for i, t := range r.Tickets {
		field := fmt.Sprintf("tickets[%d]", i)
		if err := CheckEmail(t.Email); err != nil {
			v.add(field+".email", "%v", err)
		} else if len(t.Email) > maxTicketEmailLength {
			v.add(field+".email", "is %d characters long; at most %d are allowed", len(t.Email), maxTicketEmailLength)
		}
		for _, f := range []struct {
			name, value string
			limit       int
		}{{"first_name", t.FirstName, maxTicketNameLength}, {"last_name", t.LastName, maxTicketNameLength},
			{"comments", t.Comments, maxCommentsLength}} {
			if n := len([]rune(f.value)); n > f.limit {
				v.add(field+"."+f.name, "is %d characters long; at most %d are allowed", n, f.limit)
			}
		}
		if t.Country != "" {
			if err := CheckCountryCode(t.Country); err != nil {
				v.add(field+".country", "%v", err)
			}
		}
		validateCustomAnswers(v, field, t.CustomQuestions)
		if t.FastJoin != nil && *t.FastJoin && t.RegistrationNeeded != nil && *t.RegistrationNeeded {
			v.add(field+".fast_join", "cannot be combined with registration_needed: a fast join skips the registration form")
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

// validateCustomAnswers checks the custom answers of one ticket: at most
// 100, titles of at most 256 characters, each title once.
func validateCustomAnswers(v *validator, field string, answers []CustomAnswer) {
	if n := len(answers); n > maxCustomQuestions {
		v.add(field+".custom_questions", "holds %d answers; at most %d are allowed", n, maxCustomQuestions)
	}
	for j, c := range answers {
		f := fmt.Sprintf("%s.custom_questions[%d].title", field, j)
		switch n := len([]rune(c.Title)); {
		case strings.TrimSpace(c.Title) == "":
			v.add(f, "is empty: name the question")
		case n > maxQuestionTitleLength:
			v.add(f, "is %d characters long; at most %d are allowed", n, maxQuestionTitleLength)
		case slices.IndexFunc(answers, func(o CustomAnswer) bool { return o.Title == c.Title }) != j:
			v.add(f, "%q is answered more than once", c.Title)
		}
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

// query carries the validation level, when one is chosen.
func (r *TicketsRequest) query() url.Values {
	if r.ValidationLevel == "" {
		return nil
	}
	return url.Values{"validation_level": {r.ValidationLevel}}
}

// QuestionsIn lists the registration questions an error of create tickets
// names: the required ones left unanswered (260504,
// CodeMissingRequiredAnswers) or the answered ones the form does not have
// (260503, CodeUnconfiguredQuestions). The service's message lists them as
// a JSON array ("Missing required fields - [\"job_title\", \"Foo,Bar\"]");
// nil when err is neither or names none.
func QuestionsIn(err error) []string {
	var e *Error
	if !errors.As(err, &e) || (e.Code != CodeMissingRequiredAnswers && e.Code != CodeUnconfiguredQuestions) {
		return nil
	}
	start, end := strings.Index(e.Message, "["), strings.LastIndex(e.Message, "]")
	if start < 0 || end < start {
		return nil
	}
	var names []string
	if json.Unmarshal([]byte(e.Message[start:end+1]), &names) != nil {
		return nil
	}
	return names
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
			path: s.c.eventsPath("events", eventID, "tickets"), query: req.query(),
			body: &TicketsRequest{RegistrationSource: req.RegistrationSource, Tickets: all[lo:hi]}}, &out)
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
