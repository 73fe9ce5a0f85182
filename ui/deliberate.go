package ui

import tea "charm.land/bubbletea/v2"

// A yes/no question is answered only by a deliberate key: one that came
// alone, not within HoldFor of another key. Keys that come together (a
// short burst such as "dy", key repeat's "yyyy", a key right after a
// scan) are a scanner's tail, a bounce or a slip, and a question they
// answered could publish or cancel an event nobody meant to. The scan
// gate says which keys came together (gateOut.hasty); the shell's own
// questions ignore them, and a screen whose question has the keys (Asker)
// gets them as a HastyKeyMsg, which answers nothing.

// Asker is a screen that has a yes/no question open now: a Confirm in its
// Dialog, or a form whose focused field is one.
type Asker interface {
	Asking() bool
}

// HastyKeyMsg is a key that came in another key's burst, given to a
// screen that is asking a question instead of the key itself: it answers
// nothing, and the question says a key on its own answers it.
type HastyKeyMsg struct{ Key tea.KeyPressMsg }

// hastyHint is what a question says once a key in a burst was refused.
const hastyHint = "keys that come together do not answer: press one key on its own"
