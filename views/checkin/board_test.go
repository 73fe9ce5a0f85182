package checkin

import (
	"testing"
)

// F4 shows the arrivals board in place of the result box, live: checked in
// against registered, per desk, the chart, the latest arrivals and each
// session's count; F4 or esc hides it and the scan input keeps working.
func TestDeskBoardFromAFunctionKey(t *testing.T) {
	r := newRig(t, withSize(120, 36))
	r.settle("ONLINE", "roster 20,000")
	r.checkInAs("Door B", r.registered(50), r.registered(51))
	r.Send(ctrl('r'))
	r.settle("All desks 2 of 20,000")
	r.Send(fkey(4))
	r.Contains("ARRIVALS BOARD", "Checked in 2 of 20,000 (0%)", "Check-ins by desk", "Door B", "Check-ins by session",
		"Opening Keynote", "Latest arrivals", r.registered(50))
	// Letters are still scans under the board.
	who := r.registered(52)
	r.scan(who)
	r.settle("Checked in 3 of 20,000", "evdesk desk test")
	r.Contains("[OK] CHECKED IN", who)
	r.Golden("board_120x36")
	r.Press("esc")
	r.Lacks("ARRIVALS BOARD")
	r.Contains("[OK] CHECKED IN")
	r.Send(fkey(4))
	r.Contains("ARRIVALS BOARD")
	r.Send(fkey(4))
	r.Lacks("ARRIVALS BOARD")
}

// `evdesk desk --board` is the board alone: it syncs the history itself
// and fits 80x24.
func TestBoardScreenAlone(t *testing.T) {
	r := newRig(t, boardOnly(), withSize(80, 24))
	r.Contains("ARRIVALS BOARD", "Checked in 0 of 20,000")
	r.checkInAs("Door A", r.registered(53))
	r.Press("r")
	r.Contains("Checked in 1 of 20,000", "Door A")
	r.Golden("board_80x24")
}
