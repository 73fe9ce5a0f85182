package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	// The simulator validates timezones (create, duplicate) and lays out its
	// seed in local times of many regions; embed the zone database so it
	// behaves the same on hosts without one.
	_ "time/tzdata"

	"github.com/evdesk/evdesk/api"
)

// Defaults of Options.
const (
	DefaultPathWord        = "vendor"
	DefaultRPS             = 30
	DefaultSeed     uint64 = 0x657664657361 // "evdesa"
)

// Options configures a Sim. The zero value serves the spec's paths with the
// default path word, the wall clock, no faults and the LIGHT limit of 30
// requests per second per token.
type Options struct {
	// PathWord is the word in paths and scope names ("vendor" gives
	// /v2/vendor_events/... and vendor_events_basic:read).
	PathWord string
	// Now is the clock for page-token expiry, the rate limiter, "upcoming"
	// versus "past" and the seed's reference day. Default time.Now.
	Now func() time.Time
	// Latency delays every request (honouring request cancellation).
	Latency time.Duration
	// ErrorRate is the share of requests answered 500, 502 or 503 before
	// any processing.
	ErrorRate float64
	// DropRate is the share of requests whose connection is closed with no
	// response. Half of them are dropped before processing, half after the
	// change was applied (the response is lost).
	DropRate float64
	// RPS is the per-token rate limit (burst = RPS). Default DefaultRPS.
	// With a frozen test clock the bucket never refills: advance the clock
	// or set NoRateLimit.
	RPS float64
	// NoRateLimit disables the rate limit.
	NoRateLimit bool
	// Seed seeds the fault RNG and the page-token key. Default DefaultSeed.
	Seed uint64
	// TokenTTL is the life of access tokens its OAuth server issues.
	// Default AccessTokenLifetime (an hour); seconds let refresh be seen.
	TokenTTL time.Duration
	// Webhook, with a URL, delivers the change log's webhook events to it
	// (webhooks.go).
	Webhook WebhookOptions
	// PoisonedAddresses makes every check-in batch (attendee-action PATCH)
	// that holds one of these addresses refused whole, as the provider
	// documents a 400: { "message": "Invalid request." }, no attendee
	// named. Tests of how a client finds the scan at fault use it.
	PoisonedAddresses []string
}

// Sim is the simulator. It is safe for concurrent use.
type Sim struct {
	word    string
	now     func() time.Time
	base    string // "/v2/<word>_events"
	mux     *http.ServeMux
	st      *store
	faults  *faultState
	limits  *rateLimits
	pageKey []byte

	fixtures Fixtures // set by seed, read-only afterwards

	poisoned map[string]bool // Options.PoisonedAddresses, normalised; read under st.mu

	oauth    *oauthServer // OAuth endpoints' state (oauth.go)
	tokenTTL time.Duration
	hooks    atomic.Pointer[webhooks] // nil without a webhook URL (webhooks.go)

	stopOnce sync.Once
	stop     chan struct{}

	// testHookWait, when set (by tests, before serving), runs as a latency
	// wait begins.
	testHookWait func()
}

// New builds a simulator seeded relative to opts.Now().
func New(opts Options) *Sim {
	if opts.PathWord == "" {
		opts.PathWord = DefaultPathWord
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Seed == 0 {
		opts.Seed = DefaultSeed
	}
	if opts.RPS == 0 {
		opts.RPS = DefaultRPS
	}
	if opts.TokenTTL <= 0 {
		opts.TokenTTL = AccessTokenLifetime
	}
	s := &Sim{
		word:    opts.PathWord,
		now:     opts.Now,
		base:    "/v2/" + opts.PathWord + "_events",
		mux:     http.NewServeMux(),
		st:      newStore(),
		faults:  newFaultState(opts.Seed, opts.Latency, opts.ErrorRate, opts.DropRate),
		limits:  newRateLimits(opts.RPS, opts.NoRateLimit),
		pageKey: pageTokenKey(opts.Seed),
		stop:    make(chan struct{}),

		tokenTTL: opts.TokenTTL,
	}
	if opts.Webhook.URL != "" {
		s.hooks.Store(newWebhooks(opts.Webhook, opts.Now, s.stop))
	}
	s.poisoned = map[string]bool{}
	for _, a := range opts.PoisonedAddresses {
		s.poisoned[normEmail(a)] = true
	}
	s.registerTokens()
	s.seed(opts.Now())
	s.routes()
	return s
}

// routes registers every resource's endpoints. A new resource adds one line.
func (s *Sim) routes() {
	s.eventRoutes()
	s.hubRoutes()
	s.attendeeRoutes()
	s.coeditorRoutes()
	s.emailRoutes()
	s.registrationRoutes()
	s.phoneRoutes()
	s.exhibitorRoutes()
	s.transcribeRoutes()
	s.oauthRoutes()
	s.changelogRoutes()
	s.webhookRoutes()
	s.mux.HandleFunc("/", s.notFound)
}

// SetFaults changes latency, error rate and drop rate at runtime.
func (s *Sim) SetFaults(latency time.Duration, errorRate, dropRate float64) {
	s.faults.set(latency, errorRate, dropRate)
}

// SetRPS changes the per-token rate limit at runtime (burst = rps); rps <= 0
// removes the limit.
func (s *Sim) SetRPS(rps float64) { s.limits.set(rps, s.now()) }

// PathWord is the word used in paths and scope names.
func (s *Sim) PathWord() string { return s.word }

// Close aborts pending latency waits; the handler keeps answering.
func (s *Sim) Close() { s.stopOnce.Do(func() { close(s.stop) }) }

// ServeHTTP applies latency and faults, then authenticates, rate-limits and
// routes the request.
func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f := s.faults.draw()
	if f.latency > 0 && !s.wait(r.Context(), f.latency) {
		if r.Context().Err() == nil { // shutting down; else the client went away
			writeError(w, &apiError{Status: http.StatusServiceUnavailable, Code: http.StatusServiceUnavailable,
				Message: "The simulator is shutting down."})
		}
		return
	}
	switch f.kind {
	case faultError:
		if f.status == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", "1")
		}
		writeError(w, &apiError{Status: f.status, Code: f.status, Message: simulatedMessages[f.status]})
		return
	case faultDropBefore:
		dropConnection(w)
		return
	case faultDropAfter:
		s.serve(newDiscardWriter(), r)
		dropConnection(w)
		return
	}
	s.serve(w, r)
}

func (s *Sim) serve(w http.ResponseWriter, r *http.Request) {
	if isOAuthPath(r.URL.Path) { // the OAuth endpoints authenticate the client themselves
		s.mux.ServeHTTP(w, r)
		return
	}
	if isAIPath(r.URL.Path) { // the AI services check their own JWT (transcribe.go)
		s.mux.ServeHTTP(w, r)
		return
	}
	if r.URL.Path == ChangelogPath || isSimControlPath(r.URL.Path) { // public feed; test tools
		s.mux.ServeHTTP(w, r)
		return
	}
	p, err := s.authenticate(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if s.rateLimited(w, p.token) {
		return
	}
	s.mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, p)))
}

// rateLimited takes a request from bucket's share of the LIGHT limit; when
// the bucket is empty it answers 429 with Retry-After and reports true.
func (s *Sim) rateLimited(w http.ResponseWriter, bucket string) bool {
	ok, wait := s.limits.allow(bucket, s.now())
	if ok {
		return false
	}
	secs := max(1, int(math.Ceil(wait.Seconds())))
	w.Header().Set("Retry-After", fmt.Sprint(secs))
	writeError(w, &apiError{Status: http.StatusTooManyRequests, Code: http.StatusTooManyRequests,
		Message: "You have reached the maximum per-second rate limit for this API. Try again later."})
	return true
}

// wait sleeps for d unless the request or the simulator ends first.
func (s *Sim) wait(ctx context.Context, d time.Duration) bool {
	if s.testHookWait != nil {
		s.testHookWait()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.stop:
		return false
	}
}

// handlerFunc serves one endpoint for an authenticated caller whose scopes
// were checked; a returned error is written as the error body (an *apiError
// keeps its status and code, anything else is a 500).
type handlerFunc func(w http.ResponseWriter, r *http.Request, p *principal) error

// handle registers method+path (path below s.base) guarded by a scope.
func (s *Sim) handle(method, path string, need scope, h handlerFunc) {
	s.mux.HandleFunc(method+" "+s.base+path, func(w http.ResponseWriter, r *http.Request) {
		p := principalFrom(r.Context())
		if !need.grantedTo(p) {
			writeError(w, &apiError{Status: http.StatusForbidden, Code: CodeMissingScope,
				Message: "Invalid access token, does not contain scopes: [" + strings.Join(need.names(), ", ") + "]"})
			return
		}
		if err := h(w, r, p); err != nil {
			writeErr(w, err)
		}
	})
}

// notFound answers unknown paths (404, no code) and known paths with the
// wrong method (405).
func (s *Sim) notFound(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "" && pattern != "/" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, &apiError{Status: http.StatusMethodNotAllowed,
			Message: fmt.Sprintf("Method %s is not allowed here; use %s.", r.Method, strings.Join(allow, ", "))})
		return
	}
	writeError(w, &apiError{Status: http.StatusNotFound, Message: "No such endpoint: " + r.URL.Path})
}

// Codes the simulator answers where neither the spec nor the provider's
// descriptions document one (doc.go lists them with every other
// simulator-only behaviour). The client depends on none of them; they are
// exported for tests.
const (
	CodeInvalidToken     = 124  // 401: missing, unknown or expired access token
	CodeMissingScope     = 4711 // 403: the token lacks the endpoint's scope
	CodeValidation       = 300  // 400: invalid field(s), named in "errors"
	CodeInvalidPageToken = 300  // 400: unknown or expired next_page_token
	CodeOnlyDrafts       = 3000 // 400: delete of an event that is not a draft
	CodeNotDraft         = 3001 // 400: publish of an event that is not a draft
	CodeNotCancelable    = 3002 // 400: cancel of a draft, past or cancelled event
	CodePhoneNotSetUp    = 403  // 403: the account has no phone service
	// AI services (the change log documents no codes).
	CodeAITokenInvalid      = 40101 // 401: bad signature, issuer, typ or shape
	CodeAITokenExpired      = 40102 // 401: expired, or lives longer than one hour
	CodeAudioUnreachable    = 40001 // 400: the audio file could not be fetched
	CodeAudioUnsupported    = 40002 // 400: not an audio format the service reads
	CodeLanguageUnsupported = 40003 // 400: config.language is not supported
)

var simulatedMessages = map[int]string{
	http.StatusInternalServerError: "Internal server error (simulated fault).",
	http.StatusBadGateway:          "Bad gateway (simulated fault).",
	http.StatusServiceUnavailable:  "Service temporarily unavailable (simulated fault).",
}

// apiError is an error answer: HTTP status and the documented body
// {"code": n, "message": "..."} (the provider's descriptions; the spec
// shows no body). Nothing else goes in it: a field at fault is named in
// the message, as a person reads it, never in a field of the simulator's
// own making.
type apiError struct {
	Status  int    `json:"-"`
	Code    int    `json:"code,omitempty"`
	Message string `json:"message"`
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %d %s", e.Status, e.Code, e.Message) }

func errf(status, code int, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// fieldError is a 400 whose message names the offending fields, each as
// "field: problem".
func fieldError(problems ...api.FieldError) *apiError {
	parts := make([]string, len(problems))
	for i, p := range problems {
		parts[i] = p.Field + ": " + strings.TrimSuffix(p.Message, ".")
	}
	return &apiError{Status: http.StatusBadRequest, Code: CodeValidation,
		Message: "Validation Failed: " + strings.Join(parts, "; ") + "."}
}

func writeErr(w http.ResponseWriter, err error) {
	var e *apiError
	if !errors.As(err, &e) {
		e = &apiError{Status: http.StatusInternalServerError, Code: http.StatusInternalServerError, Message: err.Error()}
	}
	writeError(w, e)
}

func writeError(w http.ResponseWriter, e *apiError) { writeJSON(w, e.Status, e) }

// writeJSON encodes v fully before writing, so an encoding failure becomes a
// 500 instead of a truncated body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(&apiError{Code: status, Message: "encoding the response failed: " + err.Error()})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// noContent answers 204.
func noContent(w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) }

// maxBody caps request bodies.
const maxBody = 1 << 20

// decodeJSON reads a JSON request body into v.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errf(http.StatusBadRequest, CodeValidation, "The request body is required.")
		}
		return errf(http.StatusBadRequest, CodeValidation, "The request body is not valid: %v.", err)
	}
	return nil
}
