package webhook

import (
	"errors"
	"sync"
	"time"
)

// ErrReplayMemoryFull refuses a delivery when the listener already
// remembers as many recent deliveries as it may: under a flood it refuses
// (503, the provider retries) rather than forgetting what it saw, which
// would let a replay through.
var ErrReplayMemoryFull = errors.New("too many deliveries in the last 5 minutes to remember another; try again later")

// replayGuard remembers the deliveries accepted within the skew window, by
// their signature: the signature covers the timestamp and the body, so the
// same event sent again at the same time carries the same one. Past the
// window a repeat is stale anyway, so entries are dropped then.
type replayGuard struct {
	mu    sync.Mutex
	seen  map[string]time.Time // signature -> when it stops mattering
	limit int
}

func newReplayGuard(limit int) *replayGuard {
	return &replayGuard{seen: map[string]time.Time{}, limit: limit}
}

// admit records key (sent at at) and reports nil, or ErrReplay when it was
// recorded before, or ErrReplayMemoryFull.
func (g *replayGuard) admit(key string, at, now time.Time) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if until, ok := g.seen[key]; ok && now.Before(until) {
		return ErrReplay
	}
	if len(g.seen) >= g.limit {
		for k, until := range g.seen {
			if !now.Before(until) {
				delete(g.seen, k)
			}
		}
		if len(g.seen) >= g.limit {
			return ErrReplayMemoryFull
		}
	}
	g.seen[key] = at.Add(MaxSkew + time.Second)
	return nil
}

// forget drops key, for a delivery admitted but then not taken.
func (g *replayGuard) forget(key string) {
	g.mu.Lock()
	delete(g.seen, key)
	g.mu.Unlock()
}
