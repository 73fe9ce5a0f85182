package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestProfileKeysWithTheirLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	content := `default_profile = "work"

[profiles.work]
base_url = "https://api.example.com/v2"

[profiles.work.keys]
cancel_event = "K"
page_down = ["pgdown", "ctrl+d"]
`
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := Resolve(path, "", func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(p.Keys["cancel_event"], ",") != "K" || strings.Join(p.Keys["page_down"], ",") != "pgdown,ctrl+d" {
		t.Fatalf("keys %v", p.Keys)
	}
	if got := p.KeyOrigin("cancel_event"); got != path+":7" {
		t.Fatalf("cancel_event from %q, want line 7", got)
	}
	if got := p.KeyOrigin("page_down"); got != path+":8" {
		t.Fatalf("page_down from %q, want line 8", got)
	}

	bad := strings.Replace(content, `cancel_event = "K"`, `cancel_event = 3`, 1)
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Resolve(path, "", func(string) (string, bool) { return "", false })
	if err == nil || !strings.Contains(err.Error(), path+":7: [keys] cancel_event: a key is a string") {
		t.Fatalf("a number for a key: %v", err)
	}
}
