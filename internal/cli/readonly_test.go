package cli

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/config"
)

// TestReadOnlyRefusesWriteCommands: --read-only, EVDESK_READ_ONLY and a
// profile's read_only = true each make every write command exit 1 with the
// reason, before anything is opened; reads go on.
func TestReadOnlyRefusesWriteCommands(t *testing.T) {
	s := simServer(t)
	ev := s.Fixtures().DraftEventID
	writes := [][]string{
		{"events", "publish", ev}, {"events", "delete", ev, "--yes"}, {"events", "update", ev, "--name", "x"},
		{"events", "create", "--name", "n", "--description", "d", "--hub", "h", "--start", "2027-01-04 09:00", "--end", "2027-01-04 10:00"},
		{"links", "default", ev, "l1"}, {"coeditors", "remove", ev, "--email", "a@example.org"},
		{"register", ev, "--email", "a@example.org"}, {"checkin", ev}, {"exhibitors", "create", ev, "--name", "x"},
	}
	for _, args := range writes {
		code, _, stderr := run1(t, append([]string{"--read-only"}, args...)...)
		if code != exitFailed || !strings.Contains(stderr, "changes the account, and this session is read-only (--read-only)") {
			t.Errorf("%v: exit %d %s", args, code, stderr)
		}
	}
	if code, out, stderr := run1(t, "--read-only", "events", "get", ev, "-q", ".status"); code != 0 || out != "DRAFT\n" {
		t.Fatalf("a read: %d %q %s", code, out, stderr)
	}

	t.Setenv(config.EnvReadOnly, "1")
	if code, _, stderr := run1(t, "events", "publish", ev); code != exitFailed || !strings.Contains(stderr, config.EnvReadOnly+" is set") {
		t.Fatalf("environment: %d %s", code, stderr)
	}
	if code, _, stderr := run1(t, "--demo", "events", "publish", ev); code != exitFailed || !strings.Contains(stderr, "read-only") {
		t.Fatalf("demo: %d %s", code, stderr)
	}
	t.Setenv(config.EnvReadOnly, "")

	setProfile(t, "wall", "--base-url", "https://api.example.com/v2")
	appendToConfig(t, "read_only = true\n")
	if code, _, stderr := run1(t, "--profile", "wall", "events", "publish", ev); code != exitFailed ||
		!strings.Contains(stderr, `profile "wall" has read_only = true`) {
		t.Fatalf("profile: %d %s", code, stderr)
	}
	if code, _, stderr := run1(t, "--profile", "wall", "desk", ev); code != exitFailed || !strings.Contains(stderr, "--board") {
		t.Fatalf("desk: %d %s", code, stderr)
	}
}

// appendToConfig adds lines to the end of the config file (the last
// profile's table).
func appendToConfig(t *testing.T, lines string) {
	t.Helper()
	f, err := os.OpenFile(config.Path(), os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(lines); err != nil {
		t.Fatal(err)
	}
}

func TestThemeFlagIsChecked(t *testing.T) {
	if code, _, stderr := run1(t, "--theme", "neon", "version"); code != exitUsage ||
		!strings.Contains(stderr, `--theme: "neon" is not a theme: use auto, dark, light, high-contrast`) {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if code, _, _ := run1(t, "--theme", "high-contrast", "version"); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// TestAuthCommandsGoThroughTheFactory: the auth commands read the profile,
// the store and the clock through the factory, so a test sees what they
// would act on without a keyring.
func TestAuthCommandsGoThroughTheFactory(t *testing.T) {
	isolateXDG(t)
	ios, _, _, _ := TestStreams()
	f := NewFactory(ios)
	var asked string
	f.Profile = func(name string) (config.Profile, error) { asked = name; return config.Profile{Name: name}, nil }
	var got *authOptions
	root := NewRootCmd(f)
	for _, c := range root.Commands() {
		if c.Name() == "logout" {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(newLogoutCmdF(f, func(_ context.Context, o *authOptions) error { got = o; return nil }))
	root.SetArgs([]string{"--profile", "acme", "logout", "--forget-secrets"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	p, err := got.Profile()
	if err != nil || p.Name != "acme" || asked != "acme" || !got.Forget || got.All {
		t.Fatalf("options %+v, profile %+v %v", got, p, err)
	}
}
