package api

import "context"

// RawCreate and RawAction send requests without client-side validation, so
// tests can reach the server's own error codes.
func (s *EventsService) RawCreate(ctx context.Context, body any) (*Event, error) {
	var out Event
	err := s.c.do(ctx, call{op: "create event", method: "POST", path: s.c.eventsPath("events"), body: body}, &out)
	return &out, err
}

func (s *EventsService) RawAction(ctx context.Context, id string, body any) (*ActionResult, error) {
	var out ActionResult
	err := s.c.do(ctx, call{op: "event action", method: "POST", path: s.c.eventsPath("events", id, "event_actions"), body: body}, &out)
	return &out, err
}

// RawUpdate sends an update body without client-side validation.
func (s *EventsService) RawUpdate(ctx context.Context, id string, body any) error {
	return s.c.do(ctx, call{op: "update event", method: "PATCH", path: s.c.eventsPath("events", id), body: body}, nil)
}

// RawCall sends any request (tests of what every endpoint answers).
func (c *Client) RawCall(ctx context.Context, op, method, path string, body any) error {
	return c.do(ctx, call{op: op, method: method, path: path, body: body}, nil)
}

// WithWord writes a neutral path or scope with the path word.
func WithWord(s, word string) string { return withWord(s, word) }

// EndpointByKey finds an endpoint of the scope table.
func EndpointByKey(key string) (Endpoint, bool) { return endpointByKey(key) }
