package ui

import tea "charm.land/bubbletea/v2"

// Optional interfaces a Screen may implement; the shell checks for them with
// type assertions so simple screens need none.

// QuitGuard lets a screen hold up quitting: a non-empty message (such as
// "3 check-ins not yet sent") makes the shell ask "message — quit anyway?".
type QuitGuard interface {
	ConfirmQuit() string
}

// BackCapturer reports true while esc has a local meaning on the screen (an
// applied filter, an open dialog), so the shell passes esc on instead of
// popping the screen.
type BackCapturer interface {
	CapturingBack() bool
}

// Closer is called when a screen leaves the stack (popped, or the program
// quits), so it can cancel its in-flight calls.
type Closer interface {
	Close()
}

// StatusReporter lets the focused screen put a short word-based status in
// the shell's status bar, such as a check-in desk's "ONLINE · 2 pending".
type StatusReporter interface {
	StatusText() string
}

// ExactViewer is a screen whose View is, when ViewIsExact says so, exactly
// its size: as many lines as it is high, each as wide as it is wide. The
// shell then takes it as it is instead of measuring every line again.
type ExactViewer interface {
	ViewIsExact() bool
}

// Locker keeps the console on a screen (a kiosk desk): while Locked returns
// a message, the shell neither quits (ctrl+c) nor switches section, and
// shows the message instead. The screen refuses to leave on its own keys.
type Locker interface {
	Locked() string
}

// Background is work a screen leaves running after it has gone (a desk
// still sending its scans): it holds up quitting as a screen's QuitGuard
// does, and closes when the console quits. See Keep.
type Background interface {
	QuitGuard
	Closer
}

// KeepMsg hands the shell background work; see Keep.
type KeepMsg struct{ Work Background }

// Keep hands the shell work that outlives the screen that started it: the
// shell asks before quitting while it reports something waiting, from
// whatever screen the user is on, closes it when the console quits, and
// forgets it once nothing waits.
func Keep(w Background) tea.Cmd { return func() tea.Msg { return KeepMsg{Work: w} } }
