package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// distinctPages serves an endless listing of events: every page holds
// perPage new events whose names are nameLen bytes, a fresh page token and
// no total_records. It counts the requests.
func distinctPages(t *testing.T, perPage, nameLen int) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	name := strings.Repeat("n", nameLen)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		var b strings.Builder
		fmt.Fprintf(&b, `{"next_page_token":"p%d","events":[`, page)
		for i := range perPage {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"event_id":"e%d-%d","name":"%s"}`, page, i, name)
		}
		b.WriteString("]}")
		_, _ = w.Write([]byte(b.String()))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestAListingStopsAtItsByteBudgetKeepingWhatItRead(t *testing.T) {
	srv, requests := distinctPages(t, 10, 10<<10) // about 100 KiB a page
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0),
		WithListingBudget(ListingBudget{Bytes: 1 << 20}))
	if err != nil {
		t.Fatal(err)
	}
	var got int
	for _, err = range c.Events.List(context.Background(), ListEventsOptions{}) {
		if err != nil {
			break
		}
		got++
	}
	if !errors.Is(err, ErrListingBudget) {
		t.Fatalf("after %d events and %d requests: %v", got, requests.Load(), err)
	}
	// 1 MiB holds ten pages and a bit: the eleventh crosses it and is kept.
	if requests.Load() != 11 || got != 110 {
		t.Errorf("%d requests, %d events kept", requests.Load(), got)
	}
	want := "list events: the listing passed its budget of 1 MiB after 11 pages; stopping with the 110 items received (raise max_listing_mb in the profile if this is expected)"
	if err.Error() != want {
		t.Errorf("message:\n%s\nwant\n%s", err, want)
	}
}

func TestAListingStopsAtItsItemBudget(t *testing.T) {
	srv, requests := distinctPages(t, 300, 8)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0),
		WithListingBudget(ListingBudget{Items: 1000}))
	if err != nil {
		t.Fatal(err)
	}
	p := c.Events.Pager(ListEventsOptions{})
	var got int
	for {
		items, err := p.Next(context.Background())
		got += len(items)
		if err != nil {
			if !errors.Is(err, ErrListingBudget) || !strings.Contains(err.Error(), "budget of 1000 items after 4 pages; stopping with the 1200 items received (raise max_listing_items") {
				t.Fatal(err)
			}
			break
		}
		if p.Done() {
			t.Fatal("an endless listing reported itself complete")
		}
	}
	if got != 1200 || requests.Load() != 4 {
		t.Errorf("%d items over %d requests", got, requests.Load())
	}
	if _, err := p.Next(context.Background()); !errors.Is(err, ErrListingBudget) || requests.Load() != 4 {
		t.Errorf("a stopped listing asks again: %v after %d requests", err, requests.Load())
	}
}

// A listing that ends within its pages is never cut, however close to the
// budget its last page brings it.
func TestACompleteListingIsNotCutByItsBudget(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := n.Add(1)
		next := ""
		if page < 3 {
			next = "p" + strconv.Itoa(int(page))
		}
		fmt.Fprintf(w, `{"next_page_token":%q,"events":[{"event_id":"e%d"},{"event_id":"f%d"}]}`, next, page, page)
	}))
	t.Cleanup(srv.Close)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0),
		WithListingBudget(ListingBudget{Items: 5}))
	if err != nil {
		t.Fatal(err)
	}
	var got int
	for _, err := range c.Events.List(context.Background(), ListEventsOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		got++
	}
	if got != 6 {
		t.Errorf("%d events", got)
	}
}

// An answer whose announced length is over the cap is refused before a
// byte of it is read.
func TestAnAnnouncedLengthOverTheCapIsRefusedUnread(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(2<<20))
		_, _ = w.Write([]byte(`{"events":[`))
	}))
	t.Cleanup(srv.Close)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0), WithMaxBodyBytes(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Events.ListPage(context.Background(), ListEventsOptions{}, ""); !errors.Is(err, ErrResponseTooLarge) {
		t.Fatalf("err = %v", err)
	}
}

// readBody holds what it read and at most one chunk more, then makes the
// one copy decoding needs: reading 3 MiB of an answer of unknown length
// allocates about twice that, not the doubling buffer's copies.
func TestReadBodyAllocatesAboutTwiceTheBody(t *testing.T) {
	body := strings.Repeat("x", 3<<20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b, err := readBody(context.Background(), strings.NewReader(body), -1, 4<<20)
	runtime.ReadMemStats(&after)
	if err != nil || len(b) != len(body) {
		t.Fatal(len(b), err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(2*len(body)+lastChunk) {
		t.Errorf("reading %d MiB allocated %.1f MiB", len(body)>>20, float64(grew)/(1<<20))
	}
	for _, limit := range []int64{len64(body) - 1, 1} {
		if _, err := readBody(context.Background(), strings.NewReader(body), -1, limit); !errors.Is(err, ErrResponseTooLarge) {
			t.Errorf("limit %d: %v", limit, err)
		}
	}
	if b, err := readBody(context.Background(), strings.NewReader(body), -1, len64(body)); err != nil || len(b) != len(body) {
		t.Errorf("exactly the limit: %d, %v", len(b), err)
	}
}

func len64(s string) int64 { return int64(len(s)) }
