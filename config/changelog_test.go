package config

import (
	"strings"
	"testing"
)

func TestChangelogSettings(t *testing.T) {
	path := writeConfig(t, sample+"changelog_url = \"https://developers.example.com/changelog/rss\"\nchangelog_notice = false\n")
	lab, err := Resolve(path, "lab", lookupFrom(nil))
	if err != nil || lab.ChangelogURL != "https://developers.example.com/changelog/rss" || !lab.NoChangelogNotice {
		t.Fatalf("lab: %q notice off %v, %v", lab.ChangelogURL, lab.NoChangelogNotice, err)
	}
	lab, _ = Resolve(path, "lab", lookupFrom(map[string]string{EnvChangelogURL: "http://127.0.0.1:8765/changelog/rss",
		EnvWebhookSecret: "s3cret"}))
	if lab.ChangelogURL != "http://127.0.0.1:8765/changelog/rss" || lab.WebhookSecret != "s3cret" {
		t.Fatalf("the environment did not win: %q %q", lab.ChangelogURL, lab.WebhookSecret)
	}
	bad := writeConfig(t, "[profiles.a]\nchangelog_url = \"ftp://x/rss\"\n")
	if _, err := Resolve(bad, "a", lookupFrom(nil)); err == nil ||
		!strings.Contains(err.Error(), ":2: profiles.a.changelog_url:") || !strings.Contains(err.Error(), "http(s)") {
		t.Fatalf("file: %v", err)
	}
	p, _ := Resolve(path, "lab", lookupFrom(map[string]string{EnvChangelogURL: "https://u:p@x/rss", EnvToken: "t"}))
	if err := p.Validate(); err == nil || !strings.HasPrefix(err.Error(), EnvChangelogURL) || strings.Contains(err.Error(), "u:p") {
		t.Fatalf("environment: %v", err)
	}
	// Plain http only to this machine.
	p, _ = Resolve(path, "lab", lookupFrom(map[string]string{EnvChangelogURL: "http://feeds.example.com/rss"}))
	if err := p.CheckChangelogURL(); err == nil || !strings.Contains(err.Error(), "plain http") {
		t.Fatalf("plain http: %v", err)
	}
	p, _ = Resolve(path, "lab", lookupFrom(map[string]string{EnvChangelogURL: "http://127.0.0.1:8765/changelog/rss"}))
	if err := p.CheckChangelogURL(); err != nil {
		t.Fatalf("loopback: %v", err)
	}
}
