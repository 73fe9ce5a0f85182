// Package timer knows which commands wait on the wall clock before they
// answer (the console's own, made by After, and a text cursor's blink), so
// the test
// driver can leave them unrun and a frame is the same on every run. It
// recognises a command by the code it runs, never by its name, and the
// shell keeps timers recognisable when it addresses their messages (Map).
package timer

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui/internal/teax"
)

// codes holds the entry point of every kind of timer command. Closures made
// by one function literal share their code, so one sample of each kind
// stands for all.
var codes = map[uintptr]bool{}

func register(cmd tea.Cmd) {
	if cmd != nil {
		codes[teax.CodeOf(cmd)] = true
	}
}

func init() {
	register(After(time.Second, nil))
	register(Map(func() tea.Msg { return nil }, nil))
	for _, c := range teax.LibraryTimers() {
		register(c)
	}
}

// After answers fn(now) once d has passed. The console's own timers all
// use it (never tea.Tick, whose closures the compiler may inline into each
// caller, giving each its own code).
//
//go:noinline
func After(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(d)
		defer t.Stop()
		now := <-t.C
		if fn == nil {
			return nil
		}
		return fn(now)
	}
}

// Is reports whether cmd waits on the wall clock before it answers.
func Is(cmd tea.Cmd) bool {
	return cmd != nil && codes[teax.CodeOf(cmd)]
}

// Map returns a timer command that answers what cmd answers, passed
// through f; it is itself recognised by Is.
//
//go:noinline
func Map(cmd tea.Cmd, f func(tea.Msg) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg := cmd()
		if f == nil {
			return msg
		}
		return f(msg)
	}
}
