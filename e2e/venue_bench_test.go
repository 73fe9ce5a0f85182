package e2e

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
)

// envInt reads a whole number from the environment, or def.
func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// BenchmarkVenue runs the venue: desk processes on loopback against
// the simulator at its LIGHT limit (30 requests a second), 5,000 people
// already checked in, scans at 10 a second across the desks (one in ten
// a repeat of someone just admitted at another desk). It measures, over a
// steady window: the requests a second the venue spends (and as a share of
// the limit, the anchor), 429s, scan to service p50/p99, how fast the
// other desks know of a check-in (p50/p99); then an outage of the service
// with its scans and repeats (admitted twice, drain time once it returns);
// then the kill of the upstream desk (takeover time). Every check-in must
// reach the service exactly once.
//
//	go test ./e2e -run '^$' -bench Venue -benchtime 1x
//	EVDESK_VENUE_DESKS=20 EVDESK_VENUE_SECONDS=180 EVDESK_VENUE_OUTAGE_SCANS=6000 go test ./e2e -run '^$' -bench Venue -benchtime 1x -timeout 30m
//
// EVDESK_VENUE_OUTAGE_SECONDS=600 makes the outage last that long at the
// steady rate (the ten minutes) instead of a backlog of
// EVDESK_VENUE_OUTAGE_SCANS scanned quickly.
func BenchmarkVenue(b *testing.B) {
	desks := envInt("EVDESK_VENUE_DESKS", 20)
	seconds := envInt("EVDESK_VENUE_SECONDS", 30)
	outageScans := envInt("EVDESK_VENUE_OUTAGE_SCANS", 600)
	const rate = 10 // scans a second across the desks
	for range b.N {
		b.StopTimer()
		v := newVenueRig(b, sim.Options{NoRateLimit: true})
		everyone := v.sim.RegistrantEmails(v.event)
		v.checkInDirect(everyone[:5000], "box office")
		pool := everyone[5000:]
		v.sim.SetRPS(sim.DefaultRPS)

		started := time.Now()
		first := v.startDesk("Door 01")
		ds := []*deskProc{first}
		for i := 2; i <= desks; i++ {
			ds = append(ds, v.startDesk(fmt.Sprintf("Door %02d", i), first.addr))
		}
		for _, d := range ds {
			d.waitVenue(b, "a whole venue", 3*time.Minute, func(state, up string, n int) bool {
				return state == "meshed" && up != "" && n == desks
			})
		}
		b.Logf("%d desks meshed in %v", desks, time.Since(started).Round(time.Millisecond))
		// The window starts once the upstream desk has shared the roster
		// and read the history once.
		for _, d := range ds {
			waitUntil(b, d.name+"'s roster", 3*time.Minute, func() bool { d.mu.Lock(); defer d.mu.Unlock(); return d.roster == len(everyone) })
		}
		waitUntil(b, "the first read of the history", 3*time.Minute, func() bool { return v.walks() >= 5000/300 })
		b.Logf("rosters shared and history read %v after the start", time.Since(started).Round(time.Millisecond))
		b.StartTimer()

		// The steady window.
		w := v.window(b, ds, &pool, rate, time.Duration(seconds)*time.Second)
		b.ReportMetric(w.reqPerSec, "req/s")
		b.ReportMetric(100*w.reqPerSec/sim.DefaultRPS, "%limit")
		b.ReportMetric(float64(w.throttled), "429s")
		b.ReportMetric(w.walksPerSec, "walks/s")
		b.ReportMetric(w.toService[0].Seconds(), "svc-p50-s")
		b.ReportMetric(w.toService[1].Seconds(), "svc-p99-s")
		b.ReportMetric(w.known[0].Seconds(), "known-p50-s")
		b.ReportMetric(w.known[1].Seconds(), "known-p99-s")
		b.ReportMetric(float64(w.again), "repeats-admitted")
		b.Logf("steady %ds: %.1f req/s (%.0f%% of the limit), %d 429s, %.2f walks/s; scan→service p50 %v p99 %v; known elsewhere p50 %v p99 %v (%d of %d seen); %d of %d repeats admitted again",
			seconds, w.reqPerSec, 100*w.reqPerSec/sim.DefaultRPS, w.throttled, w.walksPerSec, w.toService[0], w.toService[1],
			w.known[0], w.known[1], w.seen, w.expected, w.again, w.repeats)
		b.Logf("requests in the window by kind: %v", w.byKind)

		// The outage: the service fails every request while the venue
		// goes on; then it returns and the venue drains.
		v.sim.SetFaults(0, 1, 0)
		fast := max(rate, outageScans/60)
		outage := time.Duration(outageScans/fast) * time.Second
		if secs := envInt("EVDESK_VENUE_OUTAGE_SECONDS", 0); secs > 0 { // an outage of real length, at the steady rate
			fast, outage = rate, time.Duration(secs)*time.Second
		}
		o := v.scanFor(b, ds, &pool, fast, outage)
		back := time.Now()
		v.sim.SetFaults(0, 0, 0)
		waitUntil(b, "the outage's scans at the service", 10*time.Minute, func() bool { return v.allSent(o.fresh) })
		drain := time.Since(back)
		b.ReportMetric(drain.Seconds(), "drain-s")
		b.ReportMetric(float64(o.again), "outage-repeats-admitted")
		b.Logf("outage: %d scans (%d repeats, %d admitted again) at %d/s; drained %v after the service returned",
			len(o.fresh), o.repeats, o.again, fast, drain.Round(time.Millisecond))

		// The upstream desk is killed while scans go on.
		_, up, _, _ := ds[1].venue()
		var killed *deskProc
		var rest []*deskProc
		for _, d := range ds {
			if d.name == up {
				killed = d
			} else {
				rest = append(rest, d)
			}
		}
		killed.kill()
		at := time.Now()
		k := v.scanFor(b, rest, &pool, rate, 3*time.Second)
		for _, d := range rest {
			d.waitVenue(b, "a new upstream desk", time.Minute, func(_, u string, _ int) bool { return u != "" && u != up })
		}
		takeover := time.Since(at)
		waitUntil(b, "the scans after the kill at the service", 5*time.Minute, func() bool { return v.allSent(k.fresh) })
		b.ReportMetric(takeover.Seconds(), "takeover-s")
		b.Logf("%s killed: another desk took over in %v", up, takeover.Round(time.Millisecond))

		// Exactly once: every admitted scan, one successful request each.
		for _, e := range slices.Concat(w.fresh, o.fresh, k.fresh) {
			if n := v.sentCount(e); n != 1 {
				b.Errorf("%s reached the service in %d requests", e, n)
			}
		}
	}
}

// windowResult is what a steady window measured.
type windowResult struct {
	scanRun
	reqPerSec, walksPerSec float64
	throttled              int
	toService, known       [2]time.Duration // p50, p99
	seen, expected         int
	byKind                 map[string]int
}

// kindOf names a request by its path's last word.
func kindOf(path string) string {
	if i := strings.LastIndex(path, "/"); i >= 0 {
		return path[i+1:]
	}
	return path
}

// scanRun is what a run of scans did.
type scanRun struct {
	fresh   []string             // people admitted
	at      map[string]time.Time // when each was scanned
	repeats int                  // repeat scans at another desk
	again   int                  // of them, admitted again
}

// scanFor scans people at rate across the desks for d, each desk at its
// share of the rate: one scan in ten a repeat, at this desk, of someone
// another desk admitted a moment before.
func (v *venueRig) scanFor(tb testing.TB, ds []*deskProc, pool *[]string, rate int, d time.Duration) scanRun {
	tb.Helper()
	r := scanRun{at: map[string]time.Time{}}
	var mu sync.Mutex
	owner := map[string]int{}
	var failed []string
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for i := range ds {
		wg.Go(func() {
			// The desks start their ticks spread over one period.
			every := time.Second * time.Duration(len(ds)) / time.Duration(rate)
			time.Sleep(every * time.Duration(i) / time.Duration(len(ds)))
			tick := time.NewTicker(every)
			defer tick.Stop()
			for k := 0; time.Now().Before(end); k++ {
				<-tick.C
				mu.Lock()
				var p string
				repeat := false
				if k%10 == 9 {
					for j := len(r.fresh) - 1; j >= 0 && j >= len(r.fresh)-len(ds); j-- {
						if owner[r.fresh[j]] != i {
							p, repeat = r.fresh[j], true
							break
						}
					}
				}
				if !repeat {
					if len(*pool) == 0 {
						mu.Unlock()
						failed = append(failed, "ran out of people to scan")
						return
					}
					p = (*pool)[0]
					*pool = (*pool)[1:]
				}
				mu.Unlock()
				ans := ds[i].scanLine(p)
				mu.Lock()
				switch {
				case repeat:
					r.repeats++
					if ans.Verdict != "ALREADY CHECKED IN" {
						r.again++
						failed = append(failed, fmt.Sprintf("repeat of %s at %s: %+v", p, ds[i].name, ans))
					}
				case ans.Verdict != "RECORDED":
					failed = append(failed, fmt.Sprintf("first scan of %s at %s: %+v", p, ds[i].name, ans))
				default:
					r.fresh = append(r.fresh, p)
					r.at[p], owner[p] = ans.At, i
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, f := range failed {
		tb.Error(f)
	}
	return r
}

// window scans for d and measures the venue's use of the service and how
// fast it knows.
func (v *venueRig) window(tb testing.TB, ds []*deskProc, pool *[]string, rate int, d time.Duration) windowResult {
	tb.Helper()
	start := time.Now()
	v.mu.Lock()
	from := len(v.requests)
	v.mu.Unlock()
	res := windowResult{scanRun: v.scanFor(tb, ds, pool, rate, d), byKind: map[string]int{}}
	end := time.Now()
	v.mu.Lock()
	for _, r := range v.requests[from:] {
		if r.at.After(end) {
			break
		}
		res.reqPerSec++
		if r.code == 429 {
			res.throttled++
		}
		if r.walk {
			res.walksPerSec++
		}
		res.byKind[r.method+" "+kindOf(r.path)]++
	}
	v.mu.Unlock()
	secs := end.Sub(start).Seconds()
	res.reqPerSec /= secs
	res.walksPerSec /= secs
	waitUntil(tb, "the window's scans at the service", 5*time.Minute, func() bool { return v.allSent(res.fresh) })
	var toSvc, known []time.Duration
	v.mu.Lock()
	for _, p := range res.fresh {
		toSvc = append(toSvc, v.sentAt[p].Sub(res.at[p]))
	}
	v.mu.Unlock()
	// Every other desk's word of each admission (a desk learns of its
	// own at once); give the last ones a moment to arrive.
	fresh := map[string]bool{}
	for _, p := range res.fresh {
		fresh[p] = true
	}
	res.expected = len(res.fresh) * (len(ds) - 1)
	for try := 0; try < 100; try++ {
		known = known[:0]
		for _, d := range ds {
			d.mu.Lock()
			for _, a := range d.arrivals {
				if fresh[a.Email] {
					known = append(known, a.Known.Sub(a.At))
				}
			}
			d.mu.Unlock()
		}
		if len(known) >= res.expected {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	res.seen = len(known)
	res.toService = percentiles(toSvc)
	res.known = percentiles(known)
	return res
}

func (v *venueRig) allSent(emails []string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, e := range emails {
		if v.sent[e] == 0 {
			return false
		}
	}
	return true
}

// percentiles are the p50 and p99 of ds (zero when empty).
func percentiles(ds []time.Duration) [2]time.Duration {
	if len(ds) == 0 {
		return [2]time.Duration{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return [2]time.Duration{at(0.50), at(0.99)}
}
