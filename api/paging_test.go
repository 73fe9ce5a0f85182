package api

import (
	"context"
	"fmt"
	"strconv"
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
			return Page[string]{}, &Error{Status: 400, Code: CodeInvalidPageToken}
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
	p := NewPager(f.fetch, func(s string) string { return s }, func() time.Time { return now })
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
	p := NewPager(f.fetch, func(s string) string { return s }, func() time.Time { return now })
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
	p := NewPager(f.fetch, func(s string) string { return s }, func() time.Time { return now })
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
	p := NewPager(fetch, func(s string) string { return s }, func() time.Time { return now })
	var err error
	for _, e := range p.All(context.Background()) {
		err = e
	}
	if err == nil {
		t.Fatal("want an error after too many restarts")
	}
}
