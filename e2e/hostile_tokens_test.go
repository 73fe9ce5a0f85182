package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/api/sim/hostile"
	"github.com/evdesk/evdesk/config"
)

// A token goes only where it was issued: a stored session is bound to the
// API and sign-in servers that issued it, and a profile opened beside the
// one in use takes none of the environment's credentials. A recording
// server stands for the other server and keeps every credential it gets.

// credentialRecorder is a server that answers 200 {} to everything and
// keeps the credentials each request carried: its Authorization header,
// and a refresh token or client secret in a form body.
type credentialRecorder struct {
	srv  *httptest.Server
	mu   sync.Mutex
	seen []string
}

func recordCredentials(t *testing.T) *credentialRecorder {
	t.Helper()
	r := &credentialRecorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(req.Body, 1<<20))
		r.mu.Lock()
		if a := req.Header.Get("Authorization"); a != "" {
			r.seen = append(r.seen, req.URL.Path+" Authorization: "+a)
		}
		for _, k := range []string{"refresh_token", "client_secret", "code"} {
			if strings.Contains(string(body), k+"=") {
				r.seen = append(r.seen, req.URL.Path+" body: "+k)
			}
		}
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *credentialRecorder) credentials() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

func TestHostileOverridesNeverCarryASessionToAnotherServer(t *testing.T) {
	t.Parallel()
	const ttl = time.Second
	s := sim.New(sim.Options{NoRateLimit: true, TokenTTL: ttl})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	redirect := "http://127.0.0.1:" + freePort(t) + "/callback"
	s.RegisterRedirectURI(redirect)
	env := append(isolatedEnv(t), "DBUS_SESSION_BUS_ADDRESS=", config.EnvProfile+"=work",
		config.EnvClientSecret+"="+sim.DemoClientSecret)
	if out, err := runCLI(env, "config", "set-profile", "work", "--base-url", srv.URL+"/v2", "--auth-url", srv.URL,
		"--client-id", sim.DemoClientID, "--redirect-uri", redirect); err != nil {
		t.Fatalf("set-profile: %v\n%s", err, out)
	}
	loginThroughBrowser(t, env, srv.URL)
	if out, err := runCLI(env, "events", "list"); err != nil {
		t.Fatalf("the session works where it was issued: %v\n%s", err, out)
	}

	other := recordCredentials(t)
	time.Sleep(ttl) // past here a command must refresh: the refresh token would travel too
	for _, c := range []struct {
		name string
		env  []string
		want string
	}{
		{"another API", []string{config.EnvBaseURL + "=" + other.srv.URL + "/v2"},
			"EVDESK_BASE_URL asks for " + other.srv.URL + "/v2; evdesk sends it only to the server it belongs to"},
		{"another API and sign-in server", []string{config.EnvBaseURL + "=" + other.srv.URL + "/v2", config.EnvAuthURL + "=" + other.srv.URL},
			"evdesk sends it only to the server it belongs to"},
		{"another sign-in server", []string{config.EnvAuthURL + "=" + other.srv.URL}, "EVDESK_AUTH_URL asks for " + other.srv.URL},
	} {
		r := runBinary(t, append(append([]string(nil), env...), c.env...), "events", "list")
		if r.err == nil || !strings.Contains(string(r.stderr), c.want) {
			t.Errorf("%s: %v\n%s", c.name, r.err, r.stderr)
		}
	}
	if seen := other.credentials(); len(seen) > 0 {
		t.Fatalf("credentials reached a server that did not issue them: %q", seen)
	}
	// EVDESK_TOKEN names its own server: it is sent there, alone.
	r := runBinary(t, append(append([]string(nil), env...), config.EnvBaseURL+"="+other.srv.URL+"/v2", config.EnvToken+"=for-the-other-server"), "events", "list")
	if seen := other.credentials(); len(seen) == 0 || seen[0] != "/v2/vendor_events/events Authorization: Bearer for-the-other-server" {
		t.Fatalf("EVDESK_TOKEN with EVDESK_BASE_URL: %q (%v %s)", seen, r.err, r.stderr)
	}
	if out, err := runCLI(env, "auth", "status"); err != nil || !strings.Contains(string(out), "issued by") ||
		!strings.Contains(string(out), srv.URL+"/v2 (sign-in "+srv.URL+")") {
		t.Fatalf("the session is kept, and says where it belongs: %v\n%s", err, out)
	}
	if out, err := runCLI(append(append([]string(nil), env...), config.EnvBaseURL+"="+other.srv.URL+"/v2"), "auth", "status"); err == nil ||
		!strings.Contains(string(out), "EVDESK_BASE_URL asks for") {
		t.Fatalf("auth status under an override that does not match: %v\n%s", err, out)
	}
}

// TestHostileCompareUsesTheOtherProfilesOwnSession: `phone compare
// --profile acme --with contoso` sent acme's EVDESK_TOKEN to contoso's
// server. Now contoso is opened as its file defines it.
func TestHostileCompareUsesTheOtherProfilesOwnSession(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{})
	contoso := recordCredentials(t)
	env := he.env
	for _, args := range [][]string{
		{"config", "set-profile", "acme", "--base-url", he.base},
		{"config", "set-profile", "contoso", "--base-url", contoso.srv.URL + "/v2"},
	} {
		if out, err := runCLI(env, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	r := runBinary(t, env, "--profile", "acme", "phone", "compare", "--with", "contoso")
	if r.exitCode() != 2 || !strings.Contains(string(r.stderr), `profile "contoso" has no credentials of its own`) {
		t.Fatalf("exit %d: %s", r.exitCode(), r.stderr)
	}
	if seen := contoso.credentials(); len(seen) > 0 {
		t.Fatalf("acme's token reached contoso's server: %q", seen)
	}
	// With a token of its own, contoso's server gets that one only.
	env = append(env, "CONTOSO_TOKEN=contoso-own")
	if out, err := runCLI(env, "config", "set-profile", "contoso", "--token-env", "CONTOSO_TOKEN"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	runBinary(t, env, "--profile", "acme", "phone", "compare", "--with", "contoso")
	for _, c := range contoso.credentials() {
		if !strings.HasSuffix(c, "Bearer contoso-own") {
			t.Fatalf("contoso's server got %q", c)
		}
	}
	if len(contoso.credentials()) == 0 {
		t.Fatal("contoso's server was never asked, so the test proves nothing")
	}
}
