package coeditors

import (
	"slices"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views/viewtest"
)

var testNow = viewtest.Now

type rig struct {
	*uitest.Driver
	sim *sim.Sim
	id  string
}

// newRig opens the co-editors screen of an event on a fresh simulator.
func newRig(t *testing.T, w, h int, pick func(sim.Fixtures) string) *rig {
	t.Helper()
	srv := viewtest.NewServer(t)
	s, client := srv.Sim, srv.Client(t, sim.DemoToken)
	id := pick(s.Fixtures())
	d := viewtest.Open(t, w, h, func(c *ui.Context) ui.Screen { return New(c, client, id, "Northwind Partner Summit") })
	return &rig{Driver: d, sim: s, id: id}
}

func conference(f sim.Fixtures) string { return f.ConferenceEventID }

func emails(cs []api.Coeditor) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Email
	}
	return out
}

func TestListShowsLabelsAndPermissionsPanel(t *testing.T) {
	r := newRig(t, 100, 30, conference)
	seeded := r.sim.Coeditors(r.id)
	if len(seeded) == 0 {
		t.Fatal("the conference has no seeded co-editors")
	}
	r.Contains("Co-editors of Northwind Partner Summit", seeded[0].Email, "Sections "+seeded[0].Email+" may edit")
	r.Golden("list")
	r.Press("down")
	if len(seeded) > 1 {
		r.Contains("Sections " + seeded[1].Email + " may edit")
	}
}

func TestAddSeveralReportsEachRefusal(t *testing.T) {
	r := newRig(t, 100, 34, conference)
	before := r.sim.Coeditors(r.id)
	r.Press("a")
	r.Contains("Add co-editors", "Email addresses", "Sections they may edit", "Registration & join")
	r.Press("enter")
	r.Contains("enter at least one email address")
	r.Type("not-an-address")
	r.Press("enter")
	r.Contains("not an email address")
	r.Press("ctrl+u")
	// The conference has one co-editor and an event takes three: two
	// addresses fit.
	r.Type(sim.DemoHostEmail + ", kofi.mensah@example.org")
	r.Press("enter")
	// Tick Publish (first) and Registration & join (fourth), then save.
	r.Press("space", "down", "down", "down", "space")
	r.Golden("add_form")
	r.Press("enter")
	// The form stays open with the refused address only, the reason under
	// it; esc leaves it and the screen lists what came of each address.
	r.Contains("Not saved: the reason is under the field marked ! (emails)", "> "+sim.DemoHostEmail,
		"! added 1 of 2; refused "+sim.DemoHostEmail)
	r.Lacks("> " + sim.DemoHostEmail + ", kofi")
	r.Golden("add_partial")
	r.Press("esc")
	r.Contains("PARTLY Added 1 of 2; 1 refused", "REFUSED "+sim.DemoHostEmail)
	after := r.sim.Coeditors(r.id)
	if len(after) != len(before)+1 {
		t.Fatalf("co-editors %v", emails(after))
	}
	if got := after[len(after)-1]; got.Email != "kofi.mensah@example.org" ||
		!slices.Equal(got.PermissionGroups, []string{api.PermPublish, api.PermRegistrationJoin}) {
		t.Fatalf("added %+v", got)
	}
}

func TestChangePermissionsAndRemove(t *testing.T) {
	r := newRig(t, 100, 34, conference)
	first := r.sim.Coeditors(r.id)[0]
	r.Press("e")
	r.Contains("Permissions of " + first.Email)
	r.Press("ctrl+a") // huh: select all
	r.Press("enter")
	r.Contains("OK Updated " + first.Email)
	if got := r.sim.Coeditors(r.id)[0]; len(got.PermissionGroups) != len(api.PermissionGroups) {
		t.Fatalf("after update %+v", got)
	}
	r.Contains("12 of 12")

	n := len(r.sim.Coeditors(r.id))
	r.Press("x")
	r.Contains("DANGER", "Remove "+first.Email)
	r.Press("enter") // the highlighted answer of a dangerous question is No
	if len(r.sim.Coeditors(r.id)) != n {
		t.Fatal("enter removed a co-editor")
	}
	r.Press("x", "y")
	r.Contains("OK Removed " + first.Email)
	if got := emails(r.sim.Coeditors(r.id)); slices.Contains(got, first.Email) || len(got) != n-1 {
		t.Fatalf("after remove %v", got)
	}
	r.Lacks("DANGER")
}

func TestEmptyEventAndSmallTerminal(t *testing.T) {
	var empty string
	r := newRig(t, 80, 24, func(f sim.Fixtures) string {
		s := sim.New(sim.Options{Now: func() time.Time { return testNow }})
		for _, id := range []string{f.UpcomingEventID, f.PastEventID, f.DraftEventID, f.RecurringEventID, f.MonthlyEventID,
			f.NoRegistrantsEventID, f.LargeConferenceEventID, f.CancelledEventID} {
			if len(s.Coeditors(id)) == 0 {
				empty = id
				break
			}
		}
		return empty
	})
	if empty == "" {
		t.Skip("every seeded event has co-editors")
	}
	r.Contains("0 co-editors", "No co-editors yet. Press a to add some.")
	r.Press("e")
	r.Contains("No co-editor selected")
	r.Golden("empty_80x24")
}

// Two co-editors when one place is left: the check refuses the request
// before it is sent; the form keeps both addresses with the reason under
// them, at 80x24; one address less and ctrl+s adds it.
func TestOnePlaceLeftKeepsTheForm(t *testing.T) {
	r := newRig(t, 80, 24, conference)
	r.Press("a")
	r.Type("ama.owusu@example.org")
	r.Press("enter", "enter") // one more first: two of three places taken
	r.Contains("OK Added ama.owusu@example.org")
	r.Press("a")
	r.Type("kofi.mensah@example.org, lena.berg@example.org")
	r.Press("ctrl+s")
	r.Contains("> kofi.mensah@example.org, lena.berg@example.org", "! coeditors the event has 2 co-editors",
		"there is room for 1 more")
	r.Golden("one_place_left_80x24")
	if got := emails(r.sim.Coeditors(r.id)); len(got) != 2 {
		t.Fatalf("co-editors %v", got)
	}
	r.Press("ctrl+u")
	r.Type("kofi.mensah@example.org")
	r.Press("ctrl+s")
	r.Contains("OK Added kofi.mensah@example.org")
	if got := emails(r.sim.Coeditors(r.id)); len(got) != 3 || !slices.Contains(got, "kofi.mensah@example.org") {
		t.Fatalf("co-editors %v", got)
	}
}

// At 3 of 3 co-editors a says why not instead of opening the form.
func TestAddSaysWhyNotWhenTheEventIsFull(t *testing.T) {
	r := newRig(t, 100, 30, conference)
	r.Press("a")
	r.Type("ama.owusu@example.org, kofi.mensah@example.org")
	r.Press("ctrl+s")
	r.Contains("OK Added all 2", "3 co-editors")
	r.Press("a")
	r.Contains("The event has 3 co-editors, the most it takes: remove one (x) to add another")
	r.Lacks("Add co-editors to")
}
