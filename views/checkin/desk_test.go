package checkin

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/ui"
)

// registered returns the n-th registrant of the large conference.
func (r *rig) registered(n int) string {
	return r.sim.RegistrantEmails(r.ids.LargeConferenceEventID)[n]
}

func (r *rig) checkedIn(email string) bool {
	return slices.ContainsFunc(r.sim.CheckIns(r.ids.LargeConferenceEventID, ""), func(c sim.CheckInRecord) bool {
		return c.Email == email
	})
}

func TestDeskChecksInAndShowsEachStage(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "of 20,000")
	r.Contains("READY", "0 pending", "Observability Summit APAC")
	r.Golden("desk_ready")

	who := r.registered(0)
	// The server answers slowly, so the stage between "on disk" and "the
	// server confirmed" is on screen for certain (a fast answer may
	// otherwise overtake it, and the desk rightly shows the answer).
	r.sim.SetFaults(time.Second, 0, 0)
	// A scanner may send upper case and stray spaces; the desk normalises.
	r.scan("  " + strings.ToUpper(who) + " ")
	r.Contains("RECORDED, SENDING", who) // on disk, before any answer
	r.sim.SetFaults(0, 0, 0)
	r.settle("CHECKED IN", "This desk today 1")
	r.Lacks("RECORDED, SENDING")
	r.Golden("desk_checked_in")
	if !r.checkedIn(who) {
		t.Fatalf("the simulator has no check-in of %s", who)
	}
	if got := r.sim.CheckIns(r.ids.LargeConferenceEventID, "")[0].Source; got != "evdesk desk test" {
		t.Fatalf("source %q", got)
	}

	// The same badge again: the journal knows, nothing is sent.
	r.scan(who)
	r.Contains("ALREADY CHECKED IN", "checked in at this desk (evdesk desk test), 10:00", "first scanned 10:00:00")
	r.Golden("desk_already")
	if n := len(r.sim.CheckIns(r.ids.LargeConferenceEventID, "")); n != 1 {
		t.Fatalf("%d check-ins on the server, want 1", n)
	}
}

// What names nobody is refused in scancode's words: what was read and what
// the desk expects; nothing is journaled.
func TestDeskRefusesWhatNamesNobody(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	r.scan("garbage")
	r.Contains("[XX] NOT RECOGNISED", `read "garbage"`, "expected an email, a ticket QR code or a ticket id")
	r.Golden("desk_invalid")
	r.scan("ana@localhost")
	r.Contains(`read "ana@localhost"`, "the domain needs a dot")
	r.scan("https://events.vendor.example/about")
	r.Contains(`read "https://events.vendor.example/about": a link without a ticket`)
	if c := r.desk().v.Journal().Counts(); c.Total() != 0 {
		t.Fatalf("refused input reached the journal: %+v", c)
	}
}

func TestDeskShowsTheServersRefusal(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	r.scan("nobody@example.org")
	r.settle("NOT REGISTERED", "Rejected 1")
	r.Contains("Attendee is not registered for this event.")
	r.Golden("desk_not_registered")
}

func TestDeskQueuesOfflineAndAsksBeforeQuitting(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	r.sim.SetFaults(0, 0, 1) // every connection dropped
	who := r.registered(1)
	r.scan(who)
	r.settle("OFFLINE", "QUEUED OFFLINE", "1 pending")
	r.Contains("cannot reach the server", "ctrl+r")
	r.Golden("desk_offline")

	// Typing still works offline; scans queue.
	r.scan(r.registered(2))
	r.Contains("QUEUED OFFLINE", "2 pending")

	r.Press("ctrl+c")
	r.Contains("2 check-ins not yet sent", "quit anyway?")
	r.Press("esc")
	if r.Quit() {
		t.Fatal("quit without asking")
	}
	r.Lacks("quit anyway?")

	r.sim.SetFaults(0, 0, 0)
	r.Send(ctrl('r'))
	r.settle("ONLINE", "0 pending", "This desk today 2")
	if !r.checkedIn(who) {
		t.Fatal("the queued scan was not delivered")
	}
	r.Press("ctrl+c")
	if !r.Quit() {
		t.Fatal("nothing pending, yet quitting asked")
	}
}

// TestTypingNeverWaitsForTheNetwork: while a check-in request is held open
// by the server, the desk still takes and records scans. The test opens the
// gate only after the scans, so a desk that waited on the network would hang
// here instead of passing.
func TestTypingNeverWaitsForTheNetwork(t *testing.T) {
	inFlight, gate := make(chan struct{}, 1), make(chan struct{})
	var real scanqueue.CheckInFunc
	r := newRig(t, withCheckIn(func(ctx context.Context, eventID, sessionID string, emails []string, source string) ([]api.BatchError, error) {
		select {
		case inFlight <- struct{}{}:
		default:
		}
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return real(ctx, eventID, sessionID, emails, source)
	}))
	real = r.deps.SenderClient.Attendees.CheckIn
	r.settle("ONLINE")
	a, b, c := r.registered(3), r.registered(4), r.registered(5)
	r.scan(a)
	select { // the sender holds the first scan's request open
	case <-inFlight:
	case <-time.After(30 * time.Second):
		t.Fatal("the sender never sent the first scan")
	}
	r.scan(b)
	r.scan(c)
	if r.desk().v.Sender().Status().InFlight == 0 {
		t.Fatal("no request was in flight while typing")
	}
	r.Contains(a, b, c, "RECORDED, SENDING")
	close(gate)
	r.settle("This desk today 3", "0 pending")
}

func TestPastedLinesAreScansAndKeypadEnterSubmits(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	a, b := r.registered(6), r.registered(7)
	r.Send(tea.PasteMsg{Content: a + "\r\n" + b + "\nnot-an-email\npart"})
	r.Contains(a, b, "NOT RECOGNISED", "Scan > part")
	r.Press("ctrl+u")
	r.Type(r.registered(8))
	r.Send(tea.KeyPressMsg{Code: tea.KeyKpEnter})
	r.Contains(r.registered(8))
	r.settle("This desk today 3")
	// Space-separated addresses (a paste that lost its newlines) are
	// several scans; other text with spaces is one input, refused whole.
	r.Type(r.registered(9) + " " + r.registered(10))
	r.Press("enter")
	r.settle("This desk today 5")
	r.scan("Ana Silva")
	r.Contains(`read "Ana Silva"`)
}

func TestRegistrantSearchChecksInTheChosenOne(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	who := r.registered(0) // grace.rossi@example.net
	r.Send(ctrl('f'))
	r.Contains("Find a registrant", "20,000 of 20,000 loaded")
	r.Type("grace.ross")
	r.Contains(who)
	r.Golden("desk_search")
	// Letters went to the input, not to the table's keys.
	r.Contains("Scan > grace.ross")
	r.Press("enter")
	r.Lacks("Find a registrant")
	r.settle("CHECKED IN", who)
	if !r.checkedIn(who) {
		t.Fatal("the chosen registrant was not checked in")
	}
	// A scanner's address during a search is a scan, not a pick.
	r.Send(fkey(2))
	r.Contains("Find a registrant")
	r.scan(r.registered(1))
	r.Lacks("Find a registrant")
	r.settle("This desk today 2")
}

func TestDeskBellRingsOnFailureWhenOn(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	r.scan("x")
	if r.desk().rings != 0 {
		t.Fatal("the bell rang while off")
	}
	r.Send(ctrl('g'))
	r.Contains("bell on")
	r.scan("x")
	r.scan("nobody@example.org")
	r.settle("NOT REGISTERED")
	if got := r.desk().rings; got != 2 {
		t.Fatalf("rang %d times, want 2", got)
	}
}

func TestDeskSendsWhatAnEarlierDeskLeft(t *testing.T) {
	dir := t.TempDir()
	probe := newRig(t, pickerOnly())
	ev := probe.ids.LargeConferenceEventID
	who := probe.sim.RegistrantEmails(ev)[11]
	j, err := scanqueue.Open(dir, ev, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Scan(who, "an earlier desk"); err != nil {
		t.Fatal(err)
	}
	j.Close()

	r := newRig(t, withJournalDir(dir))
	r.Contains("1 scan from an earlier session")
	r.settle("CHECKED IN", who, "0 pending")
	if !r.checkedIn(who) {
		t.Fatal("the earlier scan was not sent")
	}
}

func TestLeavingTheDeskReleasesTheJournal(t *testing.T) {
	dir := t.TempDir()
	r := newRig(t, withJournalDir(dir))
	r.settle("ONLINE")
	rt := r.desk().rt
	r.Type("half typed")
	r.Press("esc") // clears the input first
	r.Contains("Desk: Observability Summit APAC")
	r.Press("esc") // leaving asks, as quitting does
	r.Contains("Leave the check-in desk?", "Yes: ctrl+y", "No: esc")
	r.Type("ana@example.org") // a scan into the question is a scan
	r.Press("enter", "esc")   // and esc stays
	r.Lacks("Leave the check-in desk?")
	r.Contains("Desk: Observability Summit APAC", "ana@example.org")
	r.settle("0 pending") // sent: nothing keeps the desk sending once it has left
	r.Press("esc")
	r.Press("ctrl+y")
	r.Contains("choose an upcoming event")
	<-rt.down
	j, err := scanqueue.Open(dir, r.ids.LargeConferenceEventID, "")
	if err != nil {
		t.Fatalf("the journal is still held: %v", err)
	}
	j.Close()
}

func TestADeskThatCannotOpenItsJournalSaysSo(t *testing.T) {
	dir := t.TempDir()
	probe := newRig(t, pickerOnly())
	j, err := scanqueue.Open(dir, probe.ids.LargeConferenceEventID, "")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	r := newRig(t, withJournalDir(dir), func(c *rigConfig) { c.lockWait = 10 * time.Millisecond })
	r.Contains("NO JOURNAL", "DESK UNAVAILABLE", "another evdesk desk or import has this journal open")
	r.scan(r.registered(0))
	r.Contains("NOT RECORDED", "could not be opened")
	if r.desk().ConfirmQuit() != "" {
		t.Fatal("nothing was recorded, yet quitting would ask")
	}
}

func TestSessionDesk(t *testing.T) {
	probe := newRig(t, pickerOnly())
	sid := probe.ids.LargeConferenceSessionID
	r := newRig(t, withSession(sid))
	r.settle("ONLINE")
	r.Contains("session "+sid, "Desk: session "+sid)
	who := r.registered(12)
	r.scan(who)
	r.settle("CHECKED IN")
	if got := r.sim.CheckIns(r.ids.LargeConferenceEventID, sid); len(got) != 1 || got[0].Email != who {
		t.Fatalf("session check-ins %+v", got)
	}
}

func TestDeskFitsA80x24Terminal(t *testing.T) {
	r := newRig(t, withSize(80, 24))
	r.settle("ONLINE")
	r.scan(r.registered(0))
	r.scan("nobody@example.org")
	r.settle("NOT REGISTERED", "This desk today 1")
	r.Golden("desk_80x24")
}

func TestADeskStartedOfflineWorksAndCatchesUp(t *testing.T) {
	r := newRig(t, downloadRoster(), func(c *rigConfig) { c.offline = true })
	r.settle("NO ANSWER", "cannot reach the server", "of ?")
	who := r.registered(13)
	r.scan(who)
	r.Contains("RECORDED") // journaled at once, whatever the network does
	r.settle("OFFLINE", "QUEUED OFFLINE")
	r.sim.SetFaults(0, 0, 0)
	r.Send(ctrl('r'))
	r.settle("CHECKED IN", "ONLINE", "of 20,000")
}

// ? is a scan character at the desk: it is typed, and F1 opens the help.
func TestDeskHelpIsF1(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "of 20,000")
	r.Contains("F1 help")
	r.Type("a?b")
	r.Contains("Scan > a?b")
	r.Lacks("Keys")
	r.Press("f1")
	// The help is true: the desk's keys and ctrl+y, and of the shell's
	// only F1 and ctrl+c; tab, :, E, ? and q are typing here.
	r.Contains("Keys", "history", "F1 or esc closes this help", "ctrl+y", "yes, to a question", "ctrl+c")
	r.Lacks("next section", "command palette", "recent errors", "? ")
	r.Press("f1")
	r.Lacks("closes this help")
}

// A desk left with scans unsent goes on sending them in the background,
// and quitting asks, from whatever screen the user is on (q or ctrl+c);
// the desk opened again (F6) takes its journal over and sends the rest.
func TestQuittingAsksForScansLeftSendingFromAnyScreen(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	r.sim.SetFaults(0, 0, 1) // every connection dropped
	who := r.registered(1)
	r.scan(who)
	r.settle("OFFLINE", "1 pending")
	r.Press("esc", "ctrl+y")
	r.Contains("choose an upcoming event", "still sending in the background")
	for _, k := range []string{"q", "ctrl+c"} {
		r.Press(k)
		r.Contains("1 check-in not yet sent (desk of Observability", "quit anyway?")
		r.Press("n") // away from the desk, y and n answer
		if r.Quit() {
			t.Fatalf("%s quit with a scan unsent", k)
		}
		r.Lacks("quit anyway?")
	}

	r.sim.SetFaults(0, 0, 0)
	r.Press("f6")
	r.settle("ONLINE", "0 pending")
	if !r.checkedIn(who) {
		t.Fatal("the desk opened again did not send the scan left")
	}
	r.Press("esc", "ctrl+y")
	r.Contains("choose an upcoming event")
	r.Press("q")
	if !r.Quit() {
		t.Fatal("nothing waits, yet quitting asked")
	}
}

// The desk's help is true: every key that is not typing is pressed on the
// desk, and what acted is what the help lists with the shell's keys there
// (ctrl+y answers the questions over the desk: it is pressed in one).
func TestDeskHelpListsExactlyTheKeysThatAct(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "of 20,000")
	if wrong := r.untrueHelp(deskKeysToPress(), func() {
		if r.desk().searching {
			r.Press("esc")
		}
		if r.desk().showBoard {
			r.Send(fkey(4))
		}
	}); len(wrong) > 0 {
		t.Fatalf("the desk's help is not true:\n%s", strings.Join(wrong, "\n"))
	}
	r.Press("esc") // the leave question
	r.Press("ctrl+y")
	r.Contains("choose an upcoming event")
}

// deskKeysToPress are the keys a help test presses at the desk: every key
// no scanner types, but Enter, Tab and ctrl+y (which answers questions).
func deskKeysToPress() []string {
	keys := []string{"esc", "up", "down", "pgup", "pgdown", "home", "end", "delete"}
	for i := 1; i <= 12; i++ {
		keys = append(keys, fmt.Sprintf("f%d", i))
	}
	for c := 'a'; c <= 'z'; c++ {
		if c != 'y' && c != 'j' && c != 'i' && c != 'm' { // ctrl+y below; ctrl+j, i, m are Enter, Tab, Enter
			keys = append(keys, "ctrl+"+string(c))
		}
	}
	return keys
}

// untrueHelp presses each key at the desk, then undoes what it did
// (popups, screens pushed, and what reset undoes), and says where the
// desk's help (with the shell's keys) and pressing disagree.
func (r *rig) untrueHelp(keys []string, reset func()) []string {
	r.t.Helper()
	listed := map[string]string{}
	for _, g := range append(r.desk().FullHelp(), r.app.ShellKeys()) {
		for _, b := range g {
			for _, k := range b.Keys() {
				listed[k] = b.Help().Desc
			}
		}
	}
	var wrong []string
	for _, k := range keys {
		before, view := r.app.Activity(), r.View()
		r.Press(k)
		acted := r.View() != view || r.app.Activity() != before
		for i := 0; r.app.Activity().Popups > 0 && i < 3; i++ {
			r.Press("esc")
		}
		for r.app.Activity().Depth > before.Depth {
			r.Send(ui.PopMsg{})
		}
		reset()
		switch _, ok := listed[k]; {
		case acted && !ok:
			wrong = append(wrong, k+" acts but is not in the help")
		case !acted && ok:
			wrong = append(wrong, k+" ("+listed[k]+") is in the help but does nothing")
		}
	}
	return wrong
}

// A desk whose server refuses connections says why in its connection
// line (the address, whose width varies, is in E and the log), and keeps
// the scan for later.
func TestAnUnreachableServerIsNamedAtTheDesk(t *testing.T) {
	r := newRig(t, withUnreachableServer())
	r.scan(r.registered(3))
	r.settle("OFFLINE  1 pending · next try", "(ctrl+r: now); cannot reach the server (connection refused)")
}

// The counters' "All desks N of M" counts the people the roster lists, as
// the connection line does, not the server's total_records, which may
// count a person twice (QA: "8 of 684" beside "roster 343").
func TestAllDesksCountsThePeopleListed(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "roster ")
	d := r.desk()
	people := []roster.Person{{Email: "a@example.org"}, {Email: "b@example.org"}, {Email: "c@example.org"}}
	ro := roster.New(d.eventID, testNow, 2*len(people), people)
	d.rost = venue.RosterState{Roster: ro, Total: ro.Total()}
	if line := ansi.Strip(d.countersLine()); !strings.Contains(line, "All desks 0 of 3") {
		t.Fatalf("counters: %q", line)
	}
}
