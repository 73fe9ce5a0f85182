// Package uitest drives Bubble Tea models in tests without a terminal: keys
// go in as messages, commands run synchronously until the model settles, and
// views are compared with golden files. Timers (cursor blink, spinner and
// toast ticks) are never run, so a run takes no wall-clock time and renders
// the same frame every time.
package uitest

import (
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/ui/internal/golden"
	"github.com/evdesk/evdesk/ui/internal/teax"
	"github.com/evdesk/evdesk/ui/timer"
)

// Model is a root model whose View returns a tea.View (the App).
type Model interface {
	Init() tea.Cmd
	Update(tea.Msg) (tea.Model, tea.Cmd)
	View() tea.View
}

// Driver feeds a model and runs what it asks for.
type Driver struct {
	t     testing.TB
	model Model
	quit  bool
	// maxSteps guards against a command loop.
	maxSteps int
}

// New sizes the model, runs its Init and settles.
func New(t testing.TB, m Model, width, height int) *Driver {
	t.Helper()
	d := &Driver{t: t, model: m, maxSteps: 10000}
	d.run(m.Init())
	d.Send(tea.WindowSizeMsg{Width: width, Height: height})
	return d
}

// Send delivers msg and runs every command that follows until none is left.
// A key is a person's: the model is told that no key followed it (see
// quieter), so a key it held acts at once.
func (d *Driver) Send(msg tea.Msg) {
	d.t.Helper()
	d.deliver(msg)
	if _, ok := msg.(tea.KeyPressMsg); ok {
		d.Quiet()
	}
}

// quieter is a model that holds keys for a moment to tell a person from a
// barcode scanner (the console's App), and decides them when told that
// the moment passed with no other key.
type quieter interface {
	Quiet() tea.Cmd
}

// Quiet tells the model that the moment in which it holds keys has passed
// with no other key (the timer the driver never runs), and runs what
// follows.
func (d *Driver) Quiet() {
	d.t.Helper()
	if q, ok := d.model.(quieter); ok {
		d.run(q.Quiet())
	}
}

// Burst sends keys back to back with no quiet between them, as a barcode
// scanner types (text, then end, such as "enter"; end may be empty), then
// lets the quiet pass.
func (d *Driver) Burst(text, end string) {
	d.t.Helper()
	for _, k := range TextKeys(text) {
		d.deliver(k)
	}
	if end != "" {
		d.deliver(Key(end))
	}
	d.Quiet()
}

// BurstKeys sends keys back to back with no quiet between them, as Burst
// does, for a burst with keys that type no text (a scanner's control
// character), then lets the quiet pass.
func (d *Driver) BurstKeys(keys ...tea.KeyPressMsg) {
	d.t.Helper()
	for _, k := range keys {
		d.deliver(k)
	}
	d.Quiet()
}

// Press sends named keys: "enter", "esc", "tab", "shift+tab", "up", "down",
// "pgdown", "backspace", "ctrl+c", "space" or a single character.
func (d *Driver) Press(keys ...string) {
	d.t.Helper()
	for _, k := range keys {
		d.Send(Key(k))
	}
}

// Type sends text one character at a time, as a person types (or a scanner
// into a screen that takes scans).
func (d *Driver) Type(text string) {
	d.t.Helper()
	for _, r := range text {
		d.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// View is the rendered screen as plain text.
func (d *Driver) View() string { return golden.Plain(d.model.View().Content) }

// Quit reports whether the model asked the program to quit.
func (d *Driver) Quit() bool { return d.quit }

// Golden compares the current view with testdata/<name>.golden (-update
// rewrites it).
func (d *Driver) Golden(name string) {
	d.t.Helper()
	golden.Assert(d.t, name, d.model.View().Content)
}

// Contains fails the test unless the view shows every one of want.
func (d *Driver) Contains(want ...string) {
	d.t.Helper()
	v := d.View()
	for _, w := range want {
		if !strings.Contains(v, w) {
			d.t.Fatalf("view lacks %q:\n%s", w, v)
		}
	}
}

// Says fails the test unless the view shows every one of want as words,
// wherever its lines wrap: line breaks, runs of spaces and the borders of
// boxes count as one space. It is for text beside something whose width
// varies (a temporary path, a time), which wraps at a different word from
// run to run.
func (d *Driver) Says(want ...string) {
	d.t.Helper()
	v := Words(d.View())
	for _, w := range want {
		if !strings.Contains(v, strings.Join(strings.Fields(w), " ")) {
			d.t.Fatalf("view lacks the words %q:\n%s", w, d.View())
		}
	}
}

// Words is a view's text as one line of words: line breaks, runs of spaces
// and box borders become single spaces.
func Words(view string) string {
	drop := func(r rune) rune {
		if r >= 0x2500 && r <= 0x257f { // box drawing
			return ' '
		}
		return r
	}
	return strings.Join(strings.Fields(strings.Map(drop, ansi.Strip(view))), " ")
}

// Lacks fails the test if the view shows any of unwanted.
func (d *Driver) Lacks(unwanted ...string) {
	d.t.Helper()
	v := d.View()
	for _, w := range unwanted {
		if strings.Contains(v, w) {
			d.t.Fatalf("view shows %q:\n%s", w, v)
		}
	}
}

func (d *Driver) deliver(msg tea.Msg) {
	if msg == nil {
		return
	}
	if _, ok := msg.(tea.QuitMsg); ok {
		d.quit = true
		return
	}
	m, cmd := d.model.Update(msg)
	if mm, ok := m.(Model); ok {
		d.model = mm
	}
	d.run(cmd)
}

// run executes cmd and everything it leads to, breadth first, skipping
// timers. Sequences keep their order: each message is handled before the
// next command of the sequence runs.
func (d *Driver) run(cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil || isTimer(c) {
			continue
		}
		d.maxSteps--
		if d.maxSteps < 0 {
			d.t.Fatal("uitest: too many commands; is something re-arming itself?")
		}
		msg := c()
		switch m := msg.(type) {
		case tea.BatchMsg:
			queue = append(queue, m...)
			continue
		}
		if seq, ok := teax.Sequence(msg); ok {
			for _, sc := range seq {
				if sc == nil || isTimer(sc) {
					continue
				}
				d.deliver(sc())
			}
			continue
		}
		d.deliver(msg)
	}
}

func isTimer(c tea.Cmd) bool { return timer.Is(c) }

// TextKeys are the key presses that type text, one a character.
func TextKeys(text string) []tea.KeyPressMsg {
	keys := make([]tea.KeyPressMsg, 0, len(text))
	for _, r := range text {
		keys = append(keys, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return keys
}

// Key builds the key press for a name such as "enter" or "x".
func Key(name string) tea.KeyPressMsg {
	special := map[string]tea.KeyPressMsg{
		"enter":     {Code: tea.KeyEnter},
		"esc":       {Code: tea.KeyEscape},
		"tab":       {Code: tea.KeyTab},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
		"up":        {Code: tea.KeyUp},
		"down":      {Code: tea.KeyDown},
		"left":      {Code: tea.KeyLeft},
		"right":     {Code: tea.KeyRight},
		"pgdown":    {Code: tea.KeyPgDown},
		"pgup":      {Code: tea.KeyPgUp},
		"home":      {Code: tea.KeyHome},
		"end":       {Code: tea.KeyEnd},
		"backspace": {Code: tea.KeyBackspace},
		"delete":    {Code: tea.KeyDelete},
		"space":     {Code: tea.KeySpace, Text: " "},
		"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
		"f1":        {Code: tea.KeyF1},
		"f2":        {Code: tea.KeyF2},
		"f3":        {Code: tea.KeyF3},
		"f4":        {Code: tea.KeyF4},
		"ctrl+u":    {Code: 'u', Mod: tea.ModCtrl},
		"kpenter":   {Code: tea.KeyKpEnter},
	}
	if k, ok := special[name]; ok {
		return k
	}
	if n, ok := strings.CutPrefix(name, "f"); ok && len(n) > 0 {
		if i, err := strconv.Atoi(n); err == nil && i >= 1 && i <= 20 {
			return tea.KeyPressMsg{Code: tea.KeyF1 + rune(i-1)}
		}
	}
	if c, ok := strings.CutPrefix(name, "ctrl+"); ok && len(c) == 1 {
		return tea.KeyPressMsg{Code: rune(c[0]), Mod: tea.ModCtrl}
	}
	r := []rune(name)
	return tea.KeyPressMsg{Code: r[0], Text: name}
}
