package config

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

func TestRedactingHandlerMasksSecrets(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(NewRedactingHandler(slog.NewTextHandler(&buf, nil)))
	log.Info("sent Authorization: Bearer sk-live-123", "token", "abc123",
		"err", errors.New(`token endpoint said refresh_token=rt-999 invalid`),
		slog.Group("req", "authorization", "Bearer zzz"), "jwt", "eyJhbGciOi.eyJpc3Mi.sig")
	out := buf.String()
	for _, secret := range []string{"sk-live-123", "abc123", "rt-999", "zzz", "eyJhbGciOi"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q leaked: %s", secret, out)
		}
	}
	if !strings.Contains(out, "[redacted]") {
		t.Errorf("no redaction mark: %s", out)
	}
}
