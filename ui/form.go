package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
)

// Form is a huh form shown as a dialog inside a screen. Enter on the last
// field submits, esc abandons; the shell's ctrl+c still quits.
type Form struct {
	form     *huh.Form
	title    string
	theme    *Theme
	onSubmit func() tea.Cmd
	width    int
}

// NewForm builds a dialog; onSubmit runs inside the screen's Update once
// the last field validates, so it reads the values the fields were bound to
// and may change the screen (mark it busy, start the call).
func NewForm(theme *Theme, title string, onSubmit func() tea.Cmd, groups ...*huh.Group) *Form {
	keys := huh.NewDefaultKeyMap()
	keys.Quit = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))
	f := huh.NewForm(groups...).WithKeyMap(keys).WithShowHelp(true).
		WithTheme(huh.ThemeFunc(func(dark bool) *huh.Styles {
			if theme.NoColor {
				return huh.ThemeBase(dark)
			}
			return huh.ThemeCharm(theme.Dark)
		}))
	return &Form{form: f, title: title, theme: theme, onSubmit: onSubmit, width: 60}
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

// Init focuses the first field.
func (f *Form) Init() tea.Cmd { return f.form.Init() }

// Update feeds the form; done reports that it was submitted or abandoned.
func (f *Form) Update(msg tea.Msg) (cmd tea.Cmd, done bool) {
	m, cmd := f.form.Update(msg)
	if hf, ok := m.(*huh.Form); ok {
		f.form = hf
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

// View renders the dialog box.
func (f *Form) View() string {
	body := f.theme.Title.Render(f.title) + "\n\n" + f.form.View()
	return f.theme.Border.Padding(0, 1).Width(f.width + 4).Render(lipgloss.NewStyle().Render(body))
}
