package ui

import (
	"context"
	"errors"
	"testing"
	"time"

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

// pageOf runs a Stream's command and returns the page it delivers, and
// whether the shell would still deliver it (its run is the latest).
func pageOf(t *testing.T, cmd tea.Cmd) (Page[int], taskReply) {
	t.Helper()
	for _, m := range expand(cmd) {
		if done, ok := m.(asyncDoneMsg); ok {
			if r, ok := done.msg.(taskReply); ok {
				if p, ok := r.msg.(Page[int]); ok {
					return p, r
				}
			}
		}
	}
	t.Fatal("the command delivered no page")
	return Page[int]{}, taskReply{}
}

func TestStreamDeliversPagesAndDropsThoseOfAnAbandonedLoad(t *testing.T) {
	var s, other Stream[int]
	first := &fakePager{pages: [][]int{{1, 2}, {3}}}
	old, _ := pageOf(t, s.Start(first))
	if !s.Owns(old) || len(old.Items) != 2 || old.Done || old.Total != 3 {
		t.Fatalf("first page %+v", old)
	}
	next, _ := pageOf(t, s.Next())
	if !s.Owns(next) || !next.Done || next.Items[0] != 3 {
		t.Fatalf("second page %+v", next)
	}
	stale := s.Start(&fakePager{pages: [][]int{{8}}})
	fresh, reply := pageOf(t, s.Start(&fakePager{pages: [][]int{{9}}}))
	_, staleReply := pageOf(t, stale)
	if staleReply.task.settle(staleReply.seq) || !reply.task.settle(reply.seq) || other.Owns(fresh) || !s.Owns(fresh) {
		t.Fatal("a restarted load must drop the old pages, and another stream owns none")
	}
	if first.ctxs[0].Err() == nil {
		t.Fatal("starting over must cancel the old load's requests")
	}
	inFlight := &fakePager{pages: [][]int{{1}}}
	pageOf(t, s.Start(inFlight))
	s.Stop()
	if inFlight.ctxs[0].Err() == nil {
		t.Fatal("Stop must cancel the request in flight")
	}
}

func TestOnePageLoadsAWholeListingAtOnce(t *testing.T) {
	var s Stream[int]
	calls := 0
	p, _ := pageOf(t, s.Start(OnePage(func(context.Context) ([]int, error) { calls++; return []int{4, 5}, nil })))
	if !s.Owns(p) || !p.Done || p.Total != 2 || len(p.Items) != 2 || calls != 1 {
		t.Fatalf("page %+v after %d calls", p, calls)
	}
	failed, _ := pageOf(t, s.Start(OnePage(func(context.Context) ([]int, error) { return nil, errors.New("down") })))
	if failed.Err == nil || failed.Done {
		t.Fatalf("a failed load must say so and not be done: %+v", failed)
	}
}

// blockingPager answers its first page at once, then waits for its context.
type blockingPager struct{ calls int }

func (b *blockingPager) Next(ctx context.Context) ([]int, error) {
	if b.calls++; b.calls == 1 {
		return []int{1}, nil
	}
	<-ctx.Done()
	return nil, ctx.Err()
}
func (b *blockingPager) Done() bool { return false }
func (b *blockingPager) Total() int { return 0 }

func TestALoadEndsAtItsDeadlineSayingSo(t *testing.T) {
	s := Stream[int]{Deadline: 20 * time.Millisecond}
	first, _ := pageOf(t, s.Start(&blockingPager{}))
	if first.Err != nil || len(first.Items) != 1 {
		t.Fatalf("first page %+v", first)
	}
	late, _ := pageOf(t, s.Next())
	want := "the listing did not finish loading within 20ms; keeping the rows that arrived (context deadline exceeded)"
	if late.Err == nil || late.Err.Error() != want {
		t.Fatalf("err = %v\nwant %s", late.Err, want)
	}
}
