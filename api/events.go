package api

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// EventsService covers events and event actions (spec 2.1-2.4, 4.4).
type EventsService struct{ c *Client }

// ListEventsOptions selects an events listing.
type ListEventsOptions struct {
	// RoleType is "host" (events the user hosts; the default here) or
	// "attendee".
	RoleType string
	// StatusType is ListUpcoming (default), ListPast, ListDraft or ListCancelled.
	StatusType string
	// PageSize is 1 to 300; 0 uses the provider's default of 30.
	PageSize int
}

func (o ListEventsOptions) query(token string) url.Values {
	q := url.Values{}
	role := o.RoleType
	if role == "" {
		role = "host"
	}
	q.Set("role_type", role)
	if o.StatusType != "" {
		q.Set("event_status_type", o.StatusType)
	}
	if o.PageSize > 0 {
		q.Set("page_size", strconv.Itoa(min(o.PageSize, maxEventListPageSize)))
	}
	if token != "" {
		q.Set("next_page_token", token)
	}
	return q
}

// ListPage fetches one page of events.
func (s *EventsService) ListPage(ctx context.Context, opts ListEventsOptions, token string) (*EventList, error) {
	var out EventList
	err := s.c.do(ctx, call{op: "list events", method: http.MethodGet, path: s.c.eventsPath("events"),
		query: opts.query(token), repeatable: true}, &out)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Pager walks the whole listing page by page.
func (s *EventsService) Pager(opts ListEventsOptions) *Pager[Event] {
	fetch := func(ctx context.Context, token string) (Page[Event], error) {
		l, err := s.ListPage(ctx, opts, token)
		if err != nil {
			return Page[Event]{}, err
		}
		return Page[Event]{Items: l.Events, NextPageToken: l.NextPageToken, Total: l.TotalRecords}, nil
	}
	return listing(s.c, "list events", fetch, func(e Event) string { return e.EventID })
}

// List iterates over every event of the listing.
func (s *EventsService) List(ctx context.Context, opts ListEventsOptions) iter.Seq2[Event, error] {
	return s.Pager(opts).All(ctx)
}

// Get fetches one event with its host, venue and contact email.
func (s *EventsService) Get(ctx context.Context, eventID string) (*Event, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	var out Event
	if err := s.c.do(ctx, call{op: "get event", method: http.MethodGet,
		path: s.c.eventsPath("events", eventID), repeatable: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Create validates and creates an event. It is never retried after an
// unknown outcome: creating twice would make two events.
func (s *EventsService) Create(ctx context.Context, req *EventCreate) (*Event, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	body := *req
	body.Recurrence = recurrenceShape(req.Recurrence, false)
	var out Event
	if err := s.c.do(ctx, call{op: "create event", method: http.MethodPost,
		path: s.c.eventsPath("events"), body: &body}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Update validates and applies changes to an event.
func (s *EventsService) Update(ctx context.Context, eventID string, req *EventUpdate) error {
	if eventID == "" {
		return ErrNoEventID
	}
	if err := req.Validate(); err != nil {
		return err
	}
	body := *req
	body.Recurrence = recurrenceShape(req.Recurrence, true)
	// Setting the same fields twice leaves the same event: safe to repeat.
	return s.c.do(ctx, call{op: "update event", method: http.MethodPatch,
		path: s.c.eventsPath("events", eventID), body: &body, repeatable: true}, nil)
}

// Delete removes a draft event.
func (s *EventsService) Delete(ctx context.Context, eventID string) error {
	if eventID == "" {
		return ErrNoEventID
	}
	return s.c.do(ctx, call{op: "delete event", method: http.MethodDelete,
		path: s.c.eventsPath("events", eventID), repeatable: true}, nil)
}

// Publish publishes a draft.
func (s *EventsService) Publish(ctx context.Context, eventID string) (*ActionResult, error) {
	return s.action(ctx, eventID, "publish event", &EventAction{Operation: eventActionPublish})
}

// Cancel cancels a published event; message is required when it has registrants.
func (s *EventsService) Cancel(ctx context.Context, eventID, message string) (*ActionResult, error) {
	return s.action(ctx, eventID, "cancel event",
		&EventAction{Operation: eventActionCancel, CancelMessage: strings.TrimSpace(message)})
}

// Duplicate copies an event; the result carries the new event's id.
func (s *EventsService) Duplicate(ctx context.Context, eventID string, d DuplicateEvent) (*ActionResult, error) {
	d.StartTime = d.StartTime.UTC()
	return s.action(ctx, eventID, "duplicate event",
		&EventAction{Operation: eventActionDuplicate, DuplicateEvent: &d})
}

func (s *EventsService) action(ctx context.Context, eventID, op string, a *EventAction) (*ActionResult, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	var out ActionResult
	if err := s.c.do(ctx, call{op: op, method: http.MethodPost,
		path: s.c.eventsPath("events", eventID, "event_actions"), body: a}, &out); err != nil {
		return nil, err
	}
	// Samples capitalise the status word; callers compare lower case.
	out.Status = strings.ToLower(out.Status)
	return &out, nil
}

// recurrenceShape returns a copy of r whose day lists use the wire shape of
// the request: arrays on create, the compact form on update.
func recurrenceShape(r *Recurrence, compact bool) *Recurrence {
	if r == nil {
		return nil
	}
	cp := *r
	if r.WeeklyDays != nil {
		w := NewWeekDays(compact, r.WeeklyDays.Days...)
		cp.WeeklyDays = &w
	}
	if r.MonthlyDays != nil {
		m := NewMonthDays(compact, r.MonthlyDays.Days...)
		cp.MonthlyDays = &m
	}
	return &cp
}
