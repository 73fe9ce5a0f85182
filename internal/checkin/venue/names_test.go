package venue

import (
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// TestTheDeskLearnsNamesAndWalkIns: a walk-in the desk registered is on
// its roster at once (a scan of them is expected, not a surprise), names
// are shown from the book, and another desk of the event reads the same
// book.
func TestTheDeskLearnsNamesAndWalkIns(t *testing.T) {
	v := newVenue(t, sim.Options{})
	dir := t.TempDir()
	changed := make(chan struct{}, 64)
	d := v.open(dir, "Door A", func(o *Options) {
		o.OnChange = func() {
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	})
	deadline := time.After(30 * time.Second)
	for d.RosterState().Roster == nil || d.RosterState().Loading {
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("no roster")
		}
	}
	first := d.Roster().People()[0].Email
	walkIn := roster.Person{Email: "Walk.In@example.org", Status: "REGISTERED", Tickets: []roster.Ticket{{ID: "tkWalk1", Role: "ATTENDEE"}}}
	err := d.Learn(map[string]roster.Name{
		"walk.in@example.org": {First: "Wally", Last: "Inn", Source: "walk-in"},
		first:                 {First: "Ana", Last: "Costa", Company: "Contoso", Source: "import"},
	}, walkIn)
	if err != nil {
		t.Fatal(err)
	}
	if p, _, ok := d.Roster().ByTicket("tkWalk1"); !ok || p.Name != "Wally Inn" {
		t.Fatalf("the walk-in is not on the roster: %+v", p)
	}
	if p, _ := d.Roster().ByEmail(first); p.Name != "Ana Costa" || p.Company != "Contoso" {
		t.Fatalf("the registrant's name: %+v", p)
	}
	scans, err := d.Scan([]string{"walk.in@example.org"})
	if err != nil || scans[0].Expect != scanqueue.ExpectRegistered {
		t.Fatalf("%+v %v", scans, err)
	}
	// The names are the event's: another desk (same folder, its own
	// session journal) reads them from the roster cache's side.
	other := v.open(dir, "Door B", func(o *Options) { o.SessionID = "s1" })
	if p, _ := other.Roster().ByEmail(first); p.Name != "Ana Costa" {
		t.Fatalf("another desk did not read the names: %+v", p)
	}
}
