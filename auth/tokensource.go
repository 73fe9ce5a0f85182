package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/evdesk/evdesk/config"
)

// Defaults of the refreshing token source.
const (
	// DefaultRefreshLeeway: an access token is refreshed this long before
	// it expires.
	DefaultRefreshLeeway = time.Minute
	// DefaultRefreshTokenLifetime is the provider's refresh-token life
	// (spec section 5).
	DefaultRefreshTokenLifetime = 30 * 24 * time.Hour
	// DefaultRefreshWarnWithin: warn in the refresh token's last days.
	DefaultRefreshWarnWithin = 3 * 24 * time.Hour
	// DefaultLockTimeout bounds the wait for another process's refresh.
	DefaultLockTimeout = 30 * time.Second
	// DefaultRefreshTimeout bounds one refresh request: connecting, sending
	// and reading the answer.
	DefaultRefreshTimeout = 15 * time.Second
)

// ErrLoginRequired: there is no usable session; the message tells the user
// to run `evdesk login`.
var ErrLoginRequired = errors.New("login required")

// Option configures TokenSourceFor, NewTokenSource, Login and the JWT source.
type Option func(*options)

type options struct {
	store          *Store
	now            func() time.Time
	hc             *http.Client
	leeway         time.Duration
	refreshLife    time.Duration
	warnWithin     time.Duration
	lockTimeout    time.Duration
	refreshTimeout time.Duration
	beforeRefresh  func() // test hook: runs after the store was read, before the refresh request
}

func buildOptions(opts []Option) *options {
	o := &options{now: time.Now, leeway: DefaultRefreshLeeway, refreshLife: DefaultRefreshTokenLifetime,
		warnWithin: DefaultRefreshWarnWithin, lockTimeout: DefaultLockTimeout, refreshTimeout: DefaultRefreshTimeout}
	for _, f := range opts {
		f(o)
	}
	if o.store == nil {
		o.store = NewStore(StoreOptions{Now: o.now})
	}
	return o
}

// WithStore uses s instead of the default store.
func WithStore(s *Store) Option { return func(o *options) { o.store = s } }

// WithClock sets the clock used for expiry decisions.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithHTTPClient sets the client for token requests (each refresh is still
// bounded by the refresh timeout).
func WithHTTPClient(hc *http.Client) Option { return func(o *options) { o.hc = hc } }

// WithRefreshLeeway sets how long before expiry an access token is refreshed.
func WithRefreshLeeway(d time.Duration) Option { return func(o *options) { o.leeway = d } }

// WithRefreshTokenLifetime sets the refresh token's maximum age and the
// window before it in which Warning speaks up.
func WithRefreshTokenLifetime(max, warnWithin time.Duration) Option {
	return func(o *options) { o.refreshLife, o.warnWithin = max, warnWithin }
}

// WithLockTimeout bounds the wait for the profile's lock.
func WithLockTimeout(d time.Duration) Option { return func(o *options) { o.lockTimeout = d } }

// WithRefreshTimeout bounds one refresh request (default
// DefaultRefreshTimeout).
func WithRefreshTimeout(d time.Duration) Option { return func(o *options) { o.refreshTimeout = d } }

// OAuthConfig is the oauth2 configuration of a profile: the endpoints under
// its auth URL and HTTP Basic client authentication at the token endpoint
// (spec section 5).
func OAuthConfig(p config.Profile, clientSecret string) *oauth2.Config {
	base := strings.TrimRight(p.AuthURL, "/")
	return &oauth2.Config{
		ClientID:     p.ClientID,
		ClientSecret: clientSecret,
		Endpoint: oauth2.Endpoint{
			AuthURL:   base + "/oauth/authorize",
			TokenURL:  base + "/oauth/token",
			AuthStyle: oauth2.AuthStyleInHeader,
		},
		RedirectURL: p.RedirectURI,
		Scopes:      p.Scopes,
	}
}

// TokenSourceFor is what a session uses to authenticate: a static source
// when EVDESK_TOKEN is set (p.Token), else the refreshing source over the
// stored session. Without one, the error (ErrLoginRequired) tells the user
// to run `evdesk login` or try `--demo`.
func TokenSourceFor(ctx context.Context, p config.Profile, opts ...Option) (oauth2.TokenSource, error) {
	if p.Token != "" {
		if err := CheckToken("token", p.Token); err != nil {
			return nil, fmt.Errorf("%s: %w", tokenVariable(p), err)
		}
		return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: p.Token, TokenType: "Bearer"}), nil
	}
	return NewTokenSource(ctx, p, opts...)
}

// tokenVariable names the environment variable p's token came from.
func tokenVariable(p config.Profile) string {
	if p.TokenEnv != "" {
		return p.TokenEnv
	}
	return config.EnvToken
}

// TokenSource hands out access tokens of a stored session, refreshing them
// shortly before they expire. Refreshes happen under the profile's
// cross-process lock, after re-reading the store, and the rotated refresh
// token is persisted before the new access token is handed out, so several
// evdesk processes can share one session.
type TokenSource struct {
	ctx     context.Context
	profile config.Profile
	conf    *oauth2.Config
	o       *options

	mu  sync.Mutex
	cur *Session // last session seen; its access token is served while fresh
}

// NewTokenSource builds the refreshing source for profile p. It fails with
// ErrLoginRequired when nothing is stored and with ErrKeyringUnreachable
// when the keyring does not answer.
func NewTokenSource(ctx context.Context, p config.Profile, opts ...Option) (*TokenSource, error) {
	o := buildOptions(opts)
	sess, err := o.store.Load(p.Name)
	if errors.Is(err, ErrNotLoggedIn) {
		return nil, loginRequired(p.Name, "you are not logged in")
	}
	if err != nil {
		return nil, err
	}
	if err := checkSession(p, sess); err != nil {
		return nil, err
	}
	secret := p.ClientSecret
	if secret == "" {
		secret, err = o.store.ClientSecretFor(p)
		if errors.Is(err, ErrNotFound) {
			return nil, loginRequired(p.Name, "no client secret is stored")
		}
		if err != nil {
			return nil, err
		}
	}
	hc := o.hc
	if hc == nil {
		tc, err := p.TLSConfig()
		if err != nil {
			return nil, err
		}
		hc = refreshClient(o.refreshTimeout, tc)
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, hc)
	return &TokenSource{ctx: ctx, profile: p, conf: OAuthConfig(p, secret), o: o, cur: sess}, nil
}

func loginRequired(profile, why string) error {
	return fmt.Errorf("%w: %s for profile %q: run `%s` (or try `evdesk --demo`)", ErrLoginRequired, why, profile, loginCommand(profile))
}

// fresh reports whether the session's access token can be used now.
func (ts *TokenSource) fresh(s *Session) bool {
	return s != nil && s.AccessToken != "" && ts.o.now().Add(ts.leeway(s)).Before(s.Expiry)
}

// leeway is how long before its expiry a token is refreshed: the configured
// leeway, but at most a quarter of the token's life (from its issue, the
// last login or rotation), so a token issued for seconds (evdesk sim
// --token-ttl 3s) is used before it is refreshed, not refreshed every call.
func (ts *TokenSource) leeway(s *Session) time.Duration {
	if life := s.Expiry.Sub(s.RefreshIssuedAt); !s.RefreshIssuedAt.IsZero() && life > 0 {
		return min(ts.o.leeway, life/4)
	}
	return ts.o.leeway
}

// Token returns a valid access token, refreshing it when needed.
func (ts *TokenSource) Token() (*oauth2.Token, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.fresh(ts.cur) {
		return ts.cur.token(), nil
	}
	ctx, cancel := context.WithTimeout(ts.ctx, ts.o.lockTimeout)
	unlock, err := ts.o.store.Lock(ctx, ts.profile.Name)
	cancel()
	if err != nil {
		return nil, err
	}
	defer unlock()
	sess, err := ts.reload()
	if err != nil {
		return nil, err
	}
	if ts.fresh(sess) { // another process refreshed while we waited
		return sess.token(), nil
	}
	if ts.o.beforeRefresh != nil {
		ts.o.beforeRefresh()
	}
	next, err := ts.refresh(sess)
	if isInvalidGrant(err) {
		// The refresh token may have been replaced behind our back (a
		// login, or a process that does not take the lock): look once more.
		again, rerr := ts.reload()
		if rerr != nil {
			return nil, rerr
		}
		if again.RefreshToken != sess.RefreshToken {
			if ts.fresh(again) {
				return again.token(), nil
			}
			next, err = ts.refresh(again)
		}
		if isInvalidGrant(err) {
			ts.cur = nil
			if cerr := ts.o.store.Clear(ts.profile.Name); cerr != nil {
				return nil, fmt.Errorf("%w (and clearing the stored session failed: %v)",
					loginRequired(ts.profile.Name, "the session expired or was revoked"), cerr)
			}
			return nil, loginRequired(ts.profile.Name, "the session expired or was revoked")
		}
	}
	if err != nil {
		var re *oauth2.RetrieveError
		var na *NoAnswerError
		if errors.As(err, &na) { // its text names only the host
			return nil, fmt.Errorf("refresh the access token of profile %q: %w", ts.profile.Name, err)
		}
		if errors.As(err, &re) || !isStoreError(err) {
			// Transport and server answers may quote the request: redact.
			return nil, fmt.Errorf("refresh the access token of profile %q: %s", ts.profile.Name, config.Redact(err.Error()))
		}
		return nil, fmt.Errorf("refresh the access token of profile %q: %w", ts.profile.Name, err)
	}
	ts.cur = next
	return next.token(), nil
}

// reload re-reads the stored session.
func (ts *TokenSource) reload() (*Session, error) {
	sess, err := ts.o.store.Load(ts.profile.Name)
	if errors.Is(err, ErrNotLoggedIn) {
		ts.cur = nil
		return nil, loginRequired(ts.profile.Name, "you are not logged in")
	}
	if err != nil {
		return nil, err
	}
	ts.cur = sess
	return sess, nil
}

// refresh trades the session's refresh token for new tokens and persists
// them (rotated refresh token first) before returning.
func (ts *TokenSource) refresh(sess *Session) (*Session, error) {
	if sess.RefreshToken == "" {
		return nil, &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: "no refresh token stored"}
	}
	now := ts.o.now()
	ctx, cancel := context.WithTimeout(ts.ctx, ts.o.refreshTimeout)
	defer cancel()
	tok, err := ts.conf.TokenSource(ctx, &oauth2.Token{RefreshToken: sess.RefreshToken, Expiry: now.Add(-time.Hour)}).Token()
	if err != nil {
		return nil, ts.unanswered(ctx, err)
	}
	next, err := sessionFromToken(ts.profile.Name, tok, now)
	if err != nil {
		return nil, err
	}
	next.RefreshIssuedAt = sess.RefreshIssuedAt
	if next.RefreshToken != sess.RefreshToken {
		next.RefreshIssuedAt = now
	}
	keepIfEmpty(next, sess)
	bindSession(ts.profile, next, sess)
	if err := ts.o.store.save(next, true); err != nil {
		// Not persisted: do not use it, or the next process would hold a
		// rotated-out refresh token.
		return nil, errStore{fmt.Errorf("the refreshed tokens could not be stored, so they are not used: %w", err)}
	}
	return next, nil
}

// keepIfEmpty carries over what a refresh answer may omit.
func keepIfEmpty(next, prev *Session) {
	if len(next.Scopes) == 0 {
		next.Scopes = prev.Scopes
	}
	if next.UserID == "" {
		next.UserID = prev.UserID
	}
	if next.AccountID == "" {
		next.AccountID = prev.AccountID
	}
}

// errStore marks errors of persisting refreshed tokens (safe to wrap).
type errStore struct{ err error }

func (e errStore) Error() string { return e.err.Error() }
func (e errStore) Unwrap() error { return e.err }

func isStoreError(err error) bool {
	var se errStore
	return errors.As(err, &se)
}

func isInvalidGrant(err error) bool {
	var re *oauth2.RetrieveError
	return errors.As(err, &re) && re.ErrorCode == "invalid_grant"
}

// Warning is non-empty when the refresh token nears (or passed) its maximum
// age, telling the user to log in again.
func (ts *TokenSource) Warning() string {
	ts.mu.Lock()
	s := ts.cur
	ts.mu.Unlock()
	if s == nil {
		return ""
	}
	return RefreshWarning(s, ts.o.now(), ts.o.refreshLife, ts.o.warnWithin)
}

// RefreshWarning is the warning for session s at now, or "".
func RefreshWarning(s *Session, now time.Time, life, warnWithin time.Duration) string {
	if s.RefreshIssuedAt.IsZero() {
		return ""
	}
	ends := s.RefreshIssuedAt.Add(life)
	left := ends.Sub(now)
	switch {
	case left <= 0:
		return fmt.Sprintf("the login of profile %q expired on %s: run `evdesk login` again", s.Profile, ends.Local().Format("2 Jan 2006 15:04"))
	case left <= warnWithin:
		return fmt.Sprintf("the login of profile %q expires in %s (on %s) unless evdesk refreshes it first: run `evdesk login` to renew it",
			s.Profile, roughDuration(left), ends.Local().Format("2 Jan 2006 15:04"))
	}
	return ""
}

func roughDuration(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	case d >= 2*time.Hour:
		return fmt.Sprintf("%d hours", int(d/time.Hour))
	}
	return fmt.Sprintf("%d minutes", max(1, int(d/time.Minute)))
}

func (s *Session) token() *oauth2.Token {
	tt := s.TokenType
	if tt == "" || strings.EqualFold(tt, "bearer") {
		tt = "Bearer"
	}
	return &oauth2.Token{AccessToken: s.AccessToken, TokenType: tt, RefreshToken: "", Expiry: s.Expiry}
}

// sessionFromToken builds a session from a token answer received at now
// (the expiry comes from expires_in on our clock, not the wall clock). An
// answer whose tokens are not fit to store or send is refused.
func sessionFromToken(profile string, tok *oauth2.Token, now time.Time) (*Session, error) {
	if err := checkTokenAnswer(tok); err != nil {
		return nil, err
	}
	s := &Session{Profile: profile, AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, TokenType: tok.Type(),
		RefreshIssuedAt: now}
	switch {
	case tok.ExpiresIn > 0:
		s.Expiry = now.Add(time.Duration(tok.ExpiresIn) * time.Second)
	case !tok.Expiry.IsZero():
		s.Expiry = tok.Expiry
	default:
		s.Expiry = now.Add(time.Hour) // no expires_in: assume the provider's usual hour
	}
	if sc, ok := tok.Extra("scope").(string); ok {
		for _, f := range strings.Fields(sc) {
			if CheckToken("scope", f) == nil {
				s.Scopes = append(s.Scopes, f)
			}
		}
	}
	s.UserID, s.AccountID = answerLabel(tok.Extra("user_id")), answerLabel(tok.Extra("account_id"))
	return s, nil
}
