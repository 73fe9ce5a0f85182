package mesh

import (
	"context"
	"testing"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/roster"
)

// The roster a venue shares carries its desks' clock, as a lone desk's
// roster does: a desk whose clock is not the wall clock (a test's, or one
// set by hand) shares its own roster, fresh by that clock, and does not
// download it again stamped by another clock.
//
// Two engines and a roster download take about 11 s of elections and
// leases: it runs with the venue tests (EVDESK_VENUE_E2E, set by .ci/run).
func TestVenueSharedRosterCarriesTheDesksClock(t *testing.T) {
	needVenue(t, "two engines sharing a roster, about 11 s")
	t.Parallel()
	r := newRig(t)
	at := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	r.now = func() time.Time { return at }
	d := r.open("Door A")
	r.open("Door B", d.addr)
	var shared *roster.Roster
	waitFor(t, "the venue's roster", func() bool {
		d.node.mu.Lock()
		obs := d.node.rosters
		d.node.mu.Unlock()
		if obs == nil {
			return false
		}
		data, err := obs.GetBytes(context.Background(), "roster."+targetOf(r.event, ""))
		if err != nil {
			return false
		}
		shared, err = roster.Decode(data, r.event)
		return err == nil
	})
	if !shared.Updated().Equal(at) {
		t.Fatalf("the shared roster was updated at %v by the desks' clock %v", shared.Updated(), at)
	}
}
