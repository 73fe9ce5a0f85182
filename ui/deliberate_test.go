package ui

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/ui/uitest"
)

// deliberateness runs the gate over keys as the App does and says, per key
// in the order acted on, D for a person's key on its own, H for a
// person's key that came with another (hasty) and S for a scanner's.
func deliberateness(keys typing) string {
	var g scanGate
	var got strings.Builder
	take := func(out gateOut) {
		for range out.person {
			got.WriteByte("DH"[b2i(out.hasty)])
		}
		for range out.scanned {
			got.WriteByte('S')
		}
	}
	for i, k := range keys {
		if i > 0 && k.after >= HoldFor && g.holding() {
			take(g.pause())
		}
		take(g.key(k.key))
	}
	take(g.pause())
	return got.String()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Which keys are deliberate, with key timings as they arrive: a key on its
// own is; keys that come within the hold of another (a short burst, key
// repeat from tmux or a bounce, a key right after a scan) are not, so no
// question takes them for an answer.
func TestOnlyAKeyOnItsOwnIsDeliberate(t *testing.T) {
	cases := []struct {
		name string
		keys typing
		want string
	}{
		{"y alone", typed("y", 0, ""), "D"},
		{"y, then n a moment later", typed("y", 0, "").then(ms(200), typed("n", 0, "")), "DD"},
		{"y at a person's pace", typed("yny", ms(90), ""), "DDD"},
		{"yyyy at once (send-keys -l)", typed("yyyy", 0, ""), "HHHH"},
		{"fast key repeat of y", typed("yyyy", ms(20), ""), "HHHH"},
		{"slow key repeat of y", typed("yyy", ms(40), ""), "DDD"},
		{"dy at once", typed("dy", 0, ""), "HH"},
		{"dy rolled by a fast typist", typed("dy", ms(18), ""), "HH"},
		{"three keys at once", typed("qyn", ms(2), ""), "HHH"},
		{"a key 2 ms after a scan", typed("ana@x.org", ms(3), "enter").then(ms(2), typed("y", 0, "")), strings.Repeat("S", 10) + "H"},
		{"a key long after a scan", typed("ana@x.org", ms(3), "enter").then(ms(500), typed("y", 0, "")), strings.Repeat("S", 10) + "D"},
		{"y then Enter at once is a scan", typed("y", 0, "enter"), "SS"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := deliberateness(c.keys); got != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
}

// askingScreen is a screen on the base with a dangerous action on P
// (publish, asked in its Dialog), an action on d that opens a form whose
// only field is a yes/no question, and a plain form on f.
type askingScreen struct {
	fakeScreen
	b         ScreenBase
	published int
	sure      bool
}

func newAskingScreen(ctx *Context) *askingScreen {
	s := &askingScreen{fakeScreen: fakeScreen{title: "Detail"}}
	s.b = NewScreenBase(ctx, ScreenConfig{Actions: func() Actions {
		return Actions{
			{Key: key.NewBinding(key.WithKeys("P")), Help: "publish", Dangerous: true,
				Run: func() tea.Cmd { s.published++; return nil }},
			{Key: key.NewBinding(key.WithKeys("d")), Help: "cancel", Run: func() tea.Cmd {
				return s.b.Dialog.ShowForm(NewForm(ctx.Theme, "Cancel", func() tea.Cmd { return nil },
					huh.NewGroup(huh.NewConfirm().Title("Cancel it?").Value(&s.sure))))
			}},
		}
	}})
	return s
}

func (s *askingScreen) Update(msg tea.Msg) (Screen, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		s.keys = append(s.keys, k.String())
	}
	return s, s.b.Update(msg)
}
func (s *askingScreen) View() string         { return s.b.Frame("Detail body") }
func (s *askingScreen) SetSize(w, h int)     { s.b.SetSize(w, h) }
func (s *askingScreen) CapturingInput() bool { return s.b.CapturingInput() }
func (s *askingScreen) Asking() bool         { return s.b.Asking() }

// rapid types keys back to back (tmux send-keys -l), then lets the hold
// run out.
func (h *harness) rapid(keys ...string) {
	h.t.Helper()
	for _, k := range keys {
		h.app.Update(uitest.Key(k))
	}
	h.app.Quiet()
}

// A question is answered only by a key on its own: yyyy at "publish?",
// dy (the key that asks and its answer together), and y in a burst into a
// form's yes/no field answer nothing, and the question says why; a
// deliberate y answers.
func TestAQuestionNeedsADeliberateKey(t *testing.T) {
	h := newHarness(t)
	s := newAskingScreen(h.ctx)
	h.send(PushMsg{Screen: s})

	h.press("P")
	h.rapid("y", "y", "y", "y")
	if s.published != 0 || !s.b.Dialog.Asking() {
		t.Fatalf("yyyy answered the question: published %d", s.published)
	}
	if !strings.Contains(h.plain(), "keys that come together do not answer") {
		t.Fatalf("the question does not say why:\n%s", h.plain())
	}
	h.press("y")
	if s.published != 1 || s.b.Dialog.Open() {
		t.Fatalf("a deliberate y did not answer: published %d", s.published)
	}

	h.rapid("P", "y") // the key that asks and an answer, together
	if s.published != 1 || !s.b.Dialog.Asking() {
		t.Fatalf("Py published: %d", s.published)
	}
	h.press("esc")

	h.rapid("d", "y") // a form's yes/no field
	if s.sure || !s.b.Dialog.Open() {
		t.Fatalf("dy answered the form's question: sure %v, open %v", s.sure, s.b.Dialog.Open())
	}
	h.press("y")
	if !s.sure || s.b.Dialog.Open() {
		t.Fatalf("a deliberate y did not answer the form: sure %v", s.sure)
	}

	// The shell's own question (quit, a form with changes open) too.
	s.b.Dialog = Dialog{}
	h.roots["Events"].guard = "a form with changes is open"
	h.send(PopMsg{})
	h.rapid("q", "y")
	if h.app.question() == nil || h.app.quits != 0 {
		t.Fatal("qy quit without a deliberate yes")
	}
	if !strings.Contains(h.plain(), "keys that come together do not answer") {
		t.Fatalf("the quit question does not say why:\n%s", h.plain())
	}
	if !isQuit(h.press("y")) {
		t.Fatal("a deliberate y did not quit")
	}
}
