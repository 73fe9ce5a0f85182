package config

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"

	"github.com/adrg/xdg"
)

// StateDir is evdesk's directory for logs, journals, session metadata and
// lock files: $XDG_STATE_HOME/evdesk (read at call time).
func StateDir() string { return filepath.Join(xdgDir("XDG_STATE_HOME", xdg.StateHome), "evdesk") }

// OpenLog opens the log file in the state dir; the terminal belongs to the
// UI. On failure it logs nowhere rather than stopping the program.
func OpenLog(level slog.Level) (*slog.Logger, io.Closer) {
	dir := StateDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	f, err := os.OpenFile(filepath.Join(dir, "evdesk.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	return slog.New(NewRedactingHandler(slog.NewTextHandler(f, &slog.HandlerOptions{Level: level}))), f
}

// secretPattern finds bearer tokens, JWTs and secret-looking key=value pairs.
var secretPattern = regexp.MustCompile(`(?i)(bearer\s+)[^\s"']+|eyJ[\w-]+\.[\w-]+\.[\w-]*|((?:access_token|refresh_token|client_secret|token|secret|password|authorization)["']?\s*[:=]\s*["']?)(?:bearer\s+)?[^\s"'&,]+`)

// Redact masks secrets in s.
func Redact(s string) string {
	return secretPattern.ReplaceAllStringFunc(s, func(m string) string {
		sub := secretPattern.FindStringSubmatch(m)
		switch {
		case sub[1] != "":
			return sub[1] + "[redacted]"
		case sub[2] != "":
			return sub[2] + "[redacted]"
		}
		return "[redacted]"
	})
}

// sensitiveKeys are attribute names whose values are never logged.
var sensitiveKeys = map[string]bool{"authorization": true, "token": true, "access_token": true,
	"refresh_token": true, "client_secret": true, "secret": true, "password": true, "api_key": true}

// RedactingHandler masks secrets in messages and attributes before they
// reach the wrapped handler.
type RedactingHandler struct{ next slog.Handler }

// NewRedactingHandler wraps next.
func NewRedactingHandler(next slog.Handler) *RedactingHandler { return &RedactingHandler{next: next} }

func (h *RedactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *RedactingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, Redact(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool { out.AddAttrs(redactAttr(a)); return true })
	return h.next.Handle(ctx, out)
}

func (h *RedactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = redactAttr(a)
	}
	return &RedactingHandler{next: h.next.WithAttrs(clean)}
}

func (h *RedactingHandler) WithGroup(name string) slog.Handler {
	return &RedactingHandler{next: h.next.WithGroup(name)}
}

func redactAttr(a slog.Attr) slog.Attr {
	if sensitiveKeys[a.Key] {
		return slog.String(a.Key, "[redacted]")
	}
	switch a.Value.Kind() {
	case slog.KindGroup:
		attrs := a.Value.Group()
		clean := make([]any, len(attrs))
		for i, g := range attrs {
			clean[i] = redactAttr(g)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindString, slog.KindAny:
		return slog.String(a.Key, Redact(a.Value.String()))
	}
	return a
}
