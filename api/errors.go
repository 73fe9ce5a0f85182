package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Error is a failed call: the HTTP status, the provider's numeric code and
// message, and what the code means according to the spec. The body is read
// as the provider's descriptions document it, { "code", "message" }, and
// nothing more: no part of evdesk depends on a field they do not show.
type Error struct {
	Status  int    `json:"-"`
	Code    int    `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// Op names the call ("publish event"), for context in messages;
	// Method and Path are the request's (no query: page tokens stay out).
	Op     string `json:"-"`
	Method string `json:"-"`
	Path   string `json:"-"`
	// RetryAfter is the server's requested wait on 429 or 503, if any.
	RetryAfter time.Duration `json:"-"`
	// endpoint is what the endpoint's description says its status means
	// when the answer carries no documented code (phone 403, AI 401).
	endpoint string
	// needs is what the call needs (scopes, plan) from the scope table,
	// for a 403.
	needs string
}

// FieldError is one problem the client's own validation found in a
// request (ValidationError).
type FieldError struct {
	Field   string `json:"field,omitempty"`
	Message string `json:"message,omitempty"`
}

// Meaning is what the spec says the error means: the code's meaning when the
// code is known, otherwise the meaning of the HTTP status.
//
// Only codes the spec or the provider's descriptions document have a meaning
// here: any other code (a simulator's, or one the provider added later) is
// shown with the server's message and the meaning of its HTTP status, and
// nothing in the client depends on it.
func (e *Error) Meaning() string {
	if m, ok := codeMeanings[e.Code]; ok && e.Code != 0 {
		return m
	}
	if e.endpoint != "" {
		return e.endpoint
	}
	if e.Status == http.StatusForbidden && e.needs != "" {
		return "forbidden: the token lacks the scope, or the account the plan, this call needs: " + e.needs
	}
	if m, ok := statusMeanings[e.Status]; ok {
		return m
	}
	return fmt.Sprintf("HTTP %d", e.Status)
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	ref := fmt.Sprintf("HTTP %d", e.Status)
	if e.Code != 0 {
		ref = fmt.Sprintf("error %d", e.Code)
	}
	meaning := e.Meaning()
	b.WriteString(ref + ": " + meaning)
	if e.Message != "" && !strings.EqualFold(strings.TrimSuffix(e.Message, "."), meaning) {
		fmt.Fprintf(&b, " (server: %s)", e.Message)
	}
	return b.String()
}

// Details lists what is known of the error, label and value, for a full
// view of it (the console's recent errors) and for logs.
func (e *Error) Details() [][2]string {
	d := [][2]string{{"Operation", e.Op}}
	if e.Path != "" {
		d = append(d, [2]string{"Endpoint", strings.TrimSpace(e.Method + " " + e.Path)})
	}
	status := fmt.Sprint(e.Status)
	if t := http.StatusText(e.Status); t != "" {
		status += " " + t
	}
	d = append(d, [2]string{"Status", status})
	if e.Code != 0 {
		d = append(d, [2]string{"Code", fmt.Sprint(e.Code)})
	}
	d = append(d, [2]string{"Meaning", e.Meaning()})
	if e.needs != "" {
		d = append(d, [2]string{"Needs", e.needs})
	}
	if e.Message != "" {
		d = append(d, [2]string{"Message", e.Message})
	}
	if e.RetryAfter > 0 {
		d = append(d, [2]string{"Retry after", e.RetryAfter.String()})
	}
	return d
}

// codeFields names the request field a documented code is about (its
// meaning in the spec says which), so a form can mark that field: the
// documented error answer is only a code and a message.
var codeFields = map[int]string{
	CodeInvalidDuplicateTZ: "timezone",
	CodeScheduleTooLong:    "calendar",
	CodeEndBeforeStart:     "calendar",
	CodeCalendarIncomplete: "calendar",
	CodeHubConference:      "hub_id",
	CodeHubPermission:      "hub_id",
	CodeTicketTypeNotFound: "ticket_type_id",
	CodeJoinLinkNameTaken:  "name",
}

// FieldReasons names the field the error's code is about, with the
// server's message and the code's meaning, for a form that marks it; none
// when the code is about no one field.
func (e *Error) FieldReasons() [][2]string {
	field, ok := codeFields[e.Code]
	if !ok {
		return nil
	}
	reason := e.Meaning()
	if e.Message != "" && !strings.EqualFold(e.Message, reason) {
		reason = e.Message + " (" + reason + ")"
	}
	return [][2]string{{field, reason}}
}

// Temporary reports whether repeating the same request later may succeed.
func (e *Error) Temporary() bool {
	return e.Status == 429 || e.Status >= 500
}

// RetryAfter reports the wait a server asked for (Retry-After on a 429 or
// 503) behind err, if it asked for one. It is never negative and never
// overflows: absurd values are clamped to the longest time.Duration.
func RetryAfter(err error) (time.Duration, bool) {
	var e *Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		return e.RetryAfter, true
	}
	return 0, false
}

// IsCode reports whether err is an *Error with the given provider code.
func IsCode(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

// IsStatus reports whether err is an *Error with the given HTTP status.
func IsStatus(err error, status int) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == status
}

// Error codes of the spec (events doc section 7) and of the provider's
// published descriptions (tickets, exhibitors, phone). Codes that neither
// documents have no constant here: the client never depends on them.
const (
	CodeInvalidEventID         = 1001
	CodeInvalidDuplicate       = 1002
	CodeInvalidDuplicateTZ     = 1003
	CodeUnsupportedEventType   = 1006
	CodeInvalidExhibitorID     = 1020 // create exhibitor (description)
	CodeEventNotFound          = 2002
	CodeEventNotFoundForUpdate = 2003
	CodeSessionNotFound        = 2005
	CodeExhibitorNotFound      = 2006 // create exhibitor (description)
	CodeNotEnoughStock         = 2007 // create tickets (description)
	CodeNotHost                = 3011
	CodeHubPermission          = 26201
	CodeScheduleTooLong        = 26202
	CodeEndBeforeStart         = 26203
	CodeCalendarIncomplete     = 26204
	CodeInvalidSaleDates       = 26401 // create tickets (description)
	CodeEventNotPublished      = 26501 // create tickets (description)
	CodeInvalidTicketType      = 26502 // create tickets (description)
	CodeEventAccessDenied      = 260200
	CodeHubConference          = 260207
	CodeEventNotEditable       = 260210
	CodeUnconfiguredQuestions  = 260503 // create tickets, strict validation (description)
	CodeMissingRequiredAnswers = 260504 // create tickets (description)
	CodeAccessLinkNotFound     = 261201
	CodeTicketTypeNotFound     = 261202
	CodeJoinLinkNameTaken      = 261203
	// CodeInvalidSettingTypes is the phone description's code for an
	// invalid setting_types (it equals the HTTP status).
	CodeInvalidSettingTypes = 400
)

var codeMeanings = map[int]string{
	CodeInvalidEventID:         "invalid event id",
	CodeInvalidDuplicate:       "invalid name or start time for the duplicated event",
	CodeInvalidDuplicateTZ:     "invalid timezone for the duplicated event",
	CodeUnsupportedEventType:   "operation not supported for this event type",
	CodeInvalidExhibitorID:     "the exhibitor id is not valid",
	CodeEventNotFound:          "event not found",
	CodeEventNotFoundForUpdate: "event not found",
	CodeSessionNotFound:        "session not found",
	CodeExhibitorNotFound:      "exhibitor not found",
	CodeNotEnoughStock:         "not enough tickets of this type are left, or the ticket type id is not valid",
	CodeNotHost:                "user is not a host",
	CodeHubPermission:          "no permission to create an event under this hub",
	CodeScheduleTooLong:        "the event schedule cannot be longer than 6 days",
	CodeEndBeforeStart:         "the event end time must be after its start time",
	CodeCalendarIncomplete:     "each calendar entry needs a start_time and an end_time",
	CodeInvalidSaleDates:       "the ticket type is not on sale now (check its sale dates)",
	CodeEventNotPublished:      "the event is not published yet: publish it before registering attendees",
	CodeInvalidTicketType:      "the ticket type id is not valid for this event",
	CodeEventAccessDenied:      "access to this event is denied",
	CodeHubConference:          "this hub does not support conference events",
	CodeEventNotEditable:       "past and cancelled events cannot be edited",
	CodeUnconfiguredQuestions:  "the request answers questions the event's registration form does not have",
	CodeMissingRequiredAnswers: "the event's registration form has required questions that were not answered",
	CodeAccessLinkNotFound:     "event access link not found",
	CodeTicketTypeNotFound:     "ticket type not found",
	CodeJoinLinkNameTaken:      "each join link needs a unique name",
	CodeInvalidSettingTypes:    "a setting type in setting_types is not valid",
}

var statusMeanings = map[int]string{
	400: "invalid request",
	401: "unauthorized: sign in again (evdesk login) or check EVDESK_TOKEN",
	403: "forbidden: the token lacks the scope for this call",
	404: "not found",
	409: "conflict",
	429: "too many requests: the rate limit was reached, try again shortly",
	500: "the server failed",
	502: "bad gateway",
	503: "service unavailable",
	504: "gateway timeout",
}

// TokenError is a failure of the token source: the request was not sent.
// It is never retried, because a refresh spends a rotating refresh token
// and sending the retired one again cannot succeed.
type TokenError struct{ Err error }

func (e *TokenError) Error() string { return "get access token: " + e.Err.Error() }
func (e *TokenError) Unwrap() error { return e.Err }
