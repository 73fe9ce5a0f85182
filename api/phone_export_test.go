package api

import (
	"context"
	"encoding/json"
	"net/url"
)

// RawAccountSettings asks for setting_types as given, without the client's
// check, and returns the answer's bytes, so tests reach the server's 400 and
// compare what the typed decoder keeps with what was sent.
func (s *PhoneService) RawAccountSettings(ctx context.Context, types string) ([]byte, error) {
	var q url.Values
	if types != "" {
		q = url.Values{"setting_types": {types}}
	}
	var out json.RawMessage
	err := s.c.do(ctx, call{op: "get phone settings", method: "GET", path: "/phone/account_settings", query: q, repeatable: true}, &out)
	return out, err
}
