package api

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeListing serves n items in pages of size, with tokens that carry the
// offset and expire after PageTokenLifetime on the fake clock.
type fakeListing struct {
	items    []string
	size     int
	now      *time.Time
	issued   map[string]time.Time
	requests []string
	expired  int
}

func (f *fakeListing) fetch(_ context.Context, token string) (Page[string], error) {
	f.requests = append(f.requests, token)
	off := 0
	if token != "" {
		at, ok := f.issued[token]
		if !ok || f.now.Sub(at) >= PageTokenLifetime {
			f.expired++
			return Page[string]{}, &Error{Status: 400, Message: "The next page token is invalid or expired."} // no documented code
		}
		off, _ = strconv.Atoi(token[:len(token)-len("@x")])
	}
	end := min(off+f.size, len(f.items))
	p := Page[string]{Items: f.items[off:end], Total: len(f.items)}
	if end < len(f.items) {
		p.NextPageToken = fmt.Sprintf("%d@x", end)
		f.issued[p.NextPageToken] = *f.now
	}
	return p, nil
}

func newFake(n, size int, now *time.Time) *fakeListing {
	f := &fakeListing{size: size, now: now, issued: map[string]time.Time{}}
	for i := range n {
		f.items = append(f.items, fmt.Sprintf("e%03d", i))
	}
	return f
}

func collect(t *testing.T, p *Pager[string], each func(int)) []string {
	t.Helper()
	var got []string
	for it, err := range p.All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, it)
		if each != nil {
			each(len(got))
		}
	}
	return got
}

func assertEachOnce(t *testing.T, got []string, n int) {
	t.Helper()
	if len(got) != n {
		t.Fatalf("got %d items, want %d", len(got), n)
	}
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g] {
			t.Fatalf("%s delivered twice", g)
		}
		seen[g] = true
	}
}

func TestPagerRestartsInsteadOfSendingAnOldToken(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	f := newFake(100, 30, &now)
	p := NewPager("list test", f.fetch, func(s string) string { return s }, func() time.Time { return now })
	got := collect(t, p, func(n int) {
		if n == 45 { // mid second page: the user walks away for 15 minutes
			now = now.Add(15 * time.Minute)
		}
	})
	assertEachOnce(t, got, 100)
	if f.expired != 0 {
		t.Errorf("an expired token was sent %d times", f.expired)
	}
	if p.Restarts() != 1 || p.Total() != 100 {
		t.Errorf("restarts=%d total=%d", p.Restarts(), p.Total())
	}
}

func TestPagerRecoversWhenTheServerRejectsAToken(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	f := newFake(70, 30, &now)
	p := NewPager("list test", f.fetch, func(s string) string { return s }, func() time.Time { return now })
	first, err := p.Next(context.Background())
	if err != nil || len(first) != 30 {
		t.Fatal(len(first), err)
	}
	f.issued = map[string]time.Time{} // the server forgot every token
	rest := collect(t, p, nil)
	assertEachOnce(t, append(first, rest...), 70)
	if f.expired != 1 || p.Restarts() != 1 {
		t.Errorf("expired=%d restarts=%d", f.expired, p.Restarts())
	}
}

func TestPagerSeesItemsInsertedBeforeTheCursorAfterARestart(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	f := newFake(60, 30, &now)
	p := NewPager("list test", f.fetch, func(s string) string { return s }, func() time.Time { return now })
	got := collect(t, p, func(n int) {
		if n == 30 {
			f.items = append([]string{"new"}, f.items...)
			now = now.Add(20 * time.Minute)
		}
	})
	assertEachOnce(t, got, 61)
}

func TestPagerGivesUpWhenTokensNeverLast(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	f := newFake(100, 10, &now)
	fetch := func(ctx context.Context, tok string) (Page[string], error) {
		now = now.Add(PageTokenLifetime) // every answer takes longer than a token lives
		return f.fetch(ctx, tok)
	}
	p := NewPager("list test", fetch, func(s string) string { return s }, func() time.Time { return now })
	var err error
	for _, e := range p.All(context.Background()) {
		err = e
	}
	if err == nil {
		t.Fatal("want an error after too many restarts")
	}
}

// drain walks p to the end and returns the items and the final error.
func drain(p *Pager[string]) ([]string, error) {
	var got []string
	for it, err := range p.All(context.Background()) {
		if err != nil {
			return got, err
		}
		got = append(got, it)
	}
	return got, nil
}

func ident(s string) string { return s }

func TestPagerStopsWhenATokenRepeats(t *testing.T) {
	n := 0
	fetch := func(_ context.Context, tok string) (Page[string], error) {
		n++
		return Page[string]{Items: []string{fmt.Sprint("i", n)}, NextPageToken: "again"}, nil
	}
	p := NewPager("list test", fetch, ident, nil)
	got, err := drain(p)
	want := "list test: the server sent the same page token twice (page 2); stopping with the 2 items received"
	if !errors.Is(err, ErrEndlessListing) || err.Error() != want || len(got) != 2 || n != 2 {
		t.Fatalf("got %v after %d requests, err %v", got, n, err)
	}
	// The pager stays stopped.
	if _, err := p.Next(context.Background()); !errors.Is(err, ErrEndlessListing) || n != 2 {
		t.Errorf("after the stop: %v, %d requests", err, n)
	}
}

func TestPagerStopsAfterFivePagesWithNothingNew(t *testing.T) {
	n := 0
	fetch := func(_ context.Context, tok string) (Page[string], error) {
		n++
		return Page[string]{Items: []string{"a", "b", "c"}, NextPageToken: fmt.Sprint("t", n)}, nil
	}
	got, err := drain(NewPager("list test", fetch, ident, nil))
	want := "list test: the server kept sending page tokens after 5 pages without new items; stopping with the 3 items received"
	if !errors.Is(err, ErrEndlessListing) || err.Error() != want || len(got) != 3 || n != 6 {
		t.Fatalf("got %v after %d requests, err %v", got, n, err)
	}
}

func TestPagerStopsPastTwiceThePagesTheTotalNeeds(t *testing.T) {
	n := 0
	fetch := func(_ context.Context, tok string) (Page[string], error) {
		n++
		items := make([]string, 10)
		for i := range items {
			items[i] = fmt.Sprint(n, ".", i)
		}
		return Page[string]{Items: items, NextPageToken: fmt.Sprint("t", n), Total: 100}, nil
	}
	got, err := drain(NewPager("list test", fetch, ident, nil))
	want := "list test: the listing reached 30 pages though the server counts 100 records; stopping with the 300 items received"
	if !errors.Is(err, ErrEndlessListing) || err.Error() != want || len(got) != 300 || n != 30 {
		t.Fatalf("%d items after %d requests, err %v", len(got), n, err)
	}
}

func TestPagerStopsAtTheFixedCapWithoutATotal(t *testing.T) {
	n := 0
	fetch := func(_ context.Context, tok string) (Page[string], error) {
		n++
		return Page[string]{Items: []string{strconv.Itoa(n)}, NextPageToken: strconv.Itoa(n)}, nil
	}
	got, err := drain(NewPager("list test", fetch, ident, nil))
	if !errors.Is(err, ErrEndlessListing) || !strings.Contains(err.Error(), "reached 100000 pages;") || len(got) != maxPages || n != maxPages {
		t.Fatalf("%d items after %d requests, err %v", len(got), n, err)
	}
}

func TestPagerReplaysKnownPagesAfterARestartWithoutStopping(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	f := newFake(200, 10, &now)
	p := NewPager("list test", f.fetch, ident, func() time.Time { return now })
	got := collect(t, p, func(n int) {
		if n == 100 { // ten pages in, the token expires: ten known pages come again
			now = now.Add(20 * time.Minute)
		}
	})
	assertEachOnce(t, got, 200)
	if p.Restarts() != 1 {
		t.Errorf("restarts=%d", p.Restarts())
	}
}

func TestPagerRestartsOnAny4xxToATokenOncePerToken(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	f := newFake(50, 10, &now)
	refusals := 0
	fetch := func(ctx context.Context, tok string) (Page[string], error) {
		if tok == "20@x" && refusals == 0 { // no provider code, just a 400 about the token
			refusals++
			return Page[string]{}, &Error{Status: 400, Message: "Invalid next_page_token."}
		}
		return f.fetch(ctx, tok)
	}
	p := NewPager("list test", fetch, ident, func() time.Time { return now })
	assertEachOnce(t, collect(t, p, nil), 50)
	if p.Restarts() != 1 {
		t.Errorf("restarts=%d", p.Restarts())
	}

	// A server that refuses the same token every time gets one restart, not ten.
	requests := 0
	always := func(ctx context.Context, tok string) (Page[string], error) {
		requests++
		if tok == "20@x" {
			return Page[string]{}, &Error{Status: 404, Message: "gone"}
		}
		return f.fetch(ctx, tok)
	}
	p = NewPager("list test", always, ident, func() time.Time { return now })
	got, err := drain(p)
	if !IsStatus(err, 404) || p.Restarts() != 1 || len(got) != 20 || requests != 6 {
		t.Fatalf("err=%v restarts=%d items=%d requests=%d", err, p.Restarts(), len(got), requests)
	}

	// Credentials, scope and rate are not the token's fault: no restart.
	for _, status := range []int{401, 403, 429} {
		requests = 0
		refuse := func(ctx context.Context, tok string) (Page[string], error) {
			requests++
			if tok != "" {
				return Page[string]{}, &Error{Status: status}
			}
			return f.fetch(ctx, tok)
		}
		p = NewPager("list test", refuse, ident, func() time.Time { return now })
		if _, err := drain(p); !IsStatus(err, status) || p.Restarts() != 0 || requests != 2 {
			t.Errorf("%d: err=%v restarts=%d requests=%d", status, err, p.Restarts(), requests)
		}
	}
}
