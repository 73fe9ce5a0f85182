// Package api is the typed client for the events platform's HTTP API: one
// file per resource, shared transport (rate limit, retries), typed errors and
// paging that survives the 15-minute page-token expiry.
package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/time/rate"
)

// DefaultPathWord is the word that stands for the provider's name in paths
// such as /v2/vendor_events/events.
const DefaultPathWord = "vendor"

// Client calls the API. Create it with New; it is safe for concurrent use.
type Client struct {
	base      *url.URL
	word      string
	hc        *http.Client
	userAgent string
	now       func() time.Time
	sleep     func(context.Context, time.Duration) error
	jitter    func() float64
	limiter   *rate.Limiter
	retry     RetryPolicy
	maxBody   int64
	tokens    oauth2.TokenSource
	log       *slog.Logger

	Events       *EventsService
	Attendees    *AttendeesService
	Hubs         *HubsService
	Phone        *PhoneService
	Coeditors    *CoeditorsService
	Emails       *EmailsService
	AccessLinks  *AccessLinksService
	Registration *RegistrationService
	// Exhibitors covers conference exhibitors and sponsors.
	Exhibitors *ExhibitorsService
}

// RetryPolicy bounds retries of requests that are safe to repeat.
type RetryPolicy struct {
	// MaxAttempts counts the first try; 1 disables retries.
	MaxAttempts int
	BaseDelay   time.Duration
	MaxDelay    time.Duration
	// MaxRetryAfter is the longest server-requested wait the client honours;
	// a longer Retry-After is returned to the caller as an error.
	MaxRetryAfter time.Duration
}

// DefaultRetryPolicy retries for about a minute in all.
var DefaultRetryPolicy = RetryPolicy{MaxAttempts: 8, BaseDelay: 250 * time.Millisecond,
	MaxDelay: 15 * time.Second, MaxRetryAfter: 2 * time.Minute}

// DefaultMaxBodyBytes caps one successful answer's body: far above any real
// page (300 events), far below what would exhaust memory.
const DefaultMaxBodyBytes = 64 << 20

// Option configures a Client.
type Option func(*Client)

// WithBaseURL sets the API base address, including the /v2 prefix.
func WithBaseURL(u string) Option {
	return func(c *Client) {
		if parsed, err := url.Parse(strings.TrimRight(u, "/")); err == nil {
			c.base = parsed
		}
	}
}

// WithPathWord sets the word in /v2/<word>_events paths.
func WithPathWord(w string) Option { return func(c *Client) { c.word = w } }

// WithHTTPClient sets the underlying HTTP client.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// WithClock sets the clock used for page-token expiry.
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// WithSleep replaces the wait between retries (tests record instead of sleeping).
func WithSleep(sleep func(context.Context, time.Duration) error) Option {
	return func(c *Client) { c.sleep = sleep }
}

// WithRateLimit caps requests per second on the client side (the LIGHT
// label); rps <= 0 removes the cap.
func WithRateLimit(rps float64, burst int) Option {
	return func(c *Client) {
		if rps <= 0 {
			c.limiter = nil
			return
		}
		c.limiter = rate.NewLimiter(rate.Limit(rps), max(burst, 1))
	}
}

// WithRetry sets the retry policy.
func WithRetry(p RetryPolicy) Option { return func(c *Client) { c.retry = p } }

// WithMaxBodyBytes caps the body of a successful answer; a longer one fails
// the call instead of being read into memory. n <= 0 keeps
// DefaultMaxBodyBytes.
func WithMaxBodyBytes(n int64) Option {
	return func(c *Client) {
		if n > 0 {
			c.maxBody = n
		}
	}
}

// WithToken authenticates every call with a fixed bearer token.
func WithToken(token string) Option {
	return func(c *Client) { c.tokens = oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token}) }
}

// WithTokenSource authenticates with tokens from ts (refreshed as needed).
func WithTokenSource(ts oauth2.TokenSource) Option { return func(c *Client) { c.tokens = ts } }

// WithLogger logs each call's method, path, status and duration (never
// headers or bodies).
func WithLogger(l *slog.Logger) Option { return func(c *Client) { c.log = l } }

// New builds a client. The base URL is required.
func New(opts ...Option) (*Client, error) {
	c := &Client{
		word:      DefaultPathWord,
		hc:        &http.Client{Timeout: 60 * time.Second},
		userAgent: "evdesk",
		now:       time.Now,
		sleep:     sleepContext,
		jitter:    rand.Float64,
		limiter:   rate.NewLimiter(20, 10),
		retry:     DefaultRetryPolicy,
		maxBody:   DefaultMaxBodyBytes,
		log:       slog.New(slog.DiscardHandler),
	}
	for _, o := range opts {
		o(c)
	}
	if c.base == nil || c.base.Host == "" {
		return nil, errors.New("api: a base URL such as https://api.example.com/v2 is required (EVDESK_BASE_URL)")
	}
	if c.base.Scheme != "https" && c.base.Scheme != "http" {
		return nil, fmt.Errorf("api: base URL scheme %q is not http or https", c.base.Scheme)
	}
	if c.word == "" || strings.ContainsAny(c.word, "/?#") {
		return nil, fmt.Errorf("api: path word %q must be a plain word such as %q", c.word, DefaultPathWord)
	}
	c.Events = &EventsService{c: c}
	c.Hubs = &HubsService{c: c}
	c.Attendees = &AttendeesService{c: c}
	c.Phone = &PhoneService{c: c}
	c.Coeditors = &CoeditorsService{c: c}
	c.Emails = &EmailsService{c: c}
	c.AccessLinks = &AccessLinksService{c: c}
	c.Registration = &RegistrationService{c: c}
	c.Exhibitors = &ExhibitorsService{c: c}
	return c, nil
}

// BaseURL returns the base address the client calls.
func (c *Client) BaseURL() string { return c.base.String() }

// MaxBodyBytes is the cap on a successful answer's body, so a client built
// alongside (the transcriber) can share it.
func (c *Client) MaxBodyBytes() int64 { return c.maxBody }

// eventsPath builds /<word>_events/<rest...>, escaping each element.
func (c *Client) eventsPath(elems ...string) string {
	var b strings.Builder
	b.WriteString("/" + c.word + "_events")
	for _, e := range elems {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(e))
	}
	return b.String()
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
