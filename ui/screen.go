// Package ui holds the console shell (tabs, screen stack, status bar, help,
// toasts), the theme and reusable components. It never imports views.
package ui

import (
	"log/slog"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// Screen is one page of the console. Only the root model returns a tea.View;
// screens render plain strings sized by SetSize.
type Screen interface {
	Init() tea.Cmd
	Update(tea.Msg) (Screen, tea.Cmd)
	View() string
	SetSize(width, height int)
	// Title is the screen's breadcrumb.
	Title() string
	help.KeyMap
}

// InputCapturer is implemented by screens that currently own the keyboard
// (a focused text input, a form, an open filter). While it reports true, the
// shell does not act on its own keys (q, tab, ?, esc) and passes every key on.
type InputCapturer interface {
	CapturingInput() bool
}

// Section is a top-level tab: a name and the screen it opens on.
type Section struct {
	Name string
	New  func(*Context) Screen
	// Palette: the section's root offers items to the command palette
	// (PaletteSource, the events list): the palette opens it, in the
	// background, when it has not been opened yet, so what the palette
	// finds never depends on which tabs were visited.
	Palette bool
}

// Context is the program-wide state handed to every component: size, theme,
// keys, logger and labels for the status bar. One per program, never global.
type Context struct {
	Width, Height int
	Theme         *Theme
	Keys          *GlobalKeys
	Log           *slog.Logger
	// Now is the clock for times the console shows (default time.Now).
	Now func() time.Time
	// OpenURL opens a web address in the user's browser (the login's
	// opener); nil where there is none, and then the address is shown.
	OpenURL func(string) error
	// NoMouse leaves the mouse to the terminal (text selection as usual).
	NoMouse bool
	// Retries is what the API client retries now, counted in the status
	// bar while work is in flight; nil when the client does not tell.
	Retries *RetryNote
	// Profile names the active profile; Demo marks the embedded simulator.
	Profile string
	Account string
	Demo    bool
	// Insecure, when set, is the warning of a profile that talks plain
	// http to another machine: the status bar says INSECURE HTTP all along.
	Insecure string
	// ReadOnly, when not "", says why the session is read-only (--read-only,
	// read_only = true, EVDESK_READ_ONLY): every action that writes is
	// unavailable, with this reason.
	ReadOnly string
	// ThemeMode is the theme asked for: auto (default), dark, light or
	// high-contrast. ReduceMotion stops the spinner.
	ThemeMode    string
	ReduceMotion bool
}

// Navigation and status messages, produced by the helpers below.
type (
	PushMsg  struct{ Screen Screen }
	PopMsg   struct{}
	ToastMsg struct {
		Level ToastLevel
		Text  string
		// Op and Err, for a failure (see Fail), name the operation and keep
		// the error for the recent-errors panel.
		Op  string
		Err error
		// For, when set, is how long a failure stays in the status bar
		// when its cause ends sooner than ErrorTTL (a wait).
		For time.Duration
	}
)

// ToastLevel sets a toast's colour and mark.
type ToastLevel int

const (
	ToastInfo ToastLevel = iota
	ToastSuccess
	ToastError
)

// now reads the context's clock.
func (c *Context) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// broadcastMsg carries news every open screen may care about.
type broadcastMsg struct{ msg tea.Msg }

// Broadcast tells every open screen, in every section, that something
// changed (an event was published, say), so lists elsewhere can refresh.
// Replies never need it: they reach the screen that asked on their own.
func Broadcast(msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return broadcastMsg{msg: msg} }
}

// Push opens s on top of the stack.
func Push(s Screen) tea.Cmd { return func() tea.Msg { return PushMsg{Screen: s} } }

// SectionMsg switches to the section of that name; see GoToSection.
type SectionMsg struct{ Name string }

// GoToSection switches to a section by name, as its tab does.
func GoToSection(name string) tea.Cmd { return func() tea.Msg { return SectionMsg{Name: name} } }

// Pop returns to the previous screen.
func Pop() tea.Cmd { return func() tea.Msg { return PopMsg{} } }

// Toast shows a self-clearing message in the status area.
func Toast(level ToastLevel, text string) tea.Cmd {
	return func() tea.Msg { return ToastMsg{Level: level, Text: text} }
}
