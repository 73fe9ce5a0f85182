package checkin

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/evdesk/evdesk/api"
)

// checkInAs checks emails in on the server as another desk would.
func (r *rig) checkInAs(desk string, emails ...string) {
	r.t.Helper()
	if failed, err := r.deps.Client.Attendees.CheckIn(context.Background(), r.ids.LargeConferenceEventID, "", emails, desk); err != nil || len(failed) > 0 {
		r.t.Fatalf("check in as %s: %v %v", desk, failed, err)
	}
}

// A person checked in at another desk is answered ALREADY, naming that
// desk, after one sync (ctrl+r here; every few seconds at a venue), and
// nothing is sent; the counters show this desk's work and all desks'.
func TestDeskNamesTheDeskThatCheckedInFirst(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "of 20,000")
	who := r.registered(20)
	r.checkInAs("Desk 2", who, r.registered(21))
	r.Send(ctrl('r'))
	r.settle("All desks 2 of 20,000")
	r.scan(who)
	r.settle("ALREADY CHECKED IN")
	r.Contains("checked in at Desk 2, 10:00", "This desk today 0")
	if n := len(r.sim.CheckIns(r.ids.LargeConferenceEventID, "")); n != 2 {
		t.Fatalf("%d check-ins on the server, want 2 (nothing sent)", n)
	}
	r.scan(r.registered(22))
	r.settle("CHECKED IN", "This desk today 1", "All desks 3 of 20,000")
}

// Offline, the roster answers: a registered scan shows the person, an
// unknown one NOT REGISTERED by roster; both are journaled and sent when the
// server is back, which has the last word.
func TestDeskAnswersFromTheRosterWhileOffline(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "roster 20,000, updated 10:00")
	r.sim.SetFaults(0, 0, 1)
	r.scan(r.registered(23))
	r.settle("OFFLINE", "QUEUED OFFLINE", "registered · attendee", "by roster, updated 10:00")
	r.scan("stranger@example.org")
	r.settle("[!?] NOT REGISTERED", "by roster, updated 10:00; saved, and the server will have the last word", "2 pending")
	r.Golden("desk_roster_offline")
	r.sim.SetFaults(0, 0, 0)
	r.Send(ctrl('r'))
	r.settle("0 pending", "[!!] NOT REGISTERED", "This desk today 1")
	r.Lacks("!?")
}

// The server is the final word: a person the roster did not list (they
// registered after it was taken) but the server checks in shows as a
// disagreement, and the journal keeps the roster's verdict beside the
// server's answer.
func TestDeskShowsADisagreementWithTheRoster(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "roster 20,000")
	late := "late.comer@example.org"
	if _, err := r.deps.Client.Registration.CreateTickets(context.Background(), r.ids.LargeConferenceEventID,
		&api.TicketsRequest{Tickets: []api.TicketRequest{{Email: late, FirstName: "Late", LastName: "Comer"}}}); err != nil {
		t.Fatal(err)
	}
	r.scan(late)
	r.settle("[OK] CHECKED IN", "though the roster (updated 10:00) did not list them")
	sc, _ := r.desk().v.Journal().Lookup(late)
	if !sc.Disagrees() {
		t.Fatalf("the journal does not record the disagreement: %+v", sc)
	}
}

// A whole-batch 400 that names nobody leaves the scans pending: the desk
// says the server refused the batch, with its message, and ctrl+r sends
// them once the server takes them.
func TestDeskShowsARefusedBatchAndKeepsItsScans(t *testing.T) {
	var calls atomic.Int32
	var real func(ctx context.Context, eventID, sessionID string, emails []string, source string) ([]api.BatchError, error)
	r := newRig(t, withCheckIn(func(ctx context.Context, eventID, sessionID string, emails []string, source string) ([]api.BatchError, error) {
		if calls.Add(1) == 1 {
			return nil, &api.Error{Status: 400, Message: "temporary validation outage"}
		}
		return real(ctx, eventID, sessionID, emails, source)
	}))
	real = r.deps.SenderClient.Attendees.CheckIn
	r.settle("ONLINE")
	who := r.registered(24)
	r.scan(who)
	r.settle("SERVER REFUSED THE BATCH", "temporary validation outage", "QUEUED, NOT SENDING", "1 pending")
	r.Contains("ctrl+r")
	r.Send(ctrl('r'))
	r.settle("[OK] CHECKED IN", "0 pending")
	if c := r.desk().v.Journal().Counts(); c.Rejected != 0 || c.CheckedIn != 1 {
		t.Fatalf("counts %+v", c)
	}
}

// The result box shows this desk session's scans only: a scan from an
// earlier session stays in the list, never in the box.
func TestResultBoxShowsOnlyThisSessionsScans(t *testing.T) {
	dir := t.TempDir()
	first := newRig(t, withJournalDir(dir))
	first.settle("ONLINE")
	who := first.registered(25)
	first.scan(who)
	first.settle("[OK] CHECKED IN", "This desk today 1")
	first.Press("esc")
	first.closeDesks()

	r := newRig(t, withJournalDir(dir))
	r.settle("ONLINE", who)
	r.Contains("[--] READY", "CHECKED IN           "+who)
	r.Lacks("[OK] CHECKED IN")
}

func TestDeskAt120x36(t *testing.T) {
	r := newRig(t, withSize(120, 36))
	r.settle("ONLINE", "roster 20,000")
	r.checkInAs("Door B", r.registered(30))
	r.Send(ctrl('r'))
	r.settle("All desks 1 of 20,000")
	r.scan(r.registered(31))
	r.scan(r.registered(30))
	r.settle("ALREADY CHECKED IN", "This desk today 1")
	r.Golden("desk_120x36")
}
