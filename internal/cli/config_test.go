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

// Adding a profile never switches plain commands to it: set-profile says
// which profile they still use, `config use` switches and accepts
// "default", and every error names the profile in use once there are two.
func TestSetProfileNeverSwitchesTheProfileInUse(t *testing.T) {
	isolateXDG(t)
	out, _, err := execute(t, "config", "set-profile", "other", "--base-url", "http://127.0.0.1:1/v2", "--token-env", "EVDESK_TOKEN_OTHER_HOST")
	if err != nil || !strings.Contains(out, `Commands without --profile still use "default"; `+"`evdesk config use other`") {
		t.Fatalf("set-profile: %v\n%s", err, out)
	}
	if f, _ := config.ReadFile(config.Path()); f.DefaultProfile != "" {
		t.Fatalf("set-profile made %q the default", f.DefaultProfile)
	}
	// A plain command fails on the default profile's account, and says so.
	ios, _, _, errOut := TestStreams()
	if code := Run(t.Context(), NewFactory(ios), []string{"events", "list"}); code == 0 {
		t.Fatal("events list without a server succeeded")
	}
	if got := errOut.String(); !strings.HasPrefix(got, "evdesk (profile default): EVDESK_BASE_URL is not set") {
		t.Fatalf("stderr: %q", got)
	}
	out, _, err = execute(t, "config", "use", "other")
	if err != nil || out != "Default profile is now \"other\".\n" {
		t.Fatalf("use other: %v %q", err, out)
	}
	out, _, err = execute(t, "config", "set-profile", "third", "--base-url", "http://127.0.0.1:2/v2")
	if err != nil || !strings.Contains(out, `still use "other"`) {
		t.Fatalf("set-profile third: %v\n%s", err, out)
	}
	if out, _, err = execute(t, "config", "use", "default"); err != nil || out != "Default profile is now \"default\".\n" {
		t.Fatalf("use default: %v %q", err, out)
	}
	if f, _ := config.ReadFile(config.Path()); f.DefaultProfile != "" || len(f.Profiles) != 2 {
		t.Fatalf("after use default: %+v", f)
	}
}

// With one profile, errors need not name it.
func TestErrorsNameNoProfileWhenThereIsOne(t *testing.T) {
	isolateXDG(t)
	ios, _, _, errOut := TestStreams()
	if code := Run(t.Context(), NewFactory(ios), []string{"events", "list"}); code == 0 {
		t.Fatal("events list without a server succeeded")
	}
	if got := errOut.String(); !strings.HasPrefix(got, "evdesk: EVDESK_BASE_URL is not set") {
		t.Fatalf("stderr: %q", got)
	}
}
