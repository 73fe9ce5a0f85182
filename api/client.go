// Package api is the typed client for the events platform's HTTP API: one
// file per resource, shared transport (rate limit, retries), typed errors and
// paging that survives the 15-minute page-token expiry.
package api

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// DefaultPathWord is the word that stands for the provider's name in paths
// such as /v2/vendor_events/events.
const DefaultPathWord = "vendor"

// Client calls the API. Create it with New; it is safe for concurrent use.
type Client struct {
	base      *url.URL
	word      string
	hc        *http.Client
	timeout   time.Duration // one request's wait for an answer, for messages
	userAgent string
	now       func() time.Time
	sleep     func(context.Context, time.Duration) error
	jitter    func() float64
	pacer     *Pacer // nil: no client-side limit
	retry     RetryPolicy
	maxBody   int64
	budget    ListingBudget
	tokens    oauth2.TokenSource
	log       *slog.Logger
	filter    StringFilter      // nil: answers reach the caller as sent
	notice    func(RetryNotice) // nil: retries are not told
	tls       *tls.Config       // WithTLSConfig; the HTTP client raises it to MinTLSVersion
	debugBody int               // bytes of each body to log (WithDebugBodies)
	readOnly  string            // why writes are refused ("" : they are not; WithReadOnly)

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

// WithHTTPClient sets the underlying HTTP client. The client is not changed:
// evdesk uses a copy whose redirects keep the credentials to their origin
// (the client's own CheckRedirect still runs), and its Timeout is what
// messages report.
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// DefaultTimeout is how long one request waits for the answer to begin.
const DefaultTimeout = 60 * time.Second

// WithTimeout sets how long one request waits for the answer to begin
// (default DefaultTimeout); reading the whole answer may take five times as
// long. It applies to the HTTP client evdesk builds, not to one given with
// WithHTTPClient.
func WithTimeout(d time.Duration) Option {
	return func(c *Client) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// WithClock sets the clock used for page-token expiry.
func WithClock(now func() time.Time) Option { return func(c *Client) { c.now = now } }

// WithSleep replaces the wait between retries (tests record instead of sleeping).
func WithSleep(sleep func(context.Context, time.Duration) error) Option {
	return func(c *Client) { c.sleep = sleep }
}

// WithRateLimit paces requests at most rps a second, in bursts of at most
// burst (0: a second's worth less one, see Pacer), slowing down on 429 and back up after (see
// Pacer); rps <= 0 removes the limit. The default is DefaultRateLimit.
func WithRateLimit(rps float64, burst int) Option {
	return func(c *Client) {
		if rps <= 0 {
			c.pacer = nil
			return
		}
		c.pacer = NewPacer(rps, burst)
	}
}

// WithPacer paces requests with p, which other clients of the same account
// may share (the console's client and the check-in sender), so together
// they keep to the account's rate.
func WithPacer(p *Pacer) Option { return func(c *Client) { c.pacer = p } }

// WithRetry sets the retry policy.
func WithRetry(p RetryPolicy) Option { return func(c *Client) { c.retry = p } }

// WithRetryNotice tells f of every retry as it is about to wait, and of
// the end of a call that retried, so a console can count the tries in
// view. f runs on the call's goroutine.
func WithRetryNotice(f func(RetryNotice)) Option { return func(c *Client) { c.notice = f } }

// RetryNotice is one retry of a call (or, with Done, the end of a call
// that retried).
type RetryNotice struct {
	Op          string // the call ("list events")
	Attempt, Of int    // the try about to be made, and the most there will be
	Wait        time.Duration
	Err         error // why the last try failed
	Done        bool  // the call ended (answered or failed for good)
}

// String says it for a status bar: "list events: try 2 of 8 in 1s (HTTP 503)".
func (n RetryNotice) String() string {
	if n.Done {
		return ""
	}
	why := "no answer"
	var e *Error
	var ue *UnreachableError
	switch {
	case errors.As(n.Err, &e):
		why = fmt.Sprintf("HTTP %d", e.Status)
	case errors.As(n.Err, &ue):
		why = ue.Cause
	}
	return fmt.Sprintf("%s: try %d of %d in %s (%s)", n.Op, n.Attempt, n.Of, durationWords(n.Wait), why)
}

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
		timeout:   DefaultTimeout,
		userAgent: "evdesk",
		now:       time.Now,
		sleep:     SleepContext,
		jitter:    rand.Float64,
		pacer:     NewPacer(DefaultRateLimit, 0),
		retry:     DefaultRetryPolicy,
		maxBody:   DefaultMaxBodyBytes,
		budget:    ListingBudget{}.withDefaults(),
		log:       slog.New(slog.DiscardHandler),
	}
	for _, o := range opts {
		o(c)
	}
	if c.hc == nil {
		c.hc = newHTTPClient(c.timeout, c.tls)
	} else {
		c.timeout = c.hc.Timeout
	}
	c.hc = guardRedirects(c.hc)
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

// Pacer is the client's pacer (nil when unlimited), to share with another
// client of the same account.
func (c *Client) Pacer() *Pacer { return c.pacer }

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

// newHTTPClient waits at most timeout for an answer to begin and five times
// as long for the whole exchange, so neither a silent server nor a trickling
// answer holds a call for ever; it speaks TLS 1.2 or newer only.
func newHTTPClient(timeout time.Duration, tc *tls.Config) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsConfig(tc)
	tr.ResponseHeaderTimeout = timeout
	return &http.Client{Transport: tr, Timeout: 5 * timeout}
}

// maxRedirects bounds one request's chain of redirects.
const maxRedirects = 10

// errRedirectRefused marks a redirect the client will not follow; repeating
// the request would meet the same redirect.
var errRedirectRefused = errors.New("redirect refused")

// guardRedirects returns a copy of hc whose redirects never carry the
// Authorization header (or a Cookie) to another origin, and never go from
// https to http. Go itself strips credentials only when the host name
// changes, not the port or the scheme. hc's own CheckRedirect runs after.
func guardRedirects(hc *http.Client) *http.Client {
	guarded := *hc
	next := hc.CheckRedirect
	guarded.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("%w: stopped after %d redirects", errRedirectRefused, maxRedirects)
		}
		if via[len(via)-1].URL.Scheme == "https" && req.URL.Scheme != "https" {
			return fmt.Errorf("%w: the server redirected from https to %s://%s, which is not encrypted",
				errRedirectRefused, req.URL.Scheme, req.URL.Host)
		}
		if origin(req.URL) != origin(via[0].URL) {
			req.Header.Del("Authorization")
			req.Header.Del("Cookie")
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &guarded
}

// origin is scheme, host and port, with the scheme's default port spelt out.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// SleepContext waits d, or until ctx ends (then its error).
func SleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
