package checkin

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/config"
	badges "github.com/evdesk/evdesk/internal/checkin/badge"
	"github.com/evdesk/evdesk/internal/checkin/hook"
	"github.com/evdesk/evdesk/internal/checkin/printing"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/walkin"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
)

// deskDoor is what the desk shows and keeps of the extras: what the
// walk-in form (the desk's dialog) offers, and the latest print job of
// each person.
type deskDoor struct {
	dr       *door
	setup    *walkin.Setup
	setupErr error
	// loading: the setup is being fetched for a form the operator asked
	// for; it opens when the setup arrives.
	loading bool
	pending *walkin.Walkin // the form to open once loaded
	jobs    map[string]printing.Job
	// confirmed: scans whose confirmation ran the hook (an answer can
	// reach the desk twice: as it comes, and from the journal).
	confirmed map[string]bool
}

// wake makes the walk-in sender try now.
func (dd *deskDoor) wake() {
	if dd.dr != nil && dd.dr.walker != nil {
		dd.dr.walker.Wake()
	}
}

// kindWalkIn is a walk-in being registered (entry.walk says how far).
const kindWalkIn kind = 100

// doorActions are the desk's keys at the door, in the desk's action table:
// register a walk-in, print or reprint a badge. One the profile turns off
// is minor: the one-line help lists it last, and it says why it is off.
func (d *Desk) doorActions(as ui.Actions) ui.Actions {
	k := d.Ctx.Keys
	return append(as,
		ui.Action{Key: k.WalkIn, Help: "register a walk-in", Why: d.runs.whyWalkIn, Run: d.runs.walkIn, Minor: !d.deps.Extras.WalkIns},
		ui.Action{Key: k.PrintBadge, Help: "print the badge (again)", Why: d.runs.whyPrint, Run: d.runs.print,
			Minor: d.deps.Extras.Printer == ""},
	)
}

// updateDoor takes the extras' messages, and feeds the walk-in form,
// when open, the others as well; handled is false for the rest.
func (d *Desk) updateDoor(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case walkinMsg:
		return d.onWalkIn(msg.w), true
	case walkinSavedMsg:
		return d.onWalkInSaved(msg), true
	case setupMsg:
		return d.onSetup(msg), true
	case printMsg:
		if d.door.jobs == nil {
			d.door.jobs = map[string]printing.Job{}
		}
		d.door.jobs[msg.job.Key] = msg.job
		if msg.job.State == printing.Failed {
			return d.ring(), true
		}
		return nil, true
	case hookMsg:
		return ui.Toast(ui.ToastError, "on_checkin for "+sanitize.Line(msg.res.Vars.Email)+": "+ui.OneLine(msg.res.Err.Error())), true
	case changedMsg:
		d.door.wake() // a new roster settles an unanswered walk-in
	case statusMsg:
		if msg.st.Online {
			d.door.wake() // the server answers: walk-ins go too
		}
	case tea.KeyPressMsg, tea.PasteMsg: // the base's: the form, the actions, typing
	default:
		if d.Dialog.Open() {
			cmd, _ := d.Dialog.Update(msg)
			return cmd, false // the desk takes it too (the pump's messages)
		}
	}
	return nil, false
}

// openedDoor takes the extras the runtime opened with the venue desk.
func (d *Desk) openedDoor(m openedMsg) tea.Cmd {
	d.door.dr = m.door
	if m.door == nil {
		return nil
	}
	var cmds []tea.Cmd
	if m.door.walkErr != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, "Walk-ins: "+m.door.walkErr.Error()))
	}
	if m.door.walkins != nil {
		cmds = append(cmds, loadSetup(d.deps, d.eventID))
		// Walk-ins an earlier desk left: they show in the recent list.
		for _, w := range m.door.walkins.All() {
			if w.State == walkin.Waiting || w.State == walkin.Uncertain || w.State == walkin.Registered {
				d.pushWalkIn(w, true)
			}
		}
	}
	if m.door.printErr != nil {
		cmds = append(cmds, ui.Toast(ui.ToastError, "Badges cannot print: "+m.door.printErr.Error()))
	}
	return tea.Batch(cmds...)
}

// --- walk-ins ---

// walkInEmail is the address of the latest result when it names someone
// the server or the roster does not know (NOT REGISTERED), or a walk-in
// the server refused; "" otherwise.
func (d *Desk) walkInEmail() string {
	e, ok := d.latest()
	if !ok || api.CheckEmail(e.email) != nil {
		return ""
	}
	switch {
	case e.kind == kindRejected && strings.Contains(strings.ToLower(e.msg), "not registered"):
	case (e.kind == kindPending || e.kind == kindSaving) && e.expect == scanqueue.ExpectUnknown:
	case e.kind == kindWalkIn && e.walk != nil && e.walk.State == walkin.Refused:
	default:
		return ""
	}
	return e.email
}

func (d *Desk) cannotWalkIn() string {
	switch {
	case !d.deps.Extras.WalkIns && d.kiosk != nil:
		return "Walk-ins are off at a kiosk: walk_ins = true in the profile allows them"
	case !d.deps.Extras.WalkIns:
		return "Walk-ins are off in this profile (walk_ins = false)"
	case d.door.dr == nil && d.openErr == nil:
		return "Wait: the desk is still opening"
	case d.door.dr == nil || d.door.dr.walkins == nil:
		return "Walk-ins cannot be saved on this computer: the journal did not open"
	case d.walkInEmail() == "":
		return "Scan or type their email first: " + d.Ctx.Keys.WalkIn.Help().Key + " registers someone NOT REGISTERED"
	}
	return ""
}

// openWalkIn opens the walk-in form for the latest result's address; the
// event's ticket types and sessions come first when not loaded yet.
func (d *Desk) openWalkIn() tea.Cmd {
	email := d.walkInEmail()
	w := walkin.Walkin{Email: email}
	if e, _ := d.latest(); e.walk != nil {
		w = *e.walk // a refused walk-in: the same person, answers added
	}
	if d.door.setup == nil {
		d.door.loading, d.door.pending = true, &w
		return tea.Batch(ui.Toast(ui.ToastInfo, "Loading the event's ticket types for the walk-in form..."), loadSetup(d.deps, d.eventID))
	}
	return d.showWalkInForm(w)
}

func (d *Desk) onSetup(m setupMsg) tea.Cmd {
	if m.err == nil || len(m.s.Types) > 0 {
		s := m.s
		d.door.setup, d.door.setupErr = &s, nil
	} else {
		d.door.setupErr = m.err
	}
	if !d.door.loading {
		return nil
	}
	d.door.loading = false
	w := *d.door.pending
	d.door.pending = nil
	if d.door.setup == nil {
		// Offline with nothing kept: the event's default ticket type.
		d.door.setup = &walkin.Setup{EventID: d.eventID}
	}
	return d.showWalkInForm(w)
}

// walkInForm holds the form's answers.
type walkInForm struct {
	email, first, last, company, ticketType string
	sessions                                []string
	answers                                 []string
}

// showWalkInForm opens the form: email (filled in), first and last name,
// company, the ticket type by name, the sessions the access link's option
// requires, and the registration questions the server said the event
// requires.
func (d *Desk) showWalkInForm(w walkin.Walkin) tea.Cmd { return d.walkInForm(w, nil) }

// walkInForm is the walk-in form with w's values; refused, when not nil,
// is why the last submit was not saved, shown under the first name (the
// field a missing name is fixed in; the address is checked at its own).
func (d *Desk) walkInForm(w walkin.Walkin, refused error) tea.Cmd {
	s := *d.door.setup
	f := &walkInForm{email: w.Email, first: w.First, last: w.Last, company: w.Company, ticketType: w.TicketTypeID,
		sessions: slices.Clone(w.SessionIDs)}
	if f.ticketType == "" {
		f.ticketType = s.LinkTypeID
	}
	if f.ticketType == "" && len(s.Types) > 0 {
		f.ticketType = s.Types[0].ID
	}
	if len(f.sessions) == 0 && d.sessionID != "" && s.NeedsSessions() {
		f.sessions = []string{d.sessionID}
	}
	questions := d.door.dr.walkins.Questions()
	for _, q := range w.Questions {
		if !slices.Contains(questions, q) {
			questions = append(questions, q)
		}
	}
	f.answers = make([]string, len(questions))
	for i, q := range questions {
		f.answers[i] = w.Answers[q]
	}
	build := func() walkin.Walkin {
		out := walkin.Walkin{Email: api.NormalizeEmail(f.email), First: strings.TrimSpace(f.first), Last: strings.TrimSpace(f.last),
			Company: strings.TrimSpace(f.company), TicketTypeID: f.ticketType, Option: s.Option, SessionIDs: f.sessions}
		if !s.NeedsSessions() {
			out.SessionIDs = nil
		}
		for _, t := range s.Types {
			if t.ID == out.TicketTypeID {
				out.TicketTypeName = t.Name
			}
		}
		if len(questions) > 0 {
			out.Answers = map[string]string{}
			for i, q := range questions {
				out.Answers[q] = strings.TrimSpace(f.answers[i])
			}
		}
		return out
	}
	// The whole walk-in is checked as the server would, on the last field
	// when it is a text field (a select would trap the focus there); when it
	// is not, a refused submit opens the form again (saveWalkIn). Either
	// way the reason shows in the form and nothing typed is lost.
	var last huh.Field
	wholeIf := func(self huh.Field) error {
		if self != last {
			return nil
		}
		return build().Validate()
	}
	// The names first: the address is filled in already.
	email := huh.NewInput().Title(ui.Required("Email")).Value(&f.email).CharLimit(128)
	email.Validate(func(v string) error {
		if err := api.CheckEmail(api.NormalizeEmail(v)); err != nil {
			return fmt.Errorf("email %w", err)
		}
		return wholeIf(email)
	})
	// The reason stays under the first name until it is changed: then it
	// is no longer what the form holds (the next submit says again).
	firstWas := f.first
	firstHelp := func() string {
		if refused != nil && f.first == firstWas {
			return "! Not saved: " + sanitize.Line(refused.Error())
		}
		return "a first or a last name at least, for the badge"
	}
	fields := []huh.Field{
		huh.NewInput().Title("First name").Description(firstHelp()).DescriptionFunc(firstHelp, &f.first).Value(&f.first).CharLimit(64),
		huh.NewInput().Title("Last name").Value(&f.last).CharLimit(64),
		huh.NewInput().Title("Company").Value(&f.company).CharLimit(128),
		email,
	}
	if len(s.Types) > 0 {
		opts := make([]huh.Option[string], len(s.Types))
		for i, t := range s.Types {
			opts[i] = huh.NewOption(sanitize.Line(t.Name), t.ID)
		}
		fields = append(fields, huh.NewSelect[string]().Title("Ticket type").Options(opts...).Value(&f.ticketType))
	}
	if s.NeedsSessions() && len(s.Sessions) > 0 {
		opts := make([]huh.Option[string], len(s.Sessions))
		for i, ss := range s.Sessions {
			label := sanitize.Line(sessionLabel(d.eventName, ss.Name)) // the form names the event
			if !ss.Start.IsZero() {
				label = ui.ZoneTime(ss.Start, ss.Zone, d.deps.Local) + "  " + label
			}
			opts[i] = huh.NewOption(label, ss.ID).Selected(slices.Contains(f.sessions, ss.ID))
		}
		desc := "choose one or more"
		if s.Option == api.RecurringSingleSession {
			desc = "one ticket per session"
		}
		sessions := huh.NewMultiSelect[string]().Title(ui.Required("Sessions")).Description(desc).
			Options(opts...).Value(&f.sessions)
		sessions.Validate(func(v []string) error {
			if len(v) == 0 {
				return errors.New("choose a session: the event's access link registers for chosen sessions")
			}
			return nil
		})
		fields = append(fields, sessions)
	}
	for i, q := range questions {
		answer := huh.NewInput().Title(ui.Required(api.QuestionLabel(q))).Value(&f.answers[i]).
			Description("required by the event's registration form")
		answer.Validate(func(v string) error {
			if strings.TrimSpace(v) == "" {
				return fmt.Errorf("%s is required by the registration form", api.QuestionLabel(q))
			}
			return wholeIf(answer)
		})
		fields = append(fields, answer)
	}
	last = fields[len(fields)-1]
	title := "Walk-in: register and check in"
	// Offline as the desk is now; before its first word from the sender,
	// as the form's setup was read.
	if c := d.conn(); (c.known && !c.online()) || (!c.known && d.door.setup.Cached) {
		title += " (offline: sent when the server answers)"
	}
	form := ui.NewFieldsForm(d.Ctx.Theme, title, func() tea.Cmd { return d.saveWalkIn(build()) }, fields...)
	return d.Dialog.ShowForm(form)
}

// saveWalkIn writes the walk-in to its journal in a command; the sender
// takes it from there.
func (d *Desk) saveWalkIn(w walkin.Walkin) tea.Cmd {
	if err := w.Validate(); err != nil {
		// Refused here: the form opens again with what was typed and why.
		for q := range w.Answers {
			w.Questions = append(w.Questions, q)
		}
		slices.Sort(w.Questions)
		return d.walkInForm(w, err)
	}
	j := d.door.dr.walkins
	return func() tea.Msg {
		saved, err := j.Add(w)
		if err != nil {
			saved = w
		}
		return walkinSavedMsg{w: saved, err: err}
	}
}

func (d *Desk) onWalkInSaved(m walkinSavedMsg) tea.Cmd {
	if m.err != nil {
		return tea.Batch(ui.Toast(ui.ToastError, "Walk-in not saved: "+m.err.Error()), d.ring())
	}
	d.pushWalkIn(m.w, false)
	return nil
}

// pushWalkIn puts a walk-in at the top of the recent scans.
func (d *Desk) pushWalkIn(w walkin.Walkin, earlier bool) {
	p := &roster.Person{Email: w.Email, Name: w.Name(), Company: w.Company}
	e := entry{key: "walkin-" + w.ID, at: w.At.In(d.deps.Local), email: w.Email, kind: kindWalkIn, walk: &w,
		person: p, earlier: earlier}
	d.recent.push(e)
}

// onWalkIn follows a walk-in: refused, it says why; once its check-in is
// in the journal, the entry becomes that scan, and is answered as every
// scan is.
func (d *Desk) onWalkIn(w walkin.Walkin) tea.Cmd {
	i := d.find("walkin-" + w.ID)
	if i < 0 {
		d.pushWalkIn(w, false)
		i = 0
	}
	d.recent.at(i).walk = &w
	if w.State == walkin.CheckedIn && w.ScanID != "" && d.v != nil {
		if sc, ok := d.v.Journal().Lookup(w.Email); ok && sc.ID == w.ScanID {
			old := d.recent.at(i)
			e := entryFromScan(sc, time.Time{}, d.deps.Local)
			e.person, e.earlier, e.walk = old.person, old.earlier, old.walk
			if ro := d.v.Roster(); ro != nil {
				if p, ok := ro.ByEmail(w.Email); ok {
					e.person = &p
				}
			}
			*old = e
			d.counts = d.v.Journal().Counts()
			return d.reconcile()
		}
	}
	if w.State == walkin.Refused {
		return d.ring()
	}
	return nil
}

// describeWalkIn words a walk-in that is not yet a check-in.
func describeWalkIn(e entry, c conn) verdict {
	w := e.walk
	switch w.State {
	case walkin.Refused:
		return verdict{mark: "!!", word: "WALK-IN REFUSED", role: roleErr,
			detail: "server: " + w.Reason + "; not checked in"}
	case walkin.Uncertain:
		return verdict{mark: "..", word: "WALK-IN UNCERTAIN", role: roleWarn,
			detail: "sent, no answer came; the next roster tells whether it went through (nothing is sent twice)"}
	case walkin.Registered, walkin.CheckedIn:
		return verdict{mark: ">>", word: "WALK-IN REGISTERED", role: roleInfo,
			detail: "the server made the ticket; the check-in is being sent"}
	}
	if !c.online() {
		return verdict{mark: "..", word: "WALK-IN QUEUED", role: roleWarn,
			detail: "saved here; registered, then checked in, when the server answers"}
	}
	return verdict{mark: ">>", word: "WALK-IN, SENDING", role: roleInfo,
		detail: "saved here; creating their ticket, then checking them in"}
}

// --- badges ---

func (d *Desk) cannotPrint() string {
	switch {
	case d.deps.Extras.Printer == "":
		return "No badge printer: set badge_printer in the profile (CUPS queue, ipp://)"
	case d.door.dr == nil:
		return "Wait: the desk is still opening"
	case d.door.dr.printErr != nil:
		return "Badges cannot print: " + d.door.dr.printErr.Error()
	case d.printEmail() == "":
		return "Scan someone first: " + d.Ctx.Keys.PrintBadge.Help().Key + " prints the badge of the latest check-in"
	}
	return ""
}

// printEmail is the latest result's address when it names a person to
// print a badge for: checked in, on their way in, or already in.
func (d *Desk) printEmail() string {
	e, ok := d.latest()
	if !ok || api.CheckEmail(e.email) != nil {
		return ""
	}
	switch e.kind {
	case kindCheckedIn, kindAlready, kindPending, kindSaving:
		return e.email
	}
	return ""
}

// printLatest prints the latest person's badge, or retries their failed
// job.
func (d *Desk) printLatest() tea.Cmd {
	email := d.printEmail()
	if j, ok := d.door.jobs[email]; ok && j.State == printing.Failed {
		if _, err := d.door.dr.prints.Retry(j.ID); err == nil {
			return ui.Toast(ui.ToastInfo, "Printing the badge again for "+sanitize.Line(email))
		}
	}
	return d.printBadge(email, nil)
}

// printBadge queues a person's badge; the print queue draws and sends it
// in the background.
func (d *Desk) printBadge(email string, ticket *roster.Ticket) tea.Cmd {
	dr := d.door.dr
	if dr == nil || dr.prints == nil {
		return nil
	}
	b := d.badgeOf(email, ticket)
	j := dr.prints.Print(email, b.Name, renderBadge(dr.layout, b))
	if d.door.jobs == nil {
		d.door.jobs = map[string]printing.Job{}
	}
	d.door.jobs[email] = j
	return nil
}

// badgeOf is what a person's badge shows, from the roster (with the names
// the desk learned): their name or, without one, their address's local
// part; company; the ticket scanned, else their first, for the role and
// the code.
func (d *Desk) badgeOf(email string, ticket *roster.Ticket) badges.Badge {
	var p roster.Person
	if d.v != nil {
		if ro := d.v.Roster(); ro != nil {
			p, _ = ro.ByEmail(email)
		}
	}
	b := badges.Badge{Name: badges.NameOrLocal(p.Name, email), Company: p.Company, Event: d.eventName}
	t := ticket
	if t == nil && len(p.Tickets) > 0 {
		t = &p.Tickets[0]
	}
	if t != nil {
		b.Role = t.Role
		b.Code = t.QRCodeURL
		if b.Code == "" {
			b.Code = t.ID
		}
	}
	return b
}

// --- after a confirmed check-in ---

// afterAck runs the hook for each check-in the server confirmed, and
// prints the badge when the profile says always.
func (d *Desk) afterAck(scans []scanqueue.Scan) tea.Cmd {
	dr := d.door.dr
	if dr == nil {
		return nil
	}
	for _, sc := range scans {
		if sc.Outcome != scanqueue.CheckedIn || d.door.confirmed[sc.ID] {
			continue
		}
		if d.door.confirmed == nil {
			d.door.confirmed = map[string]bool{}
		}
		d.door.confirmed[sc.ID] = true
		var ticket *roster.Ticket
		for _, e := range d.recent.all() {
			if e.id == sc.ID {
				ticket = e.ticket
			}
		}
		b := d.badgeOf(sc.Email, ticket)
		tid := ""
		if ticket != nil {
			tid = ticket.ID
		} else if b.Code != "" && !strings.Contains(b.Code, "/") {
			tid = b.Code
		}
		dr.hook.Run(hook.Vars{Email: sc.Email, Name: b.Name, Ticket: tid, Desk: d.deps.Desk, Event: d.eventID, Session: d.sessionID})
		if d.deps.Extras.PrintBadges == config.PrintAlways && dr.prints != nil {
			if _, printed := d.door.jobs[sc.Email]; !printed {
				d.printBadge(sc.Email, ticket)
			}
		}
	}
	return nil
}

// afterRecord prints, when the profile says always, the badges of people
// the roster lists as soon as their scan is on disk: the desk admits them
// then, online or offline, and the badge should not wait for the network.
// Others print once the server confirms them (afterAck).
func (d *Desk) afterRecord(scans []scanqueue.Scan) {
	dr := d.door.dr
	if dr == nil || dr.prints == nil || d.deps.Extras.PrintBadges != config.PrintAlways {
		return
	}
	for _, sc := range scans {
		if sc.Outcome != scanqueue.Pending || sc.Expect != scanqueue.ExpectRegistered {
			continue
		}
		if _, printed := d.door.jobs[sc.Email]; printed {
			continue
		}
		var ticket *roster.Ticket
		if i := d.find(sc.ID); i >= 0 {
			ticket = d.recent.at(i).ticket
		}
		d.printBadge(sc.Email, ticket)
	}
}

// doorLine is the result box's line about the door: the badge's print
// state, or what a key does for this result. "" when there is nothing to
// say.
func (d *Desk) doorLine(e entry) (string, role) {
	if j, ok := d.door.jobs[e.email]; ok && e.kind != kindWalkIn {
		switch j.State {
		case printing.Printed:
			return "badge: PRINTED", roleOK
		case printing.Failed:
			return "badge: PRINT FAILED (" + d.Ctx.Keys.PrintBadge.Help().Key + " retries): " + j.Reason, roleErr
		}
		return "badge: PRINTING", roleInfo
	}
	if d.deps.Extras.WalkIns && d.door.dr != nil && d.door.dr.walkins != nil && d.walkInEmail() == e.email {
		if e.kind == kindWalkIn {
			return d.Ctx.Keys.WalkIn.Help().Key + ": open their form again to put it right", roleInfo
		}
		return d.Ctx.Keys.WalkIn.Help().Key + ": register them as a walk-in and check them in", roleInfo
	}
	if d.deps.Extras.Printer != "" && d.deps.Extras.PrintBadges == config.PrintAsk && d.printEmail() == e.email {
		return d.Ctx.Keys.PrintBadge.Help().Key + ": print their badge", roleInfo
	}
	return "", roleInfo
}

// unsentWalkIns counts walk-ins not yet checked in, for leaving and
// quitting.
func (d *Desk) unsentWalkIns() int {
	if d.door.dr == nil || d.door.dr.walkins == nil {
		return 0
	}
	return d.door.dr.walkins.Unsettled()
}
