package mesh

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// A meshed desk whose heartbeat goes through but whose claims get no
// answer (here: until its engine starts again) works alone after CutOff,
// so its scans do not wait on a venue that does not hold them, starts its
// engine again and rejoins; every check-in reaches the service once.
func TestVenueRecordsLostStartsTheEngineAgain(t *testing.T) {
	needVenue(t, "two engines, about 25 s")
	t.Parallel()
	r := newRig(t)
	a := r.open("Door A")
	var broken, again atomic.Bool
	b := r.openWith("Door B", func(o *Options) {
		o.CutOff = 3 * time.Second
		o.failRecords = func() error {
			if broken.Load() && !again.Load() {
				return errors.New("nats: no response from stream (test)")
			}
			return nil
		}
		logf := o.Logf
		o.Logf = func(f string, args ...any) {
			logf(f, args...)
			if broken.Load() && strings.Contains(f, "share of the venue again") {
				again.Store(true)
			}
		}
	}, a.addr)
	for _, d := range []*meshDesk{a, b} {
		waitFor(t, d.Name()+" meshed", func() bool { return d.node.Info().State == "meshed" })
	}
	people := r.sim.RegistrantEmails(r.event)[:6]
	broken.Store(true)
	for _, p := range people {
		if sc, err := b.Scan([]string{p}); err != nil || sc[0].Outcome != scanqueue.Pending {
			t.Fatalf("scan of %s: %+v %v", p, sc, err)
		}
	}
	waitFor(t, "Door B to start its engine again", again.Load)
	waitFor(t, "Door B meshed again", func() bool { return b.node.Info().State == "meshed" })
	r.sentOnce(t, []*meshDesk{a, b}, people)
	waitFor(t, "Door A to know every person", func() bool {
		for _, p := range people {
			if _, ok := a.Arrivals().Lookup(p); !ok {
				return false
			}
		}
		return true
	})
}
