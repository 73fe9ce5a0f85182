package mesh

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A desk whose engine reaches the venue's other desks but gets no answer
// from the venue's stores (here: every binding fails until it acts) acts
// after StuckAfter, says so, and then joins the venue: a desk that was
// part of the venue before starts its engine again with its store; a desk
// new to it drops its store (nothing of the venue's) and meets the venue
// again, so that a founder that went away is not waited for.
func TestVenueEngineStuckStartsAgainAndJoins(t *testing.T) {
	needVenue(t, "two engines, about 25 s each")
	t.Parallel()
	for _, c := range []struct {
		name   string
		before bool
		says   string
	}{
		{"new to the venue", false, "meeting the venue again"},
		{"part of the venue before", true, "starting it again"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRig(t)
			a := r.open("Door A")
			var acted atomic.Bool
			var mu sync.Mutex
			var said []string
			b := r.openWith("Door B", func(o *Options) {
				if c.before {
					if err := os.MkdirAll(o.Dir, 0o700); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(o.Dir, joinedMark), []byte(o.Secret.ID+"\n"), 0o600); err != nil {
						t.Fatal(err)
					}
				}
				// Longer than an election of two engines after one starts again.
				o.StuckAfter = 10 * time.Second
				o.failSetup = func() error {
					if !acted.Load() {
						return errors.New("no answer from the venue (test)")
					}
					return nil
				}
				logf := o.Logf
				o.Logf = func(f string, args ...any) {
					logf(f, args...)
					if strings.Contains(f, c.says) {
						acted.Store(true)
					}
					mu.Lock()
					said = append(said, f)
					mu.Unlock()
				}
			}, a.addr)
			waitFor(t, "Door B meshed", func() bool { return b.node.Info().State == "meshed" })
			mu.Lock()
			defer mu.Unlock()
			if !acted.Load() {
				t.Fatalf("Door B never said it was %q; said: %q", c.says, said)
			}
			waitFor(t, "Door A to see Door B", func() bool { return len(a.node.Info().Desks) == 2 })
		})
	}
}

// A desk's grace to meet its venue runs again from when it first reached
// another desk, and from when it started its store (the engines' first
// election takes 4 to 9 s): a desk met just before its grace from the
// start ran out waits for the venue, not alone.
func TestGraceRunsFromMeetingTheVenue(t *testing.T) {
	needVenue(t, "two engines, about 25 s")
	t.Parallel()
	r := newRig(t)
	const grace = 12 * time.Second
	var alone atomic.Bool
	opened := time.Now()
	a := r.openWith("Door A", func(o *Options) {
		o.JoinGrace = grace
		hears(o, "working alone", &alone)
	})
	// Door B comes up a second before Door A's grace from its start runs
	// out: time to reach each other, none for an election.
	waitFor(t, "Door A's grace nearly over", func() bool { return time.Since(opened) >= grace-time.Second })
	b := r.open("Door B", a.addr)
	for _, d := range []*meshDesk{a, b} {
		waitFor(t, d.Name()+" meshed", func() bool { return d.node.Info().State == "meshed" })
	}
	if alone.Load() {
		t.Fatal("Door A worked alone while it met its venue")
	}
}
