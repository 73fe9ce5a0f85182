package checkin

import (
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/walkin"
	"github.com/evdesk/evdesk/views"
)

// listed reports whether the server lists email among the event's
// registrants.
func (r *rig) listed(eventID, email string) bool {
	for _, e := range r.sim.RegistrantEmails(eventID) {
		if e == email {
			return true
		}
	}
	return false
}

// checkInsAt counts the server's check-ins of email at an event.
func (r *rig) checkInsAt(eventID, email string) int {
	n := 0
	for _, c := range r.sim.CheckIns(eventID, "") {
		if c.Email == email {
			n++
		}
	}
	return n
}

// fillWalkIn answers the walk-in form: first, last, company, the address
// as filled in, the first ticket type.
func (r *rig) fillWalkIn(first, last, company string) {
	r.t.Helper()
	r.Type(first)
	r.Press("enter")
	r.Type(last)
	r.Press("enter")
	r.Type(company)
	r.Press("enter", "enter") // company, then the address as it is
}

// walkIn scans someone the server does not know and registers them at
// the desk with a name, the first ticket type.
func (r *rig) walkIn(who, first, last string) {
	r.t.Helper()
	r.scan(who)
	r.settle("NOT REGISTERED", "F5: register them")
	r.Send(fkey(5))
	r.fillWalkIn(first, last, "")
	r.Press("enter") // the ticket type
}

// An unregistered person is registered at the desk and checked in: F5 on
// the NOT REGISTERED result opens the form with their address; submitted,
// the ticket is made and the check-in sent, once; the name shows.
func TestWalkInOnline(t *testing.T) {
	r := newRig(t, withSize(80, 24), withExtras(views.Extras{WalkIns: true}))
	r.settle("ONLINE", "roster 20,000")
	const who = "walk.in@example.org"
	r.scan(who)
	r.settle("[!!] NOT REGISTERED", "F5: register them as a walk-in")
	r.Golden("desk_walkin_not_registered_80x24")
	r.Send(fkey(5))
	r.Contains("Walk-in: register and check in", "First name")
	r.Contains("field 1/5 · ctrl+s submits") // five fields, not all in view at 80x24
	r.Golden("desk_walkin_form_80x24")
	r.fillWalkIn("Wally", "Inn", "Contoso")
	r.Press("enter") // the ticket type
	r.settle("[OK] CHECKED IN", "Wally Inn (Contoso)")
	r.Golden("desk_walkin_checked_in_80x24")
	if !r.listed(r.ids.LargeConferenceEventID, who) || r.checkIns(who) != 1 {
		t.Fatalf("registered %v, check-ins %d", r.listed(r.ids.LargeConferenceEventID, who), r.checkIns(who))
	}
	// The name is the event's now: the search finds them by it.
	r.Send(ctrl('f'))
	r.Type("Wally")
	r.Contains(who, "Wally Inn")
}

// The walk-in form offers a series' sessions by start, in the session's
// own zone and saying which (the registration screen shows the same), and
// by their names without the event's in front.
func TestWalkInSessionsSayTheirZone(t *testing.T) {
	r := newRig(t, withSize(100, 36), withExtras(views.Extras{WalkIns: true}),
		func(c *rigConfig) { c.eventID = func(f sim.Fixtures) string { return f.RecurringEventID } })
	r.settle("ONLINE")
	r.scan("walk.in@example.org")
	r.settle("[!!] NOT REGISTERED", "F5: register them as a walk-in")
	r.Send(fkey(5))
	r.Contains("Sessions *")
	r.Says("18:00 PST", "Pottery for Beginners (weekly) · whole event")
	r.Contains("[ ] Thu 26 Nov 18:00 PST  Thu 26 Nov 2026")
	r.Lacks("(weekly): ")
}

// Offline, the walk-in waits in the journal (after the scan that found
// them unregistered); when the server is back, the registration goes
// first, then the check-in, and the person ends checked in once.
func TestWalkInOffline(t *testing.T) {
	dir := t.TempDir()
	r := newRig(t, withSize(80, 24), withJournalDir(dir), withExtras(views.Extras{WalkIns: true}))
	r.settle("ONLINE")
	r.srv.down() // the venue's network is down: nothing reaches the server
	const who = "door.offline@example.org"
	r.scan(who)
	r.settle("NOT REGISTERED", "F5: register them", "OFFLINE")
	r.Send(fkey(5))
	// The form says the desk is offline now, although its setup came
	// from the server when the desk opened.
	r.Says("Walk-in: register and check in (offline: sent when the server answers)")
	r.fillWalkIn("Olga", "Fline", "")
	r.Press("enter") // the ticket type, as loaded when the desk opened
	r.settle("WALK-IN QUEUED", "registered, then checked in, when the server answers")
	r.Golden("desk_walkin_offline_80x24")
	if n := r.desk().ConfirmQuit(); n != "2 check-ins not yet sent" {
		t.Fatalf("quitting now would lose: %q", n)
	}
	j := r.desk().door.dr.walkins
	if all := j.All(); len(all) != 1 || all[0].State != walkin.Waiting || r.listed(r.ids.LargeConferenceEventID, who) {
		t.Fatalf("offline: %+v", all)
	}
	r.srv.up()
	r.Send(ctrl('r'))
	r.settle("[OK] CHECKED IN", "Olga Fline")
	if !r.listed(r.ids.LargeConferenceEventID, who) || r.checkIns(who) != 1 {
		t.Fatalf("registered %v, check-ins %d", r.listed(r.ids.LargeConferenceEventID, who), r.checkIns(who))
	}
	if all := j.All(); all[0].State != walkin.CheckedIn {
		t.Fatalf("the walk-in is %s", all[0].State)
	}
}

// A registration the server refuses leaves the check-in unsent and says
// why; F5 opens the form again with the questions the event requires, and
// answered, the person is registered and checked in.
func TestARefusedWalkInSaysWhy(t *testing.T) {
	r := newRig(t, withSize(100, 30), downloadRoster(), withExtras(views.Extras{WalkIns: true}),
		func(c *rigConfig) { c.eventID = func(f sim.Fixtures) string { return f.QuestionsEventID } })
	r.settle("ONLINE", "roster ")
	const who = "asked@example.org"
	r.walkIn(who, "Ann", "Swer")
	r.settle("WALK-IN REFUSED", "the registration form requires Job title, Organization")
	if r.checkInsAt(r.ids.QuestionsEventID, who) != 0 || r.listed(r.ids.QuestionsEventID, who) {
		t.Fatal("a refused walk-in was checked in")
	}
	r.Send(fkey(5))
	r.Contains("Job title *")
	r.Press("enter", "enter", "enter", "enter", "enter") // names as typed, the ticket type
	r.Type("Engineer")
	r.Press("enter")
	r.Type("Contoso")
	r.Press("enter")
	r.Type(sim.WorkshopChoices[0])
	r.Press("enter")
	r.settle("[OK] CHECKED IN", "Ann Swer")
	if n := r.checkInsAt(r.ids.QuestionsEventID, who); n != 1 {
		t.Fatalf("check-ins %d", n)
	}
}

// A kiosk takes no walk-ins unless the profile allows them: locked, F5 is
// none of the public's keys and does nothing; unlocked, it says why.
func TestWalkInsAreOffAtAKiosk(t *testing.T) {
	r := newRig(t, withSize(80, 24), withKioskPIN("2468"))
	r.settle("ONLINE")
	r.scan("kiosk.walker@example.org")
	r.settle("NOT REGISTERED")
	r.Lacks("F5")
	r.Send(fkey(5))
	r.Lacks("Walk-in: register", "Walk-ins are off")
	r.Send(ctrl('k'))
	r.Type("2468")
	r.Press("enter")
	r.Contains("Kiosk unlocked")
	r.Send(fkey(5))
	r.Contains("Walk-ins are off at a kiosk: walk_ins = true in the profile allows them")
	r.Lacks("Walk-in: register")
}

// Names imported beside the roster show in the result box and the search.
func TestImportedNamesShowAtTheDesk(t *testing.T) {
	dir := t.TempDir()
	seedRoster(t, dir)
	r0 := newRig(t, pickerOnly())
	who := r0.sim.RegistrantEmails(r0.ids.LargeConferenceEventID)[3]
	if _, err := roster.AddNames(roster.NamesPath(dir, r0.ids.LargeConferenceEventID), r0.ids.LargeConferenceEventID,
		map[string]roster.Name{who: {First: "Zoë", Last: "Ångström", Company: "Fjord AS"}}); err != nil {
		t.Fatal(err)
	}
	r := newRig(t, withSize(100, 30), withJournalDir(dir))
	r.settle("ONLINE")
	r.scan(who)
	r.settle("[OK] CHECKED IN", "Zoë Ångström (Fjord AS)")
	r.Send(ctrl('f'))
	r.Type("ngstr")
	if v := r.View(); !strings.Contains(v, who) || !strings.Contains(v, "Zoë Ångström") {
		t.Fatalf("the search does not find them by name:\n%s", v)
	}
}

// Scans that arrive while the walk-in form is open are scans at the desk:
// each is recorded and checked in, and the form keeps what the operator
// typed; nothing a scanner types moves its choices or submits it (issue
// 20; QA: the walk-in form at the desk). A scan ending with nothing waits
// in the scan input for its Enter, as at the bare desk.
func TestScansWhileTheWalkInFormIsOpenAreRecorded(t *testing.T) {
	r := newRig(t, withSize(80, 24), withExtras(views.Extras{WalkIns: true}))
	r.settle("ONLINE", "roster 20,000")
	const who = "walk.in@example.org"
	r.scan(who)
	r.settle("[!!] NOT REGISTERED")
	r.Send(fkey(5))
	r.Contains("Walk-in: register and check in", "First name")
	r.Type("Wal")
	first, second := r.registered(60), r.registered(61)
	r.Burst(first, "enter")
	r.Burst("jjjk", "") // a code that ends with nothing
	r.Burst("x", "tab") // and its tail (x toggled a session before)
	r.Burst(second, "kpenter")
	r.Contains("Walk-in: register and check in", "Scan recorded at the desk; the form keeps what you typed")
	r.Type("ly")
	r.fillWalkIn("", "Inn", "Contoso")
	r.Press("enter") // the ticket type
	r.settle("[OK] CHECKED IN", "Wally Inn (Contoso)")
	if r.checkIns(first) != 1 || r.checkIns(second) != 1 || r.checkIns(who) != 1 {
		t.Fatalf("check-ins: scanned %d and %d, walk-in %d", r.checkIns(first), r.checkIns(second), r.checkIns(who))
	}
	r.Contains("jjjkx") // refused at the desk: no such code
}

// A scan during the registrant search is the scan, whatever row the
// search has chosen: a code the desk cannot read is refused, never taken
// for the registrant it happens to match.
func TestAScanDuringTheSearchIsNotThePick(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE", "roster 20,000")
	r.Send(ctrl('f'))
	part := r.registered(70)[:7]
	r.Burst(part, "enter")
	r.settle(part)
	if got := r.sim.CheckIns(r.ids.LargeConferenceEventID, ""); len(got) != 0 {
		t.Fatalf("the scan checked in the search's pick: %+v", got)
	}
}

// A scan into the kiosk's PIN prompt is recorded whole, and is no PIN try.
func TestAScanIntoTheKioskPromptIsRecorded(t *testing.T) {
	r := newRig(t, withKioskPIN("246813"))
	r.settle("ONLINE")
	r.Send(ctrl('k'))
	r.Type("12")
	who := r.registered(41)
	r.Burst(who, "enter")
	r.settle("[OK] CHECKED IN", kioskWho(entry{email: who}))
	r.Lacks("PIN > ", "Wrong PIN", "cut short")
	if !r.desk().kiosk.locked || r.desk().kiosk.wrong != 0 {
		t.Fatalf("locked %v, wrong PINs %d", r.desk().kiosk.locked, r.desk().kiosk.wrong)
	}
}

// A kiosk that takes walk-ins (walk_ins = true) puts the form before the
// public: a scan while it is open is the next person's check-in, recorded
// at the desk, and nothing of it reaches the form.
func TestAKioskWalkInFormTakesNoScan(t *testing.T) {
	r := newRig(t, withSize(80, 24), withKioskPIN("246813"), withExtras(views.Extras{WalkIns: true}))
	r.settle("ONLINE")
	r.scan("kiosk.walker@example.org")
	r.settle("NOT REGISTERED")
	r.Send(fkey(5))
	r.Contains("Walk-in: register and check in", "First name")
	next := r.registered(42)
	r.Burst(next, "enter")
	r.settle("Scan recorded at the desk")
	r.Contains("Walk-in: register and check in")
	r.Lacks(next) // neither in the form nor, at a kiosk, on screen whole
	if r.checkIns(next) != 1 {
		t.Fatalf("the scan was checked in %d times", r.checkIns(next))
	}
}

// A walk-in stays on the roster when the desk is left and opened again on
// the same journal folder (#16): the roster at hand was cached before they
// registered and is not due for a download, so the desk learns them again
// from the walk-in journals of the event's desks. The search finds them and
// the roster counts them, as before it closed, at a session's desk too; a
// roster taken after their registration has the last word.
func TestAWalkInStaysOnTheRosterAfterReopening(t *testing.T) {
	dir := t.TempDir()
	r := newRig(t, withSize(100, 30), withJournalDir(dir), withExtras(views.Extras{WalkIns: true}))
	r.settle("ONLINE", "roster 20,000")
	const who = "back.again@example.org"
	r.walkIn(who, "Rhea", "Turner")
	r.settle("[OK] CHECKED IN", "Rhea Turner", "roster 20,001")
	rt := r.desk().rt
	r.Press("esc") // the leave question
	r.Press("ctrl+y")
	r.Contains("choose an upcoming event")
	<-rt.down

	picker := r.app.Top().(*Picker)
	r.Send(pushMsg(NewDesk(picker.ctx, r.deps, r.ids.LargeConferenceEventID, "Observability Summit APAC", "", "")))
	r.settle("ONLINE", "roster 20,001")
	r.Send(ctrl('f'))
	r.Type("Rhea")
	r.Contains(who, "Rhea Turner")
	if n := r.checkIns(who); n != 1 {
		t.Fatalf("check-ins %d", n)
	}

	// A desk of one of the event's sessions, opened on this computer,
	// finds them on the roster too.
	leave := func() {
		r.Press("esc", "esc") // the search, then the leave question
		rt := r.desk().rt
		r.Press("ctrl+y")
		<-rt.down
	}
	leave()
	ev, sid := r.ids.LargeConferenceEventID, r.ids.LargeConferenceSessionID
	r.Send(pushMsg(NewDesk(picker.ctx, r.deps, ev, "Observability Summit APAC", sid, "")))
	r.settle("ONLINE", "session "+sid, "roster 20,001")
	r.Send(ctrl('f'))
	r.Type("Rhea")
	r.Contains(who, "Rhea Turner")

	// A roster taken after the registration has the last word: one that
	// does not list them (their ticket was cancelled since) leaves them
	// off when the desk opens again.
	leave()
	cached, err := roster.Load(roster.CachePath(dir, ev), ev)
	if err != nil || cached == nil {
		t.Fatalf("the cached roster: %v", err)
	}
	later := roster.New(ev, testNow.Add(time.Minute), cached.Total(), cached.People())
	if err := roster.Save(roster.CachePath(dir, ev), later); err != nil {
		t.Fatal(err)
	}
	r.Send(pushMsg(NewDesk(picker.ctx, r.deps, ev, "Observability Summit APAC", "", "")))
	r.settle("ONLINE", "roster 20,000, updated 10:01")
}

// At 80 columns the desk says everything of the door in full: a detail
// too long for one row of the result box wraps onto the next, and the
// notices of F5 and F7 fit the notice line.
func TestTheDoorIsReadableAt80Columns(t *testing.T) {
	r := newRig(t, withSize(80, 24), withExtras(views.Extras{WalkIns: true}))
	r.settle("ONLINE", "roster 20,000")
	r.Send(fkey(5)) // nobody scanned yet
	r.Contains("Scan or type their email first: F5 registers someone NOT REGISTERED")
	r.Send(fkey(7)) // no printer in the profile
	r.Contains("No badge printer: set badge_printer in the profile (CUPS queue, ipp://)")
	r.Golden("desk_no_printer_80x24")
	r.Lacks("ipp://…")
	r.srv.down()
	r.scan("not.listed@example.org")
	r.settle("[!?] NOT REGISTERED", "F5: register them as a walk-in")
	r.Contains("by roster, updated 10:00; saved, and the server will have the last word", "it answers")
	r.Contains("OFFLINE  1 pending · next try 10:00:00 (ctrl+r: now)") // the next try survives 80 columns
	r.Golden("desk_not_registered_offline_80x24")
	for _, l := range strings.Split(r.View(), "\n") {
		if strings.Contains(l, "│") && strings.Contains(l, "…") {
			t.Fatalf("the result box is cut at 80 columns:\n%s", r.View())
		}
	}
}

// Esc on a walk-in form with a name typed asks before it throws the name
// away (issue 20 item 4); no goes back to the form with the name.
func TestWalkInEscAsksBeforeDiscarding(t *testing.T) {
	r := newRig(t, withSize(80, 24), withExtras(views.Extras{WalkIns: true}))
	r.settle("ONLINE", "roster 20,000")
	r.scan("walk.in@example.org")
	r.settle("[!!] NOT REGISTERED", "F5: register them as a walk-in")
	r.Send(fkey(5))
	r.Contains("First name")
	r.Type("Wally")
	r.Press("esc")
	r.Contains("Discard what you typed in Walk-in")
	r.Press("n")
	r.Contains("First name", "> Wally")
	r.Lacks("Discard what you typed")
	r.Press("esc")
	r.Press("y")
	r.Lacks("First name")
}

// A walk-in the form refuses (no name for the badge) stays open with what
// was typed, the reason in the form, readable at 80 columns; nothing is
// saved and the status bar is not where the reason goes.
func TestAWalkInWithoutANameStaysOpenWithTheReason(t *testing.T) {
	r := newRig(t, withSize(80, 24), withExtras(views.Extras{WalkIns: true}),
		func(c *rigConfig) { c.eventID = func(f sim.Fixtures) string { return f.RecurringEventID } })
	r.settle("ONLINE")
	const who = "walk.in@example.org"
	r.scan(who)
	r.settle("[!!] NOT REGISTERED", "F5: register them as a walk-in")
	r.Send(fkey(5))
	r.Contains("field 1/6")
	r.Press("tab", "tab")
	r.Type("Acme")
	r.Press("tab", "tab", "tab") // the address, the ticket type, the sessions
	r.Contains("field 6/6", "Sessions *")
	r.Press("x")
	r.Send(ctrl('s'))
	// Open again, at the first name, with the reason there and what was typed.
	r.Contains("Walk-in: register and check in", "field 1/6", "! Not saved: a name is needed for the badge",
		"> Acme", "> walk.in@example.org")
	r.Lacks("Walk-in not saved")
	r.Golden("desk_walkin_no_name_80x24")
	if r.listed(r.ids.RecurringEventID, who) {
		t.Fatal("a walk-in without a name was registered")
	}
	r.Type("Wally")
	// What is typed fixes it: the reason goes.
	r.Contains("> Wally", "a first or a last name at least")
	r.Lacks("! Not saved")
	r.Send(ctrl('s'))
	r.Lacks("Walk-in: register and check in")
	r.settle("Wally (Acme)")
}
