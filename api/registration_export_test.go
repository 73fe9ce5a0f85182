package api

import (
	"context"
	"net/url"
	"strings"
)

// RawCreateLink, RawUpdateLink and RawCreateTickets send bodies without
// client-side validation, so tests can reach the server's own checks.
func (s *AccessLinksService) RawCreateLink(ctx context.Context, eventID string, body any) (*AccessLink, error) {
	var out AccessLink
	err := s.c.do(ctx, call{op: "create access link", method: "POST",
		path: s.c.eventsPath("events", eventID, "access_links"), body: body}, &out)
	return &out, err
}

func (s *AccessLinksService) RawUpdateLink(ctx context.Context, eventID, linkID string, body any) error {
	return s.c.do(ctx, call{op: "update access link", method: "PATCH",
		path: s.c.eventsPath("events", eventID, "access_links", linkID), body: body}, nil)
}

func (s *RegistrationService) RawCreateTickets(ctx context.Context, eventID string, body any) (*TicketsResult, error) {
	var out TicketsResult
	err := s.c.do(ctx, call{op: "create tickets", method: "POST",
		path: s.c.eventsPath("events", eventID, "tickets"), body: body}, &out)
	return &out, err
}

// RawCreateTicketsQuery is RawCreateTickets with a query ("?validation_level=strict").
func (s *RegistrationService) RawCreateTicketsQuery(ctx context.Context, eventID, query string, body any) (*TicketsResult, error) {
	var out TicketsResult
	q, _ := url.ParseQuery(strings.TrimPrefix(query, "?"))
	err := s.c.do(ctx, call{op: "create tickets", method: "POST",
		path: s.c.eventsPath("events", eventID, "tickets"), query: q, body: body}, &out)
	return &out, err
}
