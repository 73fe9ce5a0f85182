package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// Pager is what a Stream reads; the api package's pagers satisfy it.
type Pager[T any] interface {
	Next(ctx context.Context) ([]T, error)
	Done() bool
	Total() int
}

// Page is one page of a Stream, delivered as a message.
type Page[T any] struct {
	Items []T
	Done  bool  // the listing is complete
	Total int   // the server's total_records
	Err   error // the page could not be loaded
	from  *Stream[T]
	gen   int
}

// Stream loads a listing page by page in the background for one screen.
// Each page arrives as a Page[T] message through Async; Owns tells the
// current load's pages from those of a load since restarted, and Stop
// cancels the request in flight when the screen leaves.
type Stream[T any] struct {
	gen    int
	pager  Pager[T]
	ctx    context.Context
	cancel context.CancelFunc
}

// Start begins a load with p, abandoning any load in progress.
func (s *Stream[T]) Start(p Pager[T]) tea.Cmd {
	s.Stop()
	s.gen++
	s.pager = p
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s.Next()
}

// Next asks for the following page. Values are captured before the command
// runs, so the command never reads the screen's state.
func (s *Stream[T]) Next() tea.Cmd {
	ctx, gen, pager := s.ctx, s.gen, s.pager
	return Async(func() tea.Msg {
		items, err := pager.Next(ctx)
		return Page[T]{Items: items, Done: pager.Done(), Total: pager.Total(), Err: err, from: s, gen: gen}
	})
}

// Owns reports whether p answers this stream's current load.
func (s *Stream[T]) Owns(p Page[T]) bool { return p.from == s && p.gen == s.gen }

// Stop cancels the request in flight.
func (s *Stream[T]) Stop() {
	if s.cancel != nil {
		s.cancel()
	}
}

// OnePage adapts a call that returns a whole listing at once, so a Stream
// can load it like any paged listing.
func OnePage[T any](fetch func(ctx context.Context) ([]T, error)) Pager[T] {
	return &onePage[T]{fetch: fetch}
}

type onePage[T any] struct {
	fetch func(ctx context.Context) ([]T, error)
	done  bool
	total int
}

func (o *onePage[T]) Next(ctx context.Context) ([]T, error) {
	items, err := o.fetch(ctx)
	if err == nil {
		o.done, o.total = true, len(items)
	}
	return items, err
}

func (o *onePage[T]) Done() bool { return o.done }
func (o *onePage[T]) Total() int { return o.total }
