package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
)

func TestPhoneSettingsCommand(t *testing.T) {
	dir := isolateXDG(t)
	out, _, err := execute(t, demo("phone", "settings")...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"SETTING", "THEME", "call_park", "Calling and routing", "account",
		"Parked calls expire after 10 minutes, then ring back the parker.", "online_fax"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	out, _, err = execute(t, demo("phone", "settings", "--types", "call_park,sms", "-o", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got) != 2 || got["call_park"] == nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	_, _, err = execute(t, demo("phone", "settings", "--types", "call_prak")...)
	if err == nil || !strings.Contains(err.Error(), `"call_prak" is not a phone setting type (did you mean "call_park"?)`) {
		t.Fatalf("bad type: %v", err)
	}

	// Save, tamper with the file, compare.
	path := filepath.Join(dir, "policy.json")
	_, stderr, err := execute(t, demo("phone", "settings", "--types", "call_park,sms,voicemail", "--save", path)...)
	if err != nil || !strings.Contains(stderr, "saved 3 settings to "+path) {
		t.Fatalf("save: %v %s", err, stderr)
	}
	out, _, err = execute(t, demo("phone", "settings", "--diff", path)...)
	if err != nil || !strings.Contains(out, "No changes since "+path) {
		t.Fatalf("diff against itself: %v\n%s", err, out)
	}
	snap, err := snapshot.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]any
	_ = json.Unmarshal(snap.Settings, &m)
	m["call_park"]["expiration_period"] = 5
	delete(m["sms"], "international_sms")
	m["voicemail"]["allow_transcripts"] = true
	snap.Settings, _ = json.Marshal(m)
	if err := snapshot.Save(path, snap); err != nil {
		t.Fatal(err)
	}
	out, _, err = execute(t, demo("phone", "settings", "--diff", path)...)
	var ec exitCoder
	if !errors.As(err, &ec) || ec.ExitCode() != exitDrift || err.Error() != "" {
		t.Fatalf("drift should exit %d quietly: %v", exitDrift, err)
	}
	for _, want := range []string{"3 changes since", "CHANGE", "changed  call_park.expiration_period  5",
		"added    sms.international_sms", "removed  voicemail.allow_transcripts"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = execute(t, demo("phone", "settings", "--diff", path, "-o", "json")...)
	var d struct {
		Snapshot string            `json:"snapshot"`
		Changes  []snapshot.Change `json:"changes"`
	}
	if json.Unmarshal([]byte(out), &d) != nil || len(d.Changes) != 3 || d.Changes[0].Path != "call_park.expiration_period" {
		t.Fatalf("json diff:\n%s", out)
	}
	_, _, err = execute(t, demo("phone", "settings", "--diff", filepath.Join(dir, "nope.json"))...)
	if !errors.As(err, &ec) || ec.ExitCode() != exitBroken {
		t.Errorf("a missing snapshot should exit %d: %v", exitBroken, err)
	}
	// Saving over another file needs --force; over the compared one it does not.
	other := filepath.Join(dir, "other.json")
	if err := os.WriteFile(other, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := execute(t, demo("phone", "settings", "--save", other)...); err == nil || !strings.Contains(err.Error(), "add --force") {
		t.Errorf("an existing file was replaced without --force: %v", err)
	}
	if b, _ := os.ReadFile(other); string(b) != "keep" {
		t.Error("the file changed")
	}
	if _, _, err := execute(t, demo("phone", "settings", "--save", other, "--force")...); err != nil {
		t.Errorf("--force: %v", err)
	}
}

func TestPhoneSettingsCommandWithoutPhoneService(t *testing.T) {
	isolateXDG(t)
	srv, err := sim.Start("127.0.0.1:0", sim.Options{NoRateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	t.Setenv("EVDESK_BASE_URL", srv.URL())
	t.Setenv("EVDESK_TOKEN", sim.NoPhoneToken)
	_, _, err = execute(t, "phone", "settings")
	if err == nil || !strings.Contains(err.Error(), "phone service has not been set up") ||
		!strings.Contains(err.Error(), "Business or Enterprise") {
		t.Fatalf("403: %v", err)
	}
}
