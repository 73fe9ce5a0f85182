package roster

import (
	"context"
	"runtime"
	"testing"
)

// cached20k downloads the large conference's 20,000 registrants once and
// saves them as a roster cache.
func cached20k(b *testing.B) (path, event string, emails []string) {
	b.Helper()
	r := newRig(b, nil)
	ro, err := Download(context.Background(), r.client, r.event, r.clk.Now, nil)
	if err != nil {
		b.Fatal(err)
	}
	path = CachePath(b.TempDir(), r.event)
	if err := Save(path, ro); err != nil {
		b.Fatal(err)
	}
	return path, r.event, r.sim.RegistrantEmails(r.event)
}

// BenchmarkRosterLoad20000 loads the cache of 20,000 registrants, as a desk
// does when it opens; MB-held is the heap the roster keeps (target: at most
// 30 MB).
func BenchmarkRosterLoad20000(b *testing.B) {
	path, event, _ := cached20k(b)
	// Several are held at once, so garbage freed meanwhile weighs little.
	const n = 4
	held := make([]*Roster, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range held {
		ro, err := Load(path, event)
		if err != nil || ro.Len() != 20000 {
			b.Fatalf("%v, %d people", err, ro.Len())
		}
		held[i] = ro
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	mb := float64(after.HeapAlloc-before.HeapAlloc) / n / (1 << 20)
	runtime.KeepAlive(held)
	b.ResetTimer()
	for range b.N {
		if _, err := Load(path, event); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(mb, "MB-held")
}

// BenchmarkByEmail is the roster's part of answering a scan.
func BenchmarkByEmail(b *testing.B) {
	path, event, emails := cached20k(b)
	ro, err := Load(path, event)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, ok := ro.ByEmail(emails[i%len(emails)]); !ok {
			b.Fatal("not found")
		}
	}
}
