package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/config"
)

// TestSetProfileWritesTheLimitsAndTheMouse: the numeric settings and the
// mouse switch are flags too, checked before the file is written.
func TestSetProfileWritesTheLimitsAndTheMouse(t *testing.T) {
	isolateXDG(t)
	setProfile(t, "lab", "--base-url", "https://api.example.com/v2", "--rate-limit", "80", "--max-response-mb", "64", "--mouse=false")
	body, err := os.ReadFile(config.Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nrate_limit = 80", "\nmax_response_mb = 64", "\nmouse = false"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the file lacks %q:\n%s", want, body)
		}
	}
	_, _, err = execute(t, "config", "set-profile", "lab", "--rate-limit", "5000")
	if err == nil || !strings.Contains(err.Error(), "rate_limit") {
		t.Fatalf("an out-of-range rate should be refused naming rate_limit: %v", err)
	}
	setProfile(t, "lab", "--mouse=true", "--rate-limit", "0")
	body, _ = os.ReadFile(config.Path())
	if strings.Contains(string(body), "\nmouse =") || strings.Contains(string(body), "\nrate_limit =") || !strings.Contains(string(body), "max_response_mb = 64") {
		t.Fatalf("--mouse=true and --rate-limit 0 go back to the defaults, the rest stays:\n%s", body)
	}
}
