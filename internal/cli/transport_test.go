package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/config"
)

// writeProfile writes a config file with one profile, name, holding body.
func writeProfile(t *testing.T, name, body string) {
	t.Helper()
	if err := os.MkdirAll(config.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config.Path(), []byte("[profiles."+name+"]\n"+body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A profile that allows plain http to another machine opens, and its
// session warns on stderr on every run; without the setting it is refused,
// naming the file and the setting.
func TestInsecureHTTPWarnsEveryRun(t *testing.T) {
	isolateXDG(t)
	t.Setenv("EVDESK_TOKEN", "t")
	writeProfile(t, "lab", "base_url = \"http://10.255.255.1/v2\"\nallow_insecure_http = true\n")
	ios, _, _, _ := TestStreams()
	f := NewFactory(ios)
	s, err := f.openSession(context.Background(), rootFlags{profile: "lab"}, forCLI)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var stderr bytes.Buffer
	s.warn(&stderr)
	if !strings.Contains(stderr.String(), "evdesk: warning: INSECURE: plain http to 10.255.255.1") {
		t.Fatalf("stderr %q", stderr.String())
	}

	writeProfile(t, "lab", "base_url = \"http://10.255.255.1/v2\"\n")
	_, _, err = execute(t, "--profile", "lab", "events", "list")
	if err == nil || !strings.Contains(err.Error(), filepath.Base(config.Path())) || !strings.Contains(err.Error(), "allow_insecure_http") {
		t.Fatalf("plain http without the setting: %v", err)
	}
}

// sim --redirect-uri takes what a profile may register, no more.
func TestSimRedirectURIIsChecked(t *testing.T) {
	isolateXDG(t)
	_, _, err := execute(t, "sim", "--addr", "127.0.0.1:0", "--redirect-uri", "http://app.example.com/cb")
	if err == nil || !strings.Contains(err.Error(), "--redirect-uri") || !strings.Contains(err.Error(), "plain http") {
		t.Fatalf("plain http redirect: %v", err)
	}
}
