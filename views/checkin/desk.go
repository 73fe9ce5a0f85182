package checkin

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/scanqueue"
	"github.com/evdesk/evdesk/ui"
)

type deskKeys struct {
	Submit, Search, History, Bell, Retry, Back key.Binding
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
		Bell:        k.Bell,
		Retry:       k.Retry,
		Back:        ui.With(k.Back, "clear, or leave"),
		Choose:      nav,
		Pick:        ui.With(k.Open, "check in the chosen one"),
		CloseSearch: ui.With(k.Back, "close search"),
	}
}

// Desk is the check-in desk: one input that always has the keyboard, for a
// scanner or a person; a result box for the latest scan; counters; recent
// scans; and a registrant search for codes that do not scan. Every scan is
// journaled (synced to disk) before the desk calls it recorded; a sender
// delivers the journal in the background while the desk is open.
type Desk struct {
	ctx  *ui.Context
	deps Deps
	keys deskKeys
	rt   *runtime

	eventID, eventName     string
	sessionID, sessionName string

	j       *scanqueue.Journal // nil until opened
	s       *scanqueue.Sender
	openErr error
	waiting []pendingWrite // entered before the journal opened

	input   textinput.Model
	recent  []entry // newest first
	nextKey int
	unsaved int // scans entered, not yet journaled (or failed)

	st         scanqueue.Status
	haveStatus bool
	counts     scanqueue.Counts
	today      map[string]bool // ids of scans checked in today
	resumed    int

	registered    int
	registeredErr error
	haveRegTotal  bool
	regRetried    bool

	bell  bool
	rings int // bells rung; for tests

	searching bool
	reg       *registrants

	width, height int
}

type pendingWrite struct{ keys, emails []string }

// NewDesk opens the desk of an event, or of one of its sessions when
// sessionID is not empty. The names label the screen.
func NewDesk(ctx *ui.Context, d Deps, eventID, eventName, sessionID, sessionName string) ui.Screen {
	return newDesk(ctx, d, eventID, eventName, sessionID, sessionName)
}

func newDesk(ctx *ui.Context, d Deps, eventID, eventName, sessionID, sessionName string) *Desk {
	d = d.withDefaults()
	in := textinput.New()
	in.Prompt = "Scan > "
	in.Placeholder = "scan a badge or type an email, then Enter"
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
	}
	if h := d.hooks; h != nil && h.onRuntime != nil {
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

// Init opens the journal and starts the sender in the background, starts
// the pump and asks for the number of registrants.
func (d *Desk) Init() tea.Cmd {
	rt, deps, ev, sess := d.rt, d.deps, d.eventID, d.sessionID
	cmds := []tea.Cmd{
		func() tea.Msg { return rt.open(deps, ev, sess) },
		rt.registered(deps.Client, ev),
	}
	if deps.hooks == nil || !deps.hooks.manualPump {
		cmds = append(cmds, rt.pump.next())
	}
	return tea.Batch(cmds...)
}

// Close stops the registrant search's load, then the sender, and closes
// the journal, off the caller's path.
func (d *Desk) Close() {
	if d.reg != nil {
		d.reg.stream.Stop()
	}
	go d.rt.shutdown()
}

// CapturingInput is always true: the scan input owns every key, so a
// scanner's keystrokes never reach the shell or a table.
func (d *Desk) CapturingInput() bool { return true }

// CapturingBack is true: esc clears the input first, then leaves.
func (d *Desk) CapturingBack() bool { return true }

// ConfirmQuit holds up quitting while scans wait to be sent.
func (d *Desk) ConfirmQuit() string {
	n := d.saving()
	if d.j != nil {
		n += d.j.Counts().Pending
	}
	switch n {
	case 0:
		return ""
	case 1:
		return "1 check-in not yet sent"
	}
	return fmt.Sprintf("%d check-ins not yet sent", n)
}

// saving counts scans entered but not yet journaled.
func (d *Desk) saving() int { return d.unsaved }

func (d *Desk) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case openedMsg:
		if msg.rt != d.rt {
			return d, nil
		}
		return d, d.onOpened(msg)
	case recordedMsg:
		if msg.rt != d.rt {
			return d, nil
		}
		return d, d.onRecorded(msg)
	case statusMsg:
		if msg.rt != d.rt || (d.haveStatus && msg.st.Seq < d.st.Seq) {
			return d, nil
		}
		d.st, d.haveStatus, d.counts = msg.st, true, msg.st.Counts
		cmd := d.reconcile()
		if d.registeredErr != nil && !msg.st.LastSent.IsZero() && !d.regRetried {
			// The server answers again: ask for the total once more.
			d.regRetried = true
			cmd = tea.Batch(cmd, d.rt.registered(d.deps.Client, d.eventID))
		}
		return d, cmd
	case ackMsg:
		if msg.rt != d.rt {
			return d, nil
		}
		return d, d.onAck(msg.scans)
	case registeredMsg:
		if msg.rt != d.rt {
			return d, nil
		}
		d.registered, d.registeredErr, d.haveRegTotal = msg.total, msg.err, msg.err == nil
		return d, nil
	case ui.Page[api.Registrant]:
		if d.reg == nil {
			return d, nil
		}
		return d, d.reg.onPage(msg)
	case tea.BackgroundColorMsg: // the App rebuilt the theme in place
		d.input.SetStyles(d.ctx.Theme.TextInputStyles())
		if d.reg != nil {
			d.reg.table, _ = d.reg.table.Update(msg)
		}
		return d, nil
	case tea.PasteMsg:
		return d, d.onPaste(msg.Content)
	case tea.KeyPressMsg:
		return d, d.onKey(msg)
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return d, cmd
}

func (d *Desk) isSubmit(k tea.KeyPressMsg) bool {
	return key.Matches(k, d.keys.Submit) || k.Code == tea.KeyKpEnter ||
		(k.Code == tea.KeyTab && k.Mod == 0 && strings.TrimSpace(d.input.Value()) != "")
}

func (d *Desk) onKey(k tea.KeyPressMsg) tea.Cmd {
	if d.searching {
		if cmd, handled := d.onSearchKey(k); handled {
			return cmd
		}
	}
	switch {
	case d.isSubmit(k):
		raw := d.input.Value()
		d.input.Reset()
		return d.submit(raw)
	case key.Matches(k, d.keys.Search):
		return d.openSearch()
	case key.Matches(k, d.keys.History):
		return ui.Push(NewHistory(d.ctx, d.deps, d.eventID, d.eventName, d.sessionID))
	case key.Matches(k, d.keys.Bell):
		d.bell = !d.bell
		if d.bell {
			return ui.Toast(ui.ToastInfo, "Bell on: the terminal beeps when a scan fails")
		}
		return ui.Toast(ui.ToastInfo, "Bell off")
	case key.Matches(k, d.keys.Retry):
		if d.s == nil {
			return nil
		}
		d.s.Wake()
		return ui.Toast(ui.ToastInfo, "Retrying now")
	case key.Matches(k, d.keys.Back):
		if d.input.Value() != "" {
			d.input.Reset()
			return nil
		}
		return d.leave()
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(k)
	return cmd
}

// leave closes the desk: the sender stops, then the journal closes, in a
// command; the screen pops.
func (d *Desk) leave() tea.Cmd {
	rt := d.rt
	cmds := []tea.Cmd{func() tea.Msg { rt.shutdown(); return nil }, ui.Pop()}
	if n := d.ConfirmQuit(); n != "" {
		cmds = append(cmds, ui.Toast(ui.ToastInfo,
			n+": kept in the journal, sent when this desk opens again (or by `evdesk checkin "+d.eventID+"`)"))
	}
	return tea.Batch(cmds...)
}

// onPaste treats every complete pasted line as a scan (a scanner in
// keyboard-wedge mode may paste); a last line without its newline stays in
// the input.
func (d *Desk) onPaste(content string) tea.Cmd {
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

// submit checks the input and journals the addresses in it. Input that is
// not an address is refused at once with the reason.
func (d *Desk) submit(raw string) tea.Cmd {
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	if d.searching {
		d.closeSearch()
	}
	now := d.deps.Now()
	var keys, emails []string
	ring := false
	for _, tok := range splitScans(raw) {
		norm := api.NormalizeEmail(tok)
		if err := api.CheckEmail(norm); err != nil {
			d.push(entry{at: now, email: tok, kind: kindInvalid, msg: invalidMessage(tok, err)})
			ring = true
			continue
		}
		d.nextKey++
		k := fmt.Sprintf("new-%d", d.nextKey)
		d.push(entry{key: k, at: now, email: norm, kind: kindSaving})
		keys, emails = append(keys, k), append(emails, norm)
	}
	var cmds []tea.Cmd
	if len(emails) > 0 {
		cmds = append(cmds, d.write(keys, emails))
	}
	if ring {
		cmds = append(cmds, d.ring())
	}
	return tea.Batch(cmds...)
}

// write journals emails in a command, in the order they were entered; until
// the journal is open they wait.
func (d *Desk) write(keys, emails []string) tea.Cmd {
	d.unsaved += len(keys)
	return d.dispatch(keys, emails)
}

// dispatch journals what write counted, or parks it until the journal opens.
func (d *Desk) dispatch(keys, emails []string) tea.Cmd {
	switch {
	case d.openErr != nil:
		for _, k := range keys {
			d.fail(k, "not saved: the journal could not be opened ("+d.openErr.Error()+")")
		}
		return d.ring()
	case d.j == nil:
		d.waiting = append(d.waiting, pendingWrite{keys: keys, emails: emails})
		return nil
	}
	return d.rt.record(d.j, d.rt.w.take(), keys, emails, d.deps.Source)
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
	d.j, d.s = m.j, m.s
	d.counts = m.snap.counts
	d.resumed = m.snap.resumed
	for id := range m.snap.today {
		d.today[id] = true
	}
	// The journal's latest scans go under what was typed meanwhile.
	typed := d.recent
	d.recent = nil
	for i := len(m.snap.recent) - 1; i >= 0; i-- {
		d.push(entryFromScan(m.snap.recent[i], time.Time{}, d.deps.Local))
	}
	for i := len(typed) - 1; i >= 0; i-- {
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
	return tea.Batch(cmds...)
}

func (d *Desk) onRecorded(m recordedMsg) tea.Cmd {
	if m.err != nil {
		why := "not saved: " + m.err.Error() + "; nothing was recorded, scan again"
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
		sc := m.scans[i]
		e := entryFromScan(sc, m.earlier[sc.ID], d.deps.Local)
		if j := d.find(k); j >= 0 {
			d.recent[j] = e
		}
	}
	if d.j != nil {
		d.counts = d.j.Counts()
	}
	// The sender may have answered before this message arrived.
	return d.reconcile()
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
				d.recent[i] = entryFromScan(sc, time.Time{}, d.deps.Local)
				ring = ring || d.recent[i].failed()
			}
		}
	}
	if d.j != nil {
		d.counts = d.j.Counts()
	}
	if ring {
		return d.ring()
	}
	return nil
}

// reconcile settles pending entries the journal has answers for: an ack can
// overtake the recorded message, or miss the desk while it is hidden.
func (d *Desk) reconcile() tea.Cmd {
	if d.j == nil {
		return nil
	}
	var settled []scanqueue.Scan
	for _, e := range d.recent {
		if e.kind != kindPending || e.id == "" {
			continue
		}
		if sc, ok := d.j.Lookup(e.email); ok && sc.ID == e.id && sc.Outcome != scanqueue.Pending {
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
	d.input.SetWidth(max(10, w-len(d.input.Prompt)-3))
	if d.reg != nil {
		d.reg.table.SetSize(w, d.searchTableHeight())
	}
}

func (d *Desk) ShortHelp() []key.Binding {
	if d.searching {
		return []key.Binding{d.keys.Choose, d.keys.Pick, d.keys.CloseSearch}
	}
	return []key.Binding{d.keys.Submit, d.keys.Search, d.keys.History, d.keys.Bell, d.keys.Retry, d.keys.Back}
}

func (d *Desk) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{d.keys.Submit, d.keys.Back, d.keys.Retry, d.keys.Bell},
		{d.keys.Search, d.keys.Choose, d.keys.Pick, d.keys.CloseSearch, d.keys.History},
	}
}
