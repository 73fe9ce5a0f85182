package config

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/adrg/xdg"
	"gopkg.in/natefinch/lumberjack.v2"
)

// StateDir is evdesk's directory for logs, journals, session metadata and
// lock files: $XDG_STATE_HOME/evdesk (read at call time).
func StateDir() string { return filepath.Join(xdgDir("XDG_STATE_HOME", xdg.StateHome), "evdesk") }

// LogPath is the log file: evdesk.log in the state dir.
func LogPath() string { return filepath.Join(StateDir(), "evdesk.log") }

// Log rotation: a debugging session logs every request, so the log is cut
// at logMaxMB and a few old ones are kept, for a while.
const (
	logMaxMB      = 10
	logMaxBackups = 3
	logMaxDays    = 28
)

// OpenLog opens the log file in the state dir (rotated, 0600); the
// terminal belongs to the UI. Each of also (a script's standard error
// under --debug) gets the same redacted records. On failure it logs only
// to also rather than stopping the program.
func OpenLog(level slog.Level, also ...io.Writer) (*slog.Logger, io.Closer) {
	opts := &slog.HandlerOptions{Level: level}
	var handlers []slog.Handler
	for _, w := range also {
		handlers = append(handlers, slog.NewTextHandler(w, opts))
	}
	var closer io.Closer = io.NopCloser(nil)
	if err := os.MkdirAll(StateDir(), 0o700); err == nil {
		// lumberjack creates the file 0600 and keeps a rotated file's mode.
		lj := &lumberjack.Logger{Filename: LogPath(), MaxSize: logMaxMB, MaxBackups: logMaxBackups, MaxAge: logMaxDays}
		if _, err := lj.Write(nil); err == nil { // opens (or creates) the file now: a failure shows here
			handlers = append(handlers, slog.NewTextHandler(lj, opts))
			closer = lj
		}
	}
	if len(handlers) == 0 {
		return slog.New(slog.DiscardHandler), closer
	}
	return slog.New(NewRedactingHandler(slog.NewMultiHandler(handlers...))), closer
}

// Redaction rules. Each matches real key/value syntax only, so ordinary
// words stay readable: `Post "https://x/oauth/token": dial tcp` is left
// alone (a path segment, not a key), while `?access_token=...`,
// `"refresh_token":"..."`, `Authorization: Bearer ...`, JWTs and the
// password in `https://user:pass@host` are masked.
const (
	// secretKey is a key naming a secret: access_token, client_secret,
	// x-api-key, password, code_verifier...
	secretKey = `[\w-]*?(?:token|secret|password|passwd|api[_-]?key|apikey|verifier)`
	// keyStart: a key starts the text or follows a character that cannot be
	// part of a key or a path (so /oauth/token never counts as a key).
	keyStart = `(^|[^\w/])`
	// quotedValue is a JSON or TOML string, escapes included.
	quotedValue = `"(?:[^"\\]|\\.)*"|'[^']*'`
	bareValue   = `[^\s"'&,;]+`
)

var redactions = []struct {
	re   *regexp.Regexp
	repl func(sub []string) string
}{
	// https://user:pass@host: keep the user, mask the password.
	{regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://[^\s/?#@:"'<>]*:)[^\s/?#@"'<>]+@`),
		func(sub []string) string { return sub[1] + "[redacted]@" }},
	// Authorization: Bearer x, authorization=Basic x (the scheme stays).
	{regexp.MustCompile(`(?i)` + keyStart + `((?:proxy-)?authorization["']?\s*[:=]\s*["']?)((?:bearer|basic|digest|token)\s+)?` + bareValue),
		func(sub []string) string { return sub[1] + sub[2] + sub[3] + "[redacted]" }},
	// "refresh_token": "x" (JSON) and 'secret': 'x'.
	{regexp.MustCompile(`(?i)(["'])(` + secretKey + `)(["'])(\s*:\s*)(?:` + quotedValue + `)`),
		func(sub []string) string { return sub[1] + sub[2] + sub[3] + sub[4] + `"[redacted]"` }},
	// access_token=x (query, form, TOML, key=value logs).
	{regexp.MustCompile(`(?i)` + keyStart + `(` + secretKey + `)(\s*=\s*)(?:` + quotedValue + `|` + bareValue + `)`),
		func(sub []string) string { return sub[1] + sub[2] + sub[3] + "[redacted]" }},
	// X-Auth-Token: x, refresh_token: x (headers and dumps). Only compound
	// names: "cannot fetch token: 400" is prose.
	{regexp.MustCompile(`(?i)` + keyStart + `([\w-]*[_-](?:token|secret|password)|[\w-]*api[_-]?key)(\s*:\s+)` + bareValue),
		func(sub []string) string { return sub[1] + sub[2] + sub[3] + "[redacted]" }},
	// Bearer x outside a header, when x looks like a token, not a word.
	{regexp.MustCompile(`(?i)\b(bearer\s+)([\w.~+/-]+=*)`),
		func(sub []string) string {
			if !looksLikeToken(sub[2]) {
				return sub[0]
			}
			return sub[1] + "[redacted]"
		}},
	// A JWT anywhere.
	{regexp.MustCompile(`eyJ[\w-]+\.[\w-]+\.[\w-]*`), func([]string) string { return "[redacted]" }},
}

// looksLikeToken tells a credential from a word such as "token": it has a
// digit or punctuation, or is long.
func looksLikeToken(s string) bool {
	return len(s) >= 20 || strings.ContainsAny(s, "0123456789-._~+/=")
}

// Redact masks secrets in s.
func Redact(s string) string {
	for _, r := range redactions {
		s = replaceSubmatches(r.re, s, r.repl)
	}
	return s
}

// replaceSubmatches replaces every match of re in s by repl of its
// submatches (regexp has no ReplaceAllStringSubmatchFunc).
func replaceSubmatches(re *regexp.Regexp, s string, repl func([]string) string) string {
	all := re.FindAllStringSubmatchIndex(s, -1)
	if all == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range all {
		sub := make([]string, len(loc)/2)
		for i := range sub {
			if loc[2*i] >= 0 {
				sub[i] = s[loc[2*i]:loc[2*i+1]]
			}
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(repl(sub))
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String()
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
	a.Value = a.Value.Resolve() // a LogValuer's value is checked too
	if sensitiveKeys[strings.ToLower(a.Key)] {
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
