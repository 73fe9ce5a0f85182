package mesh

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// An upstream desk that closes gives its lease up only as it last renewed
// it: a lease another desk has taken meanwhile stays that desk's (deleted,
// the venue would choose again for nothing).
func TestVenueClosingDeskLeavesALeaseItLost(t *testing.T) {
	needVenue(t, "two engines, about 15 s")
	t.Parallel()
	r := newRig(t)
	// A heartbeat slow enough that the upstream desk does not renew (and
	// learn of the loss) between the other's taking and its closing.
	slow := func(o *Options) { o.Tick, o.LeaseTTL = 2*time.Second, 10*time.Second }
	a := r.openWith("Door A", slow)
	b := r.openWith("Door B", slow, a.addr)
	up, other := a, b
	if agreeOnUpstream(t, a, b) == b.Name() {
		up, other = b, a
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	taken := encode(lease{Node: other.node.id, Desk: other.Name()})
	if _, err := other.node.leaseKV.Put(ctx, upstreamKey, taken); err != nil {
		t.Fatal(err)
	}
	if err := up.Close(); err != nil {
		t.Fatal(err)
	}
	e, err := other.node.leaseKV.Get(ctx, upstreamKey)
	if err != nil || e.Operation() != jetstream.KeyValuePut {
		t.Fatalf("%s closing took %s's lease away: %v", up.Name(), other.Name(), err)
	}
	if l, _ := decode[lease](e.Value()); l.Node != other.node.id {
		t.Fatalf("the lease after %s closed: %+v", up.Name(), l)
	}
}
