package e2e

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
)

// TestVenueBoardSeesTheSplit: a supervisor's board watching a venue of two
// doors stops saying MESHED once one door is gone: the other works alone,
// and the board, which no longer hears any desk, says CUT OFF and counts
// no desk present (QA: it said MESHED · 2 desks after the split).
func TestVenueBoardSeesTheSplit(t *testing.T) {
	needVenueE2E(t)
	t.Parallel()
	v, a, b := twoMeshedDoors(t)
	cmd := v.command(t.TempDir(), "desk", v.event, "--board", "--venue", v.file, "--listen", freeAddr(t), "--join", a.addr, "--no-mdns")
	tm := launch(t, 80, 24, cmd.Env, "", binPath+" "+strings.Join(cmd.Args[1:], " "))
	tm.waitText("Venue: MESHED", "2 desks")
	_ = b.cmd.Process.Signal(syscall.SIGTERM)
	<-b.exited
	a.waitVenue(t, "Door A alone", time.Minute, func(state, _ string, _ int) bool { return state == "alone" })
	tm.waitText("Venue: CUT OFF", "0 desks")
}

// twoMeshedDoors starts Door A and Door B and waits until both say they
// form one venue.
func twoMeshedDoors(t *testing.T) (v *venueRig, a, b *deskProc) {
	v = newVenueRig(t, sim.Options{NoRateLimit: true})
	a = v.startDesk("Door A")
	b = v.startDesk("Door B", a.addr)
	for _, d := range []*deskProc{a, b} {
		d.waitVenue(t, "a venue of two desks", time.Minute, func(state, up string, n int) bool {
			return state == "meshed" && up != "" && n == 2
		})
	}
	return v, a, b
}
