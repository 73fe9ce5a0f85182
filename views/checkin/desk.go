package checkin

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
)

// Desk is the check-in desk: one input that always has the keyboard, for a
// scanner or a person; a result box for the latest scan, answered at once
// from the event's roster; counters for this desk and all desks; recent
// scans; a registrant search on the roster; and the arrivals board. Every
// scan is journaled (synced to disk) before the desk calls it recorded; the
// venue desk behind it sends the journal and refreshes the roster and the
// arrivals in the background.
//
// On its screen base the desk is its state and its actions, in one of
// three modes (actions): the desk, the registrant search, the kiosk's PIN
// prompt. What no action takes is typing.
type Desk struct {
	ui.ScreenBase
	deps     views.Env
	keys     deskKeys
	acts     ui.Actions  // the array the search's and the prompt's actions are built in, for every key
	deskActs keptActions // the desk's own actions, kept
	runs     deskRuns    // what the actions run
	rt       *runtime
	deskPlace
	draw       drawCache         // what frames draw unchanged (desk_draw.go)
	venueState                   // what the venue desk last said (record.go)
	deskScans                    // what was scanned here (record.go)
	rost       venue.RosterState // the roster as last told: it answers scans

	input textinput.Model
	bell  bool
	rings int // bells rung; for tests

	door deskDoor // walk-ins, badges, the hook (door_desk.go)

	// fromScan: what the scan input holds came from a scan the shell
	// sorted (ui.ScanMsg), a code ending with nothing so far: a scan
	// after it does not set it aside.
	fromScan bool
	// garbledBy names a key no scanner types as text that came inside the
	// code being scanned (ui.ScanGarbledMsg): the code is refused whole
	// when it ends, never read in part.
	garbledBy string

	searching bool
	reg       *registrants
	showBoard bool
	board     board
	kiosk     *kiosk // nil unless a kiosk
	lingers   bool   // left with scans unsent: its runtime sends on
}

// deskPlace is which event, or which of its sessions, the desk admits to.
type deskPlace struct {
	eventID, eventName     string
	sessionID, sessionName string
}

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
		deps: d, keys: newDeskKeys(ctx.Keys), rt: newRuntime(),
		deskPlace: deskPlace{eventID: eventID, eventName: eventName, sessionID: sessionID, sessionName: sessionName},
		input:     in, bell: d.Bell,
		board: newBoard(ctx, d, eventID, eventName, sessionID),
	}
	dk.today = map[string]bool{}
	dk.runs = dk.bindRuns()
	// The scan input has every key, so a scanner's keystrokes never reach
	// the shell or a table; esc clears it first, then leaves.
	dk.ScreenBase = ui.NewScreenBase(ctx, ui.ScreenConfig{Actions: dk.actions, Body: dk.typing, Typing: true,
		Nav: []key.Binding{dk.keys.Yes}})
	if d.KioskPIN != "" {
		dk.kiosk = newKiosk(d.KioskPIN)
	}
	if h := hooksOf(d); h != nil && h.onRuntime != nil {
		h.onRuntime(dk.rt)
	}
	return dk
}

// deskRuns are the desk's actions' functions, bound once: a method value
// allocates each time it is taken, and the actions are built for every key
// a scanner types.
type deskRuns struct {
	submit, kiosk, search, board, history, retry, bell, back, walkIn, print func() tea.Cmd
	whyWalkIn, whyPrint                                                     func() string
}

func (d *Desk) bindRuns() deskRuns {
	return deskRuns{submit: d.submitInput, kiosk: d.lockOrPrompt, search: d.openSearch, board: d.toggleBoard,
		history: d.openHistory, retry: d.retryNow, bell: d.toggleBell, back: d.back,
		walkIn: d.openWalkIn, print: d.printLatest, whyWalkIn: d.cannotWalkIn, whyPrint: d.cannotPrint}
}

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

// actions are the desk's keys besides typing, in its mode: the kiosk's
// PIN prompt (kiosk.go), the registrant search (search.go), or the desk.
// A locked kiosk is the why-not of what the public may not do.
func (d *Desk) actions() ui.Actions {
	// They are asked for at every key a scanner types. The search's and the
	// prompt's are built into one array: the base reads them at once and
	// keeps none (Dispatch, the help); the desk's are kept while what they
	// are built from stays.
	switch {
	case d.kiosk != nil && d.kiosk.prompting:
		d.acts = d.promptActions(d.acts[:0])
	case d.searching:
		d.acts = d.searchActions(d.acts[:0])
	default:
		return d.deskActions()
	}
	return d.acts
}

// keptActions are the desk's own actions as last built, and what they were
// built from besides what a desk never changes (its profile, kiosk or
// not, its keys).
type keptActions struct {
	key   deskActsKey
	acts  ui.Actions
	built bool
}

type deskActsKey struct {
	keys *ui.GlobalKeys
	// locked: a locked kiosk; typed: the input holds more than spaces (tab
	// records too); clear: there is something for esc to clear.
	locked, typed, clear bool
}

// deskActions are the desk's actions out of the search and the PIN
// prompt, built again only when what they depend on changed.
func (d *Desk) deskActions() ui.Actions {
	val := d.input.Value()
	k := deskActsKey{keys: d.Ctx.Keys, locked: d.kioskLocked(), typed: strings.TrimSpace(val) != "",
		clear: val != "" || d.card != nil}
	if c := &d.deskActs; !c.built || c.key != k {
		*c = keptActions{key: k, acts: d.buildDeskActions(c.acts[:0]), built: true}
	}
	return d.deskActs.acts
}

func (d *Desk) buildDeskActions(as ui.Actions) ui.Actions {
	if d.kiosk != nil {
		as = append(as, ui.Action{Key: d.keys.Kiosk, Run: d.runs.kiosk})
	}
	as = append(as, ui.Action{Key: d.enter(d.keys.Submit), Run: d.runs.submit})
	if d.kioskLocked() {
		return d.publicActions(as)
	}
	as = d.commonActions(as, false)
	as = append(as, ui.Action{Key: d.keys.Back, Run: d.runs.back})
	return d.doorActions(as)
}

// publicActions are what the public may do at a locked kiosk besides
// scanning: the search and walk-ins where its profile offers them, and esc
// clears what was typed. The staff's keys work once it is unlocked; until
// then they do nothing, and the help does not list them.
func (d *Desk) publicActions(as ui.Actions) ui.Actions {
	if d.deps.KioskSearch {
		as = append(as, ui.Action{Key: d.keys.Search, Run: d.runs.search})
	}
	if d.input.Value() != "" || d.card != nil {
		as = append(as, ui.Action{Key: d.keys.Back, Help: "clear", Run: d.runs.back})
	}
	if d.deps.Extras.WalkIns {
		as = append(as, ui.Action{Key: d.Ctx.Keys.WalkIn, Help: "register a walk-in", Why: d.runs.whyWalkIn, Run: d.runs.walkIn})
	}
	return as
}

// FullHelp is the desk's keys; at a locked kiosk without a question open,
// the yes chord answers nothing and is not listed.
func (d *Desk) FullHelp() [][]key.Binding {
	help := d.ScreenBase.FullHelp()
	if !d.kioskLocked() || d.Dialog.Open() {
		return help
	}
	for i, g := range help {
		help[i] = slices.DeleteFunc(slices.Clone(g), func(b key.Binding) bool {
			return slices.Equal(b.Keys(), d.keys.Yes.Keys())
		})
	}
	return slices.DeleteFunc(help, func(g []key.Binding) bool { return len(g) == 0 })
}

// commonActions adds the desk's keys that work in the search too (minor
// there); at a locked kiosk's search, only the search's own.
func (d *Desk) commonActions(as ui.Actions, minor bool) ui.Actions {
	if d.kioskLocked() {
		return as
	}
	return append(as,
		ui.Action{Key: d.keys.Search, Run: d.runs.search, Minor: minor},
		ui.Action{Key: d.keys.Board, Run: d.runs.board, Minor: minor},
		ui.Action{Key: d.keys.History, Run: d.runs.history, Minor: minor},
		ui.Action{Key: d.keys.Retry, Run: d.runs.retry, Minor: minor},
		ui.Action{Key: d.keys.Bell, Run: d.runs.bell, Minor: minor},
	)
}

// enter is b with tab added while the input holds text: a scanner may end
// a code with Tab.
func (d *Desk) enter(b key.Binding) key.Binding {
	if strings.TrimSpace(d.input.Value()) != "" {
		b.SetKeys(append(slices.Clip(b.Keys()), "tab")...)
	}
	return b
}

// typing takes what no action took: the scan input's keys (the search's
// filter), a paste, the PIN prompt's digits.
func (d *Desk) typing(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		return d.onPaste(msg.Content)
	case tea.KeyPressMsg:
		if d.kiosk != nil && d.kiosk.prompting && d.kiosk.typePIN(msg) {
			return nil
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		d.fromScan = false
		d.refilter()
		return cmd
	}
	return nil
}

// submitInput takes what the input holds as a scan.
func (d *Desk) submitInput() tea.Cmd {
	raw := d.input.Value()
	d.input.Reset()
	return d.submit(raw)
}

// back clears the input, a vCard being read or the board, else asks to
// leave.
func (d *Desk) back() tea.Cmd {
	switch {
	case d.input.Value() != "":
		d.input.Reset()
		d.garbledBy = "" // what was garbled is gone with it
		return nil
	case d.card != nil:
		d.card = nil
		return ui.Toast(ui.ToastInfo, "The vCard being read was discarded: scan it again")
	case d.showBoard:
		return d.toggleBoard()
	}
	// Leaving asks, as quitting does: away from the desk, scans are
	// ignored.
	return ui.Ask("Leave the check-in desk? Away from it, scans are ignored.",
		func() tea.Msg { return leaveMsg{} })
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

// TakesScans is always true: a barcode scanner's codes belong here, and
// the shell brings them here from under its own panels (ui.ScanTaker).
func (d *Desk) TakesScans() bool { return true }

// SortsScans is true while a form, the search or the kiosk's PIN prompt
// is open over the scan input: the shell then tells a scanner's keys from
// a person's, so a scan is recorded as a scan (ui.ScanMsg, onScanned) and
// never typed into the form, and the person's keys go to the form.
func (d *Desk) SortsScans() bool {
	return d.Dialog.Open() || d.searching || (d.kiosk != nil && d.kiosk.prompting)
}

// Asking reports whether the desk's dialog asks a yes/no question
// (ui.Asker).
func (d *Desk) Asking() bool { return d.Dialog.Asking() }

// Reopen opens the same desk again, for the shell's way back to the desk
// after it has left (ui.Reopener).
func (d *Desk) Reopen() ui.Screen {
	return newDesk(d.Ctx, d.deps, d.eventID, d.eventName, d.sessionID, d.sessionName)
}

// Locked keeps a locked kiosk on screen (ui.Locker).
func (d *Desk) Locked() string {
	if d.kiosk == nil || !d.kiosk.locked {
		return ""
	}
	return kioskLockedText(d.keys.Kiosk)
}

// ConfirmQuit holds up quitting while scans wait to be sent.
func (d *Desk) ConfirmQuit() string {
	if why := d.Dialog.QuitReason(); why != "" {
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

// Update takes the desk's own messages; keys and pastes go to the base
// (the walk-in form when open, the actions, then typing).
func (d *Desk) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch m := msg.(type) {
	case ui.ScanMsg:
		return d, d.onScanned(m)
	case ui.ScanStartsMsg:
		d.garbledBy = ""
		return d, d.setAside(m.Typed)
	case ui.ScanGarbledMsg:
		d.garbledBy = cmp.Or(d.garbledBy, m.Key)
		return d, nil
	case ui.ScanEndMsg:
		return d, d.endScan()
	}
	doorCmd, handled := d.updateDoor(msg)
	if handled {
		return d, doorCmd
	}
	return d, also(doorCmd, d.update(msg))
}

func (d *Desk) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case openedMsg:
		return tea.Batch(d.onOpened(msg), d.openedDoor(msg))
	case recordedMsg:
		return d.onRecorded(msg)
	case statusMsg:
		return d.onStatus(msg.st)
	case ackMsg:
		return d.onAck(msg.scans)
	case changedMsg:
		d.refreshVenue()
		return nil
	case boardMsg:
		return d.board.update(msg)
	case kioskFadeMsg: // the view reads the clock: drawing again fades it
		return nil
	case boardTickMsg:
		if !d.showBoard {
			return nil
		}
		return d.board.loadSessions()
	case tea.BackgroundColorMsg: // the App rebuilt the theme in place
		d.input.SetStyles(d.Ctx.Theme.TextInputStyles())
		d.draw = drawCache{} // drawn in the old theme's colours, under the same pointer
		if d.reg != nil {
			d.reg.table, _ = d.reg.table.Update(msg)
		}
		return nil
	case leaveMsg:
		return d.leave()
	case tea.KeyPressMsg, tea.PasteMsg:
		return d.ScreenBase.Update(msg)
	}
	var cmd tea.Cmd
	d.input, cmd = d.input.Update(msg)
	return cmd
}

// openHistory shows this event's (or session's) check-ins, with this
// desk's own times, newer than its cache.
func (d *Desk) openHistory() tea.Cmd {
	h := NewHistory(d.Ctx, d.deps, d.eventID, d.eventName, d.sessionID).(*History)
	h.overDesk = true
	if d.v != nil {
		h.live = d.v.Arrivals()
	}
	return ui.Push(h)
}

func (d *Desk) retryNow() tea.Cmd {
	d.door.wake()
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

// SetSize fits the input, the search and the walk-in form.
func (d *Desk) SetSize(w, h int) {
	d.ScreenBase.SetSize(w, h)
	d.input.SetWidth(max(10, w-len(d.input.Prompt)-3))
	if d.reg != nil {
		d.reg.table.SetSize(w, d.searchTableHeight())
	}
}

// onScanned takes what a scanner typed while a form, the search or the
// PIN prompt had the keyboard (ui.ScanMsg): it goes to the scan input and
// each code's end records it, as at the bare desk, whatever is open; the
// form keeps what the person typed, and the search does not pick its
// chosen row for a scan.
func (d *Desk) onScanned(m ui.ScanMsg) tea.Cmd {
	if cmd, handled := d.scanOverPIN(m); handled {
		return cmd
	}
	var cmds []tea.Cmd
	if d.kiosk != nil && d.kiosk.prompting { // a scan, whole: no PIN try
		d.kiosk.prompting, d.kiosk.typed = false, nil
		cmds = append(cmds, ui.Toast(ui.ToastInfo, "A scan came in: the PIN prompt closed ("+d.keys.Kiosk.Help().Key+" opens it again)"))
	}
	over := d.Dialog.Open()
	for _, k := range m.Keys {
		if !ui.EndsScan(k) {
			d.fromScan = d.fromScan || d.input.Value() == ""
			d.input, _ = d.input.Update(k)
			continue
		}
		raw := d.input.Value()
		d.input.Reset()
		if strings.TrimSpace(raw) != "" && over {
			cmds = append(cmds, ui.Toast(ui.ToastInfo, "Scan recorded at the desk; the form keeps what you typed"))
		}
		cmds = append(cmds, d.submit(raw))
	}
	if m.Paste != "" {
		cmds = append(cmds, d.onPaste(m.Paste))
	}
	d.refilter()
	return tea.Batch(cmds...)
}

// endScan records the code a scanner that adds no terminator left in the
// scan input (ui.ScanEndMsg), as its Enter would.
func (d *Desk) endScan() tea.Cmd {
	raw := d.input.Value()
	if strings.TrimSpace(raw) == "" {
		return nil
	}
	d.input.Reset()
	d.fromScan = false
	d.refilter()
	return d.submit(raw)
}

// setAside keeps in the scan input only what a scan now beginning typed
// there (typed, at its end): the rest, a person's half-typed text, would be
// sent glued onto the scan. The desk says once what it set aside; a locked
// kiosk says only how much, as the text may be someone's address.
func (d *Desk) setAside(typed string) tea.Cmd {
	val := d.input.Value()
	if d.fromScan && typed == "" {
		return nil // a code that ended with nothing: this scan may be its tail
	}
	aside, ok := strings.CutSuffix(val, typed)
	if !ok {
		aside = val
	}
	if strings.TrimSpace(aside) == "" {
		return nil
	}
	d.input.SetValue(typed)
	d.input.CursorEnd()
	d.refilter()
	if d.kioskLocked() {
		return ui.Toast(ui.ToastInfo, fmt.Sprintf("A scan came in; cleared, not sent: %d typed characters", len([]rune(aside))))
	}
	return ui.Toast(ui.ToastInfo, "A scan came in; set aside, not sent: "+quote(sanitize.Line(aside)))
}
