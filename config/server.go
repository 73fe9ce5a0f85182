package config

import (
	"net/url"
	"strings"
)

// ServerKey names the server a URL points at, the same however the URL is
// spelt: scheme and host in lower case, the scheme's default port spelt
// out, the path without a trailing slash. A session, the check-in files and
// a venue belong to the server their URL's key names; two URLs with one key
// are one server. A string that is not an absolute URL is kept trimmed.
func ServerKey(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" {
		return strings.TrimRight(strings.TrimSpace(s), "/")
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port + strings.TrimRight(u.EscapedPath(), "/")
}

// SameServer reports whether two URLs name one server (ServerKey).
func SameServer(a, b string) bool { return ServerKey(a) == ServerKey(b) }
