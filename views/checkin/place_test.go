package checkin

import (
	"testing"

	"github.com/evdesk/evdesk/internal/checkin/place"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// The desk of one server says, as it opens, where scans of its event wait
// that belong to another server; it sends none of them.
func TestDeskTellsOfAnotherServersScansAndSendsNone(t *testing.T) {
	root := t.TempDir()
	probe := newRig(t, pickerOnly())
	ev := probe.ids.LargeConferenceEventID
	who := probe.sim.RegistrantEmails(ev)[7]
	other, err := place.Open(root, place.Server{BaseURL: "https://other.example/v2"})
	if err != nil {
		t.Fatal(err)
	}
	j, err := scanqueue.Open(other.Dir, ev, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Scan(who, "a desk of the other server"); err != nil {
		t.Fatal(err)
	}
	j.Close()
	here, err := place.Open(root, place.Server{BaseURL: "https://here.example/v2"})
	if err != nil {
		t.Fatal(err)
	}

	r := newRig(t, withJournalDir(here.Dir), withElsewhere(here.Elsewhere))
	r.Contains("1 unsent scan of event " + ev + " belongs to other.example")
	r.settle("0 pending")
	if r.checkedIn(who) {
		t.Fatal("the other server's scan was sent here")
	}
	if n, _ := scanqueue.PendingIn(other.Dir, ev, ""); n != 1 {
		t.Fatalf("the other server's journal holds %d pending", n)
	}
}
