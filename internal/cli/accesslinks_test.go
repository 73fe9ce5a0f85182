package cli

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
)

// simWithWord serves a simulator whose path word is word and points the
// environment at it.
func simWithWord(t *testing.T, word string) *sim.Sim {
	t.Helper()
	isolateXDG(t)
	s := sim.New(sim.Options{PathWord: word, NoRateLimit: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	t.Setenv("EVDESK_BASE_URL", srv.URL+"/v2")
	t.Setenv("EVDESK_TOKEN", sim.DemoToken)
	t.Setenv("EVDESK_PATH_WORD", word)
	return s
}

// links -o json writes authentication_method exactly as the server sent it,
// in the server's word; the table says what it means.
func TestLinksJSONKeepsTheServersWord(t *testing.T) {
	s := simWithWord(t, "acme")
	ev := s.Fixtures().RecurringEventID
	out, _, err := execute(t, "links", "list", ev, "-o", "json")
	if err != nil || !strings.Contains(out, `"authentication_method": "acme_account`) || strings.Contains(out, "vendor_account") {
		t.Fatalf("links -o json: %v\n%s", err, out)
	}
	out, _, err = execute(t, "links", "list", ev)
	if err != nil || !strings.Contains(out, "account holder") {
		t.Fatalf("links table: %v\n%s", err, out)
	}
}
