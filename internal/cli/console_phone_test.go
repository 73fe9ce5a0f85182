package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
)

// isOtherAccount reads the account's phone settings through client and reports
// whether they are the second simulator account's (it lacks call
// screening).
func isOtherAccount(t *testing.T, client *api.Client) bool {
	t.Helper()
	st, err := client.Phone.AccountSettings(t.Context(), api.PhoneSettingsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return !st.Has("call_screening")
}

func TestConsolePhoneOpensAnotherProfileAsASessionDoes(t *testing.T) {
	_, url := startPhoneSim(t)
	setProfile(t, "demo", "--base-url", url, "--default") // on EVDESK_TOKEN
	setProfile(t, "other", "--base-url", url, "--token-env", simOtherHostTokenEnv)
	setProfile(t, "twin", "--base-url", url) // no token of its own
	t.Setenv(simOtherHostTokenEnv, sim.OtherHostToken)
	file, err := config.ReadFile(config.Path())
	if err != nil {
		t.Fatal(err)
	}
	e := file.Profiles["demo"]
	e.PhoneBaseline = "policy.toml"
	if err := file.SetProfile("demo", e); err != nil {
		t.Fatal(err)
	}
	if err := file.Save(); err != nil {
		t.Fatal(err)
	}

	ios, _, _, _ := TestStreams()
	f := NewFactory(ios)
	s, err := f.openSession(t.Context(), rootFlags{profile: "demo"}, forConsole)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := f.phoneEnv(t.Context(), s)
	if want := filepath.Join(config.Dir(), "policy.toml"); d.Baseline != want {
		t.Errorf("baseline %q, want the profile's %q", d.Baseline, want)
	}
	other, err := d.OpenProfile("other")
	if err != nil {
		t.Fatal(err)
	}
	if !isOtherAccount(t, other) {
		t.Error("profile other reached the demo account")
	}
	// EVDESK_TOKEN speaks for the profile in use only: twin has no token.
	if _, err := d.OpenProfile("twin"); err == nil || !strings.Contains(err.Error(), `profile "twin" has no credentials of its own`) {
		t.Errorf("twin: %v", err)
	}
	if _, err := d.OpenProfile("nobody"); err == nil || !strings.Contains(err.Error(), `profile "nobody" not found`) {
		t.Errorf("nobody: %v", err)
	}
}

func TestConsolePhoneInTheDemoComparesWithTheSecondAccount(t *testing.T) {
	isolateXDG(t)
	ios, _, _, _ := TestStreams()
	f := NewFactory(ios)
	s, err := f.openSession(t.Context(), rootFlags{demo: true}, forConsole)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := f.phoneEnv(t.Context(), s)
	if d.OtherProfile != demoOtherProfile || d.Baseline != "" {
		t.Fatalf("deps %+v", d)
	}
	other, err := d.OpenProfile(demoOtherProfile)
	if err != nil {
		t.Fatal(err)
	}
	if !isOtherAccount(t, other) || isOtherAccount(t, s.client) {
		t.Error("the demo's profile other is not the simulator's second account")
	}
	if _, err := d.OpenProfile("acme"); err == nil || !strings.Contains(err.Error(), `compare with profile "other"`) {
		t.Errorf("acme in the demo: %v", err)
	}
}
