package auth

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"

	"github.com/evdesk/evdesk/config"
)

// JWT lifetimes for the AI services (phone-scribe change log 5.2: expiry one
// hour or less; keep the token until it expires).
const (
	MaxJWTLifetime        = time.Hour
	DefaultJWTRenewBefore = 5 * time.Minute
)

// JWTSource mints HS256 JWTs for the AI services from an API key and
// secret: header {alg: HS256, typ: JWT}, claims iss (the key), iat and exp
// (epoch seconds, exp at most an hour after iat). A token is reused until
// shortly before it expires. It is safe for concurrent use and implements
// oauth2.TokenSource, so it plugs into api.WithTokenSource.
type JWTSource struct {
	key    string
	secret []byte
	now    func() time.Time
	life   time.Duration
	renew  time.Duration

	mu     sync.Mutex
	cached string
	exp    time.Time
}

// JWTOption configures a JWTSource.
type JWTOption func(*JWTSource)

// WithJWTClock sets the clock (default time.Now).
func WithJWTClock(now func() time.Time) JWTOption { return func(j *JWTSource) { j.now = now } }

// WithJWTLifetime sets the token life (capped at MaxJWTLifetime) and how
// long before expiry a new one is minted.
func WithJWTLifetime(life, renewBefore time.Duration) JWTOption {
	return func(j *JWTSource) { j.life, j.renew = life, renewBefore }
}

// NewJWTSource builds a source for the given credentials.
func NewJWTSource(c AICredentials, opts ...JWTOption) (*JWTSource, error) {
	if c.APIKey == "" || c.APISecret == "" {
		return nil, errors.New("transcription credentials need an API key and an API secret (run `evdesk login --ai`)")
	}
	j := &JWTSource{key: c.APIKey, secret: []byte(c.APISecret), now: time.Now, life: MaxJWTLifetime, renew: DefaultJWTRenewBefore}
	for _, f := range opts {
		f(j)
	}
	if j.life <= 0 || j.life > MaxJWTLifetime {
		j.life = MaxJWTLifetime
	}
	if j.renew < 0 || j.renew >= j.life {
		j.renew = min(DefaultJWTRenewBefore, j.life/2)
	}
	return j, nil
}

// JWT returns a valid token, minting a new one when the cached one is
// within the renewal window of its expiry.
func (j *JWTSource) JWT() (string, time.Time, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	now := j.now()
	if j.cached != "" && now.Add(j.renew).Before(j.exp) {
		return j.cached, j.exp, nil
	}
	iat := now.Truncate(time.Second)
	exp := iat.Add(j.life)
	t := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": j.key,
		"iat": iat.Unix(),
		"exp": exp.Unix(),
	})
	s, err := t.SignedString(j.secret)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("sign the transcription token: %w", err)
	}
	j.cached, j.exp = s, exp
	return s, exp, nil
}

// Token implements oauth2.TokenSource.
func (j *JWTSource) Token() (*oauth2.Token, error) {
	s, exp, err := j.JWT()
	if err != nil {
		return nil, err
	}
	return &oauth2.Token{AccessToken: s, TokenType: "Bearer", Expiry: exp}, nil
}

// JWTSourceFor reads the profile's transcription credentials from the store
// and returns a JWT source over them.
func JWTSourceFor(_ context.Context, p config.Profile, store *Store, opts ...JWTOption) (*JWTSource, error) {
	if p.AIKey != "" && p.AISecret != "" {
		return NewJWTSource(AICredentials{APIKey: p.AIKey, APISecret: p.AISecret}, opts...)
	}
	if store == nil {
		store = NewStore(StoreOptions{})
	}
	c, err := store.AICredentialsFor(p)
	if err != nil {
		return nil, err
	}
	return NewJWTSource(c, opts...)
}
