package ui

import (
	"cmp"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui/timer"
)

// A barcode scanner in keyboard mode types a code as keys, faster than any
// person, and ends it with Enter, keypad Enter, Tab or a line feed (or
// with nothing). The shell tells its keys from a person's here, in one
// place, so that a scan reaches a screen that takes scans (the check-in
// desk) and never acts anywhere else: it opens nothing, answers no
// question and types into no form.
//
// The first key of a burst arrives before anyone can know it starts one,
// so outside a screen that takes scans every key a scanner could type is
// held for a moment: HoldFor after it arrives, a timer ends the run. A
// key that arrives before its run has ended joins it; a run that no person
// types is a scan, and anything else was a person's and acts then.
//
// A run ends by the timer's message, never by comparing arrival times: the
// program takes messages in the order they came, so keys the terminal
// delivered together stay together even when the program is slow to take
// them (a busy machine), and only a real pause splits a burst.

// HoldFor is how long a key is held for the next key of its run. Scanners
// type a key every 1-20 ms (a whole code arrives at once when the terminal
// reads it in one go); people leave 60 ms or more between keys, about 20
// ms only when they roll two or three keys; key repeat comes every 30-40
// ms, and is one key over and over.
const HoldFor = 30 * time.Millisecond

// ScanRun is the shortest run of keys, with no terminator, that no person
// types: a scanner set to end its codes with nothing.
const ScanRun = 4

// LateEnd is how long after a scanned code stops, unended, its terminator
// may still come and be the scan's: a busy machine can read a scanner's
// Enter apart from its text, and that Enter alone must not act as a
// person's (choose in a list, submit a form).
const LateEnd = 250 * time.Millisecond

// scanGate sorts the keys a scanner could type into a person's and a
// scanner's. It keeps no time: the App tells it when a run ended.
type scanGate struct {
	held     []tea.KeyPressMsg // the run so far, not yet decided
	scanning bool              // the run is a scanner's: its keys go as scanned
	inCode   bool              // a scanned code has begun and not ended
	ended    bool              // the latest scanned key ended a code
	// afterScan: the run began right after a scan's end, within the
	// hold: a key in it came in another key's burst.
	afterScan bool
	// openCode: the last run was a scan whose code had not ended when it
	// paused; a terminator next, within LateEnd, is that code's end.
	openCode bool
}

// gateOut is what the gate decided: keys a person typed, in order, to act
// on; keys of scans; and how many codes those began. hasty: the person's
// keys came within the hold of another key (two or more together, or
// right after a scan), so none of them is a deliberate answer.
type gateOut struct {
	person, scanned []tea.KeyPressMsg
	codes           int
	hasty           bool
	began           bool   // the run was found a scanner's: its first keys are in scanned
	garbled         string // a key no scanner types as text came inside a scanned code: its name
}

// key takes a key a scanner could type, arriving within the run.
func (g *scanGate) key(k tea.KeyPressMsg) gateOut {
	var out gateOut
	if g.openCode && !g.holding() {
		g.openCode = false
		if EndsScan(k) { // the scan's own end, read late
			g.scanning, g.afterScan = true, false
			g.scan(&out, k)
			return out
		}
	}
	if g.scanning && g.ended && !EndsScan(k) {
		// After a code's end, a second terminator (CR LF) is still the
		// scan's; anything else is judged afresh: the next code, or a
		// person's key.
		g.scanning, g.afterScan = false, true
	}
	if g.scanning {
		g.scan(&out, k)
		return out
	}
	g.held = append(g.held, k)
	if isScan(g.held) {
		g.scanning, g.afterScan, out.began = true, false, true
		g.scan(&out, g.held...)
		g.held = nil
	}
	return out
}

// scan hands keys out as scanned, counting the codes they begin. A key no
// scanner types as text (a control character inside a code) is not handed
// out: it garbles the code.
func (g *scanGate) scan(out *gateOut, keys ...tea.KeyPressMsg) {
	for _, k := range keys {
		if !typedByScanner(k) {
			out.garbled = cmp.Or(out.garbled, k.String())
			continue
		}
		g.ended = EndsScan(k)
		switch {
		case g.ended:
			g.inCode = false
		case !g.inCode:
			g.inCode = true
			out.codes++
		}
		out.scanned = append(out.scanned, k)
	}
}

// pause ends the run: its hold ran out, or a key no scanner types came.
// Keys still held were a person's.
func (g *scanGate) pause() gateOut {
	out := gateOut{person: g.held, hasty: len(g.held) > 1 || (len(g.held) > 0 && g.afterScan)}
	open := g.scanning && g.inCode
	*g = scanGate{openCode: open}
	return out
}

// lateOver ends the wait for an unended code's terminator (LateEnd).
func (g *scanGate) lateOver() { g.openCode = false }

// holding reports whether a run is open: keys wait for a verdict, or a
// scan goes on.
func (g *scanGate) holding() bool { return len(g.held) > 0 || g.scanning }

// isScan reports whether a run of keys, each before the hold of the one
// before ran out, is a scanner's: a terminator after at least one other key, or
// ScanRun keys. One key over and over is key repeat, a person's. Keys no
// scanner types as text (held with the run: controlInRun) do not count.
func isScan(run []tea.KeyPressMsg) bool {
	typed := 0
	for _, k := range run {
		if typedByScanner(k) {
			typed++
		}
	}
	if typed < 2 || sameKey(run) {
		return false
	}
	return EndsScan(run[len(run)-1]) || typed >= ScanRun
}

func sameKey(run []tea.KeyPressMsg) bool {
	for _, k := range run[1:] {
		if k.Code != run[0].Code || k.Mod != run[0].Mod || k.Text != run[0].Text {
			return false
		}
	}
	return true
}

// EndsScan reports whether k is a key scanners end a code with: Enter,
// keypad Enter, Tab or a line feed (ctrl+j).
func EndsScan(k tea.KeyPressMsg) bool {
	switch k.Code {
	case tea.KeyEnter, tea.KeyKpEnter, tea.KeyTab:
		return k.Mod == 0
	case 'j':
		return k.Mod == tea.ModCtrl
	}
	return false
}

// typedByScanner reports whether k is a key a barcode scanner in keyboard
// mode sends: printable text, Enter (keypad Enter, a bare line feed) or Tab.
func typedByScanner(k tea.KeyPressMsg) bool {
	if k.Text != "" && k.Mod&^tea.ModShift == 0 {
		return true
	}
	return EndsScan(k)
}

// scannerControl reports whether k is a control character as a scanner in
// keyboard mode sends one inside a code (a GS1 separator as ctrl+], a
// prefix set wrong as ctrl+b): a ctrl key that types no text. Keys no
// scanner sends (arrows, End, Backspace, function keys) are a person's
// wherever they come.
func scannerControl(k tea.KeyPressMsg) bool { return k.Mod == tea.ModCtrl && k.Text == "" }

// pastedScan reports whether a paste is what a scanner pastes (scanners in
// clipboard mode paste one code and its line break): one line, ending in a
// line break. A person's paste (a word, an address, a list of lines) is
// typing.
func pastedScan(content string) bool {
	line, ok := strings.CutSuffix(content, "\n")
	if !ok {
		line, ok = strings.CutSuffix(content, "\r")
	}
	line = strings.TrimSuffix(line, "\r")
	return ok && strings.TrimSpace(line) != "" && !strings.ContainsAny(line, "\r\n")
}

// ScanTaker is a screen whose input takes a barcode scanner's codes (the
// check-in desk): while TakesScans reports true, a scan goes to it
// whatever the shell shows over it, and its keys are never held.
type ScanTaker interface {
	TakesScans() bool
}

// ScanPasser is a screen shown over a screen that takes scans (the
// desk's history): while PassesScans reports true, a scan brings that
// screen back and goes to it, as though the view had been closed first.
type ScanPasser interface {
	PassesScans() bool
}

// deskForScan brings back the screen that takes scans from under a view
// that passes it its scans (ScanPasser), before a scan goes on.
func (a *App) deskForScan() {
	if a.takesScans() || a.palette() != nil {
		return
	}
	p, ok := a.Top().(ScanPasser)
	if !ok || !p.PassesScans() || a.deskBelow() < 0 {
		return
	}
	a.overlays = nil
	a.toDesk()
}

// Reopener is a screen the shell can bring back after it has left (the
// desk, when a scan arrives elsewhere): Reopen builds it anew.
type Reopener interface {
	Reopen() Screen
}

// holdOverMsg ends the hold of the keys held since key number seq, unless
// newer keys came.
type holdOverMsg struct{ seq int }

// onKey lets the scan gate judge a key before it acts. A key no scanner
// types ends the run before it and acts at once; so does every key where
// the focused screen takes scans and nothing else types there, as a person
// and a scanner type into its scan input alike. Any other key is held
// until the gate knows whose it is.
func (a *App) onKey(k tea.KeyPressMsg) tea.Cmd {
	if !typedByScanner(k) {
		if scannerControl(k) && a.runOpen() {
			return a.controlInRun(k)
		}
		return tea.Batch(a.Quiet(), a.handleKey(k))
	}
	if a.takesScans() && a.palette() == nil && !a.sortsScans() {
		return a.watchKey(k)
	}
	if a.everyKeyTyped {
		return a.handleKey(k)
	}
	cmd := a.decided(a.gate.key(k))
	if !a.gate.holding() {
		return cmd
	}
	return tea.Batch(cmd, a.holdAgain())
}

// holdAgain starts the hold for the next key of the run over.
func (a *App) holdAgain() tea.Cmd {
	a.holdSeq++
	seq := a.holdSeq
	return timer.After(HoldFor, func(time.Time) tea.Msg { return holdOverMsg{seq: seq} })
}

// runOpen reports whether a run of keys is open: the gate holds keys or
// passes a scan on, or at the bare desk keys came within the hold or a
// scanned code has not ended.
func (a *App) runOpen() bool {
	return !a.everyKeyTyped && (a.gate.holding() || a.watch.open())
}

// controlInRun takes a control key (scannerControl) that arrives within an
// open run: a control character a scanner sends inside a code, or a
// person's key pressed in a hurry. It goes with the run: in a scan it is
// never acted on, and the screen that takes scans is told its code is
// garbled (ScanGarbledMsg), so that no part of the code is read as a
// badge; in a person's run it acts when the run ends.
func (a *App) controlInRun(k tea.KeyPressMsg) tea.Cmd {
	if !a.watch.open() { // the gate's run
		return tea.Batch(a.decided(a.gate.key(k)), a.holdAgain())
	}
	var cmd tea.Cmd
	if a.watch.scanning {
		cmd = a.updateTop(ScanGarbledMsg{Key: k.String()})
	} else {
		a.watch.controls = append(a.watch.controls, k)
	}
	return tea.Batch(cmd, a.holdAgain())
}

// ScanGarbledMsg tells the screen that takes scans that the code being
// scanned came with a key no scanner types as text (Key, its name): the
// code, when it ends, is not to be read.
type ScanGarbledMsg struct{ Key string }

// Quiet decides the keys held to tell a person from a scanner as though no
// key came for a while: they were a person's, and act now, and a scanned
// code left unended waits no more for its terminator. A key no scanner
// types calls it; so does a test driver that runs no timers, after each
// key a person presses.
func (a *App) Quiet() tea.Cmd {
	cmd := a.holdOver()
	a.gate.lateOver()
	a.watchOpen = false
	return cmd
}

// holdOver decides the keys held when the hold timer fires with no key
// since. A scan that stopped before its code's end waits LateEnd for its
// terminator (lateOverMsg).
func (a *App) holdOver() tea.Cmd {
	a.watchOpen = a.watch.scanning && !a.watch.ended
	held := a.watch.controls // a person's keys, as the run was no scan
	a.watch = scanWatch{}
	cmd := a.decided(a.gate.pause())
	for _, k := range held {
		cmd = tea.Batch(cmd, a.handleKey(k))
	}
	if !a.gate.openCode && !a.watchOpen {
		return cmd
	}
	a.holdSeq++
	seq := a.holdSeq
	return tea.Batch(cmd, timer.After(LateEnd, func(time.Time) tea.Msg { return lateOverMsg{seq: seq} }))
}

// lateOverMsg ends the wait for a scanned code's terminator begun at hold
// number seq, unless a key came since.
type lateOverMsg struct{ seq int }

// ScanEndMsg tells the screen that takes scans that a scanned code came
// to its end without a terminator (a scanner set to add none): what its
// scan input holds is the code, to record now.
type ScanEndMsg struct{}

// lateOver ends the wait for a scanned code's terminator: no key came in
// LateEnd, so the code ended with nothing, and the screen that takes
// scans records it.
func (a *App) lateOver() tea.Cmd {
	open := a.gate.openCode || a.watchOpen
	a.gate.lateOver()
	a.watchOpen = false
	if !open || !a.takesScans() {
		return nil
	}
	return a.updateTop(ScanEndMsg{})
}

// watchKey acts on a key at a screen whose scan input has the keyboard
// (the bare desk) at once, and watches its run as the gate would: when the
// run turns out to be a scanner's, the screen is told first (ScanStartsMsg)
// what of its input the run typed, so a person's half-typed text is set
// aside and never glued onto the scan.
func (a *App) watchKey(k tea.KeyPressMsg) tea.Cmd {
	if a.gate.scanning { // a scan the gate found goes on here (the desk came back for it)
		a.watch = scanWatch{scanning: true, ended: a.gate.ended}
	}
	cmds := []tea.Cmd{a.decided(a.gate.pause())} // keys held before the desk had the keyboard
	a.gate.lateOver()                            // the desk takes a late terminator as its own
	if typed, began := a.watch.key(k); began {
		cmds = append(cmds, a.updateTop(ScanStartsMsg{Typed: typed}))
		if len(a.watch.controls) > 0 { // keys no scanner types, held with the run: the scan's
			cmds = append(cmds, a.updateTop(ScanGarbledMsg{Key: a.watch.controls[0].String()}))
			a.watch.controls = nil
		}
	}
	cmds = append(cmds, a.handleKey(k))
	return tea.Batch(append(cmds, a.holdAgain())...)
}

// scanWatch follows the runs of keys that reach a scan input at once, to
// tell when one is a scanner's. It is stricter than the gate: ScanRun keys
// at least, Enter counted, since two or three keys rolled into Enter end a
// person's typing there, and taking them for a scan would set the
// person's text aside.
type scanWatch struct {
	run      []tea.KeyPressMsg
	scanning bool
	ended    bool // the latest scanned key ended a code
	// controls are keys no scanner types as text that came within the run
	// before it was found a scan (controlInRun), held back from the input.
	controls []tea.KeyPressMsg
}

// open reports whether a run is open: a key came within the hold, or a
// scanned code has not ended.
func (w *scanWatch) open() bool {
	return len(w.run) > 0 || len(w.controls) > 0 || (w.scanning && !w.ended)
}

// key takes a key that reached the input within its run; began reports
// that the run is, from this key on, a scan, and typed is the text the
// run's keys before this one typed into the input.
func (w *scanWatch) key(k tea.KeyPressMsg) (typed string, began bool) {
	if w.scanning && w.ended && !EndsScan(k) {
		w.scanning, w.run = false, nil // the next code, or a person's key
	}
	if w.scanning {
		w.ended = EndsScan(k)
		return "", false
	}
	w.run = append(w.run, k)
	if !w.isScan() {
		return "", false
	}
	var b strings.Builder
	for _, r := range w.run[:len(w.run)-1] {
		if EndsScan(r) {
			b.Reset() // the input was taken at the terminator
			continue
		}
		b.WriteString(r.Text)
	}
	w.scanning, w.ended, w.run = true, EndsScan(k), nil
	return b.String(), true
}

// isScan reports whether the run so far is a scanner's: ScanRun
// characters or more (Enter counted), not one key over and over. The
// terminal may hand a burst over as one key of many characters.
func (w *scanWatch) isScan() bool {
	n := 0
	for _, k := range w.run {
		if EndsScan(k) {
			n++
		} else {
			n += utf8.RuneCountInString(k.Text)
		}
	}
	return n >= ScanRun && (len(w.run) == 1 || !sameKey(w.run))
}

// ScanStartsMsg tells the screen that takes scans that a scan begins: the
// keys before it, a person's, are not the scan's. Typed is what of the
// scan its input already holds, at its end (the keys that reached it
// before the run was known for a scanner's); the rest of the input was a
// person's, to set aside, so that it is never sent glued to the scan.
type ScanStartsMsg struct{ Typed string }

// scanStarts tells a screen that takes scans that a scan the gate held
// begins: none of it is in its input.
func (a *App) scanStarts() tea.Cmd {
	if !a.takesScans() {
		return nil
	}
	return a.updateTop(ScanStartsMsg{})
}

// decided acts on what the gate decided: a person's keys as keys, a
// scanner's as a scan.
func (a *App) decided(out gateOut) tea.Cmd {
	var cmds []tea.Cmd
	a.hasty = out.hasty // no key of the run answers a question (deliberate.go)
	for _, k := range out.person {
		cmds = append(cmds, a.handleKey(k))
	}
	a.hasty = false
	if len(out.scanned) > 0 {
		a.deskForScan()
	}
	if out.began {
		cmds = append(cmds, a.scanStarts())
	}
	if out.garbled != "" && a.takesScans() { // before the code's end reaches the screen
		cmds = append(cmds, a.updateTop(ScanGarbledMsg{Key: out.garbled}))
	}
	if len(out.scanned) > 0 {
		msgs := make([]tea.Msg, len(out.scanned))
		for i, k := range out.scanned {
			msgs[i] = k
		}
		cmds = append(cmds, a.onScan(out.codes, msgs...))
	}
	return tea.Batch(cmds...)
}

// onScan gives what a scanner typed or pasted (codes new codes) to the
// focused screen if it takes scans, whatever is open over it (as a ScanMsg
// where it has typing of its own open); anywhere else the scan is dropped,
// and the status bar says so, counting the codes lost, until a person next
// presses a key: whoever comes back to the console learns how many badges
// to scan again. A form that had the keys says in itself what was not
// typed into it (NotTypedMsg).
func (a *App) onScan(codes int, msgs ...tea.Msg) tea.Cmd {
	if a.takesScans() {
		if a.sortsScans() {
			return a.updateTop(scanMsgOf(msgs))
		}
		cmds := make([]tea.Cmd, len(msgs))
		for i, m := range msgs {
			cmds[i] = a.updateTop(m)
		}
		return tea.Batch(cmds...)
	}
	if a.ignored == 0 {
		a.ctx.Log.Info("a scan arrived outside the desk and was ignored")
	}
	a.ignored += codes // said once: later scans only count
	a.notTyped = boundedText(a.notTyped + textOf(msgs))
	if c, ok := a.Top().(InputCapturer); ok && c.CapturingInput() && len(a.overlays) == 0 {
		return a.updateTop(NotTypedMsg{Text: a.notTyped})
	}
	return nil
}

// ScanSorter is a screen that takes scans and has, for now, typing of its
// own open beside its scan input (the walk-in form, the registrant search
// or the kiosk's PIN over the desk). While SortsScans reports true the
// shell tells a scanner's keys from a person's there as it does everywhere:
// a person's reach the screen as keys, for the form; a scanner's as a
// ScanMsg, for the scan input, and never for the form.
type ScanSorter interface {
	SortsScans() bool
}

// ScanMsg is what a scanner typed (Keys, in order; a code may come in
// several) or pasted (Paste, a line and its break) while the screen that
// takes scans sorted them (ScanSorter): it belongs to the scan input,
// whatever else is open.
type ScanMsg struct {
	Keys  []tea.KeyPressMsg
	Paste string
}

// NotTypedMsg tells a screen whose form or filter had the keys that a
// burst too fast for a person (a scanner, a typing tool, a paste without
// bracketed paste) was not typed into it: Text is what it held, bounded,
// since a person last pressed a key. The form shows it by its field, so
// nothing is lost silently.
type NotTypedMsg struct{ Text string }

func scanMsgOf(msgs []tea.Msg) ScanMsg {
	var m ScanMsg
	for _, msg := range msgs {
		switch msg := msg.(type) {
		case tea.KeyPressMsg:
			m.Keys = append(m.Keys, msg)
		case tea.PasteMsg:
			m.Paste += msg.Content
		}
	}
	return m
}

// textOf is the text of a scan's keys or paste, without its terminators.
func textOf(msgs []tea.Msg) string {
	var b strings.Builder
	for _, msg := range msgs {
		switch msg := msg.(type) {
		case tea.KeyPressMsg:
			if !EndsScan(msg) {
				b.WriteString(msg.Text)
			}
		case tea.PasteMsg:
			b.WriteString(strings.TrimRight(msg.Content, "\r\n"))
		}
	}
	return b.String()
}

// NotTypedNote is what a field says of a burst not typed into it (text,
// sanitised here).
func NotTypedNote(text string) string {
	return fmt.Sprintf("! NOT TYPED: %d characters came at once, faster than a person types "+
		"(a barcode scanner, a typing tool, or a paste without bracketed paste), so they were not typed here: %q. "+
		"Type them, or paste with the terminal's paste.", len([]rune(text)), sanitize.Line(text))
}

// notTypedMax bounds what a NotTypedMsg carries, in runes.
const notTypedMax = 120

func boundedText(s string) string {
	if r := []rune(s); len(r) > notTypedMax {
		return string(r[:notTypedMax-1]) + "…"
	}
	return s
}

// sortsScans reports whether the focused screen takes scans and sorts
// them from a person's keys now (ScanSorter).
func (a *App) sortsScans() bool {
	s, ok := a.Top().(ScanSorter)
	return ok && s.SortsScans() && a.takesScans()
}

// scanNoteText is the status bar's note on an ignored scan, with the key
// back to the desk when there is one.
func (a *App) scanNoteText() string {
	text := "a scan arrived outside the desk: ignored"
	if a.ignored > 1 {
		text = fmt.Sprintf("%d scans arrived outside the desk: ignored", a.ignored)
	}
	return text + a.deskHint(" back to the desk")
}

// shortScanNote is the note where the bar is narrow.
func (a *App) shortScanNote() string {
	text := "scan ignored"
	if a.ignored > 1 {
		text = fmt.Sprintf("%d scans ignored", a.ignored)
	}
	return text + a.deskHint(" desk")
}

// deskHint names the key back to the desk, when there is one.
func (a *App) deskHint(what string) string {
	if a.deskWay != nil || a.deskOpen() {
		return " (" + a.ctx.Keys.ToDesk.Help().Key + what + ")"
	}
	return ""
}

// leaving notes the way back to a desk that leaves its stack.
func (a *App) leaving(s Screen) {
	if t, ok := s.(ScanTaker); ok && t.TakesScans() {
		a.deskWay = nil
		if r, ok := s.(Reopener); ok {
			a.deskWay = &deskWay{section: a.active, reopen: r.Reopen}
		}
	}
}

// deskBelow is the position on the active stack of a screen that takes
// scans, or -1.
func (a *App) deskBelow() int {
	st := a.stack()
	for i := len(st) - 1; i >= 0; i-- {
		if t, ok := st[i].screen.(ScanTaker); ok && t.TakesScans() {
			return i
		}
	}
	return -1
}

// deskSection is the section whose stack holds a screen that takes scans,
// or -1.
func (a *App) deskSection() int {
	for s := range a.stacks {
		for _, e := range a.stacks[s] {
			if t, ok := e.screen.(ScanTaker); ok && t.TakesScans() {
				return s
			}
		}
	}
	return -1
}

// deskOpen reports whether a screen that takes scans is on a stack.
func (a *App) deskOpen() bool { return a.deskSection() >= 0 }

// toDesk goes back to the desk: down the stack to it when it is open, or
// opens it again where it was.
func (a *App) toDesk() tea.Cmd {
	if i := a.deskBelow(); i >= 0 {
		for len(a.stack()) > i+1 {
			a.pop()
		}
		return nil
	}
	if s := a.deskSection(); s >= 0 {
		a.active = s
		return a.toDesk()
	}
	if a.deskWay == nil {
		return Toast(ToastInfo, "No check-in desk has been open: open one from an event (check-in desk)")
	}
	way := a.deskWay
	a.deskWay = nil
	a.active = way.section
	return a.push(way.reopen())
}

// AskMsg asks the user a yes/no question over the whole console; Yes runs
// on yes. See Ask.
type AskMsg struct {
	Question string
	Yes      tea.Cmd
}

// Ask asks a question over the console, as quitting does: over a screen
// that takes scans only the yes chord (ctrl+y) answers yes and esc no, so
// no scan answers it. yes runs on yes, its replies addressed to the screen
// that asked.
func Ask(question string, yes tea.Cmd) tea.Cmd {
	return func() tea.Msg { return AskMsg{Question: question, Yes: yes} }
}

func (a *App) ask(m AskMsg) tea.Cmd {
	if a.question() != nil {
		return nil // one question at a time: the open one stays
	}
	a.openQuestion(m.Question, false, m.Yes)
	return nil
}
