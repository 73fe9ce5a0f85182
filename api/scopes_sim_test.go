package api_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

// TestA403NamesTheScopesOfEachFeature: for every call of every feature, a
// token holding every scope but that call's is refused by the simulator,
// and the error names the scope the call needs (and the plan, where the
// documents give one), in the path word's spelling.
func TestA403NamesTheScopesOfEachFeature(t *testing.T) {
	for _, word := range []string{"vendor", "acme"} {
		s := sim.New(sim.Options{PathWord: word, NoRateLimit: true})
		srv := httptest.NewServer(s)
		t.Cleanup(srv.Close)
		t.Cleanup(s.Close)
		all := api.RequestedScopes(word)
		ev := s.Fixtures().UpcomingEventID
		for _, f := range api.Features {
			for _, key := range f.Calls {
				e, _ := api.EndpointByKey(key)
				token := "no-" + strings.ReplaceAll(key, " ", "-")
				s.AddToken(token, slices.DeleteFunc(slices.Clone(all), func(sc string) bool { return slices.Contains(e.Scopes(word), sc) })...)
				c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(token), api.WithPathWord(word), api.WithRateLimit(0, 0),
					api.WithRetry(api.RetryPolicy{MaxAttempts: 1}))
				if err != nil {
					t.Fatal(err)
				}
				path := strings.NewReplacer("{eventId}", ev, "{sessionId}", "S1", "{emailTypeId}", "E1", "{accessLinkId}", "L1").
					Replace(api.WithWord(e.Path, word))
				var body any
				if e.Method != http.MethodGet && e.Method != http.MethodDelete {
					body = map[string]any{}
				}
				err = c.RawCall(context.Background(), f.Name, e.Method, path, body)
				var ae *api.Error
				if !errors.As(err, &ae) || ae.Status != http.StatusForbidden {
					t.Errorf("%s %s (%s): %v, want a 403", word, key, f.Name, err)
					continue
				}
				msg := ae.Error()
				if want := api.WithWord(e.Scope, word); !strings.Contains(msg, want) && path != "/phone/account_settings" {
					t.Errorf("%s %s: %q does not name %s", word, key, msg, want)
				}
				if path == "/phone/account_settings" && !strings.Contains(msg, api.PhoneScope) {
					t.Errorf("phone: %q does not name %s", msg, api.PhoneScope)
				}
				if e.Plan != "" && !strings.Contains(msg, e.Plan) && !strings.Contains(msg, "Business or Enterprise") {
					t.Errorf("%s: %q does not name the plan %q", key, msg, e.Plan)
				}
			}
		}
	}
}
