package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// endless answers 200 with the start of an events listing whose first
// event name never ends. It counts what it managed to write and reports on
// done when the handler returned (the client hung up).
func endless(t *testing.T) (srv *httptest.Server, written *atomic.Int64, done chan struct{}) {
	written = new(atomic.Int64)
	done = make(chan struct{}, 1)
	chunk := []byte(strings.Repeat("a", 32<<10))
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { done <- struct{}{} }()
		w.Header().Set("Content-Type", "application/json")
		n, _ := w.Write([]byte(`{"events":[{"event_id":"e1","name":"`))
		written.Add(int64(n))
		for written.Load() < 1<<30 { // a safety stop at 1 GiB, should the client never hang up
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv, written, done
}

func TestAnEndlessAnswerFailsNamingTheEndpointAndTheCap(t *testing.T) {
	srv, written, done := endless(t)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0), WithMaxBodyBytes(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = c.Events.ListPage(context.Background(), ListEventsOptions{PageSize: 30}, "secret-token")
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrResponseTooLarge) {
		t.Fatalf("err = %v", err)
	}
	want := "list events: the answer from /vendor_events/events is larger than 1 MiB; refusing to read more (raise max_response_mb in the profile if this is expected)"
	if err.Error() != want {
		t.Errorf("message:\n%s\nwant\n%s", err, want)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the server is still writing: the client did not hang up")
	}
	// The socket buffers hold a few MiB at most; a reader that kept going
	// would have taken the full gigabyte.
	if w := written.Load(); w > 64<<20 {
		t.Errorf("the server wrote %d MiB before the client hung up", w>>20)
	}
	t.Logf("server wrote %.1f MiB; client allocated %.1f MiB", float64(written.Load())/(1<<20),
		float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("reading allocated %d MiB", grew>>20)
	}
}

func TestTheBodyCapIsExact(t *testing.T) {
	body := `{"event_id":"abc","name":"ok"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(body)) }))
	t.Cleanup(srv.Close)
	for limit, fits := range map[int64]bool{int64(len(body)): true, int64(len(body)) - 1: false} {
		c, err := New(WithBaseURL(srv.URL+"/v2"), WithRateLimit(0, 0), WithMaxBodyBytes(limit))
		if err != nil {
			t.Fatal(err)
		}
		ev, err := c.Events.Get(context.Background(), "abc")
		if fits != (err == nil) || fits && ev.Name != "ok" || !fits && !errors.Is(err, ErrResponseTooLarge) {
			t.Errorf("limit %d: %v %v", limit, ev, err)
		}
	}
	c, _ := New(WithBaseURL(srv.URL), WithMaxBodyBytes(0))
	if c.MaxBodyBytes() != DefaultMaxBodyBytes || sizeWords(DefaultMaxBodyBytes) != "64 MiB" {
		t.Errorf("default cap %d (%s)", c.MaxBodyBytes(), sizeWords(c.MaxBodyBytes()))
	}
}

func TestTheTranscriberIsBoundedToo(t *testing.T) {
	srv, _, done := endless(t)
	tr, err := NewTranscriber(srv.URL+"/v2", oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "jwt"}),
		WithRateLimit(0, 0), WithMaxBodyBytes(64<<10))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tr.Transcribe(context.Background(), TranscribeRequest{File: "https://example.org/a.mp3?sig=secret"})
	if !errors.Is(err, ErrResponseTooLarge) || !strings.Contains(err.Error(), "from /aiservices/scribe/transcribe is larger than 64 KiB") ||
		strings.Contains(err.Error(), "secret") {
		t.Fatalf("err = %v", err)
	}
	<-done
}

// recorder answers every request with an event and remembers the
// Authorization header of each.
func recorder(t *testing.T, newServer func(http.Handler) *httptest.Server) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var auths []string
	srv := newServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization")+"|"+r.Header.Get("Cookie"))
		mu.Unlock()
		_, _ = w.Write([]byte(`{"event_id":"abc","name":"ok","request_id":"r1","result":{}}`))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(auths) }
}

// redirector sends every request on to target (same path and query).
func redirector(t *testing.T, newServer func(http.Handler) *httptest.Server, target string, status int) *httptest.Server {
	srv := newServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.RequestURI(), status)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestTheTokenDoesNotFollowARedirectToAnotherPort(t *testing.T) {
	other, seen := recorder(t, httptest.NewServer)
	from := redirector(t, httptest.NewServer, other.URL, http.StatusFound)
	if !strings.HasPrefix(other.URL, "http://127.0.0.1:") || !strings.HasPrefix(from.URL, "http://127.0.0.1:") {
		t.Fatalf("servers %s and %s: the test needs one host and two ports", from.URL, other.URL)
	}
	c, err := New(WithBaseURL(from.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if ev, err := c.Events.Get(context.Background(), "abc"); err != nil || ev.Name != "ok" {
		t.Fatal(ev, err)
	}
	if got := seen(); !slices.Equal(got, []string{"|"}) {
		t.Errorf("the other origin saw %q", got)
	}
}

func TestASameOriginRedirectKeepsTheToken(t *testing.T) {
	var auths []string
	mux := http.NewServeMux()
	mux.HandleFunc("/v2/vendor_events/events/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v2/vendor_events/events/abc", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/v2/vendor_events/events/abc", func(w http.ResponseWriter, r *http.Request) {
		auths = append(auths, r.Header.Get("Authorization"))
		_, _ = w.Write([]byte(`{"event_id":"abc","name":"ok"}`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if ev, err := c.Events.Get(context.Background(), "old"); err != nil || ev.Name != "ok" {
		t.Fatal(ev, err)
	}
	if !slices.Equal(auths, []string{"Bearer tok"}) {
		t.Errorf("same origin saw %q", auths)
	}
}

func TestACallersHTTPClientIsGuardedAndKeepsItsOwnCheck(t *testing.T) {
	other, seen := recorder(t, httptest.NewServer)
	from := redirector(t, httptest.NewServer, other.URL, http.StatusTemporaryRedirect)
	var checked int
	mine := &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
		checked++
		req.Header.Set("Cookie", "session=abc") // even a cookie the caller adds does not cross
		return nil
	}}
	c, err := New(WithBaseURL(from.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0), WithHTTPClient(mine))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Events.Get(context.Background(), "abc"); err != nil {
		t.Fatal(err)
	}
	if checked != 1 || mine.CheckRedirect == nil {
		t.Errorf("the caller's check ran %d times", checked)
	}
	if got := seen(); len(got) != 1 || strings.HasPrefix(got[0], "Bearer") {
		t.Errorf("the other origin saw %q", got)
	}
}

func TestARedirectFromHTTPSToHTTPIsRefused(t *testing.T) {
	plain, seen := recorder(t, httptest.NewServer)
	secure := redirector(t, httptest.NewTLSServer, plain.URL, http.StatusFound)
	c, err := New(WithBaseURL(secure.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0), WithHTTPClient(secure.Client()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Events.ListPage(context.Background(), ListEventsOptions{}, "secret-token")
	if err == nil || !strings.Contains(err.Error(), "from https to http://"+strings.TrimPrefix(plain.URL, "http://")+", which is not encrypted") ||
		strings.Contains(err.Error(), "secret-token") {
		t.Fatalf("err = %v", err)
	}
	if got := seen(); len(got) != 0 {
		t.Errorf("the http server was asked %d times", len(got))
	}
}

func TestRedirectsStopAfterTen(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Redirect(w, r, r.URL.Path+"?n="+strconv.Itoa(int(n.Load())), http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Events.Get(context.Background(), "abc")
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") || n.Load() != 10 {
		t.Fatalf("err=%v requests=%d (a refused redirect is not retried)", err, n.Load())
	}
}

func TestTheTranscriberTokenStaysWithItsOrigin(t *testing.T) {
	other, seen := recorder(t, httptest.NewServer)
	from := redirector(t, httptest.NewServer, other.URL, http.StatusTemporaryRedirect)
	tr, err := NewTranscriber(from.URL+"/v2", oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "jwt"}), WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Transcribe(context.Background(), TranscribeRequest{File: "https://example.org/a.mp3"}); err != nil {
		t.Fatal(err)
	}
	if got := seen(); !slices.Equal(got, []string{"|"}) {
		t.Errorf("the other origin saw %q", got)
	}
}

func TestOriginSpellsOutDefaultPorts(t *testing.T) {
	for a, b := range map[string]string{
		"https://API.example.com/v2": "https://api.example.com:443/x",
		"http://127.0.0.1/v2":        "http://127.0.0.1:80",
	} {
		ua, _ := url.Parse(a)
		ub, _ := url.Parse(b)
		if origin(ua) != origin(ub) {
			t.Errorf("%s and %s differ: %s %s", a, b, origin(ua), origin(ub))
		}
	}
	for _, pair := range [][2]string{
		{"http://127.0.0.1:9100", "http://127.0.0.1:9101"},
		{"https://api.example.com", "http://api.example.com"},
		{"https://api.example.com", "https://sub.api.example.com"},
	} {
		a, b := pair[0], pair[1]
		ua, _ := url.Parse(a)
		ub, _ := url.Parse(b)
		if origin(ua) == origin(ub) {
			t.Errorf("%s and %s are one origin", a, b)
		}
	}
}

// silent accepts requests and never answers (or, with partial, sends the
// headers and the start of a body, then stops) until the client hangs up.
func silent(t *testing.T, partial bool) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if partial {
			_, _ = w.Write([]byte(`{"event_id":"abc","na`))
			w.(http.Flusher).Flush()
		}
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestASilentServerIsGivenUpOnPerRequestAndNotRetried(t *testing.T) {
	srv, n := silent(t, false)
	var waits []time.Duration
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0), WithTimeout(100*time.Millisecond),
		WithSleep(func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Events.Get(context.Background(), "abc")
	want := "get event: no answer from " + strings.TrimPrefix(srv.URL, "http://") + " within 100ms"
	if err == nil || err.Error() != want || !isTimeout(err) {
		t.Fatalf("err = %v, want %s", err, want)
	}
	if n.Load() != 1 || len(waits) != 0 {
		t.Errorf("requests=%d waits=%v: a full timeout is not waited again", n.Load(), waits)
	}
	tr := newHTTPClient(DefaultTimeout, nil)
	if tr.Transport.(*http.Transport).ResponseHeaderTimeout != DefaultTimeout || tr.Timeout != 5*DefaultTimeout {
		t.Errorf("default limits: headers %v, exchange %v", tr.Transport.(*http.Transport).ResponseHeaderTimeout, tr.Timeout)
	}
}

func TestTheCallersDeadlineEndsTheCallSayingWhatItWaitedFor(t *testing.T) {
	srv, _ := silent(t, false)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = c.Events.ListPage(ctx, ListEventsOptions{}, "")
	want := "list events: no answer from " + strings.TrimPrefix(srv.URL, "http://") + " before the deadline (waited "
	if !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %v, want %s...", err, want)
	}
	// A cancelled call (the user left the screen) says just that.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err = c.Events.Get(ctx, "abc"); err == nil || err.Error() != "get event: context canceled" {
		t.Errorf("cancelled: %v", err)
	}
}

func TestAnAnswerThatStopsHalfwayIsGivenUpOn(t *testing.T) {
	srv, _ := silent(t, true)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0), WithTimeout(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Events.Get(context.Background(), "abc")
	want := "get event: the answer from " + strings.TrimPrefix(srv.URL, "http://") + " did not arrive in full within 250ms"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}

func TestAListingThatNeverEndsStopsWithAClearError(t *testing.T) {
	for _, c := range []struct {
		name     string
		token    func(n int32) string
		want     string
		requests int32
	}{
		{"fresh tokens, same events", func(n int32) string { return "tok" + strconv.Itoa(int(n)) },
			"list events: the server kept sending page tokens after 5 pages without new items; stopping with the 2 items received", 6},
		{"one token for ever", func(int32) string { return "forever" },
			"list events: the server sent the same page token twice (page 2); stopping with the 2 items received", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var n atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				tok := c.token(n.Add(1))
				_, _ = w.Write([]byte(`{"total_records":2,"next_page_token":"` + tok + `","events":[{"event_id":"e1"},{"event_id":"e2"}]}`))
			}))
			t.Cleanup(srv.Close)
			cl, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			var got int
			for _, err = range cl.Events.List(context.Background(), ListEventsOptions{}) {
				if err != nil {
					break
				}
				got++
			}
			if !errors.Is(err, ErrEndlessListing) || err.Error() != c.want || got != 2 || n.Load() != c.requests {
				t.Fatalf("%d events after %d requests, err %v", got, n.Load(), err)
			}
		})
	}
}

func TestADeadlineDuringARetryWaitKeepsTheServersAnswer(t *testing.T) {
	srv, _ := scripted(t, []int{503, 503, 503, 503, 503, 503, 503, 503}, nil)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0),
		WithSleep(func(ctx context.Context, _ time.Duration) error { <-ctx.Done(); return ctx.Err() }))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = c.Events.Get(ctx, "abc")
	want := "get event: HTTP 503: service unavailable (server: scripted); no usable answer from " +
		strings.TrimPrefix(srv.URL, "http://") + " before the deadline (waited "
	if !IsStatus(err, 503) || !errors.Is(err, context.DeadlineExceeded) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %v\nwant %s...", err, want)
	}
}
