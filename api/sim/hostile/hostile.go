// Package hostile wraps the simulator as a server that attacks its client:
// it injects escape sequences, C1 and bidi controls and line breaks into
// every string it answers, pages for ever, answers endless bodies, redirects
// to another origin, loses the token endpoint's answer, asks absurd waits or
// never answers. The hostile-server tests drive the real evdesk binary
// against it and prove that the terminal, the process and the login
// survive.
package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Payload is appended to every string the server answers: it would set the
// clipboard (OSC 52) and the window title (OSC 0), print a hyperlink (OSC 8)
// and a colour (SGR), act on C1 controls, reverse the text that follows
// (bidi override) and break the line.
const Payload = "\x1b]52;c;SEFDS0VEX0NMSVBCT0FSRA==\x07\x1b]0;PWNED\x07" +
	"\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\\x1b[38;2;1;2;3mRED\x1b[0m" +
	"\u0085\u009b1m\u202eRTL\u2066\nNEXT"

// Sequences are the parts of Payload a terminal would act on, as they would
// reach it if they passed whole. (Their text may still show, escaped or
// after a removed introducer: that is harmless.)
var Sequences = []string{"\x1b]52;", "\x1b]0;PWNED", "\x1b]8;;https://evil.example", "\x1b[38;2;1;2;3m",
	"\u0085", "\u009b", "\u202e", "\u2066"}

// Options choose the attacks; the zero value passes everything through.
type Options struct {
	// Inject appends Payload to every string of every JSON answer, but for
	// identifiers and page tokens (the client must be able to call back)
	// and structured values, date-times and lists of numbers (which would
	// only fail the decoding).
	Inject bool
	// EndlessPages makes every listing answer a fresh next_page_token, with
	// the first page's items again and again.
	EndlessPages bool
	// FreshPages makes every listing endless with new items on every page:
	// a fresh next_page_token, no total_records, and the first page's
	// items again under new identifiers (ids and emails), each name padded
	// with Pad bytes.
	FreshPages bool
	Pad        int
	// HugeBody answers every API GET with an endless 200 body.
	HugeBody bool
	// RedirectTo answers every API call with a redirect to the same path
	// under this base (scheme://host:port).
	RedirectTo string
	// LoseTokenAnswer lets the token endpoint rotate the refresh token, then
	// drops the connection before the answer.
	LoseTokenAnswer bool
	// BadWeeklyDays answers every recurrence's weekly_days in a shape no
	// client can read (words, with an escape sequence).
	BadWeeklyDays bool
	// BadTokens lets the token endpoint answer, then appends an escape
	// sequence and a line break to the access and refresh tokens.
	BadTokens bool
	// RetryAfter answers every API call 429 with this Retry-After header.
	RetryAfter string
	// Stall accepts every API call and never answers (until the client
	// goes away).
	Stall bool
	// Hold keeps every check-in (PATCH) waiting until the channel closes,
	// then answers it as the simulator does: a test does something (fills
	// the disk) while a request is under way.
	Hold <-chan struct{}
}

// Server is the hostile wrapper around a handler, with counters the tests
// read.
type Server struct {
	next http.Handler
	opts atomic.Pointer[Options]

	requests     atomic.Int64 // API requests received
	tokenCalls   atomic.Int64 // token endpoint requests
	bodyBytes    atomic.Int64 // bytes of endless bodies written
	pageSeq      atomic.Int64
	mu           sync.Mutex
	authSeenOnto []string // Authorization headers seen by Recorder
}

// Wrap builds the hostile server around next (the simulator).
func Wrap(next http.Handler, o Options) *Server {
	s := &Server{next: next}
	s.Set(o)
	return s
}

// Set changes the attacks from the next request on (a test logs in through
// a friendly server, then turns hostile).
func (s *Server) Set(o Options) { s.opts.Store(&o) }

// Requests counts the API requests received.
func (s *Server) Requests() int64 { return s.requests.Load() }

// TokenCalls counts the token endpoint's requests.
func (s *Server) TokenCalls() int64 { return s.tokenCalls.Load() }

// BodyBytes counts the bytes of endless bodies the client made the server
// write before it stopped reading.
func (s *Server) BodyBytes() int64 { return s.bodyBytes.Load() }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	o := *s.opts.Load()
	if r.URL.Path == "/oauth/token" {
		s.tokenCalls.Add(1)
		if o.LoseTokenAnswer {
			s.loseAnswer(w, r)
			return
		}
		if o.BadTokens {
			s.badTokens(w, r)
			return
		}
		s.next.ServeHTTP(w, r)
		return
	}
	if !strings.HasPrefix(r.URL.Path, "/v2/") {
		s.next.ServeHTTP(w, r)
		return
	}
	s.requests.Add(1)
	if o.Hold != nil && r.Method == http.MethodPatch {
		select {
		case <-o.Hold:
		case <-r.Context().Done():
			return
		}
	}
	switch {
	case o.Stall:
		<-r.Context().Done()
		return
	case o.RetryAfter != "":
		w.Header().Set("Retry-After", o.RetryAfter)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"code":429,"message":"too many requests"}`))
		return
	case o.RedirectTo != "":
		target := strings.TrimRight(o.RedirectTo, "/") + r.URL.RequestURI()
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
		return
	case o.HugeBody && r.Method == http.MethodGet:
		s.endlessBody(w)
		return
	}
	if o.EndlessPages || o.FreshPages {
		// Our own tokens mean nothing to the simulator: serve the first page.
		q := r.URL.Query()
		if strings.HasPrefix(q.Get("next_page_token"), "hostile-") {
			q.Del("next_page_token")
			r.URL.RawQuery = q.Encode()
		}
	}
	if !o.Inject && !o.EndlessPages && !o.FreshPages && !o.BadWeeklyDays {
		s.next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	s.next.ServeHTTP(rec, r)
	body := rec.Body.Bytes()
	if strings.Contains(rec.Header().Get("Content-Type"), "json") {
		body = s.rewrite(body, o)
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	_, _ = w.Write(body)
}

// rewrite applies the injection and the endless page token to a JSON body.
func (s *Server) rewrite(body []byte, o Options) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return body
	}
	if obj, ok := v.(map[string]any); ok && (o.EndlessPages || o.FreshPages) {
		if _, paged := obj["next_page_token"]; paged || obj["total_records"] != nil {
			seq := s.pageSeq.Add(1)
			obj["next_page_token"] = fmt.Sprintf("hostile-%d", seq)
			if o.FreshPages {
				delete(obj, "total_records")
				renew(obj, seq, strings.Repeat("x", o.Pad))
			}
		}
	}
	if o.Inject {
		v = inject(v, "")
	}
	if o.BadWeeklyDays {
		spoilWeeklyDays(v)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

// inject appends Payload to every string value but identifiers and tokens.
func inject(v any, key string) any {
	switch t := v.(type) {
	case string:
		if keepsClean(key) || isStructured(t) {
			return t
		}
		return t + Payload
	case map[string]any:
		for k, e := range t {
			t[k] = inject(e, k)
		}
	case []any:
		for i, e := range t {
			t[i] = inject(e, key)
		}
	}
	return v
}

// renew gives the items of a listing page new identities (ids and emails
// made unique to the page) and pads their names.
func renew(page map[string]any, seq int64, pad string) {
	for _, v := range page {
		items, ok := v.([]any)
		if !ok {
			continue
		}
		for _, it := range items {
			obj, ok := it.(map[string]any)
			if !ok {
				continue
			}
			for k, f := range obj {
				str, ok := f.(string)
				switch {
				case !ok:
				case k == "email":
					local, domain, _ := strings.Cut(str, "@")
					obj[k] = fmt.Sprintf("%s+h%d@%s", local, seq, domain)
				case k == "id" || strings.HasSuffix(k, "_id"):
					obj[k] = fmt.Sprintf("%s-h%d", str, seq)
				case k == "name" || k == "first_name":
					obj[k] = str + pad
				}
			}
		}
	}
}

// spoilWeeklyDays gives every recurrence a weekly_days no client can read.
func spoilWeeklyDays(v any) {
	switch t := v.(type) {
	case map[string]any:
		if r, ok := t["recurrence"].(map[string]any); ok {
			r["weekly_days"] = "every other Tuesday\x1b]0;PWNED\x07"
		}
		for _, e := range t {
			spoilWeeklyDays(e)
		}
	case []any:
		for _, e := range t {
			spoilWeeklyDays(e)
		}
	}
}

// keepsClean names the fields the client sends back: ids and tokens.
func keepsClean(key string) bool {
	return key == "id" || strings.HasSuffix(key, "_id") || strings.HasSuffix(key, "_ids") ||
		strings.Contains(key, "token")
}

// isStructured reports a date-time or a list of numbers ("1,4").
func isStructured(s string) bool {
	if _, err := time.Parse(time.RFC3339, s); err == nil {
		return true
	}
	return s != "" && strings.Trim(s, "0123456789,") == ""
}

// endlessBody writes a 200 answer that never ends, until the client stops
// reading.
func (s *Server) endlessBody(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	chunk := bytes.Repeat([]byte(`{"event_id":"x","name":"padding padding padding"},`), 1300)
	if n, err := w.Write([]byte(`{"total_records":1,"events":[`)); err == nil {
		s.bodyBytes.Add(int64(n))
	}
	for {
		n, err := w.Write(chunk)
		s.bodyBytes.Add(int64(n))
		if err != nil {
			return
		}
	}
}

// loseAnswer lets the simulator answer the token request (rotating the
// refresh token), then closes the connection without sending the answer.
func (s *Server) loseAnswer(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	s.next.ServeHTTP(rec, r)
	hj, ok := w.(http.Hijacker)
	if !ok {
		return
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

// badTokens answers the token request as the simulator does, with tokens
// that hold an escape sequence and a line break.
func (s *Server) badTokens(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	s.next.ServeHTTP(rec, r)
	var answer map[string]any
	if json.Unmarshal(rec.Body.Bytes(), &answer) == nil {
		for _, k := range []string{"access_token", "refresh_token"} {
			if tok, ok := answer[k].(string); ok {
				answer[k] = tok + "\x1b]0;PWNED\x07\nX-Injected: 1"
			}
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rec.Code)
	_ = json.NewEncoder(w).Encode(answer)
}

// Recorder is a second origin for redirect tests: it answers 200 {} and
// keeps the Authorization header of every request.
func (s *Server) Recorder() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.authSeenOnto = append(s.authSeenOnto, r.Header.Get("Authorization"))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	})
}

// AuthSeenByRecorder lists the Authorization headers the Recorder saw
// (empty strings for requests without one).
func (s *Server) AuthSeenByRecorder() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.authSeenOnto...)
}
