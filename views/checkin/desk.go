package checkin

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
)

type deskKeys struct {
	Submit, Search, History, Board, Bell, Retry, Back, Kiosk, Yes key.Binding
	// In the registrant search.
	Choose, Pick, CloseSearch key.Binding
}

// newDeskKeys are the desk's keys, from the console's vocabulary: only
// keys a scanner cannot type (Enter, function and control keys), since
// letters are scans.
func newDeskKeys(k *ui.GlobalKeys) deskKeys {
	// Only the arrows and page keys: j and k are letters here.
	nav := ui.Combine("↑/↓", "choose", ui.Only(k.Up, "", "", "up"), ui.Only(k.Down, "", "", "down"), k.PageUp, k.PageDown)
	return deskKeys{
		Submit:      ui.With(k.Open, "record scan"),
		Search:      ui.With(k.Find, "find registrant"),
		History:     ui.Only(k.History, "F3", "history", "f3"),
		Board:       ui.With(k.Board, "arrivals board"),
		Bell:        k.Bell,
		Retry:       ui.With(k.Retry, "retry and sync now"),
		Back:        ui.With(k.Back, "clear, or leave"),
		Kiosk:       ui.With(k.Kiosk, "kiosk: unlock with the PIN, or lock"),
		Yes:         ui.With(k.YesChord, "yes, to a question over the desk (leave, quit)"),
		Choose:      nav,
		Pick:        ui.With(k.Open, "check in the chosen one"),
		CloseSearch: ui.With(k.Back, "close search"),
	}
}

// Desk is the check-in desk: one input that always has the keyboard, for a
// scanner or a person; a result box for the latest scan, answered at once
// from the event's roster; counters for this desk and all desks; recent
// scans; a registrant search on the roster; and the arrivals board. Every
// scan is journaled (synced to disk) before the desk calls it recorded; the
// venue desk behind it sends the journal and refreshes the roster and the
// arrivals in the background.
type Desk struct {
	ctx  *ui.Context
	deps views.Env
	keys deskKeys
	rt   *runtime

	eventID, eventName     string
	sessionID, sessionName string

	v       *venue.Desk // nil until opened
	openErr error
	waiting []pendingWrite // entered before the desk opened

	input   textinput.Model
	recent  []entry // newest first
	nextKey int
	unsaved int // scans entered, not yet journaled (or failed)

	st         scanqueue.Status
	haveStatus bool
	counts     scanqueue.Counts
	today      map[string]bool // ids of scans checked in today
	resumed    int
	rost       venue.RosterState
	health     venue.Health
	allDesks   int         // check-ins the server holds, as last synced
	vinfo      *venue.Info // the desk's venue (--venue), as last told

	bell  bool
	rings int // bells rung; for tests

	// card holds the lines of a vCard typed a line at a time, until its
	// END:VCARD line (see takeLine); nil when none is coming.
	card []string

	door deskDoor // walk-ins, badges, the hook (door_desk.go)

	searching bool
	reg       *registrants
	showBoard bool
	board     board
	kiosk     *kiosk // nil unless a kiosk
	lingers   bool   // left with scans unsent: its runtime sends on

	width, height int
}

type pendingWrite struct{ keys, emails []string }

// NewDesk opens the desk of an event, or of one of its sessions when
// sessionID is not empty. The names label the screen.
func NewDesk(ctx *ui.Context, d views.Env, eventID, eventName, sessionID, sessionName string) ui.Screen {
	return newDesk(ctx, d, eventID, eventName, sessionID, sessionName)
}

func newDesk(ctx *ui.Context, d views.Env, eventID, eventName, sessionID, sessionName string) *Desk {
	d = withDefaults(d)
	in := textinput.New()
	in.Prompt = "Scan > "
	in.Placeholder = "scan a ticket or badge, or type an email, then Enter"
	in.CharLimit = 512
	in.SetStyles(ctx.Theme.TextInputStyles())
	in.Focus()
	if eventName == "" {
		eventName = eventID
	}
	dk := &Desk{
		ctx: ctx, deps: d, keys: newDeskKeys(ctx.Keys), rt: newRuntime(),
		eventID: eventID, eventName: eventName, sessionID: sessionID, sessionName: sessionName,
		input: in, today: map[string]bool{}, bell: d.Bell,
		board: newBoard(ctx, d, eventID, eventName, sessionID),
	}
	if d.KioskPIN != "" {
		dk.kiosk = newKiosk(d.KioskPIN)
	}
	if h := hooksOf(d); h != nil && h.onRuntime != nil {
		h.onRuntime(dk.rt)
	}
	return dk
}

// Title is the breadcrumb.
func (d *Desk) Title() string {
	if d.sessionID != "" {
		return "Desk: " + d.sessionLabel()
	}
	return "Desk: " + d.eventName
}

func (d *Desk) sessionLabel() string {
	if d.sessionID == "" {
		return "whole event"
	}
	if d.sessionName != "" {
		return d.sessionName
	}
	return "session " + d.sessionID
}

// Init opens the venue desk (journal, sender, roster, arrivals) in the
// background and starts the pump.
func (d *Desk) Init() tea.Cmd {
	rt, deps, ev, sess := d.rt, d.deps, d.eventID, d.sessionID
	cmds := []tea.Cmd{func() tea.Msg { return rt.open(deps, ev, sess) }}
	if h := hooksOf(deps); h == nil || !h.manualPump {
		cmds = append(cmds, rt.pump.next())
	}
	return tea.Batch(cmds...)
}

// Close stops the board's loads and closes the venue desk, off the
// caller's path.
func (d *Desk) Close() {
	d.board.stop()
	if d.lingers {
		return // it goes on sending; the shell closes it (background)
	}
	go d.rt.shutdown()
}

// CapturingInput is always true: the scan input owns every key, so a
// scanner's keystrokes never reach the shell or a table.
func (d *Desk) CapturingInput() bool { return true }

// TakesScans is always true: a barcode scanner's codes belong here, and
// the shell brings them here from under its own panels (ui.ScanTaker).
func (d *Desk) TakesScans() bool { return true }

// Reopen opens the same desk again, for the shell's way back to the desk
// after it has left (ui.Reopener).
func (d *Desk) Reopen() ui.Screen {
	return newDesk(d.ctx, d.deps, d.eventID, d.eventName, d.sessionID, d.sessionName)
}

// CapturingBack is true: esc clears the input first, then leaves.
func (d *Desk) CapturingBack() bool { return true }

// Locked keeps a locked kiosk on screen (ui.Locker).
func (d *Desk) Locked() string {
	if d.kiosk == nil || !d.kiosk.locked {
		return ""
	}
	return kioskLockedText(d.keys.Kiosk)
}

// ConfirmQuit holds up quitting while scans wait to be sent.
func (d *Desk) ConfirmQuit() string {
	if why := d.door.dialog.QuitReason(); why != "" {
		return why
	}
	n := d.unsaved + d.unsentWalkIns()
	if d.v != nil {
		n += d.v.Journal().Counts().Pending
	}
	switch n {
	case 0:
		return ""
	case 1:
		return "1 check-in not yet sent"
	}
	return fmt.Sprintf("%d check-ins not yet sent", n)
}

func (d *Desk) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	doorCmd, handled := d.updateDoor(msg)
	if handled {
		return d, doorCmd
	}
	s, cmd := d.update(msg)
	return s, tea.Batch(doorCmd, cmd)
}

func (d *Desk) update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case openedMsg:
		return d, tea.Batch(d.onOpened(msg), d.openedDoor(msg))
	case recordedMsg:
		return d, d.onRecorded(msg)
	case statusMsg:
		if d.haveStatus && msg.st.Seq < d.st.Seq {
			return d, nil
		}
		d.st, d.haveStatus, d.counts = msg.st, true, msg.st.Counts
		if d.v != nil {
			// The status was taken before it was pumped: a scan recorded
			// meanwhile (an Already, which sends nothing) is in the journal.
			d.counts = d.v.Journal().Counts()
		}
		return d, d.reconcile()
	case ackMsg:
		return d, d.onAck(msg.scans)
	case changedMsg:
		d.refreshVenue()
		return d, nil
	case boardMsg:
		return d, d.board.update(msg)
	case kioskFadeMsg: // the view reads the clock: drawing again fades it
		return d, nil
	case boardTickMsg:
		if !d.showBoard {
			return d, nil
		}
		return d, d.board.loadSessions()
	case tea.BackgroundColorMsg: // the App rebuilt the theme in place
		d.input.SetStyles(d.ctx.Theme.TextInputStyles())
		if d.reg != nil {
			d.reg.table, _ = d.reg.table.Update(msg)
		}
		return d, nil
	case leaveMsg:
		return d, d.leave()
	case tea.PasteMsg:
		return d, d.onPaste(msg.Content)
	case tea.KeyPressMsg:
		return d, d.onKey(msg)
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return d, cmd
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

func (d *Desk) isSubmit(k tea.KeyPressMsg) bool {
	return key.Matches(k, d.keys.Submit) || k.Code == tea.KeyKpEnter ||
		(k.Code == tea.KeyTab && k.Mod == 0 && strings.TrimSpace(d.input.Value()) != "")
}

func (d *Desk) onKey(k tea.KeyPressMsg) tea.Cmd {
	if d.kiosk != nil {
		if cmd, handled := d.onKioskKey(k); handled {
			return cmd
		}
	}
	if d.searching {
		if cmd, handled := d.onSearchKey(k); handled {
			return cmd
		}
	}
	if cmd, handled := d.doorActions().Dispatch(k, &d.door.dialog, d.ctx); handled {
		return cmd
	}
	if cmd, handled := d.actions().Dispatch(k, &d.door.dialog, d.ctx); handled {
		return cmd
	}
	switch {
	case d.isSubmit(k):
		raw := d.input.Value()
		d.input.Reset()
		return d.submit(raw)
	case key.Matches(k, d.keys.Back):
		if d.input.Value() != "" {
			d.input.Reset()
			return nil
		}
		if d.card != nil {
			d.card = nil
			return ui.Toast(ui.ToastInfo, "The vCard being read was discarded: scan it again")
		}
		if d.showBoard {
			return d.toggleBoard()
		}
		if why := d.Locked(); why != "" {
			return ui.Toast(ui.ToastInfo, why)
		}
		// Leaving asks, as quitting does: away from the desk, scans are
		// ignored.
		return ui.Ask("Leave the check-in desk? Away from it, scans are ignored.",
			func() tea.Msg { return leaveMsg{} })
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(k)
	return cmd
}

// actions are the desk's keys besides typing, Enter and esc, as data: a
// locked kiosk's why-not keeps the board and the history from the public.
func (d *Desk) actions() ui.Actions {
	return ui.Actions{
		{Key: d.keys.Search, Run: d.openSearch},
		{Key: d.keys.Board, Run: d.toggleBoard, Why: func() string {
			if d.kioskLocked() {
				return "The arrivals board is not shown at a locked kiosk"
			}
			return ""
		}},
		{Key: d.keys.History, Run: d.openHistory, Why: d.Locked},
		{Key: d.keys.Retry, Run: d.retryNow},
		{Key: d.keys.Bell, Run: d.toggleBell},
	}
}

// openHistory shows this event's (or session's) check-ins, with this
// desk's own times, newer than its cache.
func (d *Desk) openHistory() tea.Cmd {
	h := NewHistory(d.ctx, d.deps, d.eventID, d.eventName, d.sessionID).(*History)
	if d.v != nil {
		h.live = d.v.Arrivals()
	}
	return ui.Push(h)
}

func (d *Desk) retryNow() tea.Cmd {
	if d.v == nil {
		return nil
	}
	d.v.Refresh()
	return ui.Toast(ui.ToastInfo, "Retrying now, and syncing the other desks' check-ins")
}

func (d *Desk) toggleBell() tea.Cmd {
	d.bell = !d.bell
	if d.bell {
		return ui.Toast(ui.ToastInfo, "Bell on: the terminal beeps when a scan fails")
	}
	return ui.Toast(ui.ToastInfo, "Bell off")
}

// leaveMsg is the yes to leaving the desk.
type leaveMsg struct{}

// leave closes the desk: the screen pops, and the venue desk closes in a
// command, unless scans wait to be sent: then it goes on sending in the
// background, and quitting asks first from wherever the user is.
func (d *Desk) leave() tea.Cmd {
	rt := d.rt
	n := d.ConfirmQuit()
	if n == "" || d.v == nil {
		return tea.Batch(func() tea.Msg { rt.shutdown(); return nil }, ui.Pop())
	}
	key := journalKey(d.deps, d.eventID, d.sessionID)
	linger(key, rt)
	d.lingers = true
	return tea.Batch(ui.Pop(), ui.Keep(&background{key: key, event: d.eventName, rt: rt}),
		ui.Toast(ui.ToastInfo, n+": still sending in the background (kept in the journal; quitting asks first)"))
}

// onPaste treats every complete pasted line as a scan (a scanner in
// keyboard-wedge mode may paste); a last line without its newline stays in
// the input.
func (d *Desk) onPaste(content string) tea.Cmd {
	if d.kiosk != nil && d.kiosk.prompting {
		d.kiosk.interrupt()
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
// went through the clipboard key and lost its newlines).
func splitScans(raw string) []string {
	fields := strings.Fields(raw)
	if len(fields) <= 1 {
		return []string{strings.TrimSpace(raw)}
	}
	for _, f := range fields {
		if api.CheckEmail(api.NormalizeEmail(f)) != nil {
			return []string{strings.TrimSpace(raw)}
		}
	}
	return fields
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
	if d.kiosk != nil && d.kiosk.garbled {
		d.kiosk.garbled = false
		d.push(entry{at: now, email: raw, kind: kindInvalid,
			msg: "A scan arrived while the kiosk PIN was being typed and was cut short. Scan it again."})
		return d.ring()
	}
	var keys, emails []string
	ring := false
	for _, text := range d.takeLine(raw) {
		for _, tok := range splitScans(text) {
			f, err := roster.Resolve(d.rost.Roster, tok)
			if err != nil {
				d.push(refusal(now, tok, err, d.rost, d.deps.Local))
				ring = true
				continue
			}
			d.nextKey++
			k := fmt.Sprintf("new-%d", d.nextKey)
			e := entry{key: k, at: now, email: f.Email, kind: kindSaving, ticket: f.Ticket, form: f.Scan.Form}
			d.answer(&e)
			d.push(e)
			keys, emails = append(keys, k), append(emails, f.Email)
		}
	}
	var cmds []tea.Cmd
	if len(emails) > 0 {
		cmds = append(cmds, d.write(keys, emails))
	}
	if ring {
		cmds = append(cmds, d.ring())
	}
	cmds = append(cmds, d.fadeLater())
	return tea.Batch(cmds...)
}

// answer fills in what the roster says of an entry's address.
func (d *Desk) answer(e *entry) {
	ro := d.rost.Roster
	if ro == nil {
		return
	}
	e.rosterAt, e.expect = ro.Updated(), scanqueue.ExpectUnknown
	if p, ok := ro.ByEmail(e.email); ok {
		e.person, e.expect = &p, scanqueue.ExpectRegistered
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
		d.recent[i].kind, d.recent[i].msg = kindNotRecorded, msg
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

func (d *Desk) push(e entry) {
	if len(d.recent) == recentMax {
		d.recent = d.recent[:recentMax-1]
	}
	d.recent = append(d.recent, entry{})
	copy(d.recent[1:], d.recent)
	d.recent[0] = e
}

// find returns the index of the entry with key, or -1.
func (d *Desk) find(key string) int {
	for i, e := range d.recent {
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
	typed := d.recent
	d.recent = nil
	for i := len(m.snap.recent) - 1; i >= 0; i-- {
		e := entryFromScan(m.snap.recent[i], time.Time{}, d.deps.Local)
		e.earlier = true
		d.push(e)
	}
	for i := len(typed) - 1; i >= 0; i-- {
		d.answer(&typed[i])
		d.push(typed[i])
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
	old := d.recent[i]
	e := entryFromScan(sc, earlier, d.deps.Local)
	e.person, e.rosterAt, e.earlier = old.person, old.rosterAt, old.earlier
	e.ticket, e.form = old.ticket, old.form
	d.recent[i] = e
}

func (d *Desk) onAck(scans []scanqueue.Scan) tea.Cmd {
	ring := false
	now := d.deps.Now().In(d.deps.Local)
	for _, sc := range scans {
		if sc.Outcome == scanqueue.CheckedIn && sameDay(sc.AckedAt, now) {
			d.today[sc.ID] = true
		}
		for i, e := range d.recent {
			if e.id == sc.ID && e.kind == kindPending {
				d.settle(i, sc, time.Time{})
				ring = ring || d.recent[i].failed()
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
	for _, e := range d.recent {
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

func (d *Desk) SetSize(w, h int) {
	d.width, d.height = w, h
	d.door.dialog.SetSize(w, h)
	d.input.SetWidth(max(10, w-len(d.input.Prompt)-3))
	if d.reg != nil {
		d.reg.table.SetSize(w, d.searchTableHeight())
	}
}

func (d *Desk) ShortHelp() []key.Binding {
	if d.searching {
		return []key.Binding{d.keys.Choose, d.keys.Pick, d.keys.CloseSearch}
	}
	out := append([]key.Binding{d.keys.Submit}, d.actions().FullHelp()...)
	out = append(out, d.keys.Back)
	out = append(out, d.doorHelp()...)
	if d.kiosk != nil {
		out = append([]key.Binding{d.keys.Kiosk}, out...)
	}
	return out
}

func (d *Desk) FullHelp() [][]key.Binding {
	first := []key.Binding{d.keys.Submit, d.keys.Back, d.keys.Yes}
	if d.kiosk != nil {
		first = append(first, d.keys.Kiosk)
	}
	if d.searching { // the search's keys, while it is open
		first = []key.Binding{d.keys.Choose, d.keys.Pick, d.keys.CloseSearch, d.keys.Yes}
	}
	return [][]key.Binding{
		first,
		d.actions().FullHelp(),      // a key that is off (a locked kiosk) says why
		d.doorActions().ShortHelp(), // the ? panel lists them all; a key that is off says why
	}
}
