package auth

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/evdesk/evdesk/api/sim"
)

// TestAThreeSecondTokenExpiresAndTwoSourcesRefreshOnce logs in through the
// simulator's OAuth server issuing 3-second access tokens (evdesk sim
// --token-ttl 3s), uses the token while it lives, lets it expire on the
// injected clock and asks two token sources (two processes sharing the
// session) for a token at once: exactly one refresh reaches the server.
func TestAThreeSecondTokenExpiresAndTwoSourcesRefreshOnce(t *testing.T) {
	e := newSimEnvWith(t, sim.Options{TokenTTL: 3 * time.Second})
	sess := e.login(e.store(nil))
	if !sess.Expiry.Equal(testEpoch.Add(3 * time.Second)) {
		t.Fatalf("expiry %v, want 3 s after login", sess.Expiry)
	}
	ts1, ts2 := e.source(nil), e.source(nil)
	// Two seconds in, the token is still used as it is: a short life does
	// not mean a refresh on every call.
	e.clock.Advance(2 * time.Second)
	if tok, err := ts1.Token(); err != nil || tok.AccessToken != sess.AccessToken || e.refresh.Load() != 0 {
		t.Fatalf("token %v, err %v, %d refreshes", tok, err, e.refresh.Load())
	}
	e.clock.Advance(2 * time.Second)
	if e.apiStatus(sess.AccessToken) != http.StatusUnauthorized {
		t.Fatal("the expired token still opens the API")
	}
	var wg sync.WaitGroup
	toks := make([]*oauth2.Token, 2)
	errs := make([]error, 2)
	for i, ts := range []*TokenSource{ts1, ts2} {
		wg.Go(func() { toks[i], errs[i] = ts.Token() })
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	if n := e.refresh.Load(); n != 1 {
		t.Fatalf("%d refreshes reached the server, want 1", n)
	}
	if toks[0].AccessToken != toks[1].AccessToken || toks[0].AccessToken == sess.AccessToken {
		t.Fatal("the sources disagree")
	}
	if e.apiStatus(toks[0].AccessToken) != http.StatusOK {
		t.Fatal("the refreshed token is refused")
	}
}
