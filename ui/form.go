package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/ui/internal/teax"
	"github.com/evdesk/evdesk/ui/timer"
)

// Form is a huh form shown as a dialog inside a screen. Enter on the last
// field submits, esc abandons; the shell's ctrl+c still quits.
type Form struct {
	form     *huh.Form
	title    string
	theme    *Theme
	onSubmit func() tea.Cmd
	width    int
	changed  bool // something was typed or chosen

	// A kept form (NewKeptForm) rebuilds itself from build when its submit
	// fails; fields finds its fields; aliases map API fields to keys.
	build    func(*Fields) []*huh.Group
	fields   *Fields
	aliases  map[string]string
	refused  string // why the last submit failed, shown at the top
	focusKey string // the field to focus once the form starts
	frozen   string // the form as it was submitted, while it is sent

	// notTyped is a burst too fast for a person that the shell did not
	// type into the form (NotTypedMsg), shown by the focused field until
	// the user moves on; hasty: a key in a burst did not answer the
	// form's question (HastyKeyMsg).
	notTyped string
	hasty    bool
}

// NewForm builds a dialog; onSubmit runs inside the screen's Update once
// the last field validates, so it reads the values the fields were bound to
// and may change the screen (mark it busy, start the call).
func NewForm(theme *Theme, title string, onSubmit func() tea.Cmd, groups ...*huh.Group) *Form {
	keys := huh.NewDefaultKeyMap()
	keys.Quit = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	f := huh.NewForm(groups...).WithKeyMap(keys).WithShowHelp(true).
		WithTheme(huh.ThemeFunc(func(bool) *huh.Styles { return theme.FormStyles() }))
	return &Form{form: f, title: title, theme: theme, onSubmit: onSubmit, width: 60}
}

// Required marks a field's title as required, before anything is
// submitted; forms with required fields say what the mark means.
func Required(title string) string { return title + " *" }

// RequiredNote explains the mark, for a form's first field description.
const RequiredNote = "* required"

// NoteText escapes text for a huh note, which reads _ and * as emphasis.
func NoteText(s string) string {
	return strings.NewReplacer("_", "\\_", "*", "\\*").Replace(s)
}

// FormStyles are the forms' styles, built from the console's theme: every
// choice readable on dark and light backgrounds (huh's own theme draws
// unselected options in a grey a dark terminal hides), and marks in
// words and brackets, not colour alone.
func (t *Theme) FormStyles() *huh.Styles {
	if t.formStyles == nil {
		t.formStyles = t.buildFormStyles()
	}
	return t.formStyles
}

func (t *Theme) buildFormStyles() *huh.Styles {
	s := huh.ThemeBase(t.Dark)
	plain := lipgloss.NewStyle()
	f := &s.Focused
	f.Base = f.Base.BorderForeground(t.Title.GetForeground())
	f.Card = f.Base
	f.Title, f.NoteTitle = t.Title, t.Title
	f.Description = t.Muted
	f.ErrorIndicator = t.Error.SetString(" !")
	f.ErrorMessage = t.Error
	f.SelectSelector = t.Key.SetString("> ")
	f.MultiSelectSelector = t.Key.SetString("> ")
	f.NextIndicator = t.Key.MarginLeft(1).SetString("→")
	f.PrevIndicator = t.Key.MarginRight(1).SetString("←")
	f.Option, f.UnselectedOption = plain, plain
	f.SelectedOption = t.Success.Bold(true)
	f.SelectedPrefix = t.Success.SetString("[x] ")
	f.UnselectedPrefix = plain.SetString("[ ] ")
	f.FocusedButton = t.Selected.Padding(0, 2).MarginRight(1)
	f.BlurredButton = plain.Padding(0, 2).MarginRight(1)
	f.Next = f.FocusedButton
	f.TextInput.Cursor = t.Key
	f.TextInput.Placeholder = t.Muted
	f.TextInput.Prompt = t.Key
	f.TextInput.Text = plain
	s.Blurred = s.Focused
	s.Blurred.Base = s.Focused.Base.BorderStyle(lipgloss.HiddenBorder())
	s.Blurred.Card = s.Blurred.Base
	s.Blurred.MultiSelectSelector = plain.SetString("  ")
	s.Blurred.NextIndicator, s.Blurred.PrevIndicator = plain, plain
	s.Group.Title, s.Group.Description = f.Title, f.Description
	s.Help = t.HelpStyles()
	return s
}

// formChrome is the dialog's own lines around the form: border, title and
// the blank line under it, and a line of margin.
const formChrome = 6

// SetSize fits the dialog into w x h. A form taller than that scrolls to
// its focused field; a shorter one keeps its own height.
func (f *Form) SetSize(w, h int) {
	f.width = min(max(w-6, 30), 72)
	f.form = f.form.WithWidth(f.width)
	if h <= 0 {
		return
	}
	// huh sizes each group to min(needed, height) when told the size.
	if m, _ := f.form.Update(tea.WindowSizeMsg{Width: f.width, Height: max(h-formChrome, 5)}); m != nil {
		if hf, ok := m.(*huh.Form); ok {
			f.form = hf
		}
	}
}

// Changed reports whether the user typed or chose anything in the form.
func (f *Form) Changed() bool { return f.changed }

// Init focuses the first field, or the one a failed submit marked.
func (f *Form) Init() tea.Cmd {
	if f.build == nil {
		return f.form.Init()
	}
	cmd := f.settle(f.form.Init())
	cmd = tea.Batch(cmd, f.focusMarked())
	f.frozen = f.form.View()
	return cmd
}

// submitKey submits a form from any field.
var submitKey = key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "submit"))

// Update feeds the form; done reports that it was submitted or abandoned.
func (f *Form) Update(msg tea.Msg) (cmd tea.Cmd, done bool) {
	switch m := msg.(type) {
	case NotTypedMsg:
		f.notTyped = m.Text
		return nil, false
	case HastyKeyMsg:
		f.hasty = true // it answers nothing (deliberate.go)
		return nil, false
	case tea.PasteMsg:
		f.changed = true
	case tea.KeyPressMsg:
		if m.Text != "" || m.Code == tea.KeyBackspace || m.Code == tea.KeyDelete || m.Code == tea.KeySpace {
			f.changed = true
		}
		if m.Code == tea.KeyEnter || m.Code == tea.KeyTab || m.Code == tea.KeyEscape {
			f.notTyped, f.hasty = "", false // the user moves on from the field
		}
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, submitKey) {
		cmd = f.submitAll()
	} else {
		cmd = f.settle(f.feed(msg))
	}
	if f.form.State == huh.StateNormal && f.build != nil {
		f.frozen = f.form.View() // what stays on screen while it is sent
	}
	switch f.form.State {
	case huh.StateCompleted:
		if f.onSubmit == nil {
			return nil, true
		}
		return f.onSubmit(), true
	case huh.StateAborted:
		return nil, true
	}
	return cmd, false
}

func (f *Form) feed(msg tea.Msg) tea.Cmd {
	m, cmd := f.form.Update(msg)
	if hf, ok := m.(*huh.Form); ok {
		f.form = hf
	}
	return cmd
}

// maxSettle bounds the form's own chain of moves (next field, next group).
const maxSettle = 16

// settle feeds the form's own instant messages (moving to the next field,
// the next group) back to it at once, inside this Update, instead of
// through the program: a key typed right after Enter, by a fast typist or
// a paste, then lands in the next field, not the one just left. Timers
// (the cursor's blink) and the program's own messages go out as usual.
func (f *Form) settle(cmd tea.Cmd) tea.Cmd {
	var out []tea.Cmd
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0 && steps < maxSettle; steps++ {
		var next []tea.Cmd
		for _, c := range queue {
			if c == nil {
				continue
			}
			if timer.Is(c) {
				out = append(out, c)
				continue
			}
			msg := c()
			switch m := msg.(type) {
			case nil:
			case tea.BatchMsg:
				next = append(next, m...)
			default:
				if cmds, ok := teax.Sequence(msg); ok {
					next = append(next, cmds...)
					continue
				}
				if teax.ProgramMsg(msg) {
					out = append(out, func() tea.Msg { return msg })
					continue
				}
				next = append(next, f.feed(msg))
			}
		}
		queue = next
	}
	return tea.Batch(append(out, queue...)...)
}

// View renders the dialog box.
func (f *Form) View() string {
	return f.box(f.withNotes(f.form.View()), "")
}

// asking reports whether the focused field is a yes/no question.
func (f *Form) asking() bool {
	fld := f.form.GetFocusedField()
	if t, ok := fld.(tracked); ok {
		fld = t.Field
	}
	_, ok := fld.(*huh.Confirm)
	return ok
}

// withNotes puts the form's notes to the user under the focused field in
// body (at the top when the field is not found): what was not typed into
// it, and why a key did not answer its question.
func (f *Form) withNotes(body string) string {
	var lines []string
	if f.notTyped != "" {
		lines = append(lines, WrapWords(NotTypedNote(f.notTyped), f.width)...)
	}
	if f.hasty && f.asking() {
		lines = append(lines, WrapWords("! "+hastyHint, f.width)...)
	}
	if len(lines) == 0 {
		return body
	}
	note := f.theme.Error.Render(strings.Join(lines, "\n"))
	if fld := f.form.GetFocusedField(); fld != nil {
		if v := fld.View(); v != "" {
			if i := strings.Index(body, v); i >= 0 {
				end := i + len(v)
				return body[:end] + "\n" + note + body[end:]
			}
		}
	}
	return note + "\n" + body
}

// box frames a form's body under its title, where the user is, and the
// reason the last submit failed; foot, when set, closes it.
func (f *Form) box(body, foot string) string {
	head := f.theme.Title.Render(f.title)
	if foot == "" && f.fields != nil {
		hint := "ctrl+s submits"
		if w := f.where(); w != "" {
			hint = w + " · " + hint
		}
		head += f.theme.Muted.Render("  " + hint)
	}
	head += "\n"
	if f.refused != "" {
		for _, l := range WrapWords("Not saved: "+f.refused+" Fix it, then enter on the last field or ctrl+s.", f.width) {
			head += f.theme.Error.Render(l) + "\n"
		}
	}
	out := head + "\n" + body
	if foot != "" {
		out += "\n" + foot
	}
	return f.theme.Border.Padding(0, 1).Width(f.width + 4).Render(lipgloss.NewStyle().Render(out))
}

// sendingView is the form as submitted, while its request runs.
func (f *Form) sendingView() string {
	return f.box(f.frozen, f.theme.Info.Render("Sending... the form stays open until the server answers."))
}
