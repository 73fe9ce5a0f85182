package auth

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/config"
)

// envProfile is the profile work as the environment alone defines it, so
// its URLs come from EVDESK_BASE_URL and EVDESK_AUTH_URL.
func envProfile(base, authURL string) config.Profile {
	env := map[string]string{config.EnvBaseURL: base, config.EnvAuthURL: authURL, config.EnvClientID: "c"}
	p := config.FromEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	p.Name = "work"
	return p
}

func TestASessionIsUsedOnlyWithTheServersThatIssuedIt(t *testing.T) {
	e, sess := loggedIn(t)
	home := e.profile("http://127.0.0.1:1/callback")
	if !sameServer(sess.BaseURL, home.BaseURL) || !sameServer(sess.AuthURL, home.AuthURL) {
		t.Fatalf("the login recorded %q and %q", sess.BaseURL, sess.AuthURL)
	}
	if _, err := NewTokenSource(context.Background(), envProfile(home.BaseURL+"/", strings.ToUpper(home.AuthURL)), WithStore(e.store(nil))); err != nil {
		t.Fatalf("the same servers, spelt differently: %v", err)
	}
	for name, p := range map[string]config.Profile{
		"another API":         envProfile("http://other.example/v2", home.AuthURL),
		"another sign-in":     envProfile(home.BaseURL, "http://other.example"),
		"another port":        envProfile(strings.Replace(home.BaseURL, "127.0.0.1:", "127.0.0.1:1", 1), home.AuthURL),
		"a profile edited":    func() config.Profile { p := home; p.BaseURL = "https://elsewhere.example/v2"; return p }(),
		"another API version": envProfile(strings.TrimSuffix(home.BaseURL, "/v2")+"/v3", home.AuthURL),
	} {
		_, err := NewTokenSource(context.Background(), p, WithStore(e.store(nil)))
		if !errors.Is(err, ErrOtherServer) || !strings.Contains(err.Error(), "evdesk sends it only to the server it belongs to") {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, err := NewTokenSource(context.Background(), envProfile("http://other.example/v2", home.AuthURL), WithStore(e.store(nil)))
	want := `the session of profile "work" belongs to ` + home.BaseURL + ", but EVDESK_BASE_URL asks for http://other.example/v2; evdesk sends it only to the server it belongs to: unset EVDESK_BASE_URL, run `evdesk login --profile work` to log in to the new server, or give a token for it in EVDESK_TOKEN"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("message:\n%v\nwant\n%s", err, want)
	}
	// EVDESK_TOKEN alone is a token for whatever server is named.
	p := envProfile("http://other.example/v2", home.AuthURL)
	p.Token = "tok"
	if _, err := TokenSourceFor(context.Background(), p, WithStore(e.store(nil))); err != nil {
		t.Errorf("EVDESK_TOKEN: %v", err)
	}
	// The client secret keeps to its sign-in server too.
	if _, err := e.store(nil).ClientSecretFor(envProfile(home.BaseURL, "http://other.example")); !errors.Is(err, ErrOtherServer) {
		t.Errorf("client secret: %v", err)
	}
}

// A session stored before evdesk recorded its servers is the profile's
// own when the URLs come from the profile, and is bound at its next
// refresh; under an environment override of a URL it is refused.
func TestASessionFromBeforeTheBindingIsAdoptedOnlyFromTheProfile(t *testing.T) {
	e, sess := loggedIn(t)
	st := e.store(nil)
	sess.BaseURL, sess.AuthURL = "", ""
	if err := st.save(sess, true); err != nil {
		t.Fatal(err)
	}
	home := e.profile("http://127.0.0.1:1/callback")
	if _, err := NewTokenSource(context.Background(), envProfile(home.BaseURL, home.AuthURL), WithStore(st)); !errors.Is(err, ErrOtherServer) ||
		!strings.Contains(err.Error(), "was stored before evdesk recorded which server it belongs to, and EVDESK_BASE_URL overrides") {
		t.Fatalf("under an override: %v", err)
	}
	ts := e.source(nil)
	e.clock.Advance(2 * time.Hour)
	if _, err := ts.Token(); err != nil {
		t.Fatal(err)
	}
	after, err := st.Load("work")
	if err != nil || after.BaseURL != home.BaseURL || after.AuthURL != home.AuthURL {
		t.Fatalf("not bound at the refresh: %+v %v", after, err)
	}
}
