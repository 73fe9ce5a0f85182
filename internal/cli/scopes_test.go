package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/config"
)

// loginInProcess runs `evdesk login` against a simulator with the app's
// https redirect, playing the browser through the factory's seam: it
// approves and pastes the landing address. scopes is EVDESK_SCOPES ("" for
// the default request). It returns login's standard error.
func loginInProcess(t *testing.T, scopes string) string {
	t.Helper()
	isolateXDG(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "") // no keyring, here or in auth status: the consented file
	const redirect = "https://app.example.com/evdesk/callback"
	s := sim.New(sim.Options{NoRateLimit: true})
	s.RegisterRedirectURI(redirect)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	for k, v := range map[string]string{"EVDESK_BASE_URL": srv.URL + "/v2", "EVDESK_AUTH_URL": srv.URL,
		"EVDESK_CLIENT_ID": sim.DemoClientID, "EVDESK_CLIENT_SECRET": sim.DemoClientSecret,
		"EVDESK_REDIRECT_URI": redirect, "EVDESK_SCOPES": scopes} {
		t.Setenv(k, v)
	}
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	ios, _, out, errOut := TestStreams()
	ios.In = pr
	f := NewFactory(ios)
	f.AuthStore = func(o auth.StoreOptions) *auth.Store {
		o.Getenv = func(string) string { return "" } // no keyring: the consented file
		return auth.NewStore(o)
	}
	f.Browser = func(u string) error {
		go func() {
			hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			req, _ := http.NewRequest(http.MethodGet, u, nil)
			req.Header.Set(sim.AutoApproveHeader, "1")
			resp, err := hc.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			_, _ = io.WriteString(pw, resp.Header.Get("Location")+"\n")
		}()
		return nil
	}
	if _, stderr, err := executeOn(t, f, out, errOut, "login", "--insecure-storage"); err != nil {
		t.Fatalf("login: %v\n%s", err, stderr)
	}
	return errOut.String()
}

// By default login asks for every scope the features need; auth status
// then says every feature is allowed.
func TestLoginRequestsEveryScopeByDefault(t *testing.T) {
	stderr := loginInProcess(t, "")
	for _, sc := range api.RequestedScopes("vendor") {
		if !strings.Contains(stderr, sc) {
			t.Errorf("scope %s was not granted:\n%s", sc, stderr)
		}
	}
	out, _, err := execute(t, "auth", "status")
	if err != nil || !strings.Contains(out, "every feature is allowed by these scopes") {
		t.Fatalf("auth status: %v\n%s", err, out)
	}
}

// A login granted fewer scopes says what it leaves out, at login and in
// auth status.
func TestAuthStatusNamesTheFeaturesLeftOut(t *testing.T) {
	some := slices.DeleteFunc(api.RequestedScopes("vendor"), func(s string) bool {
		return s == "vendor_events_registrants:read" || s == api.PhoneScope
	})
	stderr := loginInProcess(t, strings.Join(some, " "))
	if !strings.Contains(stderr, "Not granted, so unavailable: Phone settings (needs phone:read:admin)") {
		t.Fatalf("login did not say what is left out:\n%s", stderr)
	}
	out, _, err := execute(t, "auth", "status")
	if err != nil {
		t.Fatalf("auth status: %v\n%s", err, out)
	}
	for _, want := range []string{"left out:       Cancel count (who registered, before a cancel) (needs vendor_events_registrants:read)",
		"Check-in roster: names, ticket scans, search (needs vendor_events_registrants:read)",
		"Phone settings (needs phone:read:admin)"} {
		if !strings.Contains(out, want) {
			t.Errorf("auth status lacks %q:\n%s", want, out)
		}
	}
}

// TestAuthStatusSeesTranscriptionCredentialsInTheEnvironment: with
// EVDESK_AI_KEY and EVDESK_AI_SECRET set, transcription works, and auth
// status says where its credentials come from (never what they are); one
// of the two alone is named as not enough.
func TestAuthStatusSeesTranscriptionCredentialsInTheEnvironment(t *testing.T) {
	isolateXDG(t)
	t.Setenv(config.EnvBaseURL, "http://127.0.0.1:1/v2")
	t.Setenv(config.EnvToken, "tok")
	t.Setenv(config.EnvAIKey, "key-4821")
	t.Setenv(config.EnvAISecret, "secret-9931")
	out, _, err := execute(t, "auth", "status")
	if err != nil || !strings.Contains(out, "transcription:  from EVDESK_AI_KEY and EVDESK_AI_SECRET (not shown)") ||
		strings.Contains(out, "secret-9931") || strings.Contains(out, "key-4821") {
		t.Fatalf("auth status: %v\n%s", err, out)
	}
	t.Setenv(config.EnvAISecret, "")
	out, _, _ = execute(t, "auth", "status")
	if !strings.Contains(out, "transcription:  no credentials") ||
		!strings.Contains(out, "EVDESK_AI_KEY is set without EVDESK_AI_SECRET: transcription needs both") {
		t.Fatalf("one of the two:\n%s", out)
	}
}
