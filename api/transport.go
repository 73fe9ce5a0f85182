package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// call describes one API request.
type call struct {
	op     string // what the caller is doing, for error messages
	method string
	path   string
	query  url.Values
	body   any
	// repeatable marks a request that is safe to send again after a failure
	// whose outcome is unknown (5xx, dropped connection). GET and DELETE are;
	// attendee-action PATCH is too, since a repeated check-in is no-op.
	repeatable bool
	// meanings says what an HTTP status means at this endpoint when the
	// answer carries no documented code (the spec's per-endpoint statuses).
	meanings map[int]string
}

const maxErrorBody = 64 << 10

// ErrOutcomeUnknown wraps failures of a non-repeatable request whose fate on
// the server is unknown, so callers can tell the user to check first.
var ErrOutcomeUnknown = errors.New("the request may or may not have reached the server; check before trying again")

// do sends the call, retrying where safe, and decodes a JSON answer into out.
func (c *Client) do(ctx context.Context, cl call, out any) error {
	if err := c.refuseWrite(cl); err != nil {
		return err
	}
	var payload []byte
	if cl.body != nil {
		var err error
		if payload, err = json.Marshal(cl.body); err != nil {
			return fmt.Errorf("%s: encode request: %w", cl.op, err)
		}
	}
	attempts := max(c.retry.MaxAttempts, 1)
	start := time.Now()
	retried := false
	wait := func(attempt, of int, d time.Duration, why error) error {
		retried = true
		if c.notice != nil {
			c.notice(RetryNotice{Op: cl.op, Attempt: attempt + 2, Of: of, Wait: d, Err: why})
		}
		return c.sleep(ctx, d)
	}
	defer func() {
		if retried && c.notice != nil {
			c.notice(RetryNotice{Op: cl.op, Done: true})
		}
	}()
	for attempt := 0; ; attempt++ {
		resp, err := c.send(ctx, cl, payload)
		last := attempt+1 >= attempts
		if err != nil {
			var te *TokenError
			if errors.As(err, &te) { // nothing was sent; a refresh is never repeated
				return fmt.Errorf("%s: %w", cl.op, err)
			}
			// A full timeout is not waited again: eight of them would hold
			// one call for eight minutes. A refused redirect would recur.
			if ctx.Err() != nil || isTimeout(err) || errors.Is(err, errRedirectRefused) || errors.Is(err, ErrOldTLS) ||
				errors.Is(err, ErrUntrustedCertificate) {
				return fmt.Errorf("%s: %w", cl.op, c.noAnswer(ctx, err, start, awaitingAnswer))
			}
			// A server nobody answers for (refused, unknown host) is said
			// within seconds: a few quick tries, and nothing was sent, so
			// even a POST may try again.
			if cause, ok := unreachable(err); ok {
				if attempt+1 >= min(attempts, UnreachableAttempts) {
					return fmt.Errorf("%s: %w", cl.op, &UnreachableError{Host: c.base.Host, Cause: cause,
						Attempts: attempt + 1, Err: err})
				}
				if serr := wait(attempt, min(attempts, UnreachableAttempts), c.backoff(attempt), &UnreachableError{Host: c.base.Host, Cause: cause}); serr != nil {
					return fmt.Errorf("%s: %w; %w", cl.op, err, c.noAnswer(ctx, serr, start, awaitingRetry))
				}
				continue
			}
			if !cl.repeatable {
				return fmt.Errorf("%s: %w: %w", cl.op, ErrOutcomeUnknown, err)
			}
			if last {
				return fmt.Errorf("%s: gave up after %d attempts: %w", cl.op, attempts, err)
			}
			if serr := wait(attempt, attempts, c.backoff(attempt), err); serr != nil {
				return fmt.Errorf("%s: %w; %w", cl.op, err, c.noAnswer(ctx, serr, start, awaitingRetry))
			}
			continue
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			c.pacer.throttled()
		} else {
			c.pacer.answered()
		}
		if resp.StatusCode < 300 {
			if err := c.decodeBody(ctx, resp, out, cl, start); err != nil {
				return err
			}
			filterStrings(out, c.filter)
			return nil
		}
		apiErr := readError(resp, cl.op)
		apiErr.endpoint = cl.meanings[apiErr.Status]
		if apiErr.Status == http.StatusForbidden {
			if ep, ok := c.endpointFor(cl.method, cl.path); ok {
				apiErr.needs = ep.Needs(c.word)
			}
		}
		filterStrings(apiErr, c.filter)
		// A 429 was refused before any work, so even a POST may be repeated.
		retryable := apiErr.Status == http.StatusTooManyRequests || (apiErr.Status >= 500 && cl.repeatable)
		if !retryable || last {
			if apiErr.Status >= 500 && !cl.repeatable {
				return fmt.Errorf("%w (%w)", apiErr, ErrOutcomeUnknown)
			}
			return apiErr
		}
		delay := c.backoff(attempt)
		if apiErr.RetryAfter > 0 {
			if apiErr.RetryAfter > c.retry.MaxRetryAfter {
				return c.refuseWait(apiErr)
			}
			delay = apiErr.RetryAfter
		}
		if err := wait(attempt, attempts, delay, apiErr); err != nil {
			return fmt.Errorf("%w; %w", apiErr, c.noAnswer(ctx, err, start, awaitingRetry))
		}
	}
}

// waitStage is what a call was waiting for when its time ran out.
type waitStage int

const (
	awaitingAnswer waitStage = iota // the request was sent; no answer yet
	readingAnswer                   // the answer began but did not finish
	awaitingRetry                   // the server failed and the next try was due
)

// noAnswerError is a call that ran out of time: the request's own timeout
// or the caller's deadline. It names the host and the wait.
type noAnswerError struct {
	host     string
	stage    waitStage
	wait     time.Duration
	deadline bool // the caller's context expired, not the request's timeout
	err      error
}

func (e *noAnswerError) Error() string {
	what := "no answer from " + e.host
	switch e.stage {
	case readingAnswer:
		what = "the answer from " + e.host + " did not arrive in full"
	case awaitingRetry:
		what = "no usable answer from " + e.host
	}
	if e.deadline {
		return fmt.Sprintf("%s before the deadline (waited %s)", what, durationWords(e.wait))
	}
	return fmt.Sprintf("%s within %s", what, durationWords(e.wait))
}

func (e *noAnswerError) Unwrap() error { return e.err }

// noAnswer says what a call was waiting for when time ran out; other errors
// (a cancelled context, a refused redirect) pass unchanged.
func (c *Client) noAnswer(ctx context.Context, err error, start time.Time, stage waitStage) error {
	e := &noAnswerError{host: c.base.Host, stage: stage, err: err}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		e.deadline, e.wait, e.err = true, time.Since(start), ctx.Err()
	case ctx.Err() != nil:
		return ctx.Err()
	case isTimeout(err):
		e.wait = c.timeout
		if stage == readingAnswer {
			e.wait = c.hc.Timeout // the whole exchange's limit
		}
		if e.wait <= 0 {
			e.wait = time.Since(start)
		}
	default:
		return err
	}
	return e
}

// UnreachableAttempts is how many times a call tries a server that
// refuses connections or whose name does not resolve, before it says so.
const UnreachableAttempts = 3

// UnreachableError is a server that could not be reached at all: the
// connection was refused, or its name is unknown. Nothing was sent.
type UnreachableError struct {
	Host     string // host:port of the base URL
	Cause    string // "connection refused", "unknown host", ...
	Attempts int
	Err      error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("cannot reach %s: %s (%s); check the base URL (EVDESK_BASE_URL or the profile's base_url) and that the server is running",
		e.Host, e.Cause, attemptsWords(e.Attempts))
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Details lists what is known of the failure, for the console's recent
// errors.
func (e *UnreachableError) Details() [][2]string {
	return [][2]string{{"Server", e.Host}, {"Cause", e.Cause}, {"Attempts", fmt.Sprint(e.Attempts)}, {"Error", e.Err.Error()}}
}

func attemptsWords(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

// unreachable names why a connection could not even be made (refused,
// unknown host, no route), or reports false for other failures.
func unreachable(err error) (string, bool) {
	var dns *net.DNSError
	if errors.As(err, &dns) && dns.IsNotFound {
		return "unknown host", true
	}
	var op *net.OpError
	if !errors.As(err, &op) || op.Op != "dial" {
		return "", false
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", true
	case errors.Is(err, syscall.EHOSTUNREACH):
		return "no route to host", true
	case errors.Is(err, syscall.ENETUNREACH):
		return "network unreachable", true
	}
	return "", false
}

// isTimeout reports a request that timed out (dial, answer headers, or the
// whole exchange).
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// send makes one attempt, after the client-side rate limit admits it.
func (c *Client) send(ctx context.Context, cl call, payload []byte) (*http.Response, error) {
	if err := c.pacer.Wait(ctx); err != nil {
		return nil, err
	}
	u := *c.base
	u.Path = strings.TrimRight(u.Path, "/") + cl.path
	if len(cl.query) > 0 {
		u.RawQuery = cl.query.Encode()
	}
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, u.String(), body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.tokens != nil {
		tok, err := c.tokens.Token()
		if err != nil {
			return nil, &TokenError{Err: err}
		}
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	}
	start := time.Now()
	resp, err := c.hc.Do(req)
	if err != nil {
		c.log.Debug("api call failed", "method", cl.method, "path", cl.path, "err", redactURLError(err))
		return nil, explainTLS(redactURLError(err), req)
	}
	attrs := []any{"method", cl.method, "path", cl.path, "status", resp.StatusCode, "ms", time.Since(start).Milliseconds()}
	if c.debugBody > 0 {
		if payload != nil {
			attrs = append(attrs, "request", clipBody(payload, c.debugBody))
		}
		attrs = append(attrs, "answer", peekBody(resp, c.debugBody))
	}
	c.log.Debug("api call", attrs...)
	return resp, nil
}

// backoff is capped exponential backoff with jitter in [d/2, d].
func (c *Client) backoff(attempt int) time.Duration {
	d := float64(c.retry.BaseDelay) * math.Pow(2, float64(attempt))
	d = math.Min(d, float64(c.retry.MaxDelay))
	return time.Duration(d/2 + c.jitter()*d/2)
}

// decodeBody decodes a successful answer, reading at most c.maxBody bytes
// (see readBody): closing the body early drops the connection, so a huge or
// endless answer costs neither memory nor time.
func (c *Client) decodeBody(ctx context.Context, resp *http.Response, out any, cl call, start time.Time) error {
	defer resp.Body.Close()
	if out == nil || resp.StatusCode == http.StatusNoContent {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		return nil
	}
	body, err := readBody(ctx, resp.Body, resp.ContentLength, c.maxBody)
	switch {
	case errors.Is(err, ErrResponseTooLarge):
		return &tooLargeError{op: cl.op, path: cl.path, limit: c.maxBody}
	case err != nil && (ctx.Err() != nil || isTimeout(err)):
		return fmt.Errorf("%s: %w", cl.op, c.noAnswer(ctx, err, start, readingAnswer))
	case err != nil:
		return fmt.Errorf("%s: read response: %w", cl.op, err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%s: decode response: %w", cl.op, err)
	}
	return nil
}

// ErrResponseTooLarge is behind every error for an answer longer than the
// client's cap (WithMaxBodyBytes).
var ErrResponseTooLarge = errors.New("the answer is larger than the client accepts")

// tooLargeError names the endpoint (path without the query) and the cap.
type tooLargeError struct {
	op, path string
	limit    int64
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s: the answer from %s is larger than %s; refusing to read more (raise max_response_mb in the profile if this is expected)",
		e.op, e.path, sizeWords(e.limit))
}

func (e *tooLargeError) Unwrap() error { return ErrResponseTooLarge }

// sizeWords writes a byte count in the largest binary unit that divides it.
func sizeWords(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func readError(resp *http.Response, op string) *Error {
	defer resp.Body.Close()
	e := &Error{Status: resp.StatusCode, Op: op}
	if resp.Request != nil && resp.Request.URL != nil {
		e.Method, e.Path = resp.Request.Method, resp.Request.URL.Path
	}
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	if len(bytes.TrimSpace(raw)) > 0 && json.Unmarshal(raw, e) != nil {
		e.Message = strings.TrimSpace(string(raw))
		if len(e.Message) > 200 {
			e.Message = e.Message[:200] + "..."
		}
	}
	e.Status = resp.StatusCode
	e.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	return e
}

// parseRetryAfter reads Retry-After as seconds, an HTTP date or an ISO date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		// Clamped: a float beyond int64 converts to garbage, often negative.
		if ns := secs * float64(time.Second); ns < float64(math.MaxInt64) {
			return time.Duration(ns)
		}
		return time.Duration(math.MaxInt64)
	}
	for _, parse := range []func(string) (time.Time, error){
		http.ParseTime,
		func(s string) (time.Time, error) { return time.Parse(time.RFC3339, s) },
	} {
		if t, err := parse(v); err == nil {
			return max(t.Sub(now), 0)
		}
	}
	return 0
}

// refuseWait explains a Retry-After longer than the policy allows: how long
// the server asked, until when (with the date when that is another day), and
// the longest wait the client accepts.
func (c *Client) refuseWait(e *Error) error {
	if e.RetryAfter == math.MaxInt64 { // clamped: the true wait is longer still
		return fmt.Errorf("%w; the server asked to wait more than %s; not waiting longer than %s",
			e, durationWords(e.RetryAfter), durationWords(c.retry.MaxRetryAfter))
	}
	now := c.now()
	until := now.Add(e.RetryAfter)
	when := until.Format("15:04")
	if y, m, d := now.Date(); until.Year() != y || until.Month() != m || until.Day() != d {
		when = until.Format("2006-01-02 15:04")
	}
	return fmt.Errorf("%w; the server asked to wait %s (until %s); not waiting longer than %s",
		e, durationWords(e.RetryAfter), when, durationWords(c.retry.MaxRetryAfter))
}

// durationWords writes a duration for a person: "285 years", "3 days",
// "1h30m", "2m", "45s".
func durationWords(d time.Duration) string {
	const day = 24 * time.Hour
	const year = 365 * day
	switch {
	case d >= 2*year:
		return fmt.Sprintf("%d years", d/year)
	case d >= 2*day:
		return fmt.Sprintf("%d days", d/day)
	case d >= time.Second:
		d = d.Round(time.Second)
	case d >= time.Millisecond:
		d = d.Round(time.Millisecond)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// redactURLError drops the query string from URL errors: page tokens and
// other parameters do not belong in logs or on screen.
func redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			u.RawQuery = ""
			return &url.Error{Op: ue.Op, URL: u.String(), Err: ue.Err}
		}
	}
	return err
}
