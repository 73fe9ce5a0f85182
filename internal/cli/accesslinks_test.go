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

// events get shows the whole venue and marks physical_location deprecated,
// naming venue; -o json keeps the fields as the server sent them.
func TestEventsGetShowsTheVenueAndTheDeprecatedLocation(t *testing.T) {
	s := simWithWord(t, "vendor")
	ev := s.Fixtures().RecurringEventID
	out, _, err := execute(t, "events", "get", ev)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Venue ", "Street ", "City ", "State/region ", "Postal code ", "Country ",
		"(physical_location: deprecated by the provider, to be removed: use venue instead)"} {
		if !strings.Contains(out, want) {
			t.Errorf("events get lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = execute(t, "events", "get", ev, "-o", "json")
	if !strings.Contains(out, `"physical_location": "`) || strings.Contains(out, "deprecated") {
		t.Fatalf("json: %s", out)
	}
}

// phone settings -o json keeps the server's keys, in its word.
func TestPhoneJSONKeepsTheServersWord(t *testing.T) {
	simWithWord(t, "acme")
	out, _, err := execute(t, "phone", "settings", "-o", "json")
	if err != nil || !strings.Contains(out, `"acme_phone_on_mobile"`) || strings.Contains(out, `"vendor_phone_on_mobile"`) {
		t.Fatalf("phone settings -o json: %v\n%.400s", err, out)
	}
}
