// Package teax is the one place that knows Bubble Tea's and bubbles'
// internals the console relies on: the unexported message of
// tea.Sequence, which messages are the program's own, and how to know a
// library's timer command (a text cursor's blink) by its code. Each is
// checked by this package's tests against the versions in Known, and the
// tests fail on any other version, so an upgrade starts here.
package teax

import (
	"reflect"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
)

// Known are the module versions whose internals this file was checked
// against.
var Known = map[string]string{
	"charm.land/bubbletea/v2": "v2.1.1",
	"charm.land/bubbles/v2":   "v2.2.1",
}

var (
	teaPackage = reflect.TypeFor[tea.KeyPressMsg]().PkgPath()
	cmdType    = reflect.TypeFor[tea.Cmd]()
	batchType  = reflect.TypeFor[tea.BatchMsg]()
)

// Sequence unpacks the message tea.Sequence's command answers with (an
// unexported slice of commands, run in order by the program).
func Sequence(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != cmdType || v.Type() == batchType {
		return nil, false
	}
	out := make([]tea.Cmd, v.Len())
	for i := range out {
		out[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return out, true
}

// ProgramMsg reports whether msg is one of Bubble Tea's own messages (the
// keyboard, the terminal's answers, clipboard, bell, quit): the program's,
// never a screen's reply.
func ProgramMsg(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	return t != nil && t.PkgPath() == teaPackage
}

// CodeOf is the code a command runs: every closure made by one function
// literal shares it, so one sample stands for every command of its kind.
func CodeOf(cmd tea.Cmd) uintptr {
	if cmd == nil {
		return 0
	}
	return reflect.ValueOf(cmd).Pointer()
}

// LibraryTimers are samples of the commands the libraries make that wait
// on the wall clock before they answer: a text cursor's blink.
func LibraryTimers() []tea.Cmd {
	c := cursor.New()
	c.SetMode(cursor.CursorBlink)
	return []tea.Cmd{c.Blink()}
}
