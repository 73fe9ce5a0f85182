package mesh

import (
	"testing"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/venue"
)

// A board derives the venue's state from what the desks said lately: a
// split venue loses its quorum, so the desks' last records (both meshed,
// one upstream) stay in the board's copy and only their age tells the
// board the venue split (QA: the board said MESHED after the split).
func TestTheBoardSaysWhatTheDesksSaidLately(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	heard, silent := now.Add(-time.Second), now.Add(-venue.SilentAfter-time.Second)
	desk := func(node, name string, at time.Time, upstream, alone bool) presence {
		return presence{Node: node, Desk: name, Upstream: upstream, Alone: alone, At: at}
	}
	cases := []struct {
		name      string
		bound     bool
		desks     []presence
		state, up string
	}{
		{"not bound yet", false, []presence{desk("a", "Door A", heard, true, false)}, "joining", ""},
		{"no desk heard of yet", true, nil, "joining", ""},
		{"both desks heard", true, []presence{desk("a", "Door A", heard, true, false), desk("b", "Door B", heard, false, false)}, "meshed", "Door A"},
		{"split: both last said meshed, long ago", true, []presence{desk("a", "Door A", silent, true, false), desk("b", "Door B", silent, false, false)}, "cutoff", ""},
		{"the upstream desk went silent", true, []presence{desk("a", "Door A", silent, true, false), desk("b", "Door B", heard, false, false), desk("c", "Door C", heard, false, false)}, "meshed", ""},
		{"the desks heard all work alone", true, []presence{desk("a", "Door A", heard, false, true), desk("b", "Door B", silent, true, false)}, "alone", ""},
		{"a desk alone beside meshed ones", true, []presence{desk("a", "Door A", heard, true, false), desk("c", "Door C", heard, false, true)}, "meshed", "Door A"},
	}
	for _, c := range cases {
		desks := map[string]presence{}
		for _, p := range c.desks {
			desks[p.Node] = p
		}
		state, up := observedState(c.bound, desks, "a", now)
		if state != c.state || up != c.up {
			t.Errorf("%s: state %q, upstream %q; want %q, %q", c.name, state, up, c.state, c.up)
		}
	}
}
