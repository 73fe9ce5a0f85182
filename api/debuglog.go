package api

import (
	"bytes"
	"io"
	"net/http"
	"unicode/utf8"
)

// WithDebugBodies makes the client log, at debug level, the first n bytes
// of each request's body and of each answer's (`--debug`,
// EVDESK_DEBUG=api), beside the method, path, status and time it logs
// already. The logger given by WithLogger redacts secrets; headers, where
// the token travels, are never logged.
func WithDebugBodies(n int) Option { return func(c *Client) { c.debugBody = n } }

// DebugBodyBytes is how much of a body `--debug` shows.
const DebugBodyBytes = 1024

// peekBody reads up to n bytes of resp's body for the log and puts them
// back, so the caller reads the whole answer as sent.
func peekBody(resp *http.Response, n int) string {
	if resp.Body == nil || n <= 0 {
		return ""
	}
	head := make([]byte, n)
	k, _ := io.ReadFull(resp.Body, head)
	head = head[:k]
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	return clipBody(head, n)
}

// clipBody is b as text, at most n bytes, never cutting a character.
func clipBody(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	b = b[:n]
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return string(b) + "…"
}
