package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Confirm is a small yes/no dialog a screen embeds while it waits for an
// answer (the screen should report CapturingInput meanwhile). Enter picks
// the highlighted choice, which is No for dangerous questions: a scanner or a
// stray Enter must not delete anything.
type Confirm struct {
	theme     *Theme
	question  string
	dangerous bool
	onYes     func() tea.Cmd
	yes       bool // highlighted choice
	done      bool
	confirmed bool
	maxWidth  int
	keys      ConfirmKeys
	guarded   bool
	hasty     bool // a key in a burst was refused: the hint says why
}

// ConfirmKeys are the dialog's bindings, for help.
type ConfirmKeys struct {
	Yes, No, Choose, Toggle key.Binding
}

// ShortHelp implements help.KeyMap.
func (k ConfirmKeys) ShortHelp() []key.Binding { return []key.Binding{k.Yes, k.No, k.Choose} }

// FullHelp implements help.KeyMap.
func (k ConfirmKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Yes, k.No, k.Choose, k.Toggle}}
}

// NewConfirm builds a dialog; onYes runs, inside the screen's Update, when
// the answer is yes.
func NewConfirm(theme *Theme, question string, dangerous bool, onYes func() tea.Cmd) Confirm {
	return Confirm{
		theme: theme, question: question, dangerous: dangerous, onYes: onYes,
		yes: !dangerous, maxWidth: 56,
		keys: ConfirmKeys{
			Yes:    key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
			No:     key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n/esc", "no")),
			Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
			Toggle: key.NewBinding(key.WithKeys("left", "right", "tab", "shift+tab"), key.WithHelp("<-/->", "switch")),
		},
	}
}

// Guard makes the question one that nothing a barcode scanner types can
// answer, for a screen where letters, Enter and Tab are input: only yes
// (a chord such as ctrl+y) and no (esc) answer it, and Claims tells the
// shell which keys are the question's, so the others go on to the screen.
func (c *Confirm) Guard(yes, no key.Binding) {
	c.guarded = true
	c.keys.Yes, c.keys.No = yes, no
	c.keys.Choose = key.NewBinding(key.WithDisabled())
	c.keys.Toggle = key.NewBinding(key.WithDisabled())
}

// Guarded reports whether the question was guarded.
func (c Confirm) Guarded() bool { return c.guarded }

// Claims reports whether k answers or moves the question.
func (c Confirm) Claims(k tea.KeyPressMsg) bool {
	return key.Matches(k, c.keys.Yes, c.keys.No, c.keys.Choose, c.keys.Toggle)
}

// Keys returns the dialog's key map.
func (c Confirm) Keys() ConfirmKeys { return c.keys }

// SetWidth caps the box width (content area width, say).
func (c *Confirm) SetWidth(w int) { c.maxWidth = max(20, w) }

// Done reports whether the dialog has an answer.
func (c Confirm) Done() bool { return c.done }

// Confirmed reports whether the answer was yes.
func (c Confirm) Confirmed() bool { return c.confirmed }

// Update handles a key; done is true once answered, and cmd is onYes on yes.
func (c Confirm) Update(msg tea.Msg) (Confirm, tea.Cmd, bool) {
	if _, ok := msg.(HastyKeyMsg); ok && !c.done {
		c.hasty = true // it answers nothing (deliberate.go)
		return c, nil, false
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok || c.done {
		return c, nil, c.done
	}
	switch {
	case key.Matches(k, c.keys.Yes):
		c.yes = true
		return c.finish()
	case key.Matches(k, c.keys.No):
		c.yes = false
		return c.finish()
	case key.Matches(k, c.keys.Choose):
		return c.finish()
	case key.Matches(k, c.keys.Toggle):
		c.yes = !c.yes
	}
	return c, nil, false
}

func (c Confirm) finish() (Confirm, tea.Cmd, bool) {
	c.done, c.confirmed = true, c.yes
	if c.yes && c.onYes != nil {
		return c, c.onYes(), true
	}
	return c, nil, true
}

// View renders the bordered box.
func (c Confirm) View() string {
	t := c.theme
	inner := c.maxWidth - 4 // border and padding
	q := c.question
	if c.dangerous {
		q = t.ErrorBadge.Render(" DANGER ") + " " + t.Error.Render(q)
	}
	q = lipgloss.NewStyle().Width(min(inner, lipgloss.Width(q))).Render(q)
	button := func(label string, on bool) string {
		if on {
			return t.Selected.Render("[ " + label + " ]")
		}
		return "  " + label + "  "
	}
	buttons := button("Yes", c.yes) + "  " + button("No", !c.yes)
	hint := t.Muted.Render("y yes · n no · enter choose")
	if c.guarded {
		buttons = "Yes: " + t.Key.Render(c.keys.Yes.Help().Key) + "    No: " + t.Key.Render(c.keys.No.Help().Key)
		hint = t.Muted.Render("other keys go on to the screen (scans are still recorded)")
	}
	if c.hasty {
		hint = t.Error.Render(strings.Join(wrapWords(hastyHint, inner), "\n")) + "\n" + hint
	}
	body := lipgloss.JoinVertical(lipgloss.Left, q, "", buttons, hint)
	box := t.Border.Padding(0, 1)
	if c.dangerous && !t.NoColor {
		box = box.BorderForeground(t.Error.GetForeground())
	}
	return box.Render(body)
}
