package sim

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// rateLimits is the LIGHT rate limit: a token bucket per access token, driven
// by the simulator's clock.
type rateLimits struct {
	mu      sync.Mutex
	rps     float64 // <= 0: unlimited
	byToken map[string]*rate.Limiter
}

func newRateLimits(rps float64, off bool) *rateLimits {
	if off {
		rps = 0
	}
	return &rateLimits{rps: rps, byToken: map[string]*rate.Limiter{}}
}

func burstFor(rps float64) int { return max(1, int(math.Ceil(rps))) }

// allow takes one request from token's bucket at now; when the bucket is
// empty it reports how long until the next request would pass.
func (l *rateLimits) allow(token string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	rps := l.rps
	if rps <= 0 {
		l.mu.Unlock()
		return true, 0
	}
	lim := l.byToken[token]
	if lim == nil {
		lim = rate.NewLimiter(rate.Limit(rps), burstFor(rps))
		// Start full at the simulator's time, not the wall clock's.
		lim.SetBurstAt(now, burstFor(rps))
		l.byToken[token] = lim
	}
	l.mu.Unlock()
	if lim.AllowN(now, 1) {
		return true, 0
	}
	missing := 1 - lim.TokensAt(now)
	return false, time.Duration(missing / rps * float64(time.Second))
}

// set changes the limit of every bucket; rps <= 0 removes it.
func (l *rateLimits) set(rps float64, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rps = rps
	if rps <= 0 {
		l.byToken = map[string]*rate.Limiter{}
		return
	}
	for _, lim := range l.byToken {
		lim.SetLimitAt(now, rate.Limit(rps))
		lim.SetBurstAt(now, burstFor(rps))
	}
}
