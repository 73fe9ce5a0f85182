package mesh

import (
	"net"
	"strconv"
	"testing"

	"github.com/nats-io/nats-server/v2/server"
)

// Two desks' engines share one route, which carries the engines' own
// account too (JetStream's elections and API, $SYS): a route of its own
// for it formed only from gossip, and in a 20-desk start a desk had routes
// to every other but no $SYS route to nine of them (see startEngine).
func TestEnginesShareOneRouteForEveryAccount(t *testing.T) {
	sec, err := NewSecret("Test Hall")
	if err != nil {
		t.Fatal(err)
	}
	a, b := twoEngines(t, sec, nil)
	// The other engine's JetStream API, heard over a route.
	apiOver := func(e *engine) bool {
		rz, err := e.ns.Routez(&server.RoutezOptions{SubscriptionsDetail: true})
		if err != nil {
			return false
		}
		for _, r := range rz.Routes {
			for _, sd := range r.SubsDetail {
				if subjectMatches(sd.Subject, "$JS.API.STREAM.INFO.KV_"+arrivalsKV) {
					return true
				}
			}
		}
		return false
	}
	waitFor(t, "each engine to hear the other's JetStream API over a route", func() bool { return apiOver(a) && apiOver(b) })
	for _, e := range []*engine{a, b} {
		rz, err := e.ns.Routez(&server.RoutezOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rz.Routes) != 1 || rz.Routes[0].Account != "" {
			t.Fatalf("%s: want one route for every account, got %d: %s", e.ns.Name(), len(rz.Routes), e.state())
		}
	}
}

// twoEngines starts two desks' engines, the second joining the first,
// logging to logf; they are closed when the test ends.
func twoEngines(t *testing.T, sec *Secret, logf func(string, ...any)) (a, b *engine) {
	t.Helper()
	pa, pb := freePort(t), freePort(t)
	a, err := startEngine(sec, t.TempDir(), "aaaaaaaaaaaaaaaa", "127.0.0.1", pa, nil, deskRole, 0, logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.close)
	b, err = startEngine(sec, t.TempDir(), "bbbbbbbbbbbbbbbb", "127.0.0.1", pb, []string{net.JoinHostPort("127.0.0.1", strconv.Itoa(pa))}, deskRole, 0, logf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.close)
	return a, b
}
