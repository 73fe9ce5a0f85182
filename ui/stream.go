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

// Page is one page of a Stream, delivered as a message to the screen that
// started the stream.
type Page[T any] struct {
	Items []T
	Done  bool  // the listing is complete
	Total int   // the server's total_records
	Err   error // the page could not be loaded
	from  *Stream[T]
}

// Stream loads a listing page by page in the background for one screen.
// Each page arrives as a Page[T] message; a restart or Stop drops the pages
// of the load it replaces, and leaving the screen cancels the request in
// flight.
type Stream[T any] struct {
	task  Task
	pager Pager[T]
}

// Start begins a load with p, abandoning any load in progress.
func (s *Stream[T]) Start(p Pager[T]) tea.Cmd {
	s.pager = p
	return s.Next()
}

// Next asks for the following page. Values are captured before the command
// runs, so the command never reads the screen's state.
func (s *Stream[T]) Next() tea.Cmd {
	pager := s.pager
	return s.task.Run(func(ctx context.Context) tea.Msg {
		items, err := pager.Next(ctx)
		return Page[T]{Items: items, Done: pager.Done(), Total: pager.Total(), Err: err, from: s}
	})
}

// Owns reports whether p is this stream's (a screen with two streams of the
// same kind tells them apart with it).
func (s *Stream[T]) Owns(p Page[T]) bool { return p.from == s }

// Loading reports whether a page has been asked for and not arrived.
func (s *Stream[T]) Loading() bool { return s.task.Running() }

// Stop cancels the request in flight; its page will not arrive.
func (s *Stream[T]) Stop() { s.task.Stop() }

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
