package scancode

import (
	"fmt"
	"unicode/utf8"

	"github.com/evdesk/evdesk/internal/sanitize"
)

// shownRunes is how much of a refused scan its message quotes: enough to
// recognise it on a desk's status line.
const shownRunes = 48

// Error is a scan Read did not understand.
type Error struct {
	Read   string // the start of what was read, safe for a terminal
	Size   int    // bytes read
	Reason string // what it looked like and why it was refused; may be empty
}

func (e *Error) Error() string {
	switch {
	case e.Read == "":
		return fmt.Sprintf("%s; expected %s", e.Reason, Expected)
	case e.Reason == "":
		return fmt.Sprintf("read %q; expected %s", e.Read, Expected)
	}
	return fmt.Sprintf("read %q: %s; expected %s", e.Read, e.Reason, Expected)
}

// shown is the start of s made safe for one terminal line, ending in "…"
// when cut. Only a bounded prefix is sanitised, whatever the size of s.
func shown(s string) string {
	cut := false
	if len(s) > 4*shownRunes {
		s, cut = s[:4*shownRunes], true
	}
	s = sanitize.Line(s)
	if utf8.RuneCountInString(s) > shownRunes {
		s, cut = string([]rune(s)[:shownRunes-1]), true
	}
	if cut {
		s += "…"
	}
	return s
}
