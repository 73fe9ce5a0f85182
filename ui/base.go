package ui

import (
	"context"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// ScreenBase is what every screen embeds (soft-serve's common component):
// the one dialog it may have open, its actions and their dispatch, the
// change in flight and why nothing else starts meanwhile, its heading,
// what captures the keyboard and esc, and its help. A screen is its
// configuration, its own messages and its actions; the rest is here.
type ScreenBase struct {
	Ctx    *Context
	Dialog Dialog

	cfg           ScreenConfig
	busy          string // the change in flight ("" when none)
	work          Task
	width, height int
}

// ScreenConfig describes a screen to its base.
type ScreenConfig struct {
	// Actions are what the screen lets the user do, built afresh for each
	// key so that each Why reads the screen as it is now.
	Actions func() Actions
	// List is the screen's filterable list (a table), if it has one: while
	// its filter has the keyboard the actions wait, and esc clears an
	// applied filter before it leaves the screen.
	List Filterer
	// Refresh, when set, loads the screen's data again: its key is the
	// last of the actions.
	Refresh func() tea.Cmd
	// Help are keys the one-line help lists after the actions (the list's
	// filter); Nav is the ? panel's second column (moving in the list).
	Help, Nav []key.Binding
	// Body takes what neither the dialog nor the actions took: the list or
	// the pane that fills the screen (Feed), or the screen's own handling.
	Body func(tea.Msg) tea.Cmd
	// Typing: the screen's input has every key (a desk a scanner types
	// into), so the shell's single-key shortcuts never act over it, and
	// esc is always the screen's.
	Typing bool
	// Waiting, when set, is true while the screen has nothing to act on
	// (its data has not loaded, its service is not set up; the page says
	// so): the one-line help then lists refresh alone. The actions still
	// answer, each with its why-not.
	Waiting func() bool
}

// Feed is a Body that updates the component at m in place (a table, a
// viewport).
func Feed[M interface{ Update(tea.Msg) (M, tea.Cmd) }](m *M) func(tea.Msg) tea.Cmd {
	return func(msg tea.Msg) tea.Cmd {
		var cmd tea.Cmd
		*m, cmd = (*m).Update(msg)
		return cmd
	}
}

// Filterer is a list with a filter: ui/table's Model.
type Filterer interface {
	Filtering() bool
	FilterText() string
}

// NewScreenBase builds the base of a screen.
func NewScreenBase(ctx *Context, cfg ScreenConfig) ScreenBase {
	return ScreenBase{Ctx: ctx, cfg: cfg}
}

// Configure replaces the base's configuration (for a screen that builds
// its parts after its base).
func (b *ScreenBase) Configure(cfg ScreenConfig) { b.cfg = cfg }

// SetRefresh sets what the refresh key does.
func (b *ScreenBase) SetRefresh(fn func() tea.Cmd) { b.cfg.Refresh = fn }

// Actions are the screen's actions with refresh last.
func (b *ScreenBase) Actions() Actions {
	var as Actions
	if b.cfg.Actions != nil {
		as = b.cfg.Actions()
	}
	if b.cfg.Refresh != nil {
		as = append(as, Action{Key: b.Ctx.Keys.Refresh, Minor: true, Run: b.cfg.Refresh})
	}
	return as
}

// Update routes what the screen did not handle itself: through the open
// dialog, then, for a key while no filter is typed into, to the actions,
// and what neither took to the Body.
func (b *ScreenBase) Update(msg tea.Msg) tea.Cmd {
	if cmd, handled := b.Dialog.Update(msg); handled {
		return cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && !b.filtering() {
		if cmd, handled := b.Actions().Dispatch(k, &b.Dialog, b.Ctx); handled {
			return cmd
		}
	}
	if b.cfg.Body != nil {
		return b.cfg.Body(msg)
	}
	return nil
}

// Activate runs the action on enter, for a double click on a row.
func (b *ScreenBase) Activate() tea.Cmd {
	cmd, _ := b.Actions().Dispatch(tea.KeyPressMsg{Code: tea.KeyEnter}, &b.Dialog, b.Ctx)
	return cmd
}

func (b *ScreenBase) filtering() bool { return b.cfg.List != nil && b.cfg.List.Filtering() }

// Do runs a change on the server in the background: the screen is busy
// (its heading says op) until fn's message arrives and the screen calls
// Done. Leaving the screen does not cancel it: a requested change should
// not be cut in half.
func (b *ScreenBase) Do(op string, fn func() tea.Msg) tea.Cmd {
	b.busy = op
	return b.work.Detached(fn)
}

// Start is Do for work that leaving the screen cancels (a transcription,
// a count): Close stops it.
func (b *ScreenBase) Start(op string, fn func(ctx context.Context) tea.Msg) tea.Cmd {
	b.busy = op
	return b.work.Run(fn)
}

// Done ends the work in flight.
func (b *ScreenBase) Done() { b.busy = "" }

// Close cancels work started with Start; a change started with Do goes
// on.
func (b *ScreenBase) Close() {
	if b.work.cancel != nil {
		b.work.Stop()
	}
}

// Busy names the work in flight ("" when none).
func (b *ScreenBase) Busy() string { return b.busy }

// NotBusy is an Action.Why: nothing else starts while work is in flight.
func (b *ScreenBase) NotBusy() string {
	if b.busy != "" {
		return "Wait: " + b.busy + " is still in progress"
	}
	return ""
}

// SetSize records the screen's size and fits the dialog to it.
func (b *ScreenBase) SetSize(w, h int) {
	b.width, b.height = w, h
	b.Dialog.SetSize(w, h)
}

// Width and Height are the screen's size.
func (b *ScreenBase) Width() int  { return b.width }
func (b *ScreenBase) Height() int { return b.height }

// Heading is the screen's title line, one line wide: the (rendered) title
// and in words what the screen is doing (the work in flight unless st
// names other).
func (b *ScreenBase) Heading(title string, st LoadState) string {
	if st.Busy == "" {
		st.Busy = b.busy
	}
	return Fit(Heading(b.Ctx.Theme, title, st), b.width, 1)
}

// Frame draws the open dialog over the screen's body.
func (b *ScreenBase) Frame(body string) string { return b.Dialog.View(body, b.width, b.height) }

// ConfirmQuit holds up quitting while a form with changes is open.
func (b *ScreenBase) ConfirmQuit() string { return b.Dialog.QuitReason() }

// CapturingInput is true while a dialog or the list's filter has the
// keyboard, and always for a Typing screen.
func (b *ScreenBase) CapturingInput() bool { return b.cfg.Typing || b.Dialog.Open() || b.filtering() }

// Asking reports whether the dialog asks a yes/no question (Asker).
func (b *ScreenBase) Asking() bool { return b.Dialog.Asking() }

// CapturingBack is true while esc means something here: it closes a
// dialog, clears the list's filter, or is one of the actions.
func (b *ScreenBase) CapturingBack() bool {
	if b.CapturingInput() || (b.cfg.List != nil && b.cfg.List.FilterText() != "") {
		return true
	}
	back := b.Ctx.Keys.Back.Keys()
	return slices.ContainsFunc(b.Actions(), func(a Action) bool {
		return slices.ContainsFunc(a.Key.Keys(), func(k string) bool { return slices.Contains(back, k) })
	})
}

// ShortHelp is the open dialog's keys, nothing while the filter is typed
// into (its line says how it works), refresh alone while Waiting, else
// the actions and Help.
func (b *ScreenBase) ShortHelp() []key.Binding {
	switch {
	case b.Dialog.Open():
		return b.Dialog.ShortHelp()
	case b.filtering():
		return nil
	case b.cfg.Waiting != nil && b.cfg.Waiting():
		if b.cfg.Refresh == nil {
			return nil
		}
		return []key.Binding{b.Ctx.Keys.Refresh}
	}
	return append(b.Actions().ShortHelp(), b.cfg.Help...)
}

// FullHelp is every action, then Nav.
func (b *ScreenBase) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	if as := b.Actions(); len(as) > 0 {
		out = append(out, as.FullHelp())
	}
	if len(b.cfg.Nav) > 0 {
		out = append(out, notListed(b.cfg.Nav, out))
	}
	return out
}

// notListed is keys without those whose key a column of listed already
// shows (a screen's own action on a list key, such as its filter).
func notListed(keys []key.Binding, listed [][]key.Binding) []key.Binding {
	var out []key.Binding
	for _, k := range keys {
		shown := false
		for _, col := range listed {
			shown = shown || slices.ContainsFunc(col, func(l key.Binding) bool { return l.Help().Key == k.Help().Key })
		}
		if !shown {
			out = append(out, k)
		}
	}
	return out
}
