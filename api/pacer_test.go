package api

import (
	"testing"
	"time"
)

// fakePacer is a pacer on a clock the test moves.
func fakePacer(rps float64) (*Pacer, *time.Time) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	p := NewPacer(rps, 1)
	p.now = func() time.Time { return now }
	p.climbed = now
	return p, &now
}

func TestPacerHalvesOnA429AndClimbsBack(t *testing.T) {
	p, now := fakePacer(30)
	p.throttled()
	if p.Rate() != 15 || p.Throttled() != 1 {
		t.Fatalf("after a 429: %v (%d)", p.Rate(), p.Throttled())
	}
	// The 429s of requests already in flight count once.
	*now = now.Add(300 * time.Millisecond)
	p.throttled()
	if p.Rate() != 15 || p.Throttled() != 1 {
		t.Fatalf("a second 429 at once: %v (%d)", p.Rate(), p.Throttled())
	}
	// Answers bring it back: fast up to 90% of the rate of the 429 (27),
	// gently above it.
	*now = now.Add(2 * time.Second)
	p.answered()
	if r := p.Rate(); r < 18.44 || r > 18.46 {
		t.Fatalf("2.3 s after the 429: %v, want 18.45 (1.5 a second)", r)
	}
	for range 10 {
		*now = now.Add(time.Second)
		p.answered()
	}
	if r := p.Rate(); r < 27 || r >= 28 {
		t.Fatalf("near the last 429 the climb is gentle: %v", r)
	}
	// A minute after the 429 it is forgotten: back to the ceiling, never above.
	*now = now.Add(forgetAfter)
	for range 30 {
		*now = now.Add(time.Second)
		p.answered()
	}
	if p.Rate() != 30 {
		t.Fatalf("after a quiet minute: %v", p.Rate())
	}
}

func TestPacerKeepsMovingAndUnlimitedNeverWaits(t *testing.T) {
	p, now := fakePacer(2)
	for range 10 {
		*now = now.Add(2 * time.Second)
		p.throttled()
	}
	if p.Rate() != minRate {
		t.Fatalf("floor: %v", p.Rate())
	}
	var none *Pacer
	if err := none.Wait(t.Context()); err != nil || none.Rate() != 0 {
		t.Fatal("a nil pacer waits")
	}
	none.throttled()
	none.answered()
	u := NewPacer(0, 0)
	u.throttled()
	if err := u.Wait(t.Context()); err != nil || u.Throttled() != 0 {
		t.Fatal("an unlimited pacer paces")
	}
}

// TestPacerBurstIsTheSecondTheServiceAllows: the LIGHT limit allows 30
// requests in a second, so the default burst is 29, one kept for the
// network's jitter (it was 10, which made bulk work about 1.6x slower than
// the limit); after a 429 the burst follows the halved rate, and comes back
// with it. A burst given explicitly stays.
func TestPacerBurstIsTheSecondTheServiceAllows(t *testing.T) {
	p := NewPacer(DefaultRateLimit, 0)
	if p.Burst() != 29 {
		t.Fatalf("default burst %d, want 29", p.Burst())
	}
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	p.now = func() time.Time { return now }
	p.throttled()
	if p.Burst() != 14 {
		t.Fatalf("burst after a 429: %d, want 14", p.Burst())
	}
	now = now.Add(forgetAfter + time.Minute)
	p.answered()
	if p.Rate() != 30 || p.Burst() != 29 {
		t.Fatalf("back at the ceiling: rate %v burst %d", p.Rate(), p.Burst())
	}
	if fixed := NewPacer(30, 5); fixed.Burst() != 5 {
		t.Fatalf("explicit burst %d", fixed.Burst())
	}
	if NewPacer(0.5, 0).Burst() != 1 {
		t.Fatal("a slow pacer still lets one request go")
	}
}
