package api

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"net/http"
	"time"
)

// PageTokenLifetime is how long the provider honours a next_page_token.
const PageTokenLifetime = 15 * time.Minute

// pageTokenMargin is kept in hand so a token is never sent at the edge of its
// life (transit time, clock skew).
const pageTokenMargin = time.Minute

// Limits that end a listing a broken or hostile server would keep going.
const (
	// maxRestarts bounds how often one listing starts over.
	maxRestarts = 10
	// maxStalePages is how many pages in a row may add nothing new (beyond
	// those a restart is expected to replay) before the listing stops.
	maxStalePages = 5
	// maxPages bounds one walk when the server gives no total_records: 30
	// million registrants at 300 a page, far beyond any real event.
	maxPages = 100_000
)

// ErrEndlessListing is behind the error of a listing stopped because the
// server kept it going: a repeated page token, pages with nothing new, or
// far more pages than the records it reported.
var ErrEndlessListing = errors.New("the listing does not end")

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
// already delivered, so the caller sees no gap and no duplicate. It also
// ends a listing that does not end by itself (see ErrEndlessListing). A
// Pager is not safe for concurrent use; the console keeps one Next in
// flight at a time.
type Pager[T any] struct {
	op       string
	fetch    PageFunc[T]
	key      func(T) string
	now      func() time.Time
	token    string
	issued   time.Time
	seen     map[string]struct{}
	total    int
	done     bool
	restarts int
	err      error // set once the listing was stopped; every later Next returns it

	seed      maphash.Seed
	tokens    map[uint64]struct{} // tokens received since the listing (re)started
	refused   map[uint64]struct{} // tokens the server refused once; never restarted for again
	walkPages int                 // pages fetched since the listing (re)started
	replay    int                 // pages the walks before a restart fetched: known items expected again
	stale     int                 // pages in a row that added nothing new
	largest   int                 // the longest page so far, to turn total_records into pages
	pages     int                 // pages fetched in all, across restarts
	budget    ListingBudget
	meter     byteMeter // bytes of every answer, across restarts
}

// NewPager builds a pager; op names the listing in errors ("list events"),
// key identifies an item across restarts.
func NewPager[T any](op string, fetch PageFunc[T], key func(T) string, now func() time.Time) *Pager[T] {
	if now == nil {
		now = time.Now
	}
	return &Pager[T]{op: op, fetch: fetch, key: key, now: now, seen: map[string]struct{}{},
		seed: maphash.MakeSeed(), tokens: map[uint64]struct{}{}, refused: map[uint64]struct{}{},
		budget: ListingBudget{}.withDefaults()}
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
// slice and no error once Done. After an error that stopped the listing
// (ErrEndlessListing, too many restarts) it keeps returning that error.
func (p *Pager[T]) Next(ctx context.Context) ([]T, error) {
	for !p.done {
		if p.err != nil {
			return nil, p.err
		}
		token := p.token
		if token != "" && p.now().Sub(p.issued) >= PageTokenLifetime-pageTokenMargin {
			if err := p.restart(); err != nil {
				return nil, err
			}
			token = ""
		}
		// The token's life is counted from before the request: conservative.
		asked := p.now()
		page, err := p.fetch(withMeter(ctx, &p.meter), token)
		if err != nil {
			if token != "" && p.tokenRefused(err, token) {
				if rerr := p.restart(); rerr != nil {
					return nil, errors.Join(err, rerr)
				}
				continue
			}
			return nil, err
		}
		p.walkPages++
		p.pages++
		p.total = page.Total
		p.largest = max(p.largest, len(page.Items))
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
		if !p.done {
			// The items of the page that tripped a limit are still delivered.
			if p.err = p.overBudget(); p.err != nil {
				return fresh, nil
			}
			if p.err = p.endless(len(fresh)); p.err != nil && len(fresh) == 0 {
				return nil, p.err
			}
		}
		if len(fresh) > 0 || p.done {
			return fresh, nil
		}
		// A page of items already delivered (after a restart): keep going.
	}
	return nil, nil
}

// tokenRefused reports whether err is the server refusing the page token,
// which the pager answers by starting over, once per token. The spec gives
// no code for an expired token, so any 4xx counts except those that concern
// the credentials, the scope or the rate, which a restart cannot fix.
func (p *Pager[T]) tokenRefused(err error, token string) bool {
	var e *Error
	if !errors.As(err, &e) || e.Status < 400 || e.Status >= 500 {
		return false
	}
	switch e.Status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusTooManyRequests:
		return false
	}
	h := maphash.String(p.seed, token)
	if _, again := p.refused[h]; again {
		return false
	}
	p.refused[h] = struct{}{}
	return true
}

// endless checks the page just received (not the last one; fresh new items)
// against the limits and returns the error that stops the listing, if any.
func (p *Pager[T]) endless(fresh int) error {
	h := maphash.String(p.seed, p.token)
	if _, again := p.tokens[h]; again {
		return p.stop(fmt.Sprintf("the server sent the same page token twice (page %d)", p.walkPages))
	}
	p.tokens[h] = struct{}{}
	switch {
	case fresh > 0:
		p.stale = 0
	case p.walkPages > p.replay:
		p.stale++
	}
	if p.stale >= maxStalePages {
		return p.stop(fmt.Sprintf("the server kept sending page tokens after %d pages without new items", p.stale))
	}
	if p.walkPages >= p.pageBudget() {
		if p.total > 0 {
			return p.stop(fmt.Sprintf("the listing reached %d pages though the server counts %d records", p.walkPages, p.total))
		}
		return p.stop(fmt.Sprintf("the listing reached %d pages", p.walkPages))
	}
	return nil
}

// pageBudget is how many pages one walk may take: twice the pages the
// server's own total_records needs at the longest page seen, plus ten for
// records added meanwhile; maxPages when the server gives no total. A total
// is the server's word, so it only ever shortens the generous fixed cap.
func (p *Pager[T]) pageBudget() int {
	if p.total <= 0 || p.largest == 0 {
		return maxPages
	}
	need := (p.total-1)/p.largest + 1
	if need > maxPages {
		return maxPages
	}
	return min(2*need+10, maxPages)
}

func (p *Pager[T]) stop(why string) error {
	return &endlessError{msg: fmt.Sprintf("%s: %s; stopping with the %d items received", p.op, why, len(p.seen))}
}

type endlessError struct{ msg string }

func (e *endlessError) Error() string        { return e.msg }
func (e *endlessError) Is(target error) bool { return target == ErrEndlessListing }

func (p *Pager[T]) restart() error {
	if p.restarts >= maxRestarts {
		p.err = fmt.Errorf("%s: the listing restarted %d times because page tokens kept expiring; stopping with the %d items received",
			p.op, p.restarts, len(p.seen))
		return p.err
	}
	p.restarts++
	p.token = ""
	p.replay = max(p.replay, p.walkPages)
	p.walkPages, p.stale = 0, 0
	clear(p.tokens)
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
