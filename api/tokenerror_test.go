package api

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// failingTokens is a token source that always fails and counts its calls.
type failingTokens struct {
	calls atomic.Int32
	err   error
}

func (f *failingTokens) Token() (*oauth2.Token, error) {
	f.calls.Add(1)
	return nil, f.err
}

func TestATokenSourceFailureIsNotRetried(t *testing.T) {
	srv, requests := scripted(t, nil, nil)
	cause := errors.New("the sign-in server did not answer")
	for name, call := range map[string]func(*Client) error{
		"GET":  func(c *Client) error { _, err := c.Events.Get(context.Background(), "abc"); return err },
		"POST": func(c *Client) error { _, err := c.Events.Publish(context.Background(), "abcdef"); return err },
	} {
		t.Run(name, func(t *testing.T) {
			tokens := &failingTokens{err: cause}
			var waits []time.Duration
			c, err := New(WithBaseURL(srv.URL+"/v2"), WithTokenSource(tokens), WithRateLimit(0, 0),
				WithSleep(func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }))
			if err != nil {
				t.Fatal(err)
			}
			err = call(c)
			var te *TokenError
			if !errors.As(err, &te) || !errors.Is(err, cause) {
				t.Fatalf("want a *TokenError wrapping the cause, got %v", err)
			}
			if errors.Is(err, ErrOutcomeUnknown) {
				t.Errorf("nothing was sent, yet the outcome is called unknown: %v", err)
			}
			if n := tokens.calls.Load(); n != 1 || len(waits) != 0 {
				t.Errorf("token source called %d times with waits %v, want once and no wait", n, waits)
			}
			if n := requests.Load(); n != 0 {
				t.Errorf("%d requests reached the server without a token", n)
			}
		})
	}
}
