package ui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/ui/uitest"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui/internal/golden"
	"github.com/evdesk/evdesk/ui/internal/teax"
)

// fakeScreen records what the shell does to it.
type fakeScreen struct {
	title     string
	w, h      int
	inits     int
	closed    bool
	capturing bool
	scans     bool // takes a scanner's codes, as the desk does
	sorts     bool // and has a form open over its scan input (ScanSorter)
	backLocal bool
	guard     string
	lock      string
	short     []key.Binding // the short help, when set (else fakeKey)
	keys      []string      // key presses received
	msgs      []string      // other messages received
	onKey     func(string) tea.Cmd
	results   chan int // receives resultMsg values when set
	sized     chan int // receives widths from SetSize when set
}

type resultMsg struct{ n int }

func (f *fakeScreen) Init() tea.Cmd { f.inits++; return nil }
func (f *fakeScreen) Update(msg tea.Msg) (Screen, tea.Cmd) {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		f.keys = append(f.keys, m.String())
		if f.onKey != nil {
			return f, f.onKey(m.String())
		}
	case ScanMsg:
		var b strings.Builder
		for _, k := range m.Keys {
			b.WriteString(k.String())
		}
		f.msgs = append(f.msgs, "scan "+b.String()+m.Paste)
	case NotTypedMsg:
		f.msgs = append(f.msgs, "not typed "+m.Text)
	case ScanStartsMsg:
		f.msgs = append(f.msgs, "starts "+m.Typed)
	case resultMsg:
		f.msgs = append(f.msgs, fmt.Sprintf("result %d", m.n))
		if f.results != nil {
			f.results <- m.n
		}
	default:
		f.msgs = append(f.msgs, fmt.Sprintf("%T", msg))
	}
	return f, nil
}
func (f *fakeScreen) View() string {
	return fmt.Sprintf("%s body %dx%d\nkeys: %s\nlast: %s",
		f.title, f.w, f.h, strings.Join(f.keys, " "), last(f.msgs))
}
func (f *fakeScreen) SetSize(w, h int) {
	f.w, f.h = w, h
	if f.sized != nil {
		f.sized <- w
	}
}
func (f *fakeScreen) Title() string        { return f.title }
func (f *fakeScreen) CapturingInput() bool { return f.capturing || f.scans }
func (f *fakeScreen) TakesScans() bool     { return f.scans }
func (f *fakeScreen) SortsScans() bool     { return f.sorts }
func (f *fakeScreen) CapturingBack() bool  { return f.backLocal }
func (f *fakeScreen) ConfirmQuit() string  { return f.guard }
func (f *fakeScreen) Close()               { f.closed = true }
func (f *fakeScreen) Locked() string       { return f.lock }
func (f *fakeScreen) ShortHelp() []key.Binding {
	if f.short != nil {
		return f.short
	}
	return []key.Binding{fakeKey}
}
func (f *fakeScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{fakeKey, key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new event"))}}
}

var fakeKey = key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open"))

func last(s []string) string {
	if len(s) == 0 {
		return "-"
	}
	return s[len(s)-1]
}

// harness builds an App with three sections whose root screens are recorded.
type harness struct {
	t     *testing.T
	app   *App
	ctx   *Context
	roots map[string]*fakeScreen
}

func newHarness(t *testing.T, opts ...Option) *harness {
	t.Helper()
	h := &harness{t: t, roots: map[string]*fakeScreen{}}
	h.ctx = &Context{Theme: NewTheme(true, true), Profile: "work", Account: "ada@example.com"}
	var sections []Section
	for _, name := range []string{"Events", "Check-in", "Emails"} {
		sections = append(sections, Section{Name: name, New: func(*Context) Screen {
			f := &fakeScreen{title: name}
			h.roots[name] = f
			return f
		}})
	}
	h.app = NewApp(h.ctx, sections, opts...)
	h.app.Init()
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	return h
}

// send delivers msg and returns the command the App asked for. A key is
// a person's: the moment in which the App holds keys passes after it, and
// the command returned is what the key did.
func (h *harness) send(msg tea.Msg) tea.Cmd {
	_, cmd := h.app.Update(msg)
	if h.app.gate.holding() {
		cmd = h.app.Quiet()
	}
	return cmd
}

func (h *harness) press(keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = h.send(uitest.Key(k))
	}
	return cmd
}

// view is the rendered console, raw (for goldens).
func (h *harness) view() string { return h.app.View().Content }

// plain is the rendered console as text, for substring checks.
func (h *harness) plain() string { return golden.Plain(h.view()) }

// isQuit runs cmd (never a timer) and reports whether it asks to quit.
func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// expand runs cmd and flattens batches and sequences into their messages.
func expand(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	cmds, ok := teax.Sequence(msg)
	if b, isBatch := msg.(tea.BatchMsg); isBatch {
		cmds, ok = b, true
	}
	if !ok {
		return []tea.Msg{msg}
	}
	var out []tea.Msg
	for _, c := range cmds {
		out = append(out, expand(c)...)
	}
	return out
}

type lightBG struct{}

func (lightBG) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

var _ color.Color = lightBG{}
