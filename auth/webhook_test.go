package auth

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

func TestWebhookSecretInTheKeyring(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	st := NewStore(StoreOptions{ConfigDir: dir, StateDir: dir, GOOS: "linux", Getenv: busEnv})
	if _, err := st.WebhookSecret("work"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "--webhook-secret") {
		t.Fatalf("none stored: %v", err)
	}
	if _, err := st.SaveWebhookSecret("work", ""); err == nil {
		t.Fatal("an empty secret was stored")
	}
	if b, err := st.SaveWebhookSecret("work", "whsec-1"); err != nil || b != BackendKeyring {
		t.Fatalf("%v %s", err, b)
	}
	if v, _ := keyring.Get("evdesk:work", "webhook_secret_token"); v != "whsec-1" {
		t.Fatalf("keyring holds %q", v)
	}
	if got, err := st.WebhookSecret("work"); err != nil || got != "whsec-1" {
		t.Fatalf("%q %v", got, err)
	}
	if b, _ := os.ReadFile(st.metaPath("work")); strings.Contains(string(b), "whsec-1") {
		t.Fatalf("metadata holds the secret: %s", b)
	}
	if err := st.Forget("work"); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get("evdesk:work", "webhook_secret_token"); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatal("forget left the webhook secret in the keyring")
	}
}
