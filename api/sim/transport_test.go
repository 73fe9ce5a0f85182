package sim

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
)

func TestHubs(t *testing.T) {
	e := newEnv(t, Options{})
	var list hubList
	e.do("GET", "/hubs?role_type=host", DemoToken, nil).decode(t, 200, &list)
	if list.TotalRecords != 3 || len(list.Hubs) != 3 {
		t.Fatalf("demo hubs: %+v", list)
	}
	ids := map[string]bool{}
	for _, h := range list.Hubs {
		ids[h.HubID] = true
		if h.Name == "" || h.AccessLevel == "" {
			t.Errorf("hub %+v", h)
		}
	}
	if !ids[HubID] || !ids[NoConferenceHubID] || !ids[InternalHubID] {
		t.Errorf("demo hubs %v", ids)
	}
	e.do("GET", "/hubs?role_type=host", OtherHostToken, nil).decode(t, 200, &list)
	if list.TotalRecords != 1 || list.Hubs[0].HubID != OtherHostHubID {
		t.Errorf("other host hubs: %+v", list)
	}
	e.do("GET", "/hubs?role_type=attendee", DemoToken, nil).decode(t, 200, &list)
	if list.TotalRecords != 1 || list.Hubs[0].HubID != OtherHostHubID {
		t.Errorf("attendee hubs: %+v", list)
	}
	e.do("GET", "/hubs", DemoToken, nil).wantError(t, 400, 300)
	e.do("GET", "/hubs?role_type=owner", DemoToken, nil).wantError(t, 400, 300)
	e.do("GET", "/hubs?role_type=host", "", nil).wantError(t, 401, 124)
}

func TestRateLimit(t *testing.T) {
	e := newEnv(t, Options{RPS: 2})
	e.do("GET", "/hubs?role_type=host", DemoToken, nil).decode(t, 200, nil)
	e.do("GET", "/hubs?role_type=host", DemoToken, nil).decode(t, 200, nil)
	r := e.do("GET", "/hubs?role_type=host", DemoToken, nil)
	er := r.wantError(t, 429, 429)
	if r.header.Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q", r.header.Get("Retry-After"))
	}
	if er.Message != "You have reached the maximum per-second rate limit for this API. Try again later." {
		t.Errorf("message %q", er.Message)
	}
	// Each token has its own bucket.
	e.do("GET", "/hubs?role_type=host", OtherHostToken, nil).decode(t, 200, nil)
	// Half a second refills one request.
	e.clock.Advance(500 * time.Millisecond)
	e.do("GET", "/hubs?role_type=host", DemoToken, nil).decode(t, 200, nil)
	e.do("GET", "/hubs?role_type=host", DemoToken, nil).wantError(t, 429, 429)

	// A slow limit asks for a longer wait, in whole seconds.
	e.sim.SetRPS(0.25)
	r = e.do("GET", "/hubs?role_type=host", DemoToken, nil)
	r.wantError(t, 429, 429)
	if got := r.header.Get("Retry-After"); got != "4" {
		t.Errorf("Retry-After %q at 0.25 rps", got)
	}
	e.sim.SetRPS(0)
	for range 50 {
		e.do("GET", "/hubs?role_type=host", DemoToken, nil).decode(t, 200, nil)
	}
	e.sim.SetRPS(3)
	for range 3 {
		e.do("GET", "/hubs?role_type=host", DemoToken, nil).decode(t, 200, nil)
	}
	e.do("GET", "/hubs?role_type=host", DemoToken, nil).wantError(t, 429, 429)
}

func TestRateLimitDefault(t *testing.T) {
	clock := newFakeClock(testEpoch)
	e := newEnv(t, Options{Now: clock.Now, RPS: DefaultRPS})
	for range DefaultRPS {
		e.do("GET", "/hubs?role_type=host", DemoToken, nil).decode(t, 200, nil)
	}
	e.do("GET", "/hubs?role_type=host", DemoToken, nil).wantError(t, 429, 429)
	// Unauthenticated requests are refused before the limit counts them.
	e.do("GET", "/hubs?role_type=host", "", nil).wantError(t, 401, 124)
	if New(Options{}).limits.rps != DefaultRPS {
		t.Error("the zero Options do not get the default limit")
	}
	if New(Options{NoRateLimit: true}).limits.rps != 0 {
		t.Error("NoRateLimit keeps a limit")
	}
}

func TestErrorFaults(t *testing.T) {
	e := newEnv(t, Options{ErrorRate: 1})
	seen := map[int]bool{}
	for range 30 {
		r := e.do("POST", "/events", DemoToken, validCreate(testEpoch))
		if r.status != 500 && r.status != 502 && r.status != 503 {
			t.Fatalf("status %d with ErrorRate 1", r.status)
		}
		r.wantError(t, r.status, r.status)
		seen[r.status] = true
	}
	if len(seen) != 3 {
		t.Errorf("saw statuses %v", seen)
	}
	// Nothing was created: faults come before processing.
	n := e.eventCount()
	e.sim.SetFaults(0, 0, 0)
	e.do("POST", "/events", DemoToken, validCreate(testEpoch)).decode(t, 201, nil)
	if e.eventCount() != n+1 {
		t.Error("events were created behind 5xx answers")
	}
}

func TestErrorFaultsDeterministic(t *testing.T) {
	statuses := func() []int {
		e := newEnv(t, Options{ErrorRate: 0.5, Seed: 42})
		var out []int
		for range 20 {
			out = append(out, e.do("GET", "/hubs?role_type=host", DemoToken, nil).status)
		}
		return out
	}
	a, b := statuses(), statuses()
	ok, failed := 0, 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("run 1 %v, run 2 %v", a, b)
		}
		if a[i] == 200 {
			ok++
		} else {
			failed++
		}
	}
	if ok == 0 || failed == 0 {
		t.Errorf("ErrorRate 0.5 gave %d ok, %d failed", ok, failed)
	}
}

func TestDropFaults(t *testing.T) {
	e := newEnv(t, Options{DropRate: 1})
	before := e.eventCount()
	const n = 24
	for i := range n {
		in := validCreate(testEpoch)
		in.Name = "Dropped " + string(rune('A'+i))
		_, err := e.try(context.Background(), "POST", "/events", DemoToken, in)
		if err == nil {
			t.Fatal("a dropped connection answered")
		}
	}
	// Half the drops happen after the change is applied.
	applied := e.eventCount() - before
	if applied == 0 || applied == n {
		t.Errorf("%d of %d dropped creates were applied; want some but not all", applied, n)
	}
	e.sim.SetFaults(0, 0, 0)
	e.do("GET", "/hubs?role_type=host", DemoToken, nil).decode(t, 200, nil)
}

func TestLatency(t *testing.T) {
	e := newEnv(t, Options{Latency: 30 * time.Millisecond})
	start := time.Now()
	e.do("GET", "/hubs?role_type=host", DemoToken, nil).decode(t, 200, nil)
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Errorf("answered after %v with 30ms latency", d)
	}
}

func TestLatencyHonoursCancellation(t *testing.T) {
	s := New(Options{Now: newFakeClock(testEpoch).Now, NoRateLimit: true})
	s.SetFaults(time.Hour, 0, 0)
	waiting := make(chan struct{}, 1)
	s.testHookWait = func() { waiting <- struct{}{} }
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/v2/vendor_events/hubs?role_type=host", nil)
	req.Header.Set("Authorization", "Bearer "+DemoToken)
	done := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-waiting // the handler is in its latency wait: give up on the request
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("client error %v", err)
	}
	// Close waits for running handlers: it returns promptly only if the
	// latency wait ended with the request.
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler kept waiting after the client cancelled")
	}
}

func TestServer(t *testing.T) {
	srv, err := Start("127.0.0.1:0", Options{NoRateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(srv.URL(), "http://127.0.0.1:") || !strings.HasSuffix(srv.URL(), "/v2") {
		t.Errorf("URL %s", srv.URL())
	}
	req, _ := http.NewRequest("GET", srv.URL()+"/vendor_events/events?role_type=host", nil)
	req.Header.Set("Authorization", "Bearer "+DemoToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("status %d", resp.StatusCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Error("server still answers after Shutdown")
	}
	if err := srv.Close(); err != nil {
		t.Errorf("Close after Shutdown: %v", err)
	}

	// Shutdown cuts a pending latency wait short.
	srv, err = Start("127.0.0.1:0", Options{Latency: time.Hour, NoRateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	waiting := make(chan struct{}, 1)
	srv.testHookWait = func() { waiting <- struct{}{} }
	go func() {
		req, _ := http.NewRequest("GET", srv.URL()+"/vendor_events/hubs?role_type=host", nil)
		req.Header.Set("Authorization", "Bearer "+DemoToken)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-waiting
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestEventTypesAreTheAPIs(t *testing.T) {
	// The simulator writes the api package's own types; a decode of every
	// seeded event through them keeps both in step.
	e := newEnv(t, Options{})
	for _, status := range []string{"upcoming", "past", "draft", "cancelled"} {
		for _, ev := range e.listAll(DemoToken, "host", status, 100) {
			if ev.EventID == "" || ev.StartTime == nil {
				t.Fatalf("decoded %+v", ev)
			}
			full := e.get(DemoToken, ev.EventID)
			if full.Recurrence != nil && full.Recurrence.Type == api.RecurrenceWeekly && full.Recurrence.WeeklyDays == nil {
				t.Errorf("%s: weekly without days", full.Name)
			}
		}
	}
}
