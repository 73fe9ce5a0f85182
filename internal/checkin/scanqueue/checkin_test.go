package scanqueue

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/testdir"
)

// TestTenThousandScansThroughFaults drives 10,000 scans through the journal,
// the sender and the real client into the simulator while it fails 10% of
// requests with 5xx, drops 5% of connections (before or after applying
// them) and rate-limits to 3 requests a second. Every wait advances a fake
// clock shared with the simulator, so the rate limit refills without
// sleeping. At the end every attendee is checked in exactly once.
func TestTenThousandScansThroughFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 10,000 synced scans")
	}
	clk := newFakeClock()
	var st wireStats
	s, srv := startSim(t, sim.Options{Now: clk.Now, ErrorRate: 0.10, DropRate: 0.05, RPS: 3},
		func(h http.Handler) http.Handler { return countRequests(h, &st) })
	f := s.Fixtures()
	regs := s.RegistrantEmails(f.LargeConferenceEventID)[:10000]
	client := newClient(t, srv.URL+"/v2", clk.Sleep, 3)
	// In memory where the machine allows: 10,000 fsyncs to a disk would be
	// most of this test's time, and it tests the wire.
	j := mustOpen(t, testdir.Fast(t), f.LargeConferenceEventID, "", WithClock(clk.Now))
	sender, err := NewSender(j, SenderOptions{CheckIn: client.Attendees.CheckIn, Sleep: clk.Sleep, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close()

	start := time.Now()
	repeats, strangers := 0, 0
	for i, e := range regs {
		if _, err := sender.Scan(e, "Desk-1"); err != nil {
			t.Fatal(err)
		}
		if i%100 == 99 { // a badge scanned twice
			if sc, _ := sender.Scan(regs[i-50], "Desk-1"); sc.Outcome != Already {
				t.Fatalf("repeat scan %+v", sc)
			}
			repeats++
		}
		if i%500 == 250 { // someone who never registered
			sender.Scan(fmt.Sprintf("walk.in%d@example.org", i), "Desk-1")
			strangers++
		}
	}
	scanned := time.Since(start)
	flush(t, sender)

	recs := s.CheckIns(f.LargeConferenceEventID, "")
	got := make([]string, len(recs))
	for i, r := range recs {
		got[i] = r.Email
		if r.Source != "Desk-1" {
			t.Fatalf("record %+v", r)
		}
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(regs))
	if !slices.Equal(got, want) {
		t.Fatalf("server recorded %d check-ins for %d attendees (duplicates or losses)", len(got), len(want))
	}
	c := j.Counts()
	if c != (Counts{CheckedIn: 10000, Already: repeats, Rejected: strangers}) {
		t.Fatalf("journal counts %+v", c)
	}
	for _, sc := range j.Scans() {
		if sc.Outcome == Pending || sc.AckedAt.IsZero() {
			t.Fatalf("scan not acked: %+v", sc)
		}
	}
	if st.fivexx.Load() == 0 || st.throttled.Load() == 0 || st.dropped.Load() == 0 {
		t.Fatalf("faults did not happen: 5xx %d, 429 %d, dropped %d", st.fivexx.Load(), st.throttled.Load(), st.dropped.Load())
	}
	t.Logf("%d scans journaled in %v, delivered in %v total; %d PATCHes: %d answered 5xx, %d answered 429, %d dropped; fake clock moved %v",
		c.Total(), scanned.Round(time.Millisecond), time.Since(start).Round(time.Millisecond), st.patches.Load(),
		st.fivexx.Load(), st.throttled.Load(), st.dropped.Load(), clk.Now().Sub(newFakeClock().Now()))
}

// TestOfflineThenBackOnline: with nothing listening, scans queue and the
// status says offline; when a server comes up on the same address they are
// sent without anyone asking.
func TestOfflineThenBackOnline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // connection refused from now on

	s := sim.New(sim.Options{NoRateLimit: true})
	defer s.Close()
	f := s.Fixtures()
	regs := s.RegistrantEmails(f.LargeConferenceEventID)[:5]
	client := newClient(t, "http://"+addr+"/v2", func(ctx context.Context, _ time.Duration) error { return ctx.Err() }, 1)
	j := mustOpen(t, t.TempDir(), f.LargeConferenceEventID, f.LargeConferenceSessionID)

	waits := make(chan time.Duration, 100)
	release := make(chan struct{})
	feed := newStatusFeed()
	sender, err := NewSender(j, SenderOptions{CheckIn: client.Attendees.CheckIn, OnStatus: feed.publish,
		Sleep: func(ctx context.Context, d time.Duration) error {
			waits <- d
			select {
			case <-release:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close()
	for _, e := range regs {
		if sc, err := sender.Scan(e, "Door B"); err != nil || sc.Outcome != Pending {
			t.Fatalf("%+v %v", sc, err)
		}
	}
	st := feed.waitFor(t, "offline with 5 pending", func(st Status) bool {
		return st.State == Offline && !st.Online && st.Pending == 5
	})
	t.Logf("offline: %v", st.LastError)
	<-waits // the sender is backing off

	// The server comes back on the same address.
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen again on %s: %v", addr, err)
	}
	srv := &http.Server{Handler: s}
	go srv.Serve(ln)
	defer srv.Close()
	close(release) // the backoff wait ends on its own; no Wake

	flush(t, sender)
	feed.waitFor(t, "online and idle", func(st Status) bool { return st.State == Idle && st.Online && st.CheckedIn == 5 })
	recs := s.CheckIns(f.LargeConferenceEventID, f.LargeConferenceSessionID)
	if len(recs) != 5 || recs[0].Email != regs[0] || recs[0].Source != "Door B" {
		t.Fatalf("server records %+v", recs)
	}
}

// BenchmarkRecordScan: the time from a scan to "recorded" (appended and
// synced).
func BenchmarkRecordScan(b *testing.B) {
	j := mustOpen(b, b.TempDir(), testEvent, "")
	emails := make([]string, b.N)
	for i := range emails {
		emails[i] = fmt.Sprintf("guest%08d@example.org", i)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := j.Scan(emails[i], "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSendThroughput: scans per second the sender delivers into the
// simulator over loopback HTTP, from a journal of 20,000 pending scans.
func BenchmarkSendThroughput(b *testing.B) {
	const n = sim.LargeConferenceRegistrants
	var total time.Duration
	for range b.N {
		b.StopTimer()
		s, srv := startSim(b, sim.Options{NoRateLimit: true}, nil)
		f := s.Fixtures()
		j, err := Open(b.TempDir(), f.LargeConferenceEventID, "")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := j.ScanMany(s.RegistrantEmails(f.LargeConferenceEventID), "bench"); err != nil {
			b.Fatal(err)
		}
		client := newClient(b, srv.URL+"/v2", nil, 3)
		b.StartTimer()
		start := time.Now()
		sender, err := NewSender(j, SenderOptions{CheckIn: client.Attendees.CheckIn})
		if err != nil {
			b.Fatal(err)
		}
		flush(b, sender)
		total += time.Since(start)
		b.StopTimer()
		sender.Close()
		j.Close()
		if got := len(s.CheckIns(f.LargeConferenceEventID, "")); got != n {
			b.Fatalf("%d checked in", got)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(n*b.N)/total.Seconds(), "scans/s")
}
