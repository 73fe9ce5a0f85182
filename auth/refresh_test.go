package auth

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// tokenEndpoint is a sign-in server whose /oauth/token misbehaves as
// handle says; it counts the requests it gets.
func (e *simEnv) tokenEndpoint(handle http.HandlerFunc) (url string, requests *atomic.Int32) {
	e.t.Helper()
	requests = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		handle(w, r)
	}))
	e.t.Cleanup(srv.Close)
	return srv.URL, requests
}

// sourceAt is a token source over the env's stored session whose token
// endpoint lives at authURL.
func (e *simEnv) sourceAt(authURL string, opts ...Option) *TokenSource {
	e.t.Helper()
	p := e.profile("http://127.0.0.1:1/callback")
	p.AuthURL = authURL
	e.bindTo(authURL)
	ts, err := NewTokenSource(context.Background(), p,
		append([]Option{WithStore(e.store(nil)), WithClock(e.clock.Now)}, opts...)...)
	if err != nil {
		e.t.Fatal(err)
	}
	return ts
}

// bindTo makes authURL the sign-in server of the stored session: the
// misbehaving endpoint stands for the server that issued it (a session is
// sent nowhere else).
func (e *simEnv) bindTo(authURL string) {
	e.t.Helper()
	st := e.store(nil)
	if sess, err := st.Load("work"); err == nil {
		sess.AuthURL = authURL
		if err := st.save(sess, true); err != nil {
			e.t.Fatal(err)
		}
	}
	if secret, err := st.ClientSecret("work"); err == nil {
		if _, err := st.SaveClientSecret("work", authURL, secret); err != nil {
			e.t.Fatal(err)
		}
	}
}

// sessionKept fails the test unless the store still holds sess.
func (e *simEnv) sessionKept(sess *Session) {
	e.t.Helper()
	stored, err := e.store(nil).Load("work")
	if err != nil || stored.RefreshToken != sess.RefreshToken {
		e.t.Fatalf("the stored session was not kept: %+v %v", stored, err)
	}
}

func TestRefreshAgainstASilentServerGivesUpWithinTheBound(t *testing.T) {
	e, sess := loggedIn(t)
	silent, requests := e.tokenEndpoint(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // reads the request (then a hang-up cancels r's context)...
		<-r.Context().Done()      // ...and never answers
	})
	for name, opts := range map[string][]Option{
		"own client":    nil,
		"caller client": {WithHTTPClient(&http.Client{})}, // unbounded: the refresh context still bounds it
	} {
		t.Run(name, func(t *testing.T) {
			requests.Store(0)
			ts := e.sourceAt(silent, append(opts, WithRefreshTimeout(100*time.Millisecond))...)
			e.clock.Advance(2 * time.Hour)
			_, err := ts.Token()
			var na *NoAnswerError
			if !errors.As(err, &na) || !na.MaybeSpent {
				t.Fatalf("want a *NoAnswerError, got %v", err)
			}
			for _, want := range []string{"the sign-in server at 127.0.0.1:", "did not answer within 100ms",
				"your session is kept", "`evdesk login --profile work`"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%q is missing %q", err, want)
				}
			}
			if errors.Is(err, ErrLoginRequired) || requests.Load() != 1 {
				t.Errorf("login required or %d requests: %v", requests.Load(), err)
			}
			e.sessionKept(sess)
		})
	}
}

func TestALostRefreshAnswerKeepsTheSessionAndIsNotRepeated(t *testing.T) {
	e, sess := loggedIn(t)
	lost, requests := e.tokenEndpoint(func(w http.ResponseWriter, r *http.Request) {
		e.sim.ServeHTTP(httptest.NewRecorder(), r) // the server rotates the refresh token...
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		conn.Close() // ...and the answer is lost on the way
	})
	ts := e.sourceAt(lost)
	e.clock.Advance(2 * time.Hour)
	_, err := ts.Token()
	var na *NoAnswerError
	if !errors.As(err, &na) || !strings.Contains(err.Error(), "did not answer") ||
		!strings.Contains(err.Error(), "`evdesk login --profile work`") || strings.Contains(err.Error(), "redacted") {
		t.Fatalf("%v", err)
	}
	if n := requests.Load(); n != 1 {
		t.Fatalf("%d refresh requests, want 1", n)
	}
	e.sessionKept(sess)

	// The next run spends the retired token once, hears invalid_grant
	// and only then clears the session.
	e.bindTo(e.profile("http://127.0.0.1:1/callback").AuthURL)
	next := e.source(nil)
	if _, err := next.Token(); !errors.Is(err, ErrLoginRequired) {
		t.Fatalf("%v", err)
	}
	if _, err := e.store(nil).Load("work"); !errors.Is(err, ErrNotLoggedIn) {
		t.Fatalf("session not cleared after invalid_grant: %v", err)
	}
}

func TestRefreshFailuresThatKeepTheSession(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply func(w http.ResponseWriter)
		why   string
		login bool // the message mentions `evdesk login`
	}{
		{"server error", func(w http.ResponseWriter) { w.WriteHeader(http.StatusBadGateway) }, "failed (HTTP 502)", true},
		{"rate limited", func(w http.ResponseWriter) { w.WriteHeader(http.StatusTooManyRequests) }, "is refusing requests for now (HTTP 429)", false},
		{"cut body", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "500")
			_, _ = w.Write([]byte(`{"access_token":"at-9`))
		}, "gave no usable answer", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, sess := loggedIn(t)
			srv, requests := e.tokenEndpoint(func(w http.ResponseWriter, r *http.Request) { tc.reply(w) })
			ts := e.sourceAt(srv)
			e.clock.Advance(2 * time.Hour)
			_, err := ts.Token()
			var na *NoAnswerError
			if !errors.As(err, &na) || !strings.Contains(err.Error(), tc.why) ||
				strings.Contains(err.Error(), "evdesk login") != tc.login {
				t.Fatalf("%v", err)
			}
			if requests.Load() != 1 {
				t.Fatalf("%d requests", requests.Load())
			}
			e.sessionKept(sess)
		})
	}
}

func TestRefreshWhenTheServerIsDownSaysSoAndKeepsTheSession(t *testing.T) {
	e, sess := loggedIn(t)
	ts := e.sourceAt("http://127.0.0.1:1") // nothing listens on port 1
	e.clock.Advance(2 * time.Hour)
	_, err := ts.Token()
	var na *NoAnswerError
	if !errors.As(err, &na) || na.MaybeSpent || !strings.Contains(err.Error(), "could not be reached") ||
		strings.Contains(err.Error(), "evdesk login") {
		t.Fatalf("%v", err)
	}
	e.sessionKept(sess)
}

func TestTheTokenRequestDoesNotFollowRedirects(t *testing.T) {
	e, sess := loggedIn(t)
	elsewhere, stolen := e.tokenEndpoint(func(w http.ResponseWriter, r *http.Request) {})
	redirecting, _ := e.tokenEndpoint(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere+"/oauth/token", http.StatusTemporaryRedirect)
	})
	ts := e.sourceAt(redirecting)
	e.clock.Advance(2 * time.Hour)
	_, err := ts.Token()
	if err == nil || !strings.Contains(err.Error(), "redirected the token request (HTTP 307)") {
		t.Fatalf("%v", err)
	}
	if n := stolen.Load(); n != 0 {
		t.Fatalf("the refresh token was sent to another server %d times", n)
	}
	e.sessionKept(sess)
}

func TestASecondProcessGivesUpWaitingForTheLock(t *testing.T) {
	e, sess := loggedIn(t)
	// Another process holds the lock (mid-refresh) and does not let go.
	unlock, err := e.store(nil).Lock(context.Background(), "work")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	ts := e.source(nil, WithLockTimeout(50*time.Millisecond))
	e.clock.Advance(2 * time.Hour)
	_, err = ts.Token()
	var busy *LockBusyError
	if !errors.As(err, &busy) || !strings.Contains(err.Error(),
		`another evdesk process is refreshing or changing the login of profile "work"; gave up waiting after 50ms`) {
		t.Fatalf("%v", err)
	}
	if e.refresh.Load() != 0 {
		t.Fatal("refreshed without the lock")
	}
	e.sessionKept(sess)
}
