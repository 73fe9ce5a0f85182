package ui

import (
	"log/slog"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/evdesk/evdesk/ui/timer"
)

// Minimum terminal size; below it the App shows a notice and ignores keys.
const (
	MinWidth  = 60
	MinHeight = 16
)

// chromeLines are the rows the shell keeps for itself: tabs, breadcrumb,
// toast line and status bar.
const chromeLines = 4

// ToastTTL is how long a toast stays on screen.
const ToastTTL = 4 * time.Second

// App is the root model: section tabs, one screen stack per section, status
// bar, help and toasts. It is the only model that returns a tea.View.
type App struct {
	ctx      *Context
	sections []Section
	stacks   [][]entry // nil until the section is first opened
	active   int
	initial  func(*Context) Screen
	lastID   ScreenID

	help      help.Model
	memo      lineMemos // the shell's lines drawn
	spinFrame int
	spinning  bool // a tick of our spinner is pending
	inFlight  int
	lastErr   string        // the latest failure, until a success or ErrorTTL
	lastErrOp string        // the operation that failed (Fail's op), or ""
	errSeq    int           // numbers failures, so an old timer clears none
	failures  []failure     // the recent errors, newest first
	overlays  []overlay     // the shell's popups, the top one last (overlay.go)
	recent    []PaletteItem // palette choices, newest first
	toast     toast
	toastSeq  int
	news      *NewsMsg // unread news for the status bar (news.go)
	startup   tea.Cmd  // WithStartup's background command

	gate          scanGate     // tells a scanner's keys from a person's
	watch         scanWatch    // the same, for keys that act at once (the bare desk)
	watchOpen     bool         // the bare desk's last run was a code not yet ended
	everyKeyTyped bool         // no scanner: every key is a person's (WithEveryKeyTyped)
	holdSeq       int          // numbers held keys, so an old hold timer decides nothing
	ignored       int          // scans ignored since a person last pressed a key
	notTyped      string       // their text, for a form that had the keys
	hasty         bool         // the key being handled came in another's burst
	deskWay       *deskWay     // how to get back to the desk that takes scans
	background    []Background // work left running by screens that have gone
	calls, quits  int          // Async calls started, quits asked: see Activity
}

// deskWay is the way back to the screen that takes scans: the section it
// is in, and how to open it anew once it has left.
type deskWay struct {
	section int
	reopen  func() Screen
}

type toast struct {
	level ToastLevel
	text  string
	id    int // 0: no toast
}

// entry is a screen on a stack, with the id its replies are addressed to.
type entry struct {
	id     ScreenID
	screen Screen
}

// toastExpiredMsg clears the toast with the same id, never a newer one.
type toastExpiredMsg struct{ id int }

// Option configures NewApp.
type Option func(*App)

// WithSection starts on the section with this name (default: the first).
func WithSection(name string) Option {
	return func(a *App) {
		for i, s := range a.sections {
			if s.Name == name {
				a.active = i
			}
		}
	}
}

// WithInitialScreen pushes a screen over the starting section's root screen,
// for starts straight into a task (a check-in kiosk); esc returns to the root.
func WithInitialScreen(f func(*Context) Screen) Option {
	return func(a *App) { a.initial = f }
}

// WithEveryKeyTyped takes every key for a person's, telling no scanner's
// burst apart: for a program that types whole strings at once as a
// person's keys (the screenshots), never for a console at a desk.
func WithEveryKeyTyped() Option {
	return func(a *App) { a.everyKeyTyped = true }
}

// NewApp builds the shell. ctx.Theme and ctx.Keys get defaults when nil.
func NewApp(ctx *Context, sections []Section, opts ...Option) *App {
	if ctx.Theme == nil {
		ctx.Theme = ThemeFor(ctx.ThemeMode, true, NoColorEnv())
	}
	if ctx.Keys == nil {
		ctx.Keys = DefaultGlobalKeys()
	}
	if ctx.Log == nil {
		ctx.Log = slog.New(slog.DiscardHandler)
	}
	a := &App{
		ctx:      ctx,
		sections: sections,
		stacks:   make([][]entry, len(sections)),
		help:     help.New(),
	}
	a.help.Ellipsis = "…"
	for _, o := range opts {
		o(a)
	}
	a.applyTheme()
	if len(sections) > 0 {
		a.stacks[a.active] = []entry{a.newEntry(sections[a.active].New(ctx))}
	}
	if a.initial != nil {
		a.stacks[a.active] = append(a.stacks[a.active], a.newEntry(a.initial(ctx)))
	}
	return a
}

func (a *App) newEntry(s Screen) entry {
	a.lastID++
	return entry{id: a.lastID, screen: s}
}

// Init asks for the terminal background and starts the first screens.
func (a *App) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, a.startup}
	for _, e := range a.stack() {
		cmds = append(cmds, addressTo(e.id, e.screen.Init()))
	}
	return tea.Batch(cmds...)
}

// Update routes messages: keys to the focused screen (after the shell's own
// keys), a reply to the screen whose command asked for it, wherever it is,
// and program-wide news (the terminal's colours, a Broadcast) to every
// screen.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if q := a.question(); q != nil && q.quit {
		// The question counts what is waiting now, not when it was asked.
		q.c.question = quitQuestion(a.quitReasons())
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.resize(msg.Width, msg.Height)
		return a, nil
	case tea.BackgroundColorMsg:
		if !a.ctx.Theme.NoColor && FollowsBackground(a.ctx.ThemeMode) {
			*a.ctx.Theme = *ThemeFor(a.ctx.ThemeMode, msg.IsDark(), false)
			a.applyTheme()
		}
		return a, a.broadcast(msg)
	case tea.KeyPressMsg:
		return a, a.onKey(msg)
	case holdOverMsg:
		if msg.seq != a.holdSeq {
			return a, nil // a newer key holds the run open
		}
		return a, a.holdOver()
	case lateOverMsg:
		if msg.seq != a.holdSeq {
			return a, nil // a key came since: it ended the code, or began another
		}
		return a, a.lateOver()
	case AskMsg:
		return a, a.ask(msg)
	case KeepMsg:
		if msg.Work != nil {
			a.background = append(a.background, msg.Work)
		}
		return a, nil
	case tea.MouseMsg:
		return a, tea.Batch(a.Quiet(), a.onMouse(msg))
	case tea.PasteMsg:
		if pastedScan(msg.Content) {
			quiet := a.Quiet()
			a.deskForScan()
			return a, tea.Batch(quiet, a.scanStarts(), a.onScan(1, msg))
		}
		if p := a.palette(); p != nil {
			var cmd tea.Cmd
			p.input, cmd = p.input.Update(msg)
			p.filter()
			return a, cmd
		}
		if (a.tooSmall() || len(a.overlays) > 0) && !a.takesScans() {
			return a, nil // a popup is modal
		}
		return a, a.updateTop(msg)
	case tea.KeyReleaseMsg, tea.PasteStartMsg, tea.PasteEndMsg:
		if (a.tooSmall() || len(a.overlays) > 0) && (a.palette() != nil || !a.takesScans()) {
			return a, nil
		}
		return a, a.updateTop(msg)
	case PushMsg:
		return a, a.push(msg.Screen)
	case PopMsg:
		a.pop()
		return a, nil
	case SectionMsg:
		for i, s := range a.sections {
			if s.Name == msg.Name && i != a.active {
				return a, a.switchTo(i)
			}
		}
		return a, nil
	case ToastMsg:
		return a, a.showToast(msg)
	case noticeMsg:
		a.openOverlay(&notice{title: msg.title, text: msg.text})
		return a, nil
	case NewsMsg:
		a.news = &msg
		return a, nil
	case SucceededMsg:
		if msg.Op != "" && msg.Op == a.lastErrOp {
			a.lastErr = ""
		}
		return a, nil
	case errorClearedMsg:
		if msg.seq == a.errSeq {
			a.lastErr = ""
		}
		return a, nil
	case toastExpiredMsg:
		if msg.id == a.toast.id {
			a.toast = toast{}
		}
		return a, nil
	case asyncStartMsg:
		a.inFlight++
		a.calls++
		return a, a.startSpinner()
	case asyncDoneMsg:
		a.inFlight = max(0, a.inFlight-1)
		if msg.msg == nil {
			return a, nil
		}
		return a.Update(msg.msg)
	case addressed:
		return a, a.deliver(msg)
	case broadcastMsg:
		return a, a.broadcast(msg.msg)
	case spinTickMsg:
		if a.inFlight == 0 {
			a.spinning = false // let the tick chain end
			return a, nil
		}
		a.spinFrame++
		return a, spinTick()
	}
	return a, a.broadcast(msg)
}

// Activity is what the shell shows and has done, as counts and names, so
// a test can press a key and see whether it acted anywhere: a screen
// opened or closed, a section or a popup, a toast, a call, a quit.
type Activity struct {
	Section              string
	Top                  Screen
	Depth, Popups        int
	Toasts, Calls, Quits int
}

// Activity reports what the shell shows and has done so far.
func (a *App) Activity() Activity {
	act := Activity{Top: a.Top(), Depth: len(a.stack()), Popups: len(a.overlays),
		Toasts: a.toastSeq, Calls: a.calls, Quits: a.quits}
	if a.active < len(a.sections) {
		act.Section = a.sections[a.active].Name
	}
	return act
}

// InFlight is the number of Async calls that have not returned.
func (a *App) InFlight() int { return a.inFlight }

// Top returns the focused screen, or nil.
func (a *App) Top() Screen {
	st := a.stack()
	if len(st) == 0 {
		return nil
	}
	return st[len(st)-1].screen
}

func (a *App) stack() []entry {
	if len(a.stacks) == 0 {
		return nil
	}
	return a.stacks[a.active]
}

func (a *App) contentSize() (int, int) {
	return max(0, a.ctx.Width), max(0, a.ctx.Height-chromeLines)
}

func (a *App) tooSmall() bool {
	return a.ctx.Width < MinWidth || a.ctx.Height < MinHeight
}

func (a *App) applyTheme() {
	t := a.ctx.Theme
	a.help.Styles = t.HelpStyles()
	a.memo = lineMemos{} // drawn in the old theme's colours
}

func (a *App) resize(w, h int) {
	a.ctx.Width, a.ctx.Height = w, h
	cw, ch := a.contentSize()
	a.help.SetWidth(max(0, cw-4))
	for _, st := range a.stacks {
		for _, e := range st {
			e.screen.SetSize(cw, ch)
		}
	}
}

func (a *App) handleKey(k tea.KeyPressMsg) tea.Cmd {
	a.ignored, a.notTyped = 0, "" // a person is here: the note on ignored scans was seen
	keys := a.ctx.Keys
	ctrlC := key.Matches(k, keys.Interrupt)
	top := a.topOverlay()
	if q, ok := top.(*question); ok && ctrlC && q.quit {
		return a.quit() // a second ctrl+c always gets out
	}
	if ctrlC {
		return a.requestQuit()
	}
	if _, ok := top.(*question); ok {
		return top.onKey(a, k)
	}
	_, typing := top.(*commandPalette)
	if key.Matches(k, keys.HelpAnywhere) && !a.tooSmall() {
		// Even over a screen that takes every key, and over any popup.
		if h, ok := top.(*panelOverlay); ok && !h.errors {
			a.closeOverlay(h)
		} else {
			a.openOverlay(&panelOverlay{})
		}
		return nil
	}
	// Where the top screen takes scans (a check-in desk), what a barcode
	// scanner types goes to it from under the shell's panels: a scan is
	// never lost to one. Only the palette takes typing of its own.
	if a.takesScans() && typedByScanner(k) && !typing {
		return a.updateTop(k)
	}
	if a.tooSmall() {
		return nil
	}
	if key.Matches(k, keys.ToDesk) && !typing && !a.takesScans() {
		a.overlays = nil
		return a.toDesk()
	}
	if top != nil {
		return top.onKey(a, k)
	}
	screen := a.Top()
	if q, ok := screen.(Asker); ok && a.hasty && q.Asking() {
		// A key in another's burst answers no question (deliberate.go).
		return a.updateTop(HastyKeyMsg{Key: k})
	}
	if c, ok := screen.(InputCapturer); ok && c.CapturingInput() {
		return a.updateTop(k)
	}
	switch {
	case key.Matches(k, keys.Quit):
		return a.requestQuit()
	case key.Matches(k, keys.Help):
		a.openOverlay(&panelOverlay{})
		return nil
	case key.Matches(k, keys.Errors):
		a.openOverlay(&panelOverlay{errors: true})
		return nil
	case key.Matches(k, keys.Palette):
		return a.openPalette()
	case a.news != nil && key.Matches(k, keys.News):
		a.readNews()
		return nil
	case len(a.sections) > 1 && key.Matches(k, keys.NextTab):
		return a.switchTo(a.active + 1)
	case len(a.sections) > 1 && key.Matches(k, keys.PrevTab):
		return a.switchTo(a.active - 1)
	case len(a.stack()) > 1 && key.Matches(k, keys.Back):
		if b, ok := screen.(BackCapturer); !ok || !b.CapturingBack() {
			a.pop()
			return nil
		}
	}
	return a.updateTop(k)
}

func (a *App) updateTop(msg tea.Msg) tea.Cmd {
	st := a.stack()
	if len(st) == 0 {
		return nil
	}
	return a.update(&st[len(st)-1], msg)
}

// update hands msg to one screen; whatever its commands produce comes back
// addressed to it.
func (a *App) update(e *entry, msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	e.screen, cmd = e.screen.Update(msg)
	return addressTo(e.id, cmd)
}

// deliver gives a reply to the screen it is addressed to, in whichever
// section's stack it sits. A reply for a screen that has left, or from a
// task run since superseded, is dropped.
func (a *App) deliver(m addressed) tea.Cmd {
	for _, st := range a.stacks {
		for i := range st {
			if st[i].id != m.to {
				continue
			}
			msg := m.msg
			if r, ok := msg.(taskReply); ok {
				if !r.task.settle(r.seq) {
					return nil
				}
				msg = r.msg
			}
			if msg == nil {
				return nil
			}
			return a.update(&st[i], msg)
		}
	}
	return nil
}

// broadcast delivers program-wide news to every open screen.
func (a *App) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, st := range a.stacks {
		for i := range st {
			cmds = append(cmds, a.update(&st[i], msg))
		}
	}
	return tea.Batch(cmds...)
}

func (a *App) switchTo(i int) tea.Cmd {
	if msg := a.locked(); msg != "" {
		return Toast(ToastInfo, msg)
	}
	n := len(a.sections)
	a.active = ((i % n) + n) % n
	if len(a.stacks[a.active]) > 0 {
		return nil
	}
	e := a.newEntry(a.sections[a.active].New(a.ctx))
	a.stacks[a.active] = []entry{e}
	e.screen.SetSize(a.contentSize())
	return addressTo(e.id, e.screen.Init())
}

func (a *App) push(s Screen) tea.Cmd {
	if s == nil || len(a.stacks) == 0 {
		return nil
	}
	s.SetSize(a.contentSize())
	e := a.newEntry(s)
	a.stacks[a.active] = append(a.stacks[a.active], e)
	if a.toast.level == ToastInfo {
		a.toast = toast{} // a note on the screen below (a why-not) is not the new one's
	}
	return addressTo(e.id, s.Init())
}

func (a *App) pop() {
	st := a.stack()
	if len(st) <= 1 {
		return
	}
	a.leaving(st[len(st)-1].screen)
	if c, ok := st[len(st)-1].screen.(Closer); ok {
		c.Close()
	}
	st[len(st)-1] = entry{}
	a.stacks[a.active] = st[:len(st)-1]
}

func (a *App) showToast(m ToastMsg) tea.Cmd {
	a.toastSeq++
	id := a.toastSeq
	a.toast = toast{level: m.Level, text: m.Text, id: id}
	expire := timer.After(ToastTTL, func(time.Time) tea.Msg { return toastExpiredMsg{id: id} })
	switch m.Level {
	case ToastError:
		return tea.Batch(expire, a.record(m))
	case ToastSuccess:
		a.lastErr = "" // it worked now: the old failure is news no more
	}
	return expire
}

func (a *App) startSpinner() tea.Cmd {
	if a.spinning || a.ctx.ReduceMotion { // reduce_motion: the count alone says it
		return nil
	}
	a.spinning = true
	return spinTick()
}

// spinTickMsg advances the status bar's spinner.
type spinTickMsg struct{}

// spinFrames are the spinner's frames, ten a second.
var spinFrames = []string{"|", "/", "-", "\\"}

func spinTick() tea.Cmd {
	return timer.After(100*time.Millisecond, func(time.Time) tea.Msg { return spinTickMsg{} })
}

// takesScans reports whether the focused screen takes a scanner's codes.
func (a *App) takesScans() bool {
	t, ok := a.Top().(ScanTaker)
	return ok && t.TakesScans()
}

// locked is the message of a screen that keeps the console on it, or "".
func (a *App) locked() string {
	for _, e := range a.stack() {
		if l, ok := e.screen.(Locker); ok {
			if msg := l.Locked(); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// requestQuit quits at once unless a screen's QuitGuard objects; then it
// asks. Over a screen that takes scans, only a chord answers yes, so a
// scan typed into the question is a scan and never a yes. A locked screen
// (a kiosk) refuses.
func (a *App) requestQuit() tea.Cmd {
	if msg := a.locked(); msg != "" {
		return Toast(ToastInfo, msg)
	}
	if q := a.question(); q != nil && q.quit {
		return nil // asked already
	}
	reasons := a.quitReasons()
	if len(reasons) == 0 {
		return a.quit()
	}
	a.openQuestion(quitQuestion(reasons), true, nil).quit = true
	return nil
}

// openQuestion puts a question over the console. Over a screen that takes
// scans, only a chord answers yes, so a scan typed into the question is a
// scan and never a yes.
func (a *App) openQuestion(text string, dangerous bool, yes tea.Cmd) *question {
	c := NewConfirm(a.ctx.Theme, text, dangerous, nil)
	if a.takesScans() {
		c.Guard(a.ctx.Keys.YesChord, a.ctx.Keys.Back)
	}
	c.SetWidth(min(60, a.ctx.Width-2))
	q := &question{c: c, yes: yes}
	a.openOverlay(q)
	return q
}

// quitReasons are what the screens' QuitGuards, and the background work
// screens left, say is still waiting. Background work with nothing waiting
// is done: it closes.
func (a *App) quitReasons() []string {
	var reasons []string
	kept := a.background[:0]
	for _, w := range a.background {
		if r := w.ConfirmQuit(); r != "" {
			reasons = append(reasons, r)
			kept = append(kept, w)
			continue
		}
		w.Close()
	}
	clear(a.background[len(kept):])
	a.background = kept
	for _, st := range a.stacks {
		for _, e := range st {
			if g, ok := e.screen.(QuitGuard); ok {
				if r := g.ConfirmQuit(); r != "" {
					reasons = append(reasons, r)
				}
			}
		}
	}
	return reasons
}

// quitQuestion asks about what is waiting, or says nothing is any more.
func quitQuestion(reasons []string) string {
	if len(reasons) == 0 {
		return "Nothing is waiting any more — quit?"
	}
	return strings.Join(reasons, "; ") + " — quit anyway?"
}

func (a *App) quit() tea.Cmd {
	a.quits++
	for _, w := range a.background {
		w.Close()
	}
	a.background = nil
	for _, st := range a.stacks {
		for _, e := range st {
			if c, ok := e.screen.(Closer); ok {
				c.Close()
			}
		}
	}
	return tea.Quit
}
