package api

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
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
