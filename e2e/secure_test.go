package e2e

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// appRedirect is a redirect URI as a provider app registers it: https, on
// a machine evdesk cannot listen on.
const appRedirect = "https://app.example.com/evdesk/callback"

// secureSimEnv starts `evdesk sim --tls --redirect-uri appRedirect` and
// returns an isolated environment pointing evdesk at it (OAuth settings
// and its certificate authority, no token).
func secureSimEnv(t *testing.T) (env []string, vars map[string]string) {
	t.Helper()
	vars, _ = startSimWith(t, "--tls", "--redirect-uri", appRedirect)
	if !strings.HasPrefix(vars["EVDESK_BASE_URL"], "https://127.0.0.1:") || vars["EVDESK_CA_FILE"] == "" ||
		vars["EVDESK_REDIRECT_URI"] != appRedirect {
		t.Fatalf("sim --tls --redirect-uri printed %v", vars)
	}
	env = isolatedEnv(t)
	for _, k := range []string{"EVDESK_BASE_URL", "EVDESK_AUTH_URL", "EVDESK_CLIENT_ID", "EVDESK_CLIENT_SECRET",
		"EVDESK_REDIRECT_URI", "EVDESK_CA_FILE"} {
		env = append(env, k+"="+vars[k])
	}
	return env, vars
}

// authorizeURL matches the address login prints for the browser.
var authorizeURL = regexp.MustCompile(`https://127\.0\.0\.1:\d+/oauth/authorize\?\S+`)

// TestLoginThroughThePastePathOverHTTPS signs in as a person does with an
// app registered at an https redirect: the real binary in a terminal
// prints the address, the test plays the browser elsewhere (approves, and
// copies the address it lands on, which nothing on this machine serves),
// pastes it into the terminal, and evdesk exchanges the code over TLS,
// trusting the simulator through EVDESK_CA_FILE. The stored login then
// lists events over https.
func TestLoginThroughThePastePathOverHTTPS(t *testing.T) {
	t.Parallel()
	env, vars := secureSimEnv(t)
	tm := launch(t, 120, 40, env, "", "env DBUS_SESSION_BUS_ADDRESS= "+binPath+" login --no-browser --insecure-storage")
	tm.waitText("Copy the whole address from the browser's address bar")
	joined := tm.tmux("capture-pane", "-p", "-J")
	authURL := authorizeURL.FindString(joined)
	if authURL == "" {
		t.Fatalf("no authorize address on screen:\n%s", joined)
	}

	landing := approveElsewhere(t, authURL, vars["EVDESK_CA_FILE"])
	if !strings.HasPrefix(landing, appRedirect+"?") || !strings.Contains(landing, "code=") {
		t.Fatalf("the browser landed on %q", landing)
	}
	tm.paste(landing) // as a person pastes the address from the browser
	tm.keys("Enter")
	// Login ends at once, and its terminal with it: its exit status and
	// the stored login below say it worked.
	if st := tm.exitStatus(); st != "0" {
		t.Fatalf("login exit status %s", st)
	}

	out, err := runCLI(env, "events", "list", "--status", "draft")
	if err != nil || !strings.Contains(string(out), "draft") {
		t.Fatalf("events over https with the pasted login: %v\n%s", err, out)
	}
	out, err = runCLI(env, "auth", "status")
	if err != nil || strings.Contains(string(out), vars["EVDESK_CLIENT_SECRET"]) ||
		!strings.Contains(string(out), "every feature is allowed by these scopes") {
		t.Fatalf("auth status: %v\n%s", err, out)
	}
}

// approveElsewhere plays a browser on another machine: it opens the
// authorize address (auto-approved), trusting the simulator's authority,
// and returns the address the provider sends it to, without visiting it.
func approveElsewhere(t *testing.T, authURL, caFile string) string {
	t.Helper()
	pemBytes, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemBytes) {
		t.Fatal("EVDESK_CA_FILE holds no certificate")
	}
	hc := &http.Client{
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	req, _ := http.NewRequest(http.MethodGet, authURL, nil)
	req.Header.Set("X-Sim-Auto-Approve", "1")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.Header.Get("Location")
}

// TestTransportRefusals: over https with the simulator's token, evdesk
// lists events; without the authority the certificate is refused; plain
// http to another machine is refused before anything is sent; a server
// that offers only TLS 1.1 is refused with a message saying so.
func TestTransportRefusals(t *testing.T) {
	t.Parallel()
	env, vars := secureSimEnv(t)
	withToken := append(env, "EVDESK_TOKEN="+vars["EVDESK_TOKEN"])
	if out, err := runCLI(withToken, "events", "list", "-o", "json"); err != nil || !strings.Contains(string(out), "event_id") {
		t.Fatalf("listing over https: %v\n%s", err, out)
	}
	noCA := without(withToken, "EVDESK_CA_FILE")
	if out, err := runCLI(noCA, "events", "list"); err == nil || !strings.Contains(string(out), "is not trusted") ||
		!strings.Contains(string(out), "EVDESK_CA_FILE") {
		t.Fatalf("an unknown authority: %v\n%s", err, out)
	}
	plain := append(without(withToken, "EVDESK_BASE_URL"), "EVDESK_BASE_URL=http://api.example.com/v2")
	if out, err := runCLI(plain, "events", "list"); err == nil || !strings.Contains(string(out), "https only") ||
		!strings.Contains(string(out), "allow_insecure_http") {
		t.Fatalf("plain http to another machine: %v\n%s", err, out)
	}

	old := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		t.Error("a request reached the TLS 1.1 server")
		w.WriteHeader(http.StatusTeapot)
	}))
	old.TLS = &tls.Config{MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS11}
	old.StartTLS()
	defer old.Close()
	caFile := filepath.Join(t.TempDir(), "old.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: old.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	oldEnv := append(without(withToken, "EVDESK_BASE_URL", "EVDESK_CA_FILE"), "EVDESK_BASE_URL="+old.URL+"/v2", "EVDESK_CA_FILE="+caFile)
	if out, err := runCLI(oldEnv, "events", "list"); err == nil || !strings.Contains(string(out), "offers only TLS older than 1.2") {
		t.Fatalf("a TLS 1.1 server: %v\n%s", err, out)
	}
}

// without is env less the named variables.
func without(env []string, names ...string) []string {
	var out []string
next:
	for _, kv := range env {
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				continue next
			}
		}
		out = append(out, kv)
	}
	return out
}
