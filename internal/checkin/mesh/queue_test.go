package mesh

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// The venue's queue stops answering the upstream desk (here it is taken
// away under the desk, as a queue whose copies lost their leader for good
// is to the desk): once QueueLost has passed, the desk makes the queue
// again (or, should the lease move meanwhile, the next upstream desk makes
// the missing queue), checks what it delivers against the service's
// history, and every check-in reaches the service once.
func TestVenueQueueMadeAgainSendsOnce(t *testing.T) {
	needVenue(t, "two engines, about 15 s")
	t.Parallel()
	r := newRig(t)
	var fetchSaid atomic.Bool // the courier said its queue failed it
	quick := func(o *Options) {
		o.QueueLost = 2 * time.Second
		hears(o, "take scans from the venue's queue", &fetchSaid)
	}
	a := r.openWith("Door A", quick)
	b := r.openWith("Door B", quick, a.addr)
	agreeOnUpstream(t, a, b)
	people := r.sim.RegistrantEmails(r.event)[:20]
	r.sim.SetFaults(0, 1, 0) // the service refuses every send meanwhile
	for i, p := range people {
		d := []*meshDesk{a, b}[i%2]
		if sc, err := d.Scan([]string{p}); err != nil || sc[0].Outcome != scanqueue.Pending {
			t.Fatalf("scan of %s at %s: %+v %v", p, d.Name(), sc, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := a.node.js.Stream(ctx, scansStream)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the upstream desk to hold every scan", func() bool {
		c, err := s.Consumer(ctx, courierName)
		if err != nil {
			return false
		}
		in, err := c.Info(ctx)
		return err == nil && in.NumAckPending == len(people)
	})
	if err := s.DeleteConsumer(ctx, courierName); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the queue made again", func() bool { _, err := s.Consumer(ctx, courierName); return err == nil })
	if !fetchSaid.Load() {
		t.Error("the upstream desk's courier said nothing of its queue's failing")
	}
	r.sim.SetFaults(0, 0, 0)
	r.sentOnce(t, []*meshDesk{a, b}, people)
}
