package auth

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"golang.org/x/oauth2"

	"github.com/evdesk/evdesk/config"
)

// refreshClient is the HTTP client of refresh requests when the caller gave
// none: every phase is bounded by d, redirects are not followed (the
// request carries the client secret and a refresh token), and TLS is the
// profile's (tc: 1.2 or newer, its authorities).
func refreshClient(d time.Duration, tc *tls.Config) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tc
	tr.DialContext = (&net.Dialer{Timeout: d, KeepAlive: 30 * time.Second}).DialContext
	tr.TLSHandshakeTimeout = d
	tr.ResponseHeaderTimeout = d
	return &http.Client{Transport: tr, Timeout: d,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// NoAnswerError is a refresh that got no usable answer from the sign-in
// server: it could not be reached, did not answer in time, dropped the
// connection or failed (5xx, 429). The stored session is kept. When the
// request may have reached the server (MaybeSpent), the refresh token may
// have been rotated without evdesk learning the new one, so the message
// says `evdesk login` may be needed.
type NoAnswerError struct {
	Host       string // of the token endpoint
	Why        string // "did not answer within 15s", "failed (HTTP 502)"...
	MaybeSpent bool
	Login      string // the command to log in again
}

func (e *NoAnswerError) Error() string {
	msg := fmt.Sprintf("the sign-in server at %s %s; your session is kept: try again", e.Host, e.Why)
	if e.MaybeSpent {
		msg += fmt.Sprintf(", or run `%s` if this persists", e.Login)
	}
	return msg
}

// unanswered turns a failed refresh request into a *NoAnswerError when the
// server gave no usable answer; OAuth error answers (invalid_grant...)
// pass through unchanged. ctx is the refresh request's context.
func (ts *TokenSource) unanswered(ctx context.Context, err error) error {
	host := ts.conf.Endpoint.TokenURL
	if u, perr := url.Parse(host); perr == nil {
		host = u.Host
	}
	na := &NoAnswerError{Host: host, MaybeSpent: true, Login: loginCommand(ts.profile.Name)}
	var re *oauth2.RetrieveError
	var op *net.OpError
	var ne net.Error
	switch {
	case errors.As(err, &re):
		code := 0
		if re.Response != nil {
			code = re.Response.StatusCode
		}
		switch {
		case code >= 300 && code < 400:
			return fmt.Errorf("the sign-in server at %s redirected the token request (HTTP %d); evdesk does not send your credentials on: check the profile's %s",
				host, code, config.FieldAuthURL)
		case code == http.StatusTooManyRequests: // refused before any work
			na.Why, na.MaybeSpent = "is refusing requests for now (HTTP 429)", false
		case code >= 500:
			na.Why = fmt.Sprintf("failed (HTTP %d) instead of answering", code)
		default: // an OAuth error answer such as invalid_grant
			return err
		}
	case ts.ctx.Err() != nil: // the caller gave up, not the server
		return err
	case errors.As(err, &op) && op.Op == "dial":
		na.Why, na.MaybeSpent = "could not be reached ("+config.Redact(op.Err.Error())+")", false
		if op.Timeout() {
			na.Why = fmt.Sprintf("could not be reached within %s", ts.o.refreshTimeout)
		}
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		na.Why = fmt.Sprintf("did not answer within %s", ts.o.refreshTimeout)
	case errors.As(err, new(*url.Error)):
		na.Why = "did not answer (the connection ended before a reply)"
	default: // a cut or garbled body: the refresh may have been applied
		na.Why = "gave no usable answer (" + config.Redact(err.Error()) + ")"
	}
	return na
}

// loginCommand is the command that logs in to profile again.
func loginCommand(profile string) string {
	if profile != config.DefaultProfileName {
		return "evdesk login --profile " + profile
	}
	return "evdesk login"
}
