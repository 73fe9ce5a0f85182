package api

import "context"

// RawCoeditorPatch sends a co-editors PATCH without client-side validation
// or splitting, so tests can reach the server's own rules.
func (s *CoeditorsService) RawCoeditorPatch(ctx context.Context, eventID string, body any) ([]BatchError, error) {
	var out batchResult
	err := s.c.do(ctx, call{op: "co-editors", method: "PATCH", path: s.c.eventsPath("events", eventID, "coeditors"), body: body}, &out)
	return out.Errors, err
}

// RawSendStatusPage lists send status without validating the options.
func (s *EmailsService) RawSendStatusPage(ctx context.Context, eventID, typeID, query string) (*EmailSendList, error) {
	var out EmailSendList
	q := emailQuery(query, "", 0, "")
	err := s.c.do(ctx, call{op: "send status", method: "GET",
		path: s.c.eventsPath("events", eventID, "email_types", typeID, "send_status"), query: q}, &out)
	return &out, err
}
