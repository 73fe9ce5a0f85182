package auth

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// loggedIn logs in through the simulator and returns a token source over
// a fresh store (as another process would build it).
func loggedIn(t *testing.T) (*simEnv, *Session) {
	e := newSimEnv(t)
	return e, e.login(e.store(nil))
}

func (e *simEnv) source(kr Keyring, opts ...Option) *TokenSource {
	e.t.Helper()
	ts, err := NewTokenSource(context.Background(), e.profile("http://127.0.0.1:1/callback"),
		append([]Option{WithStore(e.store(kr)), WithClock(e.clock.Now)}, opts...)...)
	if err != nil {
		e.t.Fatal(err)
	}
	return ts
}

func TestTokenSourceServesFreshTokenWithoutRefresh(t *testing.T) {
	e, sess := loggedIn(t)
	ts := e.source(nil)
	e.clock.Advance(58 * time.Minute) // more than a minute left
	tok, err := ts.Token()
	if err != nil || tok.AccessToken != sess.AccessToken || tok.TokenType != "Bearer" {
		t.Fatalf("%+v %v", tok, err)
	}
	if e.refresh.Load() != 0 {
		t.Fatal("refreshed a fresh token")
	}
}

func TestTokenSourceRefreshesAMinuteEarlyAndPersistsRotation(t *testing.T) {
	e, sess := loggedIn(t)
	ts := e.source(nil)
	e.clock.Advance(59*time.Minute + 30*time.Second) // 30 s left: inside the leeway
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	if tok.AccessToken == sess.AccessToken || e.refresh.Load() != 1 {
		t.Fatalf("not refreshed: %d", e.refresh.Load())
	}
	stored, err := e.store(nil).Load("work")
	if err != nil {
		t.Fatal(err)
	}
	if stored.AccessToken != tok.AccessToken || stored.RefreshToken == sess.RefreshToken ||
		!stored.RefreshIssuedAt.Equal(e.clock.Now()) || !stored.Expiry.Equal(e.clock.Now().Add(time.Hour)) {
		t.Fatalf("stored %+v", stored)
	}
	// The old refresh token was rotated out by the server.
	if _, _, status := e.rawRefresh(sess.RefreshToken); status != http.StatusBadRequest {
		t.Fatalf("old refresh token still works: %d", status)
	}
	if e.apiStatus(tok.AccessToken) != http.StatusOK {
		t.Fatal("new token refused")
	}
	// Cached in process: no second refresh (the rejected attempt above counted).
	if tok2, _ := ts.Token(); tok2.AccessToken != tok.AccessToken || e.refresh.Load() != 2 {
		t.Fatal("refreshed again")
	}
}

func TestTokenSourceDoesNotUseTokensItCouldNotStore(t *testing.T) {
	e, sess := loggedIn(t)
	kr := &recordingKeyring{}
	ts := e.source(kr)
	e.clock.Advance(time.Hour)
	kr.failSet("refresh_token", true)
	tok, err := ts.Token()
	if err == nil || tok != nil || !strings.Contains(err.Error(), "not used") || !errors.Is(err, ErrKeyringUnreachable) {
		t.Fatalf("%+v %v", tok, err)
	}
	// The store still holds the old pair, the file fallback was not used.
	stored, _ := e.store(nil).Load("work")
	if stored.RefreshToken != sess.RefreshToken || stored.Backend != BackendKeyring {
		t.Fatalf("%+v", stored)
	}
}

func TestTwoProcessesRefreshingAtOnce(t *testing.T) {
	e, sess := loggedIn(t)
	ts1, ts2 := e.source(nil), e.source(nil) // separate stores, same keyring, dirs and lock file
	e.clock.Advance(2 * time.Hour)
	var wg sync.WaitGroup
	toks := make([]*oauth2.Token, 2)
	errs := make([]error, 2)
	for i, ts := range []*TokenSource{ts1, ts2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			toks[i], errs[i] = ts.Token()
		}()
	}
	wg.Wait()
	for i := range errs {
		if errs[i] != nil {
			t.Fatalf("source %d: %v", i+1, errs[i])
		}
	}
	if toks[0].AccessToken != toks[1].AccessToken || toks[0].AccessToken == sess.AccessToken {
		t.Fatal("the sources disagree")
	}
	if n := e.refresh.Load(); n != 1 {
		t.Fatalf("%d refreshes, want 1 (the second must re-read the store under the lock)", n)
	}
	if e.apiStatus(toks[0].AccessToken) != http.StatusOK {
		t.Fatal("token refused")
	}
	// Both keep working across the next rotation too.
	e.clock.Advance(2 * time.Hour)
	if _, err := ts2.Token(); err != nil {
		t.Fatal(err)
	}
	if _, err := ts1.Token(); err != nil {
		t.Fatal(err)
	}
	if n := e.refresh.Load(); n != 2 {
		t.Fatalf("%d refreshes, want 2", n)
	}
}

func TestTokenSourceInvalidGrantClearsAndAsksForLogin(t *testing.T) {
	e, sess := loggedIn(t)
	ts := e.source(nil)
	if _, _, status := e.rawRefresh(sess.RefreshToken); status != http.StatusOK { // revoked behind evdesk's back
		t.Fatal(status)
	}
	e.clock.Advance(2 * time.Hour)
	_, err := ts.Token()
	if !errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "evdesk login --profile work") {
		t.Fatalf("%v", err)
	}
	if e.refresh.Load() != 2 { // ours and the out-of-band one; no retry with the same token
		t.Fatalf("%d refreshes", e.refresh.Load())
	}
	if _, err := e.store(nil).Load("work"); !errors.Is(err, ErrNotLoggedIn) {
		t.Fatalf("session not cleared: %v", err)
	}
	if _, err := NewTokenSource(context.Background(), e.profile(""), WithStore(e.store(nil))); !errors.Is(err, ErrLoginRequired) {
		t.Fatalf("%v", err)
	}
}

func TestTokenSourceInvalidGrantRereadsTheStoreOnce(t *testing.T) {
	e, sess := loggedIn(t)
	var hook func()
	ts := e.source(nil, func(o *options) { o.beforeRefresh = func() { hook() } })
	// Another writer that ignores the lock rotates the session between our
	// read and our refresh, and stores the result.
	hook = func() {
		at, rt, status := e.rawRefresh(sess.RefreshToken)
		if status != http.StatusOK {
			t.Error(status)
			return
		}
		s := *sess
		s.AccessToken, s.RefreshToken, s.Expiry = at, rt, e.clock.Now().Add(time.Hour)
		if err := e.store(nil).save(&s, true); err != nil {
			t.Error(err)
		}
	}
	e.clock.Advance(2 * time.Hour)
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := e.store(nil).Load("work")
	if tok.AccessToken != stored.AccessToken || e.apiStatus(tok.AccessToken) != http.StatusOK {
		t.Fatal("did not pick up the re-read session")
	}
}

func TestRefreshTokenAgeWarning(t *testing.T) {
	e, _ := loggedIn(t)
	ts := e.source(nil)
	if w := ts.Warning(); w != "" {
		t.Fatalf("fresh login warns: %s", w)
	}
	e.clock.Advance(26 * 24 * time.Hour)
	if w := ts.Warning(); w != "" {
		t.Fatalf("warns 4 days ahead: %s", w)
	}
	e.clock.Advance(25 * time.Hour)
	if w := ts.Warning(); !strings.Contains(w, "expires in 2 days") || !strings.Contains(w, "evdesk login") {
		t.Fatalf("%q", w)
	}
	e.clock.Advance(3 * 24 * time.Hour)
	if w := ts.Warning(); !strings.Contains(w, "expired") {
		t.Fatalf("%q", w)
	}
	short := e.source(nil, WithRefreshTokenLifetime(10*24*time.Hour, 24*time.Hour))
	if w := short.Warning(); !strings.Contains(w, "expired") {
		t.Fatalf("%q", w)
	}
}

func TestTokenSourceForPrefersEnvToken(t *testing.T) {
	e := newSimEnv(t)
	p := e.profile("")
	p.Token = "from-env"
	ts, err := TokenSourceFor(context.Background(), p, WithStore(e.store(nil)))
	if err != nil {
		t.Fatal(err)
	}
	if tok, _ := ts.Token(); tok.AccessToken != "from-env" {
		t.Fatal(tok)
	}
	p.Token = ""
	_, err = TokenSourceFor(context.Background(), p, WithStore(e.store(nil)))
	if !errors.Is(err, ErrLoginRequired) || !strings.Contains(err.Error(), "evdesk login") || !strings.Contains(err.Error(), "--demo") {
		t.Fatalf("%v", err)
	}
}
