package mesh

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A desk whose engine reaches the venue's other desks but gets no answer
// from the venue's stores (here: every binding fails until its engine
// starts again) starts its engine again after StuckAfter, says so, and
// then joins the venue.
func TestVenueEngineStuckStartsAgainAndJoins(t *testing.T) {
	needVenue(t, "two engines, about 25 s")
	t.Parallel()
	r := newRig(t)
	a := r.open("Door A")
	var engines atomic.Int32 // engines Door B started: the probe's, then the stuck one
	var mu sync.Mutex
	var said []string
	b := r.openWith("Door B", func(o *Options) {
		// Longer than an election of two engines after one starts again.
		o.StuckAfter = 10 * time.Second
		o.failSetup = func() error {
			if engines.Load() < 2 {
				return errors.New("no answer from the venue (test)")
			}
			return nil
		}
		logf := o.Logf
		o.Logf = func(f string, args ...any) {
			logf(f, args...)
			if strings.HasPrefix(f, "venue: met another desk") || strings.Contains(f, "starting it again") {
				engines.Add(1)
			}
			mu.Lock()
			said = append(said, f)
			mu.Unlock()
		}
	}, a.addr)
	waitFor(t, "Door B meshed", func() bool { return b.node.Info().State == "meshed" })
	mu.Lock()
	defer mu.Unlock()
	if engines.Load() < 2 {
		t.Fatalf("Door B started %d engines with its store; said: %q", engines.Load(), said)
	}
	waitFor(t, "Door A to see Door B", func() bool { return len(a.node.Info().Desks) == 2 })
}
