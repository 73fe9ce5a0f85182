package ui

import (
	"context"
	"errors"
	"testing"

	tea "charm.land/bubbletea/v2"
)

type fakePager struct {
	pages [][]int
	ctxs  []context.Context
}

func (f *fakePager) Next(ctx context.Context) ([]int, error) {
	f.ctxs = append(f.ctxs, ctx)
	if len(f.pages) == 0 {
		return nil, errors.New("no more pages")
	}
	p := f.pages[0]
	f.pages = f.pages[1:]
	return p, nil
}
func (f *fakePager) Done() bool { return len(f.pages) == 0 }
func (f *fakePager) Total() int { return 3 }

// pageOf runs an Async command and returns the page it delivers.
func pageOf(t *testing.T, cmd tea.Cmd) Page[int] {
	t.Helper()
	for _, m := range expand(cmd) {
		if done, ok := m.(asyncDoneMsg); ok {
			if p, ok := done.msg.(Page[int]); ok {
				return p
			}
		}
	}
	t.Fatal("the command delivered no page")
	return Page[int]{}
}

func TestStreamDeliversPagesAndDropsThoseOfAnAbandonedLoad(t *testing.T) {
	var s, other Stream[int]
	first := &fakePager{pages: [][]int{{1, 2}, {3}}}
	old := pageOf(t, s.Start(first))
	if !s.Owns(old) || len(old.Items) != 2 || old.Done || old.Total != 3 {
		t.Fatalf("first page %+v", old)
	}
	next := pageOf(t, s.Next())
	if !s.Owns(next) || !next.Done || next.Items[0] != 3 {
		t.Fatalf("second page %+v", next)
	}
	fresh := pageOf(t, s.Start(&fakePager{pages: [][]int{{9}}}))
	if s.Owns(old) || !s.Owns(fresh) || other.Owns(fresh) {
		t.Fatal("a restarted load must disown the old pages, and another stream owns none")
	}
	if first.ctxs[0].Err() == nil {
		t.Fatal("starting over must cancel the old load's requests")
	}
	s.Stop()
	if s.ctx.Err() == nil {
		t.Fatal("Stop must cancel the request in flight")
	}
}

func TestOnePageLoadsAWholeListingAtOnce(t *testing.T) {
	var s Stream[int]
	calls := 0
	p := pageOf(t, s.Start(OnePage(func(context.Context) ([]int, error) { calls++; return []int{4, 5}, nil })))
	if !s.Owns(p) || !p.Done || p.Total != 2 || len(p.Items) != 2 || calls != 1 {
		t.Fatalf("page %+v after %d calls", p, calls)
	}
	failed := pageOf(t, s.Start(OnePage(func(context.Context) ([]int, error) { return nil, errors.New("down") })))
	if failed.Err == nil || failed.Done {
		t.Fatalf("a failed load must say so and not be done: %+v", failed)
	}
}
