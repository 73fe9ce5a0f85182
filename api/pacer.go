package api

import (
	"context"
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// DefaultRateLimit is the client's request rate when a profile sets none:
// the LIGHT limit of a Pro account, the least plan these endpoints need
// (the spec names the label, not the figure). A lower limit is found on
// the way (see Pacer); a higher plan's is a profile setting (rate_limit).
const DefaultRateLimit = 30

// Pacing constants: how a Pacer moves between its floor and its ceiling.
const (
	// minRate keeps a throttled client moving.
	minRate = 0.5
	// backOff is the share of the rate kept after a 429.
	backOff = 0.5
	// climbPerSecond is how fast the rate grows back, as a share of the
	// ceiling per second of answers without a 429 (half to full in 10 s).
	climbPerSecond = 0.05
	// gentleShare is how close to the rate of the last 429 the fast climb
	// goes; above it the climb is a tenth as fast, so a client held below
	// its ceiling by a lower plan probes that limit rarely.
	gentleShare = 0.9
	// forgetAfter is how long a 429 shapes the climb.
	forgetAfter = time.Minute
	// throttleGap makes the 429s of requests already in flight count once.
	throttleGap = time.Second
)

// Pacer spaces a client's requests at the rate the service allows (the
// LIGHT label, spec section 8): it starts at its ceiling, the configured
// rate; a 429 halves the rate, and answers without one bring it back up
// (additive increase, multiplicative decrease), gently near the rate that
// drew the last 429. By default a burst is one second's worth of the
// current rate less one request: the service's LIGHT limit allows 30
// requests in a second, so bulk work leaves 29 at once (a burst of a third
// of that made it about 1.6 times slower than the limit), and the one left
// over absorbs the network's jitter: with the server's bucket and ours
// equal, a request that arrives a millisecond early draws a 429 and a
// second's wait (measured: a burst of 30 drew one on every run of 20,000
// check-ins, 2.3 s; 29 none, 1.3 s). After a 429 the burst shrinks with
// the rate. A Pacer is safe for concurrent use;
// clients that share an account's limit share one (WithPacer).
type Pacer struct {
	mu       sync.Mutex
	lim      *rate.Limiter
	ceiling  float64
	rate     float64
	lastBad  float64   // the rate when the last 429 came; 0 when none
	badAt    time.Time // when it came
	climbed  time.Time // when the rate last changed
	throttle int       // 429s seen, for tests and logs
	// autoBurst: the burst follows the rate (one second's worth).
	autoBurst bool
	now       func() time.Time
}

// NewPacer paces at most rps requests a second, in bursts of at most burst
// (burst <= 0: one second's worth of the current rate less one, at least
// 1). rps <= 0
// removes the limit: the pacer never waits.
func NewPacer(rps float64, burst int) *Pacer {
	p := &Pacer{ceiling: rps, rate: rps, now: time.Now, autoBurst: burst <= 0}
	if p.autoBurst {
		burst = secondsWorth(rps)
	}
	if rps > 0 {
		p.lim = rate.NewLimiter(rate.Limit(rps), max(burst, 1))
	}
	return p
}

// secondsWorth is the burst at rate r: a second's worth less the one
// request kept for jitter, at least 1.
func secondsWorth(r float64) int { return max(1, int(math.Floor(r))-1) }

// Burst is the most requests that may leave at once (0: unlimited).
func (p *Pacer) Burst() int {
	if p == nil || p.lim == nil {
		return 0
	}
	return p.lim.Burst()
}

// Wait blocks until the next request may leave.
func (p *Pacer) Wait(ctx context.Context) error {
	if p == nil || p.lim == nil {
		return nil
	}
	return p.lim.Wait(ctx)
}

// Rate is the current rate in requests per second (0: unlimited).
func (p *Pacer) Rate() float64 {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.rate
}

// Throttled counts the 429s the pacer has slowed down for.
func (p *Pacer) Throttled() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.throttle
}

// throttled slows down after a 429.
func (p *Pacer) throttled() {
	if p == nil || p.lim == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if !p.badAt.IsZero() && now.Sub(p.badAt) < throttleGap {
		return
	}
	p.throttle++
	p.lastBad, p.badAt = p.rate, now
	p.set(max(minRate, p.rate*backOff), now)
}

// answered climbs back towards the ceiling after an answer without a 429.
func (p *Pacer) answered() {
	if p == nil || p.lim == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rate >= p.ceiling {
		return
	}
	now := p.now()
	elapsed := now.Sub(p.climbed).Seconds()
	if elapsed < 0.1 {
		return // climb in steps, not on every answer
	}
	step := p.ceiling * climbPerSecond * elapsed
	next := p.rate + step
	if p.lastBad > 0 && now.Sub(p.badAt) < forgetAfter {
		if gate := gentleShare * p.lastBad; p.rate >= gate {
			next = p.rate + step/10
		} else {
			next = min(next, gate)
		}
	}
	p.set(min(p.ceiling, next), now)
}

func (p *Pacer) set(r float64, now time.Time) {
	p.rate, p.climbed = r, now
	p.lim.SetLimit(rate.Limit(r))
	if p.autoBurst {
		p.lim.SetBurst(secondsWorth(r))
	}
}
