package api

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
)

// A listing's budget: what one walk of a listing may take across all its
// pages. The per-answer cap (WithMaxBodyBytes) bounds one page; a server
// that keeps sending fresh pages of new items is bounded only here.
const (
	// DefaultListingItems is far above the spec's real listings (100,000
	// email send records, 20,000 registrants of a large event).
	DefaultListingItems = 250_000
	// DefaultListingBytes is far above what those listings weigh (about
	// 20 MiB for 100,000 send records) and twice the default answer cap.
	DefaultListingBytes = 128 << 20
)

// ListingBudget bounds one listing across its pages. Zero fields take the
// defaults.
type ListingBudget struct {
	Items int
	Bytes int64
}

func (b ListingBudget) withDefaults() ListingBudget {
	if b.Items <= 0 {
		b.Items = DefaultListingItems
	}
	if b.Bytes <= 0 {
		b.Bytes = DefaultListingBytes
	}
	return b
}

// WithListingBudget sets the budget of every listing the client walks (see
// ListingBudget); zero fields keep the defaults.
func WithListingBudget(b ListingBudget) Option {
	return func(c *Client) { c.budget = b.withDefaults() }
}

// ErrListingBudget is behind the error of a listing stopped at its budget.
var ErrListingBudget = errors.New("the listing is larger than its budget")

// budgetError names the listing, the budget it passed and what was kept.
type budgetError struct {
	op, what, setting string
	pages, kept       int
}

func (e *budgetError) Error() string {
	return fmt.Sprintf("%s: the listing passed its budget of %s after %d pages; stopping with the %d items received (raise %s in the profile if this is expected)",
		e.op, e.what, e.pages, e.kept, e.setting)
}

func (e *budgetError) Unwrap() error { return ErrListingBudget }

// overBudget reports the error that ends the listing once it has taken more
// than its budget, or nil.
func (p *Pager[T]) overBudget() error {
	b := p.budget
	switch {
	case len(p.seen) > b.Items:
		return &budgetError{op: p.op, what: fmt.Sprintf("%d items", b.Items), setting: "max_listing_items",
			pages: p.pages, kept: len(p.seen)}
	case p.meter.n.Load() > b.Bytes:
		return &budgetError{op: p.op, what: sizeWords(b.Bytes), setting: "max_listing_mb",
			pages: p.pages, kept: len(p.seen)}
	}
	return nil
}

// byteMeter counts the bytes of the answers read under a context: the
// pager puts one in the context of its fetches, and the transport adds
// every answer's body to it.
type byteMeter struct{ n atomic.Int64 }

type meterKey struct{}

func withMeter(ctx context.Context, m *byteMeter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// countBytes adds n to the meter of ctx, if it has one.
func countBytes(ctx context.Context, n int64) {
	if m, ok := ctx.Value(meterKey{}).(*byteMeter); ok {
		m.n.Add(n)
	}
}

// listing builds the pager of one of the client's listings, with the
// client's clock and budget.
func listing[T any](c *Client, op string, fetch PageFunc[T], key func(T) string) *Pager[T] {
	p := NewPager(op, fetch, key, c.now)
	p.budget = c.budget
	return p
}
