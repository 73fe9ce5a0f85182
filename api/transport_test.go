package api

import (
	"context"
	"errors"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// scripted answers each request with the next status in order, then 200.
func scripted(t *testing.T, statuses []int, headers map[string]string) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if r.Header.Get("Authorization") != "Bearer tok" {
			t.Errorf("missing bearer token")
		}
		if i < len(statuses) {
			for k, v := range headers {
				w.Header().Set(k, v)
			}
			w.WriteHeader(statuses[i])
			_, _ = w.Write([]byte(`{"code":0,"message":"scripted"}`))
			return
		}
		if r.Method == http.MethodPost {
			w.WriteHeader(201)
			_, _ = w.Write([]byte(`{"status":"Published"}`))
			return
		}
		_, _ = w.Write([]byte(`{"event_id":"abc","name":"ok"}`))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func testClient(t *testing.T, url string, waits *[]time.Duration) *Client {
	t.Helper()
	c, err := New(WithBaseURL(url+"/v2"), WithToken("tok"), WithRateLimit(0, 0),
		WithSleep(func(_ context.Context, d time.Duration) error { *waits = append(*waits, d); return nil }))
	if err != nil {
		t.Fatal(err)
	}
	c.jitter = func() float64 { return 1 }
	return c
}

func TestRetriesA429HonouringRetryAfter(t *testing.T) {
	srv, n := scripted(t, []int{429, 429}, map[string]string{"Retry-After": "3"})
	var waits []time.Duration
	ev, err := testClient(t, srv.URL, &waits).Events.Get(context.Background(), "abc")
	if err != nil || ev.Name != "ok" {
		t.Fatal(ev, err)
	}
	if n.Load() != 3 || len(waits) != 2 || waits[0] != 3*time.Second {
		t.Errorf("requests=%d waits=%v", n.Load(), waits)
	}
}

func TestRetriesA5xxOnGetWithGrowingBackoff(t *testing.T) {
	srv, n := scripted(t, []int{500, 502, 503}, nil)
	var waits []time.Duration
	if _, err := testClient(t, srv.URL, &waits).Events.Get(context.Background(), "abc"); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 4 {
		t.Errorf("requests=%d", n.Load())
	}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second}
	for i, w := range want {
		if waits[i] != w {
			t.Errorf("wait %d = %v, want %v", i, waits[i], w)
		}
	}
}

func TestAPostIsNotRepeatedAfterA5xx(t *testing.T) {
	srv, n := scripted(t, []int{500}, nil)
	var waits []time.Duration
	_, err := testClient(t, srv.URL, &waits).Events.Publish(context.Background(), "abcdef")
	if n.Load() != 1 {
		t.Fatalf("a POST was sent %d times", n.Load())
	}
	if !errors.Is(err, ErrOutcomeUnknown) || !IsStatus(err, 500) {
		t.Errorf("want an unknown-outcome 500, got %v", err)
	}
}

func TestAPostIsRepeatedAfterA429(t *testing.T) {
	srv, n := scripted(t, []int{429}, map[string]string{"Retry-After": "1"})
	var waits []time.Duration
	res, err := testClient(t, srv.URL, &waits).Events.Publish(context.Background(), "abcdef")
	if err != nil || res.Status != ActionStatusPublished || n.Load() != 2 {
		t.Fatalf("res=%v err=%v requests=%d", res, err, n.Load())
	}
}

func TestGivesUpAfterMaxAttempts(t *testing.T) {
	srv, n := scripted(t, []int{503, 503, 503, 503, 503, 503, 503, 503, 503}, nil)
	var waits []time.Duration
	c := testClient(t, srv.URL, &waits)
	_, err := c.Events.Get(context.Background(), "abc")
	if !IsStatus(err, 503) || int(n.Load()) != DefaultRetryPolicy.MaxAttempts {
		t.Fatalf("err=%v requests=%d", err, n.Load())
	}
	for _, w := range waits {
		if w > DefaultRetryPolicy.MaxDelay {
			t.Errorf("wait %v above the cap", w)
		}
	}
}

func TestARetryAfterBeyondTheLimitIsReturned(t *testing.T) {
	srv, n := scripted(t, []int{429}, map[string]string{"Retry-After": "3600"})
	var waits []time.Duration
	c := testClient(t, srv.URL, &waits)
	c.now = func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) }
	_, err := c.Events.Get(context.Background(), "abc")
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.RetryAfter != time.Hour || n.Load() != 1 || len(waits) != 0 {
		t.Fatalf("err=%v requests=%d waits=%v", err, n.Load(), waits)
	}
	if d, ok := RetryAfter(err); !ok || d != time.Hour {
		t.Errorf("RetryAfter = %v, %v", d, ok)
	}
	if !strings.HasSuffix(err.Error(), "; the server asked to wait 1h (until 13:00); not waiting longer than 2m") {
		t.Errorf("message: %v", err)
	}
}

func TestAnAbsurdRetryAfterIsRefusedWithTheDate(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for header, want := range map[string]string{
		"9000000000": "; the server asked to wait 285 years (until 2312-02-05 04:00); not waiting longer than 2m",
		"1e300":      "; the server asked to wait more than 292 years; not waiting longer than 2m",
		"43200":      "; the server asked to wait 12h (until 2026-11-24 00:00); not waiting longer than 2m",
	} {
		srv, n := scripted(t, []int{429}, map[string]string{"Retry-After": header})
		var waits []time.Duration
		c := testClient(t, srv.URL, &waits)
		c.now = func() time.Time { return now }
		_, err := c.Events.Get(context.Background(), "abc")
		if !IsStatus(err, 429) || n.Load() != 1 || len(waits) != 0 {
			t.Fatalf("%s: err=%v requests=%d waits=%v", header, err, n.Load(), waits)
		}
		if !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %v", header, err)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"7":                             7 * time.Second,
		"0.5":                           500 * time.Millisecond,
		"Mon, 23 Nov 2026 12:00:30 GMT": 30 * time.Second,
		"2026-11-23T12:01:00Z":          time.Minute,
		"2026-11-23T11:00:00Z":          0,
		"soon":                          0,
		"-5":                            0,
		"NaN":                           0,
		"9000000000":                    9000000000 * time.Second,
		"9300000000":                    math.MaxInt64,
		"1e300":                         math.MaxInt64,
		"+Inf":                          math.MaxInt64,
		"Fri, 01 Jan 9999 00:00:00 GMT": math.MaxInt64,
		"":                              0,
	} {
		if got := parseRetryAfter(in, now); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
}

func TestErrorMessageCarriesTheSpecMeaning(t *testing.T) {
	e := &Error{Status: 400, Code: 260210, Message: "Event is not editable.", Op: "update event"}
	if got := e.Error(); got != "update event: error 260210: past and cancelled events cannot be edited (server: Event is not editable.)" {
		t.Errorf("got %q", got)
	}
	// A code no document gives reads as its status, with the server's words.
	e = &Error{Status: 400, Code: 300, Message: "cancel_message is required when the event has registrants.", Op: "cancel event"}
	if got := e.Error(); got != "cancel event: error 300: invalid request (server: cancel_message is required when the event has registrants.)" {
		t.Errorf("got %q", got)
	}
	e = &Error{Status: 429}
	if e.Meaning() == "" || !e.Temporary() {
		t.Error("429 needs a meaning and is temporary")
	}
}

func TestConnectionErrorsDoNotLeakTheQuery(t *testing.T) {
	var waits []time.Duration
	c := testClient(t, "http://127.0.0.1:1", &waits)
	c.retry.MaxAttempts = 1
	_, err := c.Events.ListPage(context.Background(), ListEventsOptions{}, "secret-token")
	if err == nil || strings.Contains(err.Error(), "secret-token") {
		t.Fatalf("err = %v", err)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	if _, err := New(); err == nil {
		t.Error("no base URL accepted")
	}
	if _, err := New(WithBaseURL("ftp://x/v2")); err == nil {
		t.Error("ftp accepted")
	}
	if _, err := New(WithBaseURL("http://x/v2"), WithPathWord("a/b")); err == nil {
		t.Error("path word with slash accepted")
	}
}

func TestErrorDetailsNameTheEndpoint(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(404)
		_, _ = w.Write([]byte(`{"code":2002,"message":"Event not found"}`))
	}))
	defer srv.Close()
	var waits []time.Duration
	_, err := testClient(t, srv.URL, &waits).Events.Get(context.Background(), "nope")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, d := range e.Details() {
		got[d[0]] = d[1]
	}
	if got["Endpoint"] != "GET /v2/vendor_events/events/nope" || got["Status"] != "404 Not Found" ||
		got["Code"] != "2002" || got["Meaning"] != "event not found" || got["Operation"] != e.Op {
		t.Fatalf("details %v", got)
	}
}

// TestASharedPacerSlowsEveryClientOfTheAccount: the console's client and the
// check-in sender share one pacer, so a 429 one of them meets slows both.
func TestASharedPacerSlowsEveryClientOfTheAccount(t *testing.T) {
	srv, n := scripted(t, []int{429}, map[string]string{"Retry-After": "1"})
	shared := NewPacer(DefaultRateLimit, 0)
	var waits []time.Duration
	clients := make([]*Client, 2)
	for i := range clients {
		c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithPacer(shared),
			WithSleep(func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }))
		if err != nil {
			t.Fatal(err)
		}
		clients[i] = c
	}
	if _, err := clients[0].Events.Get(context.Background(), "abc"); err != nil || n.Load() != 2 {
		t.Fatalf("err=%v requests=%d", err, n.Load())
	}
	if clients[1].Pacer() != shared || shared.Rate() != DefaultRateLimit/2 || shared.Throttled() != 1 {
		t.Fatalf("rate %v after a 429, %d throttled", shared.Rate(), shared.Throttled())
	}
	if c, _ := New(WithBaseURL(srv.URL + "/v2")); c.Pacer().Rate() != DefaultRateLimit {
		t.Errorf("default rate %v", c.Pacer().Rate())
	}
}

// closedPort is a loopback address nothing listens on: connecting to it is
// refused at once.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

// A refused connection is reported after a few quick tries, naming the
// address and the cause, for a POST too (nothing was sent).
func TestARefusedConnectionIsReportedAfterAFewTries(t *testing.T) {
	addr := closedPort(t)
	var waits []time.Duration
	c := testClient(t, "http://"+addr, &waits)
	_, err := c.Events.ListPage(context.Background(), ListEventsOptions{}, "")
	var ue *UnreachableError
	if !errors.As(err, &ue) || ue.Attempts != UnreachableAttempts || ue.Cause != "connection refused" || ue.Host != addr {
		t.Fatalf("err = %#v", err)
	}
	if len(waits) != UnreachableAttempts-1 {
		t.Fatalf("waited %v between %d tries", waits, UnreachableAttempts)
	}
	want := "list events: cannot reach " + addr + ": connection refused (3 attempts)"
	if !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %q, want it to start %q", err, want)
	}
	waits = nil
	_, err = c.Events.Publish(context.Background(), "ev1")
	if !errors.As(err, &ue) || errors.Is(err, ErrOutcomeUnknown) || len(waits) != UnreachableAttempts-1 {
		t.Fatalf("publish: %v after %v", err, waits)
	}
}

// An unknown host, a refused dial and other failures are told apart.
func TestUnreachableNamesTheCause(t *testing.T) {
	for _, c := range []struct {
		err   error
		cause string
	}{
		{&net.OpError{Op: "dial", Err: &net.DNSError{Name: "nosuch.invalid", Err: "no such host", IsNotFound: true}}, "unknown host"},
		{&net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, "connection refused"},
		{&net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.EHOSTUNREACH)}, "no route to host"},
		{&net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, ""},
		{&net.DNSError{Name: "x", Err: "server misbehaving", IsTemporary: true}, ""},
	} {
		got, ok := unreachable(c.err)
		if got != c.cause || ok != (c.cause != "") {
			t.Errorf("%v: %q %v, want %q", c.err, got, ok, c.cause)
		}
	}
}

// A name the resolver does not know is reported as such (skipped where
// this machine has no resolver that answers).
func TestAnUnknownHostIsReportedAfterAFewTries(t *testing.T) {
	if _, err := net.LookupHost("evdesk-no-such-host.invalid"); err == nil {
		t.Skip("the resolver answers for .invalid")
	} else if dns := (*net.DNSError)(nil); !errors.As(err, &dns) || !dns.IsNotFound {
		t.Skipf("no resolver answers here: %v", err)
	}
	var waits []time.Duration
	c := testClient(t, "http://evdesk-no-such-host.invalid", &waits)
	_, err := c.Events.ListPage(context.Background(), ListEventsOptions{}, "")
	var ue *UnreachableError
	if !errors.As(err, &ue) || ue.Cause != "unknown host" || ue.Host != "evdesk-no-such-host.invalid" {
		t.Fatalf("err = %v", err)
	}
}

// Every retry is told before its wait, with the try to come and why, and
// the end of the call after: a console counts the tries in view.
func TestRetriesAreToldAsTheyHappen(t *testing.T) {
	srv, _ := scripted(t, []int{503, 503}, nil)
	var waits []time.Duration
	c := testClient(t, srv.URL, &waits)
	var told []string
	c.notice = func(n RetryNotice) {
		if n.Done {
			told = append(told, "done")
			return
		}
		told = append(told, n.String())
	}
	if _, err := c.Events.Get(context.Background(), "abc"); err != nil {
		t.Fatal(err)
	}
	want := []string{"get event: try 2 of 8 in 250ms (HTTP 503)", "get event: try 3 of 8 in 500ms (HTTP 503)", "done"}
	if !slices.Equal(told, want) {
		t.Fatalf("told %q, want %q", told, want)
	}
	told = nil
	addr := closedPort(t)
	c = testClient(t, "http://"+addr, &waits)
	c.notice = func(n RetryNotice) { told = append(told, n.String()) }
	_, _ = c.Events.Get(context.Background(), "abc")
	if len(told) != 3 || told[0] != "get event: try 2 of 3 in 250ms (connection refused)" {
		t.Fatalf("refused: told %q", told)
	}
}
