package ui

import (
	"fmt"
	"os"
	"path/filepath"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// Dialog is the one modal dialog a screen may have open at a time: a form
// or a confirmation. A screen keeps one and routes messages through it
// first; while it is open it owns the keyboard.
type Dialog struct {
	form    *Form
	confirm *Confirm
	// sending is a kept form that was submitted: it stays on screen until
	// Settle says how its request ended.
	sending *Form
	// discarding is a form with changes the user pressed esc on: it waits
	// under the question whether to throw its changes away.
	discarding    *Form
	width, height int
}

// Open reports whether a dialog is showing.
func (d *Dialog) Open() bool { return d.form != nil || d.confirm != nil || d.sending != nil }

// Settle tells a submitted kept form how its request ended: on success it
// closes; on failure it opens again with every value, err's reason at the
// top and at the field it names (field takes a reason that names none).
// Without a form being sent it does nothing.
func (d *Dialog) Settle(err error, field string) tea.Cmd {
	f := d.sending
	if f == nil {
		return nil
	}
	d.sending = nil
	if err == nil {
		return nil
	}
	return d.ShowForm(f.reopen(err, field))
}

// Asking reports whether a yes/no question has the keys: a confirmation,
// or a form's confirm field (Asker).
func (d *Dialog) Asking() bool {
	return d.confirm != nil || (d.form != nil && d.form.asking())
}

// Sending reports whether a kept form waits for its request's answer.
func (d *Dialog) Sending() bool { return d.sending != nil }

// ShowForm opens f and returns its first command.
func (d *Dialog) ShowForm(f *Form) tea.Cmd {
	f.SetSize(d.width, d.height)
	d.form, d.confirm, d.discarding = f, nil, nil
	return f.Init()
}

// Ask opens a yes/no question; onYes runs, inside Update, if the user
// agrees.
func (d *Dialog) Ask(theme *Theme, question string, dangerous bool, onYes func() tea.Cmd) {
	c := NewConfirm(theme, question, dangerous, onYes)
	c.SetWidth(d.width)
	d.form, d.confirm, d.discarding = nil, &c, nil
}

// Update feeds the open dialog. handled is false when none is open, and the
// screen handles msg itself.
func (d *Dialog) Update(msg tea.Msg) (cmd tea.Cmd, handled bool) {
	switch {
	case d.form != nil:
		f := d.form
		if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "esc" && f.Changed() {
			d.askDiscard(f)
			return nil, true
		}
		cmd, done := f.Update(msg)
		if done && d.form == f { // onSubmit may have opened another dialog
			d.form = nil
			if f.build != nil && f.form.State == huh.StateCompleted {
				d.sending = f
			}
		}
		return cmd, true
	case d.sending != nil:
		// Keys wait for the answer; the shell's ctrl+c still works.
		_, isKey := msg.(tea.KeyPressMsg)
		return nil, isKey
	case d.confirm != nil:
		c, cmd, done := d.confirm.Update(msg)
		d.confirm = &c
		if done {
			d.confirm = nil
			if f := d.discarding; f != nil {
				d.discarding = nil
				if !c.Confirmed() { // back to the form, every value kept
					d.form = f
				}
			}
		}
		return cmd, true
	}
	return nil, false
}

// askDiscard asks before esc throws away a form with changes: every form
// follows this one rule (nothing typed is lost without a yes); no, esc
// again or a stray enter go back to the form as it was.
func (d *Dialog) askDiscard(f *Form) {
	c := NewConfirm(f.theme, "Discard what you typed in "+f.title+"?", true, nil)
	c.SetWidth(d.width)
	d.form, d.confirm, d.discarding = nil, &c, f
}

// QuitReason is why quitting now would lose work ("" when it would not): a
// form with changes is open. Screens with a dialog return it from
// ConfirmQuit, so ctrl+c asks first.
func (d *Dialog) QuitReason() string {
	if (d.form != nil && d.form.Changed()) || d.discarding != nil {
		return "a form with changes is open"
	}
	if d.sending != nil {
		return "a form is being sent"
	}
	return ""
}

// SetSize fits dialogs, open or to come, into w x h.
func (d *Dialog) SetSize(w, h int) {
	d.width, d.height = w, h
	if d.form != nil {
		d.form.SetSize(w, h)
	}
	if d.confirm != nil {
		d.confirm.SetWidth(w)
	}
}

// View draws the open dialog centred over base (w x h), or base alone.
func (d *Dialog) View(base string, w, h int) string {
	switch {
	case d.form != nil:
		return Modal(base, d.form.View(), w, h)
	case d.confirm != nil:
		return Modal(base, d.confirm.View(), w, h)
	case d.sending != nil:
		return Modal(base, d.sending.sendingView(), w, h)
	}
	return base
}

// ShortHelp lists the open confirmation's keys; a form shows its own, and
// with no dialog open it is nil.
func (d *Dialog) ShortHelp() []key.Binding {
	if d.confirm != nil {
		return d.confirm.Keys().ShortHelp()
	}
	return nil
}

// Replace runs write when nothing is at path, and asks first when a file
// is: a save or export never replaces a file without a yes.
func (d *Dialog) Replace(theme *Theme, path string, write func() tea.Cmd) tea.Cmd {
	if _, err := os.Stat(path); err != nil {
		return write()
	}
	d.Ask(theme, ReplaceQuestion(path), true, write)
	return nil
}

// ReplaceQuestion asks whether to replace the file at path. The question
// names the file by its base name and puts the folder, whose length varies,
// on a line of its own, so the question reads whole at 80 columns.
func ReplaceQuestion(path string) string {
	return fmt.Sprintf("%s already exists. Replace it?\n(in %s)",
		sanitize.Line(filepath.Base(path)), sanitize.Line(filepath.Dir(path)))
}
