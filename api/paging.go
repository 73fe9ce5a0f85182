package api

import (
	"context"
	"errors"
	"iter"
	"time"
)

// PageTokenLifetime is how long the provider honours a next_page_token.
const PageTokenLifetime = 15 * time.Minute

// pageTokenMargin is kept in hand so a token is never sent at the edge of its
// life (transit time, clock skew).
const pageTokenMargin = time.Minute

// maxRestarts bounds how often one listing starts over before giving up.
const maxRestarts = 10

// Page is one page of a listing.
type Page[T any] struct {
	Items         []T
	NextPageToken string
	Total         int
}

// PageFunc fetches the page at token ("" for the first page).
type PageFunc[T any] func(ctx context.Context, token string) (Page[T], error)

// Pager walks a listing page by page. It never sends a page token older than
// its lifetime: it starts the listing over instead and skips the items it has
// already delivered, so the caller sees no gap and no duplicate. A Pager is
// not safe for concurrent use; the console keeps one Next in flight at a time.
type Pager[T any] struct {
	fetch    PageFunc[T]
	key      func(T) string
	now      func() time.Time
	token    string
	issued   time.Time
	seen     map[string]struct{}
	total    int
	done     bool
	restarts int
}

// NewPager builds a pager; key identifies an item across restarts.
func NewPager[T any](fetch PageFunc[T], key func(T) string, now func() time.Time) *Pager[T] {
	if now == nil {
		now = time.Now
	}
	return &Pager[T]{fetch: fetch, key: key, now: now, seen: map[string]struct{}{}}
}

// Done reports whether the last page has been delivered.
func (p *Pager[T]) Done() bool { return p.done }

// Total is the server's total_records from the latest page.
func (p *Pager[T]) Total() int { return p.total }

// Delivered counts the distinct items delivered so far.
func (p *Pager[T]) Delivered() int { return len(p.seen) }

// Restarts counts how often the listing started over.
func (p *Pager[T]) Restarts() int { return p.restarts }

// Next returns the next items not delivered before. It returns an empty
// slice and no error once Done.
func (p *Pager[T]) Next(ctx context.Context) ([]T, error) {
	for !p.done {
		token := p.token
		if token != "" && p.now().Sub(p.issued) >= PageTokenLifetime-pageTokenMargin {
			if err := p.restart(); err != nil {
				return nil, err
			}
			token = ""
		}
		// The token's life is counted from before the request: conservative.
		asked := p.now()
		page, err := p.fetch(ctx, token)
		if err != nil {
			if token != "" && IsCode(err, CodeInvalidPageToken) {
				if rerr := p.restart(); rerr != nil {
					return nil, errors.Join(err, rerr)
				}
				continue
			}
			return nil, err
		}
		p.total = page.Total
		p.token, p.issued = page.NextPageToken, asked
		p.done = page.NextPageToken == ""
		fresh := page.Items[:0:0]
		for _, it := range page.Items {
			k := p.key(it)
			if _, dup := p.seen[k]; dup {
				continue
			}
			p.seen[k] = struct{}{}
			fresh = append(fresh, it)
		}
		if len(fresh) > 0 || p.done {
			return fresh, nil
		}
		// A page of items already delivered (after a restart): keep going.
	}
	return nil, nil
}

func (p *Pager[T]) restart() error {
	if p.restarts >= maxRestarts {
		return errors.New("listing restarted too often: page tokens keep expiring")
	}
	p.restarts++
	p.token = ""
	return nil
}

// All iterates over every remaining item; iteration stops at the first error.
func (p *Pager[T]) All(ctx context.Context) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for !p.done {
			items, err := p.Next(ctx)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
		}
	}
}
