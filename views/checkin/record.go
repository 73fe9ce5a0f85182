package checkin

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scancode"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/ui"
)

// venueState is what the desk knows of its venue desk, as last told.
type venueState struct {
	v       *venue.Desk // nil until opened
	openErr error

	st         scanqueue.Status
	haveStatus bool
	counts     scanqueue.Counts
	today      map[string]bool // ids of scans checked in today
	resumed    int
	health     venue.Health
	allDesks   int         // check-ins the server holds, as last synced
	vinfo      *venue.Info // the desk's venue (--venue), as last told
}

// deskScans are the scans entered at this desk, and what became of them.
type deskScans struct {
	waiting []pendingWrite // entered before the desk opened
	recent  recentScans    // newest first
	nextKey int
	unsaved int // scans entered, not yet journaled (or failed)

	// card holds the lines of a vCard typed a line at a time, until its
	// END:VCARD line (see takeLine); nil when none is coming.
	card []string
}

type pendingWrite struct{ keys, emails []string }

// onStatus takes the sender's status, unless a newer one came first.
func (d *Desk) onStatus(st scanqueue.Status) tea.Cmd {
	if d.haveStatus && st.Seq < d.st.Seq {
		return nil
	}
	d.st, d.haveStatus, d.counts = st, true, st.Counts
	if d.v != nil {
		// The status was taken before it was pumped: a scan recorded
		// meanwhile (an Already, which sends nothing) is in the journal.
		d.counts = d.v.Journal().Counts()
	}
	return d.reconcile()
}

// refreshVenue takes what the venue desk knows now: the roster's state,
// the reads' health and the count of all desks' check-ins.
func (d *Desk) refreshVenue() {
	if d.v == nil {
		return
	}
	d.rost, d.health, d.allDesks = d.v.RosterState(), d.v.Health(), d.v.Arrivals().Len()
	d.vinfo = venueInfo(d.v)
	if d.searching {
		d.reg.fill(d.rost)
		d.refilter()
	}
	if d.showBoard {
		d.board.showDesk(d.v)
	}
}

// onPaste treats every complete pasted line as a scan (a scanner in
// keyboard-wedge mode may paste); a last line without its newline stays in
// the input.
func (d *Desk) onPaste(content string) tea.Cmd {
	if d.kiosk != nil && d.kiosk.prompting { // a paste is whole: nothing of it went to the prompt
		d.kiosk.prompting, d.kiosk.typed = false, nil
	}
	if !strings.ContainsAny(content, "\r\n") {
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(tea.PasteMsg{Content: content})
		d.refilter()
		return cmd
	}
	all := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(d.input.Value() + content)
	lines := strings.Split(all, "\n")
	rest := lines[len(lines)-1]
	d.input.Reset()
	var cmds []tea.Cmd
	for _, l := range lines[:len(lines)-1] {
		cmds = append(cmds, d.submit(l))
	}
	d.input.SetValue(rest)
	d.input.CursorEnd()
	d.refilter()
	return tea.Batch(cmds...)
}

// splitScans reads one Enter's worth of input: one scan, or several when
// the text is only addresses separated by spaces (a multi-line paste that
// went through the clipboard key and lost its newlines). It appends them
// to scans.
func splitScans(scans []string, raw string) []string {
	one := strings.TrimSpace(raw)
	if strings.IndexFunc(one, unicode.IsSpace) < 0 { // one field, as most are: no split
		return append(scans, one)
	}
	fields := strings.Fields(raw)
	for _, f := range fields {
		if api.CheckEmail(api.NormalizeEmail(f)) != nil {
			return append(scans, one)
		}
	}
	return append(scans, fields...)
}

// submit reads the input (an email, a ticket or badge code: see
// roster.Resolve), answers each at once from the roster, and journals the
// addresses. A ticket the roster does not know, and input that names
// nobody, is refused at once with the reason and never journaled.
func (d *Desk) submit(raw string) tea.Cmd {
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	if d.searching {
		d.closeSearch()
	}
	now := d.deps.Now()
	if key := d.garbledBy; key != "" {
		d.garbledBy = ""
		d.recent.push(entry{at: now, email: raw, kind: kindInvalid,
			msg: "The scanner sent " + key + " inside this code, so none of it was read: check the scanner's settings, then scan again."})
		return d.ring()
	}
	if d.kiosk != nil && d.kiosk.garbled {
		d.kiosk.garbled = false
		d.recent.push(entry{at: now, email: raw, kind: kindInvalid,
			msg: "Its start went to the PIN prompt: scan it again."})
		return d.ring()
	}
	var keys, emails []string
	ring := false
	var line, scan [1]string // room for the usual Enter, one line of one scan
	for _, text := range d.takeLine(line[:0], raw) {
		for _, tok := range splitScans(scan[:0], text) {
			f, err := roster.Resolve(d.rost.Roster, tok)
			if err != nil {
				d.recent.push(d.forKiosk(refusal(now, tok, err, d.rost, d.deps.Local)))
				ring = true
				continue
			}
			d.nextKey++
			k := "new-" + strconv.Itoa(d.nextKey)
			e := entry{key: k, at: now, email: f.Email, kind: kindSaving, ticket: f.Ticket, form: f.Scan.Form}
			if f.Scan.Kind == scancode.Email && d.rost.Roster != nil {
				d.answerWith(&e, f.Person) // Resolve looked the address up in this roster
			} else {
				d.answer(&e)
			}
			d.recent.push(e)
			keys, emails = append(keys, k), append(emails, f.Email)
		}
	}
	var cmd tea.Cmd
	if len(emails) > 0 {
		cmd = d.write(keys, emails)
	}
	if ring {
		cmd = also(cmd, d.ring())
	}
	return also(cmd, d.fadeLater())
}

// also is tea.Batch of two commands, without its allocation when one is
// nil (an Enter's usual case).
func also(cmd, more tea.Cmd) tea.Cmd {
	switch {
	case cmd == nil:
		return more
	case more == nil:
		return cmd
	}
	return tea.Batch(cmd, more)
}

// answer fills in what the roster says of an entry's address.
func (d *Desk) answer(e *entry) {
	ro := d.rost.Roster
	if ro == nil {
		return
	}
	var person *roster.Person
	if p, ok := ro.ByEmail(e.email); ok {
		person = &p
	}
	d.answerWith(e, person)
}

// answerWith fills in the roster's answer for an entry: person, or nil
// when the roster does not list the address.
func (d *Desk) answerWith(e *entry, person *roster.Person) {
	e.rosterAt, e.expect = d.rost.Roster.Updated(), scanqueue.ExpectUnknown
	if person != nil {
		e.person, e.expect = person, scanqueue.ExpectRegistered
	}
}

// write journals emails in a command, in the order they were entered; until
// the desk is open they wait.
func (d *Desk) write(keys, emails []string) tea.Cmd {
	d.unsaved += len(keys)
	return d.dispatch(keys, emails)
}

// dispatch journals what write counted, or parks it until the desk opens.
func (d *Desk) dispatch(keys, emails []string) tea.Cmd {
	switch {
	case d.openErr != nil:
		for _, k := range keys {
			d.fail(k, "not saved: the journal could not be opened ("+d.openErr.Error()+")")
		}
		return d.ring()
	case d.v == nil:
		d.waiting = append(d.waiting, pendingWrite{keys: keys, emails: emails})
		return nil
	}
	return d.rt.record(d.v, d.rt.w.take(), keys, emails)
}

func (d *Desk) fail(key, msg string) {
	d.unsaved--
	if i := d.find(key); i >= 0 {
		e := d.recent.at(i)
		e.kind, e.msg = kindNotRecorded, msg
	}
}

// ring returns the bell when it is on.
func (d *Desk) ring() tea.Cmd {
	if !d.bell {
		return nil
	}
	d.rings++
	return tea.Raw("\a")
}

// find returns the index of the entry with key, or -1.
func (d *Desk) find(key string) int {
	for i, e := range d.recent.all() {
		if e.key == key {
			return i
		}
	}
	return -1
}

func (d *Desk) onOpened(m openedMsg) tea.Cmd {
	if m.err != nil {
		d.openErr = m.err
		var cmds []tea.Cmd
		for _, w := range d.waiting {
			cmds = append(cmds, d.dispatch(w.keys, w.emails))
		}
		d.waiting = nil
		return tea.Batch(append(cmds, ui.Toast(ui.ToastError, "Check-in journal: "+m.err.Error()))...)
	}
	d.v = m.v
	d.counts = m.snap.counts
	d.resumed = m.snap.resumed
	for id := range m.snap.today {
		d.today[id] = true
	}
	d.refreshVenue()
	// The journal's latest scans go under what was typed meanwhile; they
	// are from before this desk opened, so the result box ignores them.
	typed := d.recent.newestFirst()
	d.recent = recentScans{}
	for i := len(m.snap.recent) - 1; i >= 0; i-- {
		e := entryFromScan(m.snap.recent[i], time.Time{}, d.deps.Local)
		e.earlier = true
		d.recent.push(e)
	}
	for i := len(typed) - 1; i >= 0; i-- {
		d.answer(&typed[i])
		d.recent.push(typed[i])
	}
	var cmds []tea.Cmd
	for _, w := range d.waiting {
		cmds = append(cmds, d.dispatch(w.keys, w.emails))
	}
	d.waiting = nil
	if d.resumed > 0 {
		cmds = append(cmds, ui.Toast(ui.ToastInfo,
			fmt.Sprintf("%s from an earlier session not sent yet; sending now", scansWord(d.resumed))))
	}
	for _, note := range m.v.Journal().Notes() { // damaged lines set aside
		cmds = append(cmds, ui.Toast(ui.ToastError, note))
	}
	for _, note := range m.snap.elsewhere { // scans this server does not send
		cmds = append(cmds, ui.Toast(ui.ToastInfo, note))
	}
	return tea.Batch(cmds...)
}

func (d *Desk) onRecorded(m recordedMsg) tea.Cmd {
	if m.err != nil {
		why := "not saved: " + m.err.Error() + "; nothing was recorded, scan again"
		if scanqueue.DiskFull(m.err) { // short: the path and the system's words do not fit
			why = "not saved: the disk is full; nothing was recorded, scan again once there is space"
		}
		if d.searching {
			d.closeSearch()
		}
		for _, k := range m.keys {
			d.fail(k, why)
		}
		return d.ring()
	}
	d.unsaved -= len(m.keys)
	for i, k := range m.keys {
		if i >= len(m.scans) {
			break
		}
		if j := d.find(k); j >= 0 {
			d.settle(j, m.scans[i], m.earlier[m.scans[i].ID])
		}
	}
	if d.v != nil {
		d.counts = d.v.Journal().Counts()
	}
	d.afterRecord(m.scans)
	// The sender may have answered before this message arrived.
	return d.reconcile()
}

// settle puts what the journal says of a scan into entry i, keeping what
// the roster said at Enter.
func (d *Desk) settle(i int, sc scanqueue.Scan, earlier time.Time) {
	old := d.recent.at(i)
	e := entryFromScan(sc, earlier, d.deps.Local)
	e.person, e.rosterAt, e.earlier = old.person, old.rosterAt, old.earlier
	e.ticket, e.form = old.ticket, old.form
	*old = e
}

func (d *Desk) onAck(scans []scanqueue.Scan) tea.Cmd {
	ring := false
	now := d.deps.Now().In(d.deps.Local)
	for _, sc := range scans {
		if sc.Outcome == scanqueue.CheckedIn && sameDay(sc.AckedAt, now) {
			d.today[sc.ID] = true
		}
		for i, e := range d.recent.all() {
			if e.id == sc.ID && e.kind == kindPending {
				d.settle(i, sc, time.Time{})
				ring = ring || e.failed()
			}
		}
	}
	if d.v != nil {
		d.counts = d.v.Journal().Counts()
		d.refreshVenue() // the arrivals hold this desk's confirmed check-ins now
	}
	door := d.afterAck(scans)
	if ring {
		return tea.Batch(door, d.ring())
	}
	return door
}

// reconcile settles pending entries the journal has answers for: an ack can
// overtake the recorded message, or miss the desk while it is hidden.
func (d *Desk) reconcile() tea.Cmd {
	if d.v == nil {
		return nil
	}
	var settled []scanqueue.Scan
	for _, e := range d.recent.all() {
		if e.kind != kindPending || e.id == "" {
			continue
		}
		if sc, ok := d.v.Journal().Lookup(e.email); ok && sc.ID == e.id && sc.Outcome != scanqueue.Pending {
			settled = append(settled, sc)
		}
	}
	if len(settled) == 0 {
		return nil
	}
	return d.onAck(settled)
}

func scansWord(n int) string {
	if n == 1 {
		return "1 scan"
	}
	return fmt.Sprintf("%d scans", n)
}
