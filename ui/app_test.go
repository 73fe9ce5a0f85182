package ui

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/x/ansi"
	"github.com/evdesk/evdesk/ui/uitest"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/ui/internal/golden"
)

func TestTabsBreadcrumbAndSizes(t *testing.T) {
	h := newHarness(t)
	events := h.roots["Events"]
	if events.inits != 1 || events.w != 80 || events.h != 20 {
		t.Fatalf("root screen: inits %d size %dx%d, want 1 and 80x20", events.inits, events.w, events.h)
	}
	if h.ctx.Width != 80 || h.ctx.Height != 24 {
		t.Fatalf("ctx size %dx%d", h.ctx.Width, h.ctx.Height)
	}
	if _, made := h.roots["Check-in"]; made {
		t.Fatal("other sections should open on first visit, not at start")
	}
	detail := &fakeScreen{title: "Go Summit"}
	h.send(PushMsg{Screen: detail})
	h.send(PushMsg{Screen: &fakeScreen{title: "Attendees"}})
	if detail.inits != 1 || detail.w != 80 || detail.h != 20 {
		t.Fatalf("pushed screen: inits %d size %dx%d", detail.inits, detail.w, detail.h)
	}
	golden.Assert(t, "app_stack", h.view())

	h.press("tab")
	checkin := h.roots["Check-in"]
	if checkin == nil || checkin.inits != 1 || checkin.w != 80 {
		t.Fatal("tab should open the next section, sized and started")
	}
	golden.Assert(t, "app_second_tab", h.view())
	h.press("shift+tab", "shift+tab") // wraps to the last section
	if h.app.active != 2 {
		t.Fatalf("shift+tab twice from 1: active %d, want 2", h.app.active)
	}
	h.press("tab")
	if top := h.app.Top(); top.Title() != "Attendees" {
		t.Fatalf("back on Events the stack should be kept, top is %q", top.Title())
	}

	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	for _, f := range []*fakeScreen{events, detail, checkin} {
		if f.w != 100 || f.h != 26 {
			t.Fatalf("%s not resized: %dx%d", f.title, f.w, f.h)
		}
	}
}

func TestEscPopsUnlessTheScreenNeedsIt(t *testing.T) {
	h := newHarness(t)
	events := h.roots["Events"]
	h.press("esc")
	if len(h.app.stack()) != 1 || last(events.keys) != "esc" {
		t.Fatal("esc on a root screen should reach the screen")
	}
	top := &fakeScreen{title: "Detail", capturing: true}
	h.send(PushMsg{Screen: top})
	h.press("esc")
	if len(h.app.stack()) != 2 || last(top.keys) != "esc" {
		t.Fatal("esc while the screen captures input should reach it")
	}
	top.capturing, top.backLocal = false, true
	h.press("esc")
	if len(h.app.stack()) != 2 || len(top.keys) != 2 {
		t.Fatal("esc while the screen has a local use for it should reach it")
	}
	top.backLocal = false
	h.press("esc")
	if len(h.app.stack()) != 1 || !top.closed {
		t.Fatal("esc should pop and close the screen")
	}
	h.send(PopMsg{})
	if len(h.app.stack()) != 1 {
		t.Fatal("PopMsg must never pop the root screen")
	}
}

func TestKeysGoOnlyToTheFocusedScreen(t *testing.T) {
	h := newHarness(t)
	events := h.roots["Events"]
	top := &fakeScreen{title: "Detail"}
	h.send(PushMsg{Screen: top})
	h.press("x")
	if len(events.keys) != 0 || last(top.keys) != "x" {
		t.Fatalf("key reached root %v / top %v", events.keys, top.keys)
	}
}

func TestQuitKeys(t *testing.T) {
	h := newHarness(t)
	events := h.roots["Events"]
	events.capturing = true
	if cmd := h.press("q"); isQuit(cmd) {
		t.Fatal("q must not quit while the screen captures input")
	}
	if last(events.keys) != "q" {
		t.Fatal("q should be typed into the capturing screen")
	}
	if !isQuit(h.press("ctrl+c")) {
		t.Fatal("ctrl+c always quits")
	}
	if !events.closed {
		t.Fatal("quitting should close the screens")
	}
	events.capturing = false
	if !isQuit(h.press("q")) {
		t.Fatal("q should quit")
	}
}

func TestQuitGuardAsks(t *testing.T) {
	h := newHarness(t)
	h.press("tab")
	h.roots["Check-in"].guard = "2 check-ins not sent yet"
	h.press("shift+tab") // the guard is found on any section's stack
	if isQuit(h.press("q")) {
		t.Fatal("q should ask first")
	}
	golden.Assert(t, "app_quit_guard", h.view())
	if isQuit(h.press("enter")) { // dangerous question: enter means No
		t.Fatal("enter should keep the console open")
	}
	if strings.Contains(h.plain(), "quit anyway") {
		t.Fatal("the question should close after an answer")
	}
	h.press("q")
	if isQuit(h.press("n")) || h.app.question() != nil {
		t.Fatal("n should cancel")
	}
	h.press("q")
	if !isQuit(h.press("y")) {
		t.Fatal("y should quit")
	}
	h.press("q")
	if !isQuit(h.press("ctrl+c")) {
		t.Fatal("ctrl+c during the question should quit")
	}
}

func TestToastShownThenClearedByItsOwnTick(t *testing.T) {
	h := newHarness(t)
	if cmd := h.send(ToastMsg{Level: ToastSuccess, Text: "event published"}); cmd == nil {
		t.Fatal("a toast needs a timer to clear it")
	}
	first := h.app.toast.id
	golden.Assert(t, "app_toast", h.view())
	h.send(ToastMsg{Level: ToastError, Text: "publish failed: event has no tickets (add one, then retry)"})
	h.send(toastExpiredMsg{id: first}) // the older toast's timer fires late
	if !strings.Contains(h.plain(), "ERROR") {
		t.Fatal("an older toast's timer cleared the newer toast")
	}
	golden.Assert(t, "app_toast_error", h.view())
	h.send(toastExpiredMsg{id: h.app.toast.id})
	v := h.plain()
	if strings.Contains(v, "ERROR publish") || strings.Contains(v, "OK event") {
		t.Fatal("the toast should clear on its own tick")
	}
	if !strings.Contains(v, "error: publish failed") {
		t.Fatal("the status bar should keep the last error")
	}
}

func TestHelpToggles(t *testing.T) {
	h := newHarness(t)
	h.press("?")
	golden.Assert(t, "app_help", h.view())
	h.press("?")
	if strings.Contains(h.plain(), "closes this help") {
		t.Fatal("? should close help")
	}
	h.press("?", "x", "esc")
	if strings.Contains(h.plain(), "closes this help") {
		t.Fatal("esc should close help")
	}
	if len(h.roots["Events"].keys) != 0 {
		t.Fatal("help keys should not reach the screen")
	}
}

func TestTooSmallIgnoresKeys(t *testing.T) {
	h := newHarness(t)
	h.send(tea.WindowSizeMsg{Width: 59, Height: 20})
	golden.Assert(t, "app_too_small", h.view())
	if isQuit(h.press("q")) || h.press("tab") != nil || h.app.active != 0 {
		t.Fatal("keys other than ctrl+c should be ignored")
	}
	if len(h.roots["Events"].keys) != 0 {
		t.Fatal("keys reached the screen")
	}
	if !isQuit(h.press("ctrl+c")) {
		t.Fatal("ctrl+c should quit")
	}
	h.send(tea.WindowSizeMsg{Width: 60, Height: 16})
	if strings.Contains(h.plain(), "too small") {
		t.Fatal("60x16 is big enough")
	}
	if e := h.roots["Events"]; e.w != 60 || e.h != 12 {
		t.Fatalf("content %dx%d after reflow, want 60x12", e.w, e.h)
	}
}

func TestAsyncCountsAndRoutesResults(t *testing.T) {
	h := newHarness(t)
	h.press("tab") // open Check-in, whose screen starts a call
	checkin := h.roots["Check-in"]
	checkin.onKey = func(string) tea.Cmd { return Async(func() tea.Msg { return resultMsg{42} }) }
	call := h.press("x")
	under := &fakeScreen{title: "Scan"}
	h.send(PushMsg{Screen: under})
	h.press("shift+tab") // back on Events; Check-in's screen is now buried
	events := h.roots["Events"]
	detail := &fakeScreen{title: "Detail"}
	h.send(PushMsg{Screen: detail})

	msgs := expand(call)
	if len(msgs) != 2 {
		t.Fatalf("Async should yield start and done, got %v", msgs)
	}
	if cmd := h.send(msgs[0]); cmd == nil {
		t.Fatal("the first call in flight should start the spinner")
	}
	h.send(expand(Async(func() tea.Msg { return nil }))[0])
	if h.app.InFlight() != 2 || !strings.Contains(h.plain(), "2 in flight") {
		t.Fatalf("in flight %d; status bar: %q", h.app.InFlight(), lastLine(h.plain()))
	}
	golden.Assert(t, "app_async", h.view())
	h.send(msgs[1])
	if h.app.InFlight() != 1 {
		t.Fatalf("in flight %d after one result", h.app.InFlight())
	}
	// The reply reaches the screen that asked, buried in another section,
	// and no one else.
	if last(checkin.msgs) != "result 42" {
		t.Fatalf("the buried screen that asked did not get its result: %v", checkin.msgs)
	}
	for _, f := range []*fakeScreen{events, detail, under} {
		if last(f.msgs) == "result 42" {
			t.Fatalf("%s got a result it did not ask for", f.title)
		}
	}
	h.send(asyncDoneMsg{})
	if h.app.InFlight() != 0 || strings.Contains(h.plain(), "in flight") {
		t.Fatal("the spinner should go when nothing is in flight")
	}
	if h.send(spinTickMsg{}) != nil || h.app.spinning {
		t.Fatal("the spinner should stop ticking when idle")
	}
	// A result may itself be a shell message.
	h.send(asyncDoneMsg{msg: ToastMsg{Level: ToastInfo, Text: "saved"}})
	if !strings.Contains(h.plain(), "INFO  saved") {
		t.Fatal("a toast returned by an async call should show")
	}
}

func TestRepliesForAScreenThatLeftAreDropped(t *testing.T) {
	h := newHarness(t)
	detail := &fakeScreen{title: "Detail"}
	detail.onKey = func(string) tea.Cmd { return func() tea.Msg { return resultMsg{7} } }
	h.send(PushMsg{Screen: detail})
	call := h.press("x")
	h.press("esc")
	for _, m := range expand(call) {
		h.send(m)
	}
	if len(detail.msgs) != 0 || last(h.roots["Events"].msgs) == "result 7" {
		t.Fatalf("a reply outlived its screen: detail %v, events %v", detail.msgs, h.roots["Events"].msgs)
	}
}

func TestATaskRunAgainDropsTheEarlierReply(t *testing.T) {
	h := newHarness(t)
	var task Task
	screen := h.roots["Events"]
	n := 0
	screen.onKey = func(string) tea.Cmd {
		n++
		v := n
		return task.Run(func(context.Context) tea.Msg { return resultMsg{v} })
	}
	first, second := h.press("x"), h.press("x")
	if !task.Running() {
		t.Fatal("a task with a run out is running")
	}
	for _, m := range append(expand(second), expand(first)...) {
		h.send(m)
	}
	if strings.Join(screen.msgs, ",") != "result 2" || task.Running() {
		t.Fatalf("only the latest run's reply may arrive: %v (running %v)", screen.msgs, task.Running())
	}
}

func TestStatusBarDemoBadgeAndTheme(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	h := newHarness(t)
	h.ctx.Demo = true
	if !strings.Contains(lastLine(h.plain()), " DEMO ") {
		t.Fatal("demo mode needs a DEMO badge")
	}
	h.ctx.Theme = NewTheme(true, false)
	theme := h.ctx.Theme
	h.send(tea.BackgroundColorMsg{Color: lightBG{}})
	if theme.Dark || h.ctx.Theme != theme {
		t.Fatal("a light background should rebuild the shared theme in place")
	}
	if last(h.roots["Events"].msgs) != "tea.BackgroundColorMsg" {
		t.Fatal("screens should hear about the background too")
	}
}

// A profile that talks plain http to another machine says so on the status
// bar all along, in words (not colour alone), even with NO_COLOR.
func TestStatusBarSaysInsecureHTTP(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	h := newHarness(t)
	if strings.Contains(lastLine(h.plain()), "INSECURE") {
		t.Fatal("an https profile marked insecure")
	}
	h.ctx.Insecure = "INSECURE: plain http to lab.example"
	if !strings.Contains(lastLine(h.plain()), " INSECURE HTTP ") {
		t.Fatalf("status bar: %q", lastLine(h.plain()))
	}
}

func TestInitialScreenOverSection(t *testing.T) {
	h := newHarness(t, WithSection("Check-in"), WithInitialScreen(func(*Context) Screen {
		return &fakeScreen{title: "Kiosk"}
	}))
	if h.app.active != 1 || h.app.Top().Title() != "Kiosk" {
		t.Fatalf("start: section %d top %q", h.app.active, h.app.Top().Title())
	}
	kiosk := h.app.Top().(*fakeScreen)
	if kiosk.inits != 1 || kiosk.w != 80 {
		t.Fatal("the initial screen should be started and sized")
	}
	h.press("esc")
	if h.app.Top().Title() != "Check-in" {
		t.Fatal("esc from the initial screen returns to its section")
	}
}

func TestModalCentresBox(t *testing.T) {
	base := strings.Repeat(strings.Repeat(".", 20)+"\n", 5)
	got := golden.Plain(Modal(base, "+--+\n|hi|\n+--+", 20, 5))
	want := strings.Join([]string{
		"....................",
		"........+--+........",
		"........|hi|........",
		"........+--+........",
		"....................",
	}, "\n") + "\n"
	if got != want {
		t.Fatalf("Modal:\n%s\nwant\n%s", got, want)
	}
}

func TestConfirm(t *testing.T) {
	th := NewTheme(true, true)
	yes := func() tea.Cmd { return func() tea.Msg { return resultMsg{1} } }
	c := NewConfirm(th, "Publish?", false, yes)
	c, cmd, done := c.Update(uitest.Key("enter"))
	if !done || !c.Confirmed() || cmd == nil {
		t.Fatal("enter on a safe question means yes")
	}
	d := NewConfirm(th, "Delete event?", true, yes)
	d, _, done = d.Update(uitest.Key("right"))
	if done {
		t.Fatal("moving the choice is not an answer")
	}
	d, cmd, done = d.Update(uitest.Key("enter"))
	if !done || !d.Confirmed() || cmd == nil {
		t.Fatal("after moving to Yes, enter confirms")
	}
	d = NewConfirm(th, "Delete event?", true, yes)
	d, cmd, _ = d.Update(uitest.Key("enter"))
	if d.Confirmed() || cmd != nil {
		t.Fatal("enter on a dangerous question means no")
	}
	d = NewConfirm(th, "Delete event?", true, yes)
	d, _, done = d.Update(uitest.Key("esc"))
	if !done || d.Confirmed() {
		t.Fatal("esc means no")
	}
	d = NewConfirm(th, "Delete event \"Go Summit\"? Its 120 attendees lose their tickets.", true, yes)
	d.SetWidth(40)
	golden.Assert(t, "confirm_dangerous", d.View())
}

func TestStatusWords(t *testing.T) {
	th := NewTheme(true, false)
	for word, want := range map[string]string{
		"PUBLISHED": "ok", "checked_in": "ok", "Checked in": "ok", "delivered": "ok",
		"DRAFT": "warn", "scheduled": "warn", "pending": "warn",
		"cancelled": "err", "FAILED": "err",
		"past": "muted", "deactivated": "muted",
	} {
		styles := map[string]string{
			"ok": th.Success.Render("x"), "warn": th.Warning.Render("x"),
			"err": th.Error.Render("x"), "muted": th.Muted.Render("x"),
		}
		if got := th.Status(word).Render("x"); got != styles[want] {
			t.Errorf("Status(%q) does not look %s", word, want)
		}
	}
	if got := th.Status("whatever").Render("x"); got != "x" {
		t.Errorf("unknown words should be plain, got %q", got)
	}
}

func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	return lines[len(lines)-2] // Plain ends with a newline
}

func TestNarrowTabsScrollAndBreadcrumbShortens(t *testing.T) {
	ctx := &Context{Theme: NewTheme(true, true), Demo: true, Account: "ada@example.com"}
	var sections []Section
	for _, n := range []string{"Events", "Check-in", "Co-editors", "Emails", "Phone", "Access links", "Exhibitors", "Registration", "Transcribe"} {
		sections = append(sections, Section{Name: n, New: func(*Context) Screen { return &fakeScreen{title: n} }})
	}
	a := NewApp(ctx, sections)
	a.Update(tea.WindowSizeMsg{Width: 60, Height: 16})
	for range 7 {
		a.Update(uitest.Key("tab"))
		a.Quiet()
	}
	a.Update(PushMsg{Screen: &fakeScreen{title: "A very long event title for the breadcrumb"}})
	a.Update(PushMsg{Screen: &fakeScreen{title: "Attendees of that event"}})
	a.Update(ToastMsg{Level: ToastError, Text: "the server did not answer in time; check the connection and press r to retry"})
	golden.Assert(t, "app_narrow", a.View().Content)
	for i, l := range strings.Split(a.View().Content, "\n") {
		if w := lipgloss.Width(l); w > 60 {
			t.Fatalf("line %d is %d cells wide", i, w)
		}
	}
}

// manyKeysScreen has more keys than an 80x24 help panel can show at once.
type manyKeysScreen struct{ fakeScreen }

func (m *manyKeysScreen) FullHelp() [][]key.Binding {
	var groups [][]key.Binding
	for g := range 3 {
		var group []key.Binding
		for i := range 12 {
			k := fmt.Sprintf("alt+%d", g*12+i)
			group = append(group, key.NewBinding(key.WithKeys(k), key.WithHelp(k, fmt.Sprintf("a long description of action %d in group %d", i, g))))
		}
		groups = append(groups, group)
	}
	return groups
}

func TestHelpFitsAndScrollsAt80x24(t *testing.T) {
	screen := &manyKeysScreen{fakeScreen{title: "Busy"}}
	app := NewApp(&Context{Theme: NewTheme(true, true)}, []Section{{Name: "Events", New: func(*Context) Screen { return screen }}})
	app.Init()
	app.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	app.Update(uitest.Key("?"))
	app.Quiet()
	first := golden.Plain(app.View().Content)
	for i, l := range strings.Split(first, "\n") {
		if w := ansi.StringWidth(l); w > 80 {
			t.Fatalf("line %d is %d cells wide:\n%s", i, w, first)
		}
	}
	if !strings.Contains(first, "↑/↓ scroll") || !strings.Contains(first, "action 0 in group 0") {
		t.Fatalf("the help should start at the top and say it scrolls:\n%s", first)
	}
	for range 60 {
		app.Update(uitest.Key("down"))
	}
	last := golden.Plain(app.View().Content)
	if last == first || !strings.Contains(last, "quit") {
		t.Fatalf("scrolling down should reach the shell's keys:\n%s", last)
	}
	golden.Assert(t, "app_help_80x24_scrolled", app.View().Content)
}

// detailedErr is an error that lists its details, as api errors do.
type detailedErr struct{}

func (detailedErr) Error() string { return "error 2002: event not found" }
func (detailedErr) Details() [][2]string {
	return [][2]string{{"Operation", "get event"}, {"Endpoint", "GET /v2/vendor_events/events/x"},
		{"Status", "404 Not Found"}, {"Code", "2002"}, {"Meaning", "event not found"}}
}

func TestFailuresAreKeptWholeLoggedAndCleared(t *testing.T) {
	var logged bytes.Buffer
	h := newHarness(t)
	h.ctx.Log = slog.New(slog.NewTextHandler(&logged, nil))
	h.ctx.Now = func() time.Time { return time.Date(2026, 11, 23, 9, 14, 5, 0, time.UTC) }
	for _, m := range expand(Fail("get event", detailedErr{})) {
		h.send(m)
	}
	if !strings.Contains(lastLine(h.plain()), "error: get event failed: error 20") || !strings.Contains(lastLine(h.plain()), "E details") {
		t.Fatalf("status bar: %q", lastLine(h.plain()))
	}
	h.press("E")
	panel := h.plain()
	for _, want := range []string{"Recent errors", "09:14:05  get event", "Endpoint", "GET /v2/vendor_events/events/x", "404 Not Found", "Meaning", "event not found"} {
		if !strings.Contains(panel, want) {
			t.Fatalf("the errors panel lacks %q:\n%s", want, panel)
		}
	}
	golden.Assert(t, "app_errors", h.view())
	h.press("esc")
	if strings.Contains(h.plain(), "Recent errors") {
		t.Fatal("esc closes the errors panel")
	}
	if !strings.Contains(logged.String(), "op=\"get event\"") || !strings.Contains(logged.String(), "code=2002") {
		t.Fatalf("log: %s", logged.String())
	}
	// A later success clears the status bar; the panel keeps the error.
	h.send(ToastMsg{Level: ToastSuccess, Text: "saved"})
	if strings.Contains(lastLine(h.plain()), "error:") {
		t.Fatalf("a success should clear the status bar's error: %q", lastLine(h.plain()))
	}
	// A failure also clears itself after ErrorTTL, unless a newer one came.
	h.send(ToastMsg{Level: ToastError, Text: "first"})
	h.send(ToastMsg{Level: ToastError, Text: "second"})
	h.send(errorClearedMsg{seq: h.app.errSeq - 1})
	if !strings.Contains(lastLine(h.plain()), "second") {
		t.Fatal("an older failure's timer must not clear a newer one")
	}
	h.send(errorClearedMsg{seq: h.app.errSeq})
	if strings.Contains(lastLine(h.plain()), "error:") {
		t.Fatal("the failure's own timer clears it")
	}
	// The next success of the same work clears its failure; another's
	// does not.
	h.send(ToastMsg{Level: ToastError, Text: "Loading phone settings failed: refused", Op: "Loading phone settings"})
	h.send(SucceededMsg{Op: "Reading the snapshot"})
	if !strings.Contains(lastLine(h.plain()), "error: Loading phone settings") {
		t.Fatalf("another operation's success must not clear the failure: %q", lastLine(h.plain()))
	}
	h.send(SucceededMsg{Op: "Loading phone settings"})
	if strings.Contains(lastLine(h.plain()), "error:") {
		t.Fatalf("the same work's success should clear its failure: %q", lastLine(h.plain()))
	}
	// A failure whose cause ends sooner (a wait) leaves when it ends.
	if statusTTL(ToastMsg{For: 30 * time.Second}) != 30*time.Second || statusTTL(ToastMsg{}) != ErrorTTL ||
		statusTTL(ToastMsg{For: time.Hour}) != ErrorTTL {
		t.Fatal("a failure stays ErrorTTL at most, and no longer than its For")
	}
	h.press("E")
	if !strings.Contains(h.plain(), "second") || !strings.Contains(h.plain(), "first") {
		t.Fatal("the panel keeps every recent failure")
	}
}

// sourceScreen offers palette items, as the events list does.
type sourceScreen struct {
	fakeScreen
	opened *string
}

func (s *sourceScreen) PaletteItems() []PaletteItem {
	return []PaletteItem{{Title: "Event: Go Summit", Hint: "upcoming", Section: "Events",
		Run: func() tea.Cmd { *s.opened = "Go Summit"; return nil }}}
}

func TestPaletteGoesToSectionsActionsAndItems(t *testing.T) {
	opened := ""
	h := &harness{t: t, roots: map[string]*fakeScreen{}}
	h.ctx = &Context{Theme: NewTheme(true, true)}
	events := &sourceScreen{fakeScreen: fakeScreen{title: "Events"}, opened: &opened}
	h.roots["Events"] = &events.fakeScreen
	h.app = NewApp(h.ctx, []Section{
		{Name: "Events", New: func(*Context) Screen { return events }},
		{Name: "Check-in", New: func(*Context) Screen { f := &fakeScreen{title: "Check-in"}; h.roots["Check-in"] = f; return f }},
	})
	h.app.Init()
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})

	h.press(":")
	h.press("c", "h", "e", "c", "k")
	if !strings.Contains(h.plain(), "> Go to Check-in") {
		t.Fatalf("typing narrows to the section:\n%s", h.plain())
	}
	h.press("enter")
	if h.roots["Check-in"] == nil || h.app.Top() != Screen(h.roots["Check-in"]) {
		t.Fatal("choosing a section goes there")
	}
	// An item offered by a screen of another section switches back to it.
	h.press(":")
	for _, r := range "summit" {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	golden.Assert(t, "app_palette", h.view())
	h.press("enter")
	if opened != "Go Summit" || h.app.Top() != Screen(events) {
		t.Fatalf("the event item should run in its section: opened %q", opened)
	}
	// The focused screen's actions: choosing one presses its key.
	h.press(":")
	for _, r := range "new ev" {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	cmd := h.press("enter")
	for _, m := range expand(cmd) {
		h.send(m)
	}
	if last(events.keys) != "n" {
		t.Fatalf("running an action should press its key; keys %v", events.keys)
	}
	// Recent choices come first next time.
	h.press(":")
	if !strings.Contains(h.plain(), "> new event") || !strings.Contains(h.plain(), "recent") {
		t.Fatalf("the last choice should lead, marked recent:\n%s", h.plain())
	}
	h.press("esc")
	if strings.Contains(h.plain(), "esc close") {
		t.Fatal("esc closes the palette")
	}
}

func TestMouseClickOnATabAndOverTheContent(t *testing.T) {
	h := newHarness(t)
	h.send(tea.MouseClickMsg{X: 12, Y: 0, Button: tea.MouseLeft}) // " [Events]  Check-in "
	if h.app.Top() != Screen(h.roots["Check-in"]) {
		t.Fatal("a click on a tab switches to its section")
	}
	h.send(tea.MouseClickMsg{X: 5, Y: 7, Button: tea.MouseLeft})
	if got := last(h.roots["Check-in"].msgs); got != "tea.MouseClickMsg" {
		t.Fatalf("a click over the content reaches the screen: %v", h.roots["Check-in"].msgs)
	}
	if h.app.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("the console reports the mouse unless told not to")
	}
	h.ctx.NoMouse = true
	if h.app.View().MouseMode == tea.MouseModeCellMotion {
		t.Fatal("--no-mouse leaves the mouse to the terminal")
	}
}

// A barcode scanner types letters, Enter and Tab at full speed. Over a
// screen that takes typing (the check-in desk), nothing it types may answer
// the quit question: only ctrl+y quits and esc stays; everything typed goes
// on to the screen, which records it as a scan.
func TestQuitQuestionOverTypingTakesOnlyAChord(t *testing.T) {
	h := newHarness(t)
	desk := h.roots["Events"]
	desk.scans, desk.guard = true, "2 check-ins not yet sent"
	h.press("ctrl+c")
	if h.app.question() == nil || !h.app.question().c.Guarded() {
		t.Fatal("ctrl+c over unsent scans should ask, guarded")
	}
	golden.Assert(t, "app_quit_guarded", h.view())
	scan := "yara.becker@inbox.example"
	for _, r := range scan {
		if isQuit(h.send(tea.KeyPressMsg{Code: r, Text: string(r)})) {
			t.Fatalf("%q answered the question", r)
		}
	}
	for _, k := range []string{"enter", "tab", "n", "Y"} {
		if isQuit(h.press(k)) {
			t.Fatalf("%s answered the question", k)
		}
	}
	h.send(tea.PasteMsg{Content: "ana@example.org\n"})
	if h.app.question() == nil {
		t.Fatal("typing closed the question")
	}
	typed := strings.Join(desk.keys, "")
	if !strings.Contains(typed, strings.Join(strings.Split(scan, ""), "")) || !strings.HasSuffix(typed, "entertabnY") {
		t.Fatalf("the screen got %q", typed)
	}
	if last(desk.msgs) != "tea.PasteMsg" {
		t.Fatalf("the paste did not reach the screen: %v", desk.msgs)
	}
	// The question counts what is waiting now, not when it was asked.
	desk.guard = "3 check-ins not yet sent"
	h.send(struct{}{})
	if v := h.view(); !strings.Contains(v, "3 check-ins not yet sent") {
		t.Fatalf("the question kept its old count:\n%s", v)
	}
	desk.guard = ""
	h.send(struct{}{})
	if v := h.view(); !strings.Contains(v, "Nothing is waiting any more") {
		t.Fatalf("the question did not say all was sent:\n%s", v)
	}
	desk.guard = "2 check-ins not yet sent"
	if isQuit(h.press("esc")) || h.app.question() != nil {
		t.Fatal("esc should close the question and stay")
	}
	h.press("ctrl+c")
	if !isQuit(h.press("ctrl+y")) {
		t.Fatal("ctrl+y should quit")
	}

	// Where nothing takes scans, y and n answer as ever.
	desk.scans = false
	h.press("q")
	if h.app.question().c.Guarded() {
		t.Fatal("the question over a list should take y and n")
	}
	if !isQuit(h.press("y")) {
		t.Fatal("y should quit over a list")
	}
}

// The help panel and a terminal too small do not swallow a scan either.
func TestScansReachATypingScreenUnderPanels(t *testing.T) {
	h := newHarness(t)
	desk := h.roots["Events"]
	desk.scans = true
	h.press("f1")
	h.press("q", "k", "enter")
	if !(h.app.topOverlay() != nil) || strings.Join(desk.keys, " ") != "q k enter" {
		t.Fatalf("help open %v, screen got %v", (h.app.topOverlay() != nil), desk.keys)
	}
	h.press("esc")
	h.send(tea.WindowSizeMsg{Width: 40, Height: 10})
	h.press("x")
	if last(desk.keys) != "x" {
		t.Fatal("a scan typed into a small terminal was lost")
	}
}

func TestALockedScreenKeepsTheConsole(t *testing.T) {
	h := newHarness(t)
	desk := h.roots["Events"]
	desk.scans, desk.lock, desk.guard = true, "Kiosk: ctrl+k and the PIN unlock", "1 check-in not yet sent"
	// The kiosk faces the public: no account in the status bar, and its
	// help does not offer ctrl+c, which only says the kiosk stays.
	if strings.Contains(h.plain(), "ada@example.com") {
		t.Fatal("a locked kiosk shows the account")
	}
	if shellKeysHave(h.app, "ctrl+c") {
		t.Fatal("a locked kiosk's help lists ctrl+c")
	}
	for _, k := range []string{"ctrl+c", "ctrl+c"} {
		cmd := h.press(k)
		if isQuit(cmd) || h.app.question() != nil {
			t.Fatal("a locked kiosk quit or asked")
		}
		if msgs := expand(cmd); len(msgs) != 1 || msgs[0].(ToastMsg).Text != desk.lock {
			t.Fatalf("ctrl+c said %v", msgs)
		}
	}
	h.send(tea.MouseClickMsg{X: 12, Y: 0, Button: tea.MouseLeft}) // the Check-in tab
	if h.app.active != 0 {
		t.Fatal("a click on a tab left the kiosk")
	}
	desk.lock = ""
	if !strings.Contains(h.plain(), "ada@example.com") || !shellKeysHave(h.app, "ctrl+c") {
		t.Fatal("unlocked, the staff's account and ctrl+c are not back")
	}
	h.press("ctrl+c")
	if h.app.question() == nil {
		t.Fatal("unlocked, ctrl+c asks again")
	}
	h.press("esc")
	h.send(tea.MouseClickMsg{X: 12, Y: 0, Button: tea.MouseLeft})
	if h.app.active != 1 {
		t.Fatal("unlocked, a click on the tab switches")
	}
}

// shellKeysHave reports whether the shell's keys in the help list k.
func shellKeysHave(a *App, k string) bool {
	for _, b := range a.ShellKeys() {
		if slices.Contains(b.Keys(), k) {
			return true
		}
	}
	return false
}

// jumpScreen offers a palette item that opens a screen, as the events list
// offers its events.
type jumpScreen struct{ fakeScreen }

func (s *jumpScreen) PaletteItems() []PaletteItem {
	return []PaletteItem{{Title: "Event: Go Summit", Section: "Events",
		Run: func() tea.Cmd { return Push(&fakeScreen{title: "Go Summit"}) }}}
}

// A jump from the palette replaces the path from its section's root, and
// esc goes one level up; a screen that would lose work stops it.
func TestAPaletteJumpReplacesThePath(t *testing.T) {
	h := &harness{t: t, roots: map[string]*fakeScreen{}}
	h.ctx = &Context{Theme: NewTheme(true, true)}
	root := &jumpScreen{fakeScreen{title: "Events"}}
	h.app = NewApp(h.ctx, []Section{{Name: "Events", New: func(*Context) Screen { return root }}})
	h.app.Init()
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	crumbs := func() string {
		var titles []string
		for _, e := range h.app.stack() {
			titles = append(titles, e.screen.Title())
		}
		return strings.Join(titles, " > ")
	}
	jump := func() {
		h.press(":")
		h.press("s", "u", "m", "m", "i", "t")
		for _, m := range expand(h.press("enter")) {
			h.send(m)
		}
	}
	emails := &fakeScreen{title: "Emails"}
	h.send(PushMsg{Screen: &fakeScreen{title: "Mindful"}})
	h.send(PushMsg{Screen: emails})
	for range 2 {
		jump()
		if got := crumbs(); got != "Events > Go Summit" {
			t.Fatalf("after a jump the path is %q", got)
		}
	}
	if !emails.closed {
		t.Fatal("the screens the jump replaced were not closed")
	}
	h.press("esc")
	if got := crumbs(); got != "Events" {
		t.Fatalf("esc after a jump: %q", got)
	}
	form := &fakeScreen{title: "New event", guard: "a form with changes is open"}
	h.send(PushMsg{Screen: form})
	jump()
	if got := crumbs(); got != "Events > New event" || !strings.Contains(h.plain(), "close it first") {
		t.Fatalf("a jump over a form with changes: %q\n%s", got, h.plain())
	}
}

// The shell's popups are one stack: what is drawn on top takes the keys.
// A notice that arrives over the palette is drawn over it and closes with
// the next key, and the palette takes keys again; a question over the help
// answers first, and the help is still there after it.
func TestPopupsAreOneStack(t *testing.T) {
	h := newHarness(t)
	h.press(":")
	h.send(noticeMsg{title: "No browser here: open this address yourself", text: "https://example.org/x"})
	v := h.plain()
	if !strings.Contains(v, "https://example.org/x") || !strings.Contains(v, "any key closes this") {
		t.Fatalf("the notice is not drawn over the palette:\n%s", v)
	}
	h.press("x")
	if p := h.app.palette(); p == nil || p.input.Value() != "" {
		t.Fatal("the key meant for the notice reached the palette")
	}
	h.press("x")
	if h.app.palette().input.Value() != "x" {
		t.Fatal("the palette does not take keys again after the notice")
	}
	h.press("f1") // help over the palette
	if !strings.Contains(h.plain(), "Keys") {
		t.Fatalf("F1 over the palette:\n%s", h.plain())
	}
	h.roots["Events"].guard = "a form with changes is open"
	h.press("q") // the help passes q on: quitting asks, over the help
	if h.app.question() == nil {
		t.Fatal("q over the help did not ask")
	}
	golden.Assert(t, "app_popups", h.view())
	h.press("n")
	if _, ok := h.app.topOverlay().(*panelOverlay); !ok || h.app.question() != nil {
		t.Fatal("after the answer the help should be on top again")
	}
	h.press("esc", "esc")
	if len(h.app.overlays) != 0 {
		t.Fatalf("esc twice left %d popups", len(h.app.overlays))
	}
}

// A note on the screen below (a why-not) leaves with it when a screen is
// pushed over it; an error stays, as it is news wherever the user goes.
func TestANoteStaysWithItsScreen(t *testing.T) {
	h := newHarness(t)
	h.send(ToastMsg{Level: ToastInfo, Text: "Exhibitors: only conference events have them"})
	h.send(PushMsg{Screen: &fakeScreen{title: "Desk"}})
	if strings.Contains(h.plain(), "only conference events") {
		t.Fatalf("the note of the screen below is on the new one:\n%s", h.plain())
	}
	h.send(ToastMsg{Level: ToastError, Text: "Saving failed: refused"})
	h.send(PushMsg{Screen: &fakeScreen{title: "Other"}})
	if !strings.Contains(h.plain(), "Saving failed: refused") {
		t.Fatalf("an error left with its screen:\n%s", h.plain())
	}
}

// loadingSource offers its items once loaded, and says it is loading
// until then, as the events list does.
type loadingSource struct {
	fakeScreen
	loaded bool
}

func (s *loadingSource) Update(msg tea.Msg) (Screen, tea.Cmd) {
	_, cmd := s.fakeScreen.Update(msg)
	return s, cmd
}

func (s *loadingSource) PaletteItems() []PaletteItem {
	if !s.loaded {
		return []PaletteItem{{Title: "Events are loading…", Always: true, Run: func() tea.Cmd { return nil }}}
	}
	return []PaletteItem{{Title: "Event: Go Summit", Section: "Events", Run: func() tea.Cmd { return nil }}}
}

// What the palette offers does not depend on which tab was opened first:
// it opens a section that offers items (Section.Palette) when nobody has,
// says while it loads that it is loading, whatever is typed, and offers
// its items as soon as they are in.
func TestThePaletteOpensItsSources(t *testing.T) {
	h := &harness{t: t, roots: map[string]*fakeScreen{}}
	h.ctx = &Context{Theme: NewTheme(true, true)}
	events := &loadingSource{fakeScreen: fakeScreen{title: "Events"}}
	h.app = NewApp(h.ctx, []Section{
		{Name: "Events", New: func(*Context) Screen { return events }, Palette: true},
		{Name: "Check-in", New: func(*Context) Screen { return &fakeScreen{title: "Check-in"} }},
	}, WithSection("Check-in"))
	h.app.Init()
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if events.inits != 0 {
		t.Fatal("the events section opened before it was needed")
	}
	h.press(":")
	if events.inits != 1 || events.w == 0 {
		t.Fatalf("the palette did not open the events section: inits %d, width %d", events.inits, events.w)
	}
	h.press("s", "u", "m")
	if !strings.Contains(h.plain(), "Events are loading…") || strings.Contains(h.plain(), "nothing matches") {
		t.Fatalf("the palette does not say the events are loading:\n%s", h.plain())
	}
	events.loaded = true
	h.press("m")
	if p := h.plain(); !strings.Contains(p, "> Event: Go Summit") || strings.Contains(p, "loading") {
		t.Fatalf("the loaded events are not offered:\n%s", p)
	}
	if h.app.Top().Title() != "Check-in" {
		t.Fatal("opening a source switched the tab")
	}
}

// TestHelpBarFollowsTheKeys: the help bar is drawn once per what it says,
// and drawn again when a key comes or goes, is disabled, or the theme
// changes.
func TestHelpBarFollowsTheKeys(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	h := newHarness(t)
	bar := func() string { return strings.Split(h.plain(), "\n")[h.ctx.Height-2] }
	if !strings.Contains(bar(), "enter open") {
		t.Fatalf("help bar: %q", bar())
	}
	f := h.roots["Events"]
	refresh := key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "refresh"))
	f.short = []key.Binding{fakeKey, refresh}
	if got := bar(); !strings.Contains(got, "enter open") || !strings.Contains(got, "ctrl+r refresh") {
		t.Fatalf("a key came: %q", got)
	}
	refresh.SetEnabled(false)
	f.short = []key.Binding{fakeKey, refresh}
	if got := bar(); strings.Contains(got, "refresh") {
		t.Fatalf("a disabled key stays: %q", got)
	}
	raw := func() string { return strings.Split(h.view(), "\n")[h.ctx.Height-2] }
	*h.ctx.Theme = *NewTheme(true, false)
	h.app.applyTheme()
	dark := raw()
	h.send(tea.BackgroundColorMsg{Color: lightBG{}})
	light := raw()
	h.app.memo = lineMemos{}
	if fresh := raw(); light != fresh || light == dark {
		t.Fatalf("after a light background the help bar is %q, drawn afresh %q", light, fresh)
	}
}

// Every line of the palette fits its box: a long item is cut with "…" on
// its own line, never wrapped onto the next.
func TestPaletteItemsFitTheBox(t *testing.T) {
	h := newHarness(t)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 36})
	p := &commandPalette{input: textinput.New(), items: []PaletteItem{
		{Title: "Event: Product Launch Live: Northwind Atlas, the long edition", Hint: "upcoming, 2026-12-02 16:00 in Events"},
		{Title: "Event: Partner Enablement: Atlas 3.0 Release and roadmap", Hint: "upcoming, 2026-12-20 19:00 in Events"},
	}, shown: []int{0, 1}}
	box := ansi.Strip(h.app.paletteView(p, 120, 36))
	lines := strings.Split(box, "\n")
	// The border, the input, a gap, the two items, a gap, the help, the border.
	if len(lines) != 8 || !strings.HasSuffix(strings.TrimRight(strings.TrimSuffix(lines[3], "│"), " "), "…") {
		t.Fatalf("the items wrap or are not cut:\n%s", box)
	}
}
