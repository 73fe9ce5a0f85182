package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Action is one thing a screen lets the user do, declared once: its key,
// its help, whether it is dangerous, why it cannot be done now, and what it
// does. Dispatch, the help panels and the README's cheatsheet all read the
// same declarations.
type Action struct {
	// Key is a binding of the console's vocabulary (Context.Keys); Help
	// names the action in the screen's words ("add co-editors"), or the
	// vocabulary's help is used.
	Key  key.Binding
	Help string
	// Dangerous actions ask first: Confirm writes the question (default:
	// the help text and a question mark), and No is the default answer.
	Dangerous bool
	Confirm   func() string
	// Why returns why the action cannot be done now ("" when it can); the
	// reason is shown instead of running it.
	Why func() string
	// Run does the action, inside the screen's Update; RunKey, when set,
	// does it instead and is told which key it was (for a binding of several
	// keys such as the number keys).
	Run    func() tea.Cmd
	RunKey func(tea.KeyPressMsg) tea.Cmd
	// Minor actions stay out of the one-line help (the ? panel lists all).
	Minor bool
	// Writes marks an action that changes the account: in a read-only
	// session it is unavailable, with the session's reason.
	Writes bool
}

// Binding is the action's key with its help text.
func (a Action) Binding() key.Binding {
	b := a.Key
	if a.Help != "" {
		b.SetHelp(b.Help().Key, a.Help)
	}
	return b
}

// Actions is a screen's list of actions.
type Actions []Action

// Dispatch runs the action k selects: it says why when the action is not
// available (a write in a read-only session, or its own reason), asks
// first when it is dangerous (in d), else runs it. handled is false when
// no action has the key.
func (as Actions) Dispatch(k tea.KeyPressMsg, d *Dialog, ctx *Context) (cmd tea.Cmd, handled bool) {
	th := ctx.Theme
	for _, a := range as {
		if !key.Matches(k, a.Key) {
			continue
		}
		if a.Writes && ctx.ReadOnly != "" {
			return Toast(ToastInfo, ReadOnlyWhy(ctx, a.Binding().Help().Desc)), true
		}
		if a.Why != nil {
			if why := a.Why(); why != "" {
				return Toast(ToastInfo, why), true
			}
		}
		if a.Dangerous {
			q := a.Binding().Help().Desc + "?"
			if a.Confirm != nil {
				q = a.Confirm()
			}
			d.Ask(th, q, true, a.Run)
			return nil, true
		}
		if a.RunKey != nil {
			return a.RunKey(k), true
		}
		return a.Run(), true
	}
	return nil, false
}

// ShortHelp lists the actions for the one-line help by importance: the
// major ones, then the minor ones, then those that cannot be done now (a
// draft's publish on a published event); the line shows what fits (ending
// in …) and ? lists them all.
func (as Actions) ShortHelp() []key.Binding {
	out := make([]key.Binding, 0, len(as))
	var later []key.Binding
	for _, minor := range []bool{false, true} {
		for _, a := range as {
			switch {
			case a.Minor != minor:
			case a.Why != nil && a.Why() != "":
				later = append(later, a.Binding())
			default:
				out = append(out, a.Binding())
			}
		}
	}
	return append(out, later...)
}

// FullHelp lists every action, for the ? panel.
func (as Actions) FullHelp() []key.Binding {
	out := make([]key.Binding, len(as))
	for i, a := range as {
		out[i] = a.Binding()
	}
	return out
}

// ReadOnlyWhy says why a write (named by what, "new event") is unavailable
// in a read-only session.
func ReadOnlyWhy(ctx *Context, what string) string {
	return "Read-only: " + what + " is unavailable (" + ctx.ReadOnly + ")."
}
