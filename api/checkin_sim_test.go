package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/fakeclock"
)

// patchLog records the attendee-action PATCHes that reach the simulator.
type patchLog struct {
	mu    sync.Mutex
	sizes []int // attendees per request
}

func (l *patchLog) requests() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.sizes...)
}

// newCheckInFixture is newFixture with a middleware that records the size
// of every PATCH, so tests can count how a batch was split.
func newCheckInFixture(t *testing.T) (*fixture, *patchLog) {
	t.Helper()
	clk := fakeclock.New(time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
	s := sim.New(sim.Options{Now: clk.Now, NoRateLimit: true})
	log := &patchLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch {
			body, _ := io.ReadAll(r.Body)
			var req api.AttendeeActionRequest
			_ = json.Unmarshal(body, &req)
			log.mu.Lock()
			log.sizes = append(log.sizes, len(req.Attendees))
			log.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithClock(clk.Now),
		api.WithRateLimit(0, 0), api.WithSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{sim: s, srv: srv, client: c, clock: clk, ids: s.Fixtures()}, log
}

// emailsOf lists the addresses of check-in records.
func emailsOf(recs []sim.CheckInRecord) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.Email
	}
	return out
}
