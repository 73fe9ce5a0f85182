package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

// rateServer is a simulator on the wall clock that allows rps requests a
// second per token, counting the 429s it answers.
type rateServer struct {
	sim      *sim.Sim
	srv      *httptest.Server
	refusals atomic.Int64
	requests atomic.Int64
}

func newRateServer(tb testing.TB, rps float64) *rateServer {
	tb.Helper()
	rs := &rateServer{sim: sim.New(sim.Options{RPS: rps})}
	rs.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rs.requests.Add(1)
		rec := &statusRecorder{ResponseWriter: w}
		rs.sim.ServeHTTP(rec, r)
		if rec.status == http.StatusTooManyRequests {
			rs.refusals.Add(1)
		}
	}))
	tb.Cleanup(rs.srv.Close)
	tb.Cleanup(rs.sim.Close)
	return rs
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// bulkCheckIns checks every registrant of the large conference in (20,000,
// in 67 requests of at most 300) and returns how long it took.
func bulkCheckIns(tb testing.TB, rs *rateServer, c *api.Client) time.Duration {
	tb.Helper()
	f := rs.sim.Fixtures()
	emails := rs.sim.RegistrantEmails(f.LargeConferenceEventID)
	start := time.Now()
	failed, err := c.Attendees.CheckIn(context.Background(), f.LargeConferenceEventID, "", emails, "bench")
	took := time.Since(start)
	if err != nil || len(failed) != 0 {
		tb.Fatalf("check-in: %v (%d refused)", err, len(failed))
	}
	return took
}

// bulkSendStatus reads the 100,000 send records of the big invitation, 300 a
// page (334 requests), and returns how long it took.
func bulkSendStatus(tb testing.TB, rs *rateServer, c *api.Client) time.Duration {
	tb.Helper()
	f := rs.sim.Fixtures()
	start := time.Now()
	n := 0
	for _, err := range c.Emails.SendStatus(context.Background(), f.BigEmailEventID, f.BigEmailTypeID,
		api.ListSendStatusOptions{PageSize: 300}) {
		if err != nil {
			tb.Fatal(err)
		}
		n++
	}
	took := time.Since(start)
	if n != sim.BigEmailRecipients {
		tb.Fatalf("%d records, want %d", n, sim.BigEmailRecipients)
	}
	return took
}

func rateClient(tb testing.TB, url string, opts ...api.Option) *api.Client {
	tb.Helper()
	c, err := api.New(append([]api.Option{api.WithBaseURL(url + "/v2"), api.WithToken(sim.DemoToken)}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// BenchmarkBulkCheckInRate: 20,000 check-ins into a simulator that allows
// 30 requests a second (9,000 check-ins a second at most), with the client's
// default rate: 67 requests, 29 at once and the rest at 30 a second, so
// about 1.3 s; a 429 costs a second more.
//
//	go test ./api -run '^$' -bench BulkCheckInRate -benchtime 1x
func BenchmarkBulkCheckInRate(b *testing.B) {
	for b.Loop() {
		rs := newRateServer(b, 30)
		took := bulkCheckIns(b, rs, rateClient(b, rs.srv.URL))
		b.ReportMetric(took.Seconds(), "s/20k-checkins")
		b.ReportMetric(float64(rs.refusals.Load()), "429s")
		b.ReportMetric(float64(rs.requests.Load()), "requests")
	}
}

// BenchmarkBulkSendStatusRate: the 100,000 send records of one email at 300
// a page from a simulator that allows 30 requests a second. The ceiling is
// about 10 s; the goal is at most 12 s.
//
//	go test ./api -run '^$' -bench BulkSendStatusRate -benchtime 1x
func BenchmarkBulkSendStatusRate(b *testing.B) {
	for b.Loop() {
		rs := newRateServer(b, 30)
		took := bulkSendStatus(b, rs, rateClient(b, rs.srv.URL))
		b.ReportMetric(took.Seconds(), "s/100k-records")
		b.ReportMetric(float64(rs.refusals.Load()), "429s")
		b.ReportMetric(float64(rs.requests.Load()), "requests")
	}
}

// BenchmarkBulkCheckInLowerPlan: the same 20,000 check-ins into a
// simulator that allows only 10 requests a second, with the client's
// default (30): the client finds the lower rate by itself. The ceiling is
// 6.7 s.
//
//	go test ./api -run '^$' -bench BulkCheckInLowerPlan -benchtime 1x
func BenchmarkBulkCheckInLowerPlan(b *testing.B) {
	for b.Loop() {
		rs := newRateServer(b, 10)
		c := rateClient(b, rs.srv.URL)
		took := bulkCheckIns(b, rs, c)
		b.ReportMetric(took.Seconds(), "s/20k-checkins")
		b.ReportMetric(float64(rs.refusals.Load()), "429s")
		b.ReportMetric(c.Pacer().Rate(), "final-rps")
	}
}

// TestBulkWorkKeepsTo429sAHandful: at the server's rate the client draws
// no more than a handful of 429s, and above it (a profile set higher than
// the plan allows) it slows down to the server's rate on its own. Figures
// are logged, not asserted: timing depends on the machine.
func TestBulkWorkKeepsTo429sAHandful(t *testing.T) {
	if testing.Short() {
		t.Skip("takes a few seconds of wall time")
	}
	t.Parallel() // mostly waiting on the pace: the other long tests run meanwhile
	for _, tc := range []struct {
		name        string
		server      float64
		client      float64
		most429s    int64
		requestsMax int64
	}{
		{"client at the server's rate", 30, api.DefaultRateLimit, 2, 67 + 2},
		{"client at three times the server's rate", 30, 90, 6, 67 + 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each has its own server: two seconds of pacing, not four
			rs := newRateServer(t, tc.server)
			c := rateClient(t, rs.srv.URL, api.WithRateLimit(tc.client, 0))
			took := bulkCheckIns(t, rs, c)
			t.Logf("20,000 check-ins in %v, %d requests, %d 429s, final rate %.1f/s", took.Round(time.Millisecond),
				rs.requests.Load(), rs.refusals.Load(), c.Pacer().Rate())
			if rs.refusals.Load() > tc.most429s || rs.requests.Load() > tc.requestsMax {
				t.Errorf("%d 429s in %d requests; at most %d allowed", rs.refusals.Load(), rs.requests.Load(), tc.most429s)
			}
		})
	}
}
