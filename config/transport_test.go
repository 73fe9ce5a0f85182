package config

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Plain http goes to this machine only, unless the profile allows it, and
// then every run warns.
func TestPlainHTTPOnlyToThisMachine(t *testing.T) {
	for _, c := range []struct {
		base, auth string
		refused    string // the setting named in the refusal; "" when accepted
	}{
		{"https://api.example.com/v2", "https://auth.example.com", ""},
		{"http://127.0.0.1:8765/v2", "http://127.0.0.1:8765", ""},
		{"http://localhost:8765/v2", "http://[::1]:8765", ""},
		{"http://api.example.com/v2", "https://auth.example.com", EnvBaseURL},
		{"https://api.example.com/v2", "http://auth.example.com", EnvAuthURL},
		{"http://10.0.0.5/v2", "https://auth.example.com", EnvBaseURL},
	} {
		p := FromEnv(lookupFrom(map[string]string{EnvBaseURL: c.base, EnvAuthURL: c.auth, EnvClientID: "id", EnvToken: "t"}))
		err := p.Validate()
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s %s refused: %v", c.base, c.auth, err)
		case c.refused != "" && (err == nil || !strings.HasPrefix(err.Error(), c.refused+"=") ||
			!strings.Contains(err.Error(), "https only") || !strings.Contains(err.Error(), FieldAllowInsecureHTTP)):
			t.Errorf("%s %s: %v, want a refusal naming %s and %s", c.base, c.auth, err, c.refused, FieldAllowInsecureHTTP)
		}
		if w := p.InsecureHTTPWarning(); w != "" {
			t.Errorf("%s: a warning without allow_insecure_http: %s", c.base, w)
		}
	}
	path := writeConfig(t, "[profiles.lab]\nbase_url = \"http://lab.example:8080/v2\"\nallow_insecure_http = true\n")
	p, err := Resolve(path, "lab", lookupFrom(map[string]string{EnvToken: "t"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("allowed: %v", err)
	}
	if w := p.InsecureHTTPWarning(); !strings.Contains(w, "INSECURE") || !strings.Contains(w, "lab.example:8080") || !strings.Contains(w, `"lab"`) {
		t.Fatalf("warning %q", w)
	}
}

// ca_file adds a bundle to the system's authorities; TLS is 1.2 or newer
// whatever the profile.
func TestCAFileAndTheTLSMinimum(t *testing.T) {
	p := FromEnv(lookupFrom(map[string]string{EnvBaseURL: "https://x/v2", EnvToken: "t"}))
	c, err := p.TLSConfig()
	if err != nil || c.MinVersion != tls.VersionTLS12 || c.RootCAs != nil {
		t.Fatalf("default: %+v %v", c, err)
	}

	dir := t.TempDir()
	good := filepath.Join(dir, "proxy.pem")
	if err := os.WriteFile(good, testCAPEM(t), 0o600); err != nil {
		t.Fatal(err)
	}
	path := writeConfig(t, "[profiles.office]\nbase_url = \"https://x/v2\"\nca_file = \""+good+"\"\n")
	p, err = Resolve(path, "office", lookupFrom(map[string]string{EnvToken: "t"}))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := p.TLSConfig(); err != nil || c.RootCAs == nil || c.MinVersion != tls.VersionTLS12 {
		t.Fatalf("ca_file: %+v %v", c, err)
	}

	bad := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(bad, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p = FromEnv(lookupFrom(map[string]string{EnvBaseURL: "https://x/v2", EnvToken: "t", EnvCAFile: bad}))
	if _, err := p.TLSConfig(); err == nil || !strings.HasPrefix(err.Error(), EnvCAFile+"=") || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Fatalf("a file without a certificate: %v", err)
	}
	p = FromEnv(lookupFrom(map[string]string{EnvBaseURL: "https://x/v2", EnvToken: "t", EnvCAFile: filepath.Join(dir, "missing.pem")}))
	if _, err := p.TLSConfig(); err == nil || !strings.Contains(err.Error(), "cannot read the CA bundle") {
		t.Fatalf("a missing file: %v", err)
	}
	if _, err := Parse("c.toml", []byte("[profiles.a]\nca_file = \"a\\u0007b\"\n")); err == nil || !strings.Contains(err.Error(), "ca_file") {
		t.Fatalf("a control character in ca_file: %v", err)
	}
}

// testCAPEM makes a self-signed certificate in PEM.
func testCAPEM(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "evdesk test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// A redirect URI is the loopback one evdesk listens on, or the https one an
// app was registered with.
func TestRedirectURIs(t *testing.T) {
	for uri, want := range map[string]string{
		"http://127.0.0.1:8976/callback":     "",
		"http://localhost:9000/cb":           "",
		"https://app.example.com/callback":   "",
		"https://app.example.com:8443/a/b":   "",
		"http://app.example.com/callback":    "plain http",
		"http://127.0.0.1/callback":          "explicit port",
		"https://127.0.0.1:8976/callback":    "served by evdesk itself over plain http",
		"https://app.example.com/cb?x=1":     "query",
		"https://app.example.com/cb#top":     "fragment",
		"https://user:pw@app.example.com/cb": "user name or password",
		"app.example.com/callback":           "is not a redirect URI",
		"mailto:someone@example.com":         "is not a redirect URI",
		"https:///callback":                  "is not a redirect URI",
	} {
		err := CheckRedirectURI(uri)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", uri, err, want)
		}
	}
	loop := Profile{RedirectURI: "http://127.0.0.1:8976/callback"}
	app := Profile{RedirectURI: "https://app.example.com/callback"}
	if !loop.RedirectIsLoopback() || app.RedirectIsLoopback() {
		t.Fatal("loopback")
	}
	if _, err := app.RedirectAddr(); err == nil {
		t.Fatal("evdesk cannot listen on another machine")
	}
}
