package api

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// EmailsService covers the email types of an event and the send status of
// each email (spec 2.7, 2.8, 3.2, 3.3, 4.3).
type EmailsService struct{ c *Client }

// Email type statuses (spec 3.2).
const (
	EmailTypeScheduled   = "scheduled"
	EmailTypeOngoing     = "ongoing"
	EmailTypeSent        = "sent"
	EmailTypeDeactivated = "deactivated"
)

// Send statuses of one recipient (spec 3.3).
const (
	SendScheduled      = "scheduled"
	SendPending        = "pending"
	SendDelivered      = "delivered"
	SendFailed         = "failed"
	SendMissedSchedule = "missed_schedule"
)

// Failure reasons of a failed send (spec 2.8).
const (
	FailureBounced      = "bounced"
	FailureSystemError  = "system_error"
	FailureBlocked      = "blocked"
	FailureRateLimited  = "rate_limited"
	FailureUnsubscribed = "unsubscribed"
)

// maxEmailPageSize is the largest page_size of the email listings.
const maxEmailPageSize = 300

// Enum describes one value of an enumeration: the wire value, a short label
// and what it means.
type Enum struct {
	Value   string
	Label   string
	Meaning string
}

// EmailTypeStatuses, SendStatuses and FailureReasons list each enumeration
// in the spec's order with labels and meanings.
var (
	EmailTypeStatuses = []Enum{
		{EmailTypeScheduled, "Scheduled", "will be sent at the trigger time"},
		{EmailTypeOngoing, "Ongoing", "is being sent as its trigger happens (for example on each registration)"},
		{EmailTypeSent, "Sent", "has been sent"},
		{EmailTypeDeactivated, "Deactivated", "is switched off and will not be sent"},
	}
	SendStatuses = []Enum{
		{SendScheduled, "Scheduled", "to be sent at the scheduled time"},
		{SendPending, "Pending", "ready to send"},
		{SendDelivered, "Delivered", "sent successfully"},
		{SendFailed, "Failed", "could not be delivered; see the failure reason"},
		{SendMissedSchedule, "Missed schedule", "was not sent at its scheduled time"},
	}
	FailureReasons = []Enum{
		{FailureBounced, "Bounced", "the recipient's mail server returned the email"},
		{FailureSystemError, "System error", "a network error; try sending again"},
		{FailureBlocked, "Blocked", "the email was blocked and not sent"},
		{FailureRateLimited, "Rate limited", "the daily email limit was met"},
		{FailureUnsubscribed, "Unsubscribed", "the recipient unsubscribed from event emails"},
	}
)

// LookupEnum finds value (any case) in an enumeration; an unknown value
// comes back as its own label with no meaning, so it is still shown.
func LookupEnum(values []Enum, value string) Enum {
	for _, e := range values {
		if strings.EqualFold(e.Value, value) {
			return e
		}
	}
	return Enum{Value: value, Label: value}
}

// enumValues lists the wire values of an enumeration.
func enumValues(values []Enum) []string {
	out := make([]string, len(values))
	for i, e := range values {
		out[i] = e.Value
	}
	return out
}

// EmailType is one email of an event (spec 2.7).
type EmailType struct {
	EmailTypeID string `json:"email_type_id"`
	// Name is the email type's name ("Registration confirmation").
	Name   string `json:"email_type"`
	Status string `json:"status"`
	// TriggerDate is when the email is (or was) sent.
	TriggerDate *time.Time `json:"trigger_date,omitempty"`
	// TriggerOverview says in words when the email is sent.
	TriggerOverview string `json:"trigger_overview,omitempty"`
}

// EmailTypeList is one page of the email types listing.
type EmailTypeList struct {
	EmailTypes    []EmailType `json:"email_types"`
	NextPageToken string      `json:"next_page_token,omitempty"`
	TotalRecords  int         `json:"total_records"`
}

// EmailSendRecord is the send status of one email to one recipient (spec
// 2.8). Status and FailureReason are lower case after decoding.
type EmailSendRecord struct {
	Email         string     `json:"email"`
	Name          string     `json:"name,omitempty"`
	Status        string     `json:"status"`
	FailureReason string     `json:"failure_reason,omitempty"`
	SentDate      *time.Time `json:"sent_date,omitempty"`
}

// EmailSendList is one page of the send status listing.
type EmailSendList struct {
	Emails        []EmailSendRecord `json:"emails"`
	NextPageToken string            `json:"next_page_token,omitempty"`
	TotalRecords  int               `json:"total_records"`
}

// ListEmailTypesOptions selects an email types listing.
type ListEmailTypesOptions struct {
	// Status limits the listing to one email type status.
	Status string
	// PageSize is 1 to 300; 0 uses the provider's default of 30.
	PageSize int
}

// Validate checks the options against the provider's description.
func (o ListEmailTypesOptions) Validate() error {
	var v validator
	v.oneOf("status", o.Status, enumValues(EmailTypeStatuses))
	validPageSize(&v, o.PageSize)
	return v.err()
}

// ListSendStatusOptions selects a send status listing.
type ListSendStatusOptions struct {
	// Status limits the listing to one send status.
	Status string
	// SearchText limits the listing to recipients matching it.
	SearchText string
	// PageSize is 1 to 300; 0 uses the provider's default of 30.
	PageSize int
}

// Validate checks the options against the provider's description.
func (o ListSendStatusOptions) Validate() error {
	var v validator
	v.oneOf("status", o.Status, enumValues(SendStatuses))
	validPageSize(&v, o.PageSize)
	return v.err()
}

func validPageSize(v *validator, n int) {
	if n < 0 || n > maxEmailPageSize {
		v.add("page_size", "%d is out of range; use 1 to %d (0 for the default)", n, maxEmailPageSize)
	}
}

func emailQuery(status, search string, size int, token string) url.Values {
	q := url.Values{}
	if status != "" {
		q.Set("status", status)
	}
	if s := strings.TrimSpace(search); s != "" {
		q.Set("search_text", s)
	}
	if size > 0 {
		q.Set("page_size", strconv.Itoa(size))
	}
	if token != "" {
		q.Set("next_page_token", token)
	}
	return q
}

// ErrNoEmailTypeID is returned when a call needs an email type id and got none.
var ErrNoEmailTypeID = errors.New("email type id is required")

// TypesPage fetches one page of an event's email types.
func (s *EmailsService) TypesPage(ctx context.Context, eventID string, opts ListEmailTypesOptions, token string) (*EmailTypeList, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	var out EmailTypeList
	if err := s.c.do(ctx, call{op: "list email types", method: http.MethodGet,
		path:  s.c.eventsPath("events", eventID, "email_types"),
		query: emailQuery(opts.Status, "", opts.PageSize, token), repeatable: true}, &out); err != nil {
		return nil, err
	}
	for i := range out.EmailTypes {
		out.EmailTypes[i].Status = lowerWord(out.EmailTypes[i].Status)
	}
	return &out, nil
}

// TypesPager walks an event's email types page by page.
func (s *EmailsService) TypesPager(eventID string, opts ListEmailTypesOptions) *Pager[EmailType] {
	fetch := func(ctx context.Context, token string) (Page[EmailType], error) {
		l, err := s.TypesPage(ctx, eventID, opts, token)
		if err != nil {
			return Page[EmailType]{}, err
		}
		return Page[EmailType]{Items: l.EmailTypes, NextPageToken: l.NextPageToken, Total: l.TotalRecords}, nil
	}
	return listing(s.c, "list email types", fetch, func(t EmailType) string { return t.EmailTypeID })
}

// Types iterates over every email type of an event.
func (s *EmailsService) Types(ctx context.Context, eventID string, opts ListEmailTypesOptions) iter.Seq2[EmailType, error] {
	return s.TypesPager(eventID, opts).All(ctx)
}

// SendStatusPage fetches one page of the send status of an email type.
func (s *EmailsService) SendStatusPage(ctx context.Context, eventID, emailTypeID string, opts ListSendStatusOptions, token string) (*EmailSendList, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	if emailTypeID == "" {
		return nil, ErrNoEmailTypeID
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	var out EmailSendList
	if err := s.c.do(ctx, call{op: "list email send status", method: http.MethodGet,
		path:  s.c.eventsPath("events", eventID, "email_types", emailTypeID, "send_status"),
		query: emailQuery(opts.Status, opts.SearchText, opts.PageSize, token), repeatable: true}, &out); err != nil {
		return nil, err
	}
	for i := range out.Emails {
		r := &out.Emails[i]
		r.Status, r.FailureReason = lowerWord(r.Status), lowerWord(r.FailureReason)
	}
	return &out, nil
}

// SendStatusPager walks the send status of an email type page by page. A
// recipient appears once per email type, so the address identifies a record
// when the pager starts over after a page token expired.
func (s *EmailsService) SendStatusPager(eventID, emailTypeID string, opts ListSendStatusOptions) *Pager[EmailSendRecord] {
	fetch := func(ctx context.Context, token string) (Page[EmailSendRecord], error) {
		l, err := s.SendStatusPage(ctx, eventID, emailTypeID, opts, token)
		if err != nil {
			return Page[EmailSendRecord]{}, err
		}
		return Page[EmailSendRecord]{Items: l.Emails, NextPageToken: l.NextPageToken, Total: l.TotalRecords}, nil
	}
	return listing(s.c, "list email send status", fetch, func(r EmailSendRecord) string { return NormalizeEmail(r.Email) })
}

// SendStatus iterates over the send status of every recipient of an email.
func (s *EmailsService) SendStatus(ctx context.Context, eventID, emailTypeID string, opts ListSendStatusOptions) iter.Seq2[EmailSendRecord, error] {
	return s.SendStatusPager(eventID, emailTypeID, opts).All(ctx)
}

// lowerWord lower-cases an enum word (the provider's samples capitalise
// some) without allocating when it is lower case already.
func lowerWord(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c == ' ' {
			return strings.ToLower(strings.TrimSpace(s))
		}
	}
	return s
}
