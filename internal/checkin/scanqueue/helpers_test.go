package scanqueue

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/fakeclock"
)

// fakeClock is shared by the simulator, the client and the sender: waits
// advance it instead of sleeping.
type fakeClock = fakeclock.Clock

func newFakeClock() *fakeClock { return fakeclock.New(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)) }

// wireStats counts what the simulator answered.
type wireStats struct {
	patches, fivexx, throttled, dropped atomic.Int64
}

// countingWriter records the status of an answer and lets the simulator
// hijack the connection to drop it.
type countingWriter struct {
	http.ResponseWriter
	st *wireStats
}

func (w countingWriter) WriteHeader(code int) {
	switch {
	case code >= 500:
		w.st.fivexx.Add(1)
	case code == http.StatusTooManyRequests:
		w.st.throttled.Add(1)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w countingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	w.st.dropped.Add(1)
	return w.ResponseWriter.(http.Hijacker).Hijack()
}

// countRequests wraps h, counting PATCHes and answers in st.
func countRequests(h http.Handler, st *wireStats) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch {
			st.patches.Add(1)
		}
		h.ServeHTTP(countingWriter{w, st}, r)
	})
}

// newClient is an API client for the simulator at base (…/v2) whose waits
// go through sleep (nil: real waits) and whose own retries are bounded by attempts.
func newClient(t testing.TB, base string, sleep func(context.Context, time.Duration) error, attempts int) *api.Client {
	t.Helper()
	opts := []api.Option{api.WithBaseURL(base), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithRetry(api.RetryPolicy{MaxAttempts: attempts, BaseDelay: 100 * time.Millisecond,
			MaxDelay: 2 * time.Second, MaxRetryAfter: time.Minute})}
	if sleep != nil {
		opts = append(opts, api.WithSleep(sleep))
	}
	c, err := api.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// startSim serves a simulator over loopback HTTP through wrap (if any).
func startSim(t testing.TB, opts sim.Options, wrap func(http.Handler) http.Handler) (*sim.Sim, *httptest.Server) {
	t.Helper()
	s := sim.New(opts)
	var h http.Handler = s
	if wrap != nil {
		h = wrap(s)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	return s, srv
}

// statusFeed collects published statuses.
type statusFeed chan Status

func newStatusFeed() statusFeed { return make(statusFeed, 1<<16) }

func (f statusFeed) publish(st Status) { f <- st }

// waitFor reads statuses until one satisfies ok; the deadline only guards
// against a hang.
func (f statusFeed) waitFor(t *testing.T, what string, ok func(Status) bool) Status {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case st := <-f:
			if ok(st) {
				return st
			}
		case <-deadline:
			t.Fatalf("no status where %s", what)
		}
	}
}

// mustOpen opens a journal or fails the test, closing it at the end.
func mustOpen(t testing.TB, dir, eventID, sessionID string, opts ...JournalOption) *Journal {
	t.Helper()
	j, err := Open(dir, eventID, sessionID, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return j
}

// flush waits for a sender to deliver everything, within a generous bound.
// statusWhen is the sender's status once ok holds, waiting on its changes
// for at most a minute.
func statusWhen(t testing.TB, s *Sender, ok func(Status) bool) Status {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		if st := s.Status(); ok(st) {
			return st
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("the sender's status stayed %+v", s.Status())
		}
	}
}

func flush(t testing.TB, s *Sender) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := s.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}
