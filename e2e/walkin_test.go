package e2e

import (
	"testing"
)

// A person who is not registered is registered at the desk and checked in,
// as an operator does it: the scan answers NOT REGISTERED, F5 opens the
// walk-in form with their address, a name and Enter through the rest, and
// the box says CHECKED IN with their name; the search finds them by it.
func TestWalkInEndToEnd(t *testing.T) {
	t.Parallel()
	requireCheckinCommands(t)
	id, _ := largeEvent()
	tm := startTerm(t, 80, 24, "desk", id, "--demo", "--desk", "Door-W")
	tm.waitText("CHECK-IN DESK", "ONLINE", "roster 20,000")
	tm.personTypes("walk.in@example.org")
	tm.keys("Enter")
	tm.waitText("[!!] NOT REGISTERED", "F5: register them as a walk-in")
	tm.keys("F5")
	tm.waitText("Walk-in: register and check in", "First name")
	tm.fillWalkIn("Wally", "Inn", "Contoso", "walk.in@example.org")
	tm.waitText("[OK] CHECKED IN", "Wally Inn (Contoso)", "This desk today 1")
	tm.keys("C-f")
	tm.keys("-l", "wally")
	tm.waitText("Wally Inn", "walk.in@example.org")
	tm.keys("Enter") // checks the chosen one in: already, from this desk
	tm.waitText("ALREADY CHECKED IN")
	tm.waitGone("Find a registrant")
	tm.keys("C-c")
	if st := tm.exitStatus(); st != "0" {
		t.Fatalf("exit status %s", st)
	}
}

// fillWalkIn answers the open walk-in form as an operator does: the first
// name (or the rest of it), last name and company typed, then Enter
// through the address as filled in and the first ticket type.
func (tm *term) fillWalkIn(first, last, company, email string) {
	tm.t.Helper()
	for _, text := range []string{first, last, company} {
		tm.keys("-l", text)
		tm.keys("Enter")
	}
	tm.waitText(email)
	tm.keys("Enter") // the address, as filled in
	tm.waitText("Ticket type")
	tm.keys("Enter") // the first ticket type
}
