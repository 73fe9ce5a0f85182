package ui

import (
	"context"
	"fmt"
	"time"

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
	// Deadline bounds a whole load, every page of it (0: LoadDeadline).
	Deadline time.Duration
	due      time.Time // when the load in progress must end
}

// LoadDeadline is how long one listing may take to load, all its pages
// together, like the CLI's --timeout: a server that keeps a listing going
// (slowly, or with page after page) cannot keep a screen loading for ever.
const LoadDeadline = 5 * time.Minute

// Start begins a load with p, abandoning any load in progress.
func (s *Stream[T]) Start(p Pager[T]) tea.Cmd {
	s.pager = p
	d := s.Deadline
	if d <= 0 {
		d = LoadDeadline
	}
	s.due = time.Now().Add(d)
	return s.Next()
}

// Next asks for the following page. Values are captured before the command
// runs, so the command never reads the screen's state.
func (s *Stream[T]) Next() tea.Cmd {
	pager, due := s.pager, s.due
	took := s.Deadline
	if took <= 0 {
		took = LoadDeadline
	}
	return s.task.Run(func(ctx context.Context) tea.Msg {
		ctx, cancel := context.WithDeadlineCause(ctx, due, loadDeadlineError{took})
		defer cancel()
		items, err := pager.Next(ctx)
		if err != nil && context.Cause(ctx) == (loadDeadlineError{took}) {
			err = fmt.Errorf("%w (%v)", loadDeadlineError{took}, err)
		}
		return Page[T]{Items: items, Done: pager.Done(), Total: pager.Total(), Err: err, from: s}
	})
}

// loadDeadlineError is the cause of a load that ran past its deadline.
type loadDeadlineError struct{ after time.Duration }

func (e loadDeadlineError) Error() string {
	return fmt.Sprintf("the listing did not finish loading within %s; keeping the rows that arrived", e.after)
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
