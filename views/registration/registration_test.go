package registration

import (
	"slices"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views/viewtest"
)

type rig struct {
	*uitest.Driver
	sim *sim.Sim
	id  string
}

func newRig(t *testing.T, w, h int, pick func(sim.Fixtures) string) *rig {
	t.Helper()
	srv := viewtest.NewServer(t)
	s, client := srv.Sim, srv.Client(t, sim.DemoToken)
	id := pick(s.Fixtures())
	d := viewtest.Open(t, w, h, func(c *ui.Context) ui.Screen { return New(c, client, id, "Pottery for Beginners") })
	return &rig{Driver: d, sim: s, id: id}
}

func TestRecurringFlowRegistersAttendees(t *testing.T) {
	r := newRig(t, 100, 30, func(f sim.Fixtures) string { return f.RecurringEventID })
	r.Contains("[x] 1 Hub", "[x] 2 Published", "3 Access link Registration [registration]", "Ticket type General admission",
		"multiple_sessions", "[ ] 4 Sessions    0 of", "not yet: choose one or more sessions")
	r.Press("a")
	r.Contains("Cannot register yet: choose one or more sessions")
	r.Press("t") // VIP
	r.Press("space", "down", "down", "space")
	r.Contains("Ticket type VIP", "2 of")
	r.Golden("steps")
	r.Press("a")
	r.Contains("Register attendees for", "One a line")
	r.Type("ines.lopez@example.org, Ines, Lopez")
	r.Press("ctrl+j")
	r.Type("not-an-email")
	r.Press("enter")
	r.Contains("line 2: email")
	r.Press("backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
	r.Type("kofi.mensah@example.org")
	r.Press("enter")
	r.Contains("OK registered 2 people (2 tickets)", "OK      ines.lopez@example.org: 1 ticket", "kofi.mensah@example.org")
	r.Golden("registered")
	regs := r.sim.RegistrantEmails(r.id)
	if !slices.Contains(regs, "ines.lopez@example.org") || !slices.Contains(regs, "kofi.mensah@example.org") {
		t.Fatalf("registrants lack the new people: %d", len(regs))
	}
	// The group-join link brings its own ticket type.
	r.Press("l")
	r.Contains("Staff and speakers [group-join]", "Ticket type Speaker")
}

func TestDraftEventIsBlocked(t *testing.T) {
	r := newRig(t, 80, 24, func(f sim.Fixtures) string { return f.DraftEventID })
	r.Contains("[ ] 2 Published", "publish it before registering", "not yet: publish the event first")
	r.Press("a")
	r.Contains("Cannot register yet: publish the event first")
	r.Golden("draft_80x24")
}
