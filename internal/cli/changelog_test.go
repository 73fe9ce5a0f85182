package cli

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/changelog"
)

// TestChangelogAgainstTheSimulatorThenOffline: the command prints the
// simulator's feed with its filters, marks evdesk's areas, and once the
// server is gone shows the cached copy and says so.
func TestChangelogAgainstTheSimulatorThenOffline(t *testing.T) {
	isolateXDG(t)
	s := sim.New(sim.Options{})
	srv := httptest.NewServer(s)
	t.Cleanup(s.Close)
	t.Setenv(config.EnvChangelogURL, srv.URL+sim.ChangelogPath)

	out, stderr, err := execute(t, "changelog", "--tag", "breaking-change,deprecation")
	if err != nil || stderr != "" {
		t.Fatalf("%v %s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.Contains(lines[0], "DATE") || len(lines) != 1+3+2 {
		t.Fatalf("table:\n%s", out)
	}
	if !strings.HasPrefix(lines[1], "      2026-11-15  breaking-change  real-time media streaming") ||
		!strings.HasPrefix(lines[2], "*     2026-10-06  deprecation      phone") ||
		!strings.HasPrefix(lines[3], "*     2026-05-18  breaking-change  phone") {
		t.Errorf("rows:\n%s", out)
	}
	if !strings.Contains(out, "* touches an area evdesk uses") {
		t.Error("the mark is not explained")
	}

	out, _, err = execute(t, "changelog", "--area", "webhooks", "--since", "2026-09-01", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var doc changelogJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Offline || len(doc.Entries) != 3 {
		t.Fatalf("json: %v %s", err, out)
	}
	for _, e := range doc.Entries {
		if !e.Uses || e.Areas[0] != changelog.AreaWebhooks || e.Link == "" || e.Summary == "" {
			t.Errorf("entry %+v", e)
		}
	}

	out, _, err = execute(t, "changelog", "--tag", "deprecation", "-o", "csv")
	if err != nil || !strings.HasPrefix(out, "used,date,tags,areas,title,link\ntrue,2026-10-06,deprecation,phone,") {
		t.Fatalf("csv: %v\n%s", err, out)
	}
	out, _, err = execute(t, "changelog", "--tag", "breaking-change", "--jq", ".entries[].title")
	if err != nil || out != "Real-time media streaming requires TLS 1.2 or 1.3\nPhone: a new retrieval process for warm-transfer call data\n" {
		t.Fatalf("--jq: %v\n%q", err, out)
	}

	srv.Close()
	out, stderr, err = execute(t, "changelog", "--area", "phone")
	if err != nil || !strings.Contains(stderr, "evdesk: offline (") || !strings.Contains(stderr, "showing the copy fetched") ||
		!strings.Contains(out, "Phone: a new retrieval process for warm-transfer call data") {
		t.Fatalf("offline: %v\nstderr %s\nstdout %s", err, stderr, out)
	}
}

func TestChangelogSaysWhatIsMissingOrWrong(t *testing.T) {
	isolateXDG(t)
	t.Setenv(config.EnvChangelogURL, "")
	if _, _, err := execute(t, "changelog"); err == nil || !strings.Contains(err.Error(), "has no changelog_url") ||
		!strings.Contains(err.Error(), config.EnvChangelogURL) {
		t.Errorf("no URL: %v", err)
	}
	for flag, want := range map[string]string{
		"--tag=breaking":   `--tag "breaking" is not a change log tag; use api-release, breaking-change`,
		"--since=Sept 1st": "write it as 2026-09-01",
	} {
		if _, _, err := execute(t, "changelog", flag); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", flag, err, want)
		}
	}
}

func TestDemoChangelog(t *testing.T) {
	isolateXDG(t)
	out, _, err := execute(t, demo("changelog", "--tag", "deprecation")...)
	if err != nil || !strings.Contains(out, "auto_call_recording") {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestWebhookFlagsAreChecked(t *testing.T) {
	isolateXDG(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sim", "--addr", "127.0.0.1:0", "--webhook-url", "http://127.0.0.1:1/h"}, "--webhook-url needs --webhook-secret"},
		{[]string{"sim", "--addr", "127.0.0.1:0", "--webhook-secret", "s"}, "--webhook-secret needs --webhook-url"},
		{[]string{"sim", "--addr", "127.0.0.1:0", "--webhook-url", "ftp://x/h", "--webhook-secret", "s"}, "not an http(s) URL"},
		{[]string{"webhooks", "listen", "--addr", "nohost"}, `--addr "nohost" is not host:port`},
		{[]string{"webhooks", "listen", "--forward-to", "localhost:3000"}, "--forward-to"},
		{[]string{"webhooks", "listen", "--addr", "127.0.0.1:0"}, "no webhook secret token for profile \"default\": set EVDESK_WEBHOOK_SECRET or run `evdesk login --webhook-secret`"},
	} {
		if _, _, err := execute(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
