package mesh

import (
	"net"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// The desks that met found their venue under one leader: the founder
// (storeSize) takes the engine's least size, two, and the others the
// desks they met and themselves, three, so that only a group with every
// one of them could elect a leader apart from the founder's.
func TestDesksThatMetFoundOneVenue(t *testing.T) {
	sec, err := NewSecret("Test Hall")
	if err != nil {
		t.Fatal(err)
	}
	first := freePort(t)
	seed := []string{net.JoinHostPort("127.0.0.1", strconv.Itoa(first))}
	start := func(id string, port int, join []string, size int) *engine {
		e, err := startEngine(sec, t.TempDir(), id, "127.0.0.1", port, join, deskRole, size, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.close)
		return e
	}
	ids := []string{"000000000000000a", "000000000000000b", "000000000000000c"}
	founder := start(ids[0], first, nil, storeSize(ids[0], ids[1:], false))
	b := start(ids[1], freePort(t), seed, storeSize(ids[1], []string{ids[0], ids[2]}, false))
	c := start(ids[2], freePort(t), seed, storeSize(ids[2], ids[:2], false))
	for e, want := range map[*engine]int{founder: 2, b: 3, c: 3} {
		if m := meta(t, e); m.Size != want {
			t.Fatalf("%s: want a venue of %d for its first election, got %d", e.ns.Name(), want, m.Size)
		}
	}
	waitFor(t, "the three desks to agree on one leader", func() bool {
		var leaders []string
		for _, e := range []*engine{founder, b, c} {
			leaders = append(leaders, meta(t, e).Leader)
		}
		return leaders[0] != "" && len(slices.Compact(leaders)) == 1
	})
	// A desk that meets the venue now joins it, whatever its ID.
	late, err := startEngine(sec, t.TempDir(), "0000000000000001", "127.0.0.1", freePort(t), seed, probeRole, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(late.close)
	waitFor(t, "the late desk to reach the others", func() bool { return late.peers() == 3 })
	if !late.venueAnswers() {
		t.Fatal("a formed venue does not answer a probe")
	}
	if got := storeSize("0000000000000001", late.deskIDs(), true); got != 4 {
		t.Fatalf("the late desk's size: %d, want 4", got)
	}
}

// Probes alone have no venue to answer them: the lowest founds it.
func TestProbesHaveNoVenueToJoin(t *testing.T) {
	sec, err := NewSecret("Test Hall")
	if err != nil {
		t.Fatal(err)
	}
	pa := freePort(t)
	a, err := startEngine(sec, t.TempDir(), "000000000000000a", "127.0.0.1", pa, nil, probeRole, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.close)
	b, err := startEngine(sec, t.TempDir(), "000000000000000b", "127.0.0.1", freePort(t), []string{net.JoinHostPort("127.0.0.1", strconv.Itoa(pa))}, probeRole, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.close)
	waitFor(t, "the probes to meet", func() bool { return a.peers() == 1 && b.peers() == 1 })
	if a.venueAnswers() || b.venueAnswers() {
		t.Fatal("probes without a store answered as a venue")
	}
	if !slices.Equal(a.deskIDs(), []string{"000000000000000b"}) {
		t.Fatalf("desk IDs a reaches: %v", a.deskIDs())
	}
}

func meta(t *testing.T, e *engine) server.MetaClusterInfo {
	t.Helper()
	jz, err := e.ns.Jsz(&server.JSzOptions{})
	if err != nil || jz.Meta == nil {
		t.Fatalf("%s: no metadata group: %v", e.ns.Name(), err)
	}
	return *jz.Meta
}

func TestStoreSizeHasOneFounder(t *testing.T) {
	met := []string{"0b", "0c"}
	for _, c := range []struct {
		self    string
		desks   []string
		answers bool
		want    int
	}{
		{"0a", met, false, 0}, // the lowest of those that met founds
		{"0d", met, false, 3}, // another counts them and itself
		{"0a", met, true, 3},  // a venue answers: it joins, whatever its ID
		{"0a", nil, false, 0}, // alone (never asked: a probe waits for a desk)
	} {
		if got := storeSize(c.self, c.desks, c.answers); got != c.want {
			t.Errorf("storeSize(%s, %v, %v) = %d, want %d", c.self, c.desks, c.answers, got, c.want)
		}
	}
}

func TestSizedRoutesCountTheDesksMet(t *testing.T) {
	self, other := "127.0.0.1:7001", "10.0.0.2:7001"
	for _, c := range []struct {
		join []string
		size int
		want []string
	}{
		{nil, 0, []string{self}},
		{[]string{other}, 0, []string{self, other}},
		{[]string{other}, 4, []string{self, other, self, self}},
		{[]string{other, other}, 2, []string{self, other, other}},
	} {
		if got := sizedRoutes(self, c.join, c.size); !slices.Equal(got, c.want) {
			t.Errorf("sizedRoutes(%v, %d) = %v, want %v", c.join, c.size, got, c.want)
		}
	}
}

// A probe has met its venue once the desks it reaches held for two
// heartbeats, or ten heartbeats after it first reached one.
func TestProbeMeetsTheVenueWhenTheDesksHold(t *testing.T) {
	tick := time.Second
	at := func(s int) time.Time { return time.Unix(1000, 0).Add(time.Duration(s) * tick) }
	var m meeting
	steps := []struct {
		at, peers int
		met       bool
	}{
		{0, 0, false}, {1, 3, false}, {2, 5, false}, {3, 5, false}, {4, 5, true},
	}
	for _, s := range steps {
		if got := m.met(s.peers, at(s.at), tick); got != s.met {
			t.Fatalf("at %ds with %d desks: met %v, want %v", s.at, s.peers, got, s.met)
		}
	}
	m = meeting{}
	for s := 1; s <= 11; s++ {
		if got := m.met(s, at(s), tick); got != (s == 11) { // still arriving: met at ten heartbeats
			t.Fatalf("at %ds with %d desks arriving: met %v", s, s, got)
		}
	}
	if m.met(0, at(12), tick) || !m.first.IsZero() {
		t.Fatal("alone again: the meeting starts over")
	}
}
