package ui

import tea "charm.land/bubbletea/v2"

// Internal messages that let the App count background work.
type (
	asyncStartMsg struct{}
	asyncDoneMsg  struct{ msg tea.Msg }
)

// Async runs fn in the background and counts it as in flight (the status bar
// spinner) until it returns. fn's message is then delivered like any other
// message: to every screen of the current section's stack and to the other
// sections' top screens, so a result still reaches its owner after a tab
// switch. fn must not read model fields: capture values before calling Async.
func Async(fn func() tea.Msg) tea.Cmd {
	// Sequence guarantees the start message is handled before the done one.
	return tea.Sequence(
		func() tea.Msg { return asyncStartMsg{} },
		func() tea.Msg { return asyncDoneMsg{msg: fn()} },
	)
}
