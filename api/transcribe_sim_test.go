package api_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"golang.org/x/oauth2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
)

// newTranscriber points a transcriber at the fixture's simulator.
func newTranscriber(t *testing.T, f *fixture, ts oauth2.TokenSource) *api.Transcriber {
	t.Helper()
	tr, err := api.NewTranscriber(f.srv.URL+"/v2", ts, api.WithRateLimit(0, 0),
		api.WithSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func demoJWT(t *testing.T, f *fixture, opts ...auth.JWTOption) oauth2.TokenSource {
	t.Helper()
	ts, err := auth.NewJWTSource(auth.AICredentials{APIKey: sim.DemoAIKey, APISecret: sim.DemoAISecret},
		append([]auth.JWTOption{auth.WithJWTClock(f.clock.Now)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// signed is a hand-made token, for the cases the JWT source never makes.
func signed(t *testing.T, secret string, claims jwt.MapClaims) oauth2.TokenSource {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: s})
}

func TestTranscribeSample(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	tr := newTranscriber(t, f, demoJWT(t, f))
	got, err := tr.Transcribe(context.Background(), api.TranscribeRequest{File: sim.SamplePanelURL})
	if err != nil {
		t.Fatal(err)
	}
	segs := got.Result.Segments
	if got.RequestID == "" || got.DurationSec <= 0 || len(segs) < 4 || got.Result.TextDisplay == "" {
		t.Fatalf("transcript %+v", got)
	}
	prev := 0.0
	for _, s := range segs {
		if s.Start < prev || s.End <= s.Start || s.Speaker == "" || s.Text == "" || len(s.Words) == 0 {
			t.Fatalf("segment %+v", s)
		}
		prev = s.End
	}
	if prev > got.DurationSec {
		t.Fatalf("ends at %v past the duration %v", prev, got.DurationSec)
	}
	again, err := tr.Transcribe(context.Background(), api.TranscribeRequest{File: sim.SamplePanelURL,
		Config: api.TranscribeConfig{Language: "en-GB"}})
	if err != nil || again.RequestID != got.RequestID || len(again.Result.Segments) != len(segs) {
		t.Fatalf("not deterministic: %v", err)
	}
}

func TestTranscribeAudioErrors(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	tr := newTranscriber(t, f, demoJWT(t, f))
	ctx := context.Background()
	_, err := tr.Transcribe(ctx, api.TranscribeRequest{File: "https://" + sim.SampleHost + "/samples/missing.mp3"})
	wantCode(t, err, http.StatusBadRequest, sim.CodeAudioUnreachable)
	_, err = tr.Transcribe(ctx, api.TranscribeRequest{File: "https://" + sim.SampleHost + "/samples/slides.pdf"})
	wantCode(t, err, http.StatusBadRequest, sim.CodeAudioUnsupported)
	_, err = tr.Transcribe(ctx, api.TranscribeRequest{File: sim.SampleKeynoteURL, Config: api.TranscribeConfig{Language: "de-DE"}})
	wantCode(t, err, http.StatusBadRequest, sim.CodeLanguageUnsupported)

	before := f.posts.Load()
	for _, bad := range []api.TranscribeRequest{{}, {File: "keynote.mp3"}, {File: sim.SampleKeynoteURL,
		Config: api.TranscribeConfig{OutputFormat: "srt"}}, {File: sim.SampleKeynoteURL, Config: api.TranscribeConfig{Language: "English"}}} {
		var ve *api.ValidationError
		if _, err := tr.Transcribe(ctx, bad); !errors.As(err, &ve) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
	if f.posts.Load() != before {
		t.Fatal("an invalid request reached the server")
	}
}

func TestTranscribeRejectsBadJWT(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	now := f.clock.Now()
	claims := func(iss string, iat, exp time.Time) jwt.MapClaims {
		return jwt.MapClaims{"iss": iss, "iat": iat.Unix(), "exp": exp.Unix()}
	}
	cases := []struct {
		name string
		ts   oauth2.TokenSource
		code int
	}{
		{"expired", signed(t, sim.DemoAISecret, claims(sim.DemoAIKey, now.Add(-2*time.Hour), now.Add(-time.Hour))), sim.CodeAITokenExpired},
		{"too long", signed(t, sim.DemoAISecret, claims(sim.DemoAIKey, now, now.Add(2*time.Hour))), sim.CodeAITokenExpired},
		{"forged", signed(t, "not-the-secret", claims(sim.DemoAIKey, now, now.Add(time.Hour))), sim.CodeAITokenInvalid},
		{"wrong issuer", signed(t, sim.DemoAISecret, claims("someone-else", now, now.Add(time.Hour))), sim.CodeAITokenInvalid},
		{"no iat", signed(t, sim.DemoAISecret, jwt.MapClaims{"iss": sim.DemoAIKey, "exp": now.Add(time.Hour).Unix()}), sim.CodeAITokenInvalid},
		{"events token", oauth2.StaticTokenSource(&oauth2.Token{AccessToken: sim.DemoToken}), sim.CodeAITokenInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := newTranscriber(t, f, c.ts).Transcribe(context.Background(), api.TranscribeRequest{File: sim.SampleKeynoteURL})
			wantCode(t, err, http.StatusUnauthorized, c.code)
			if !strings.Contains(err.Error(), "AI") {
				t.Errorf("message does not name the AI credentials: %v", err)
			}
		})
	}
}

func TestTranscribeJWTRenewedAfterExpiry(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	tr := newTranscriber(t, f, demoJWT(t, f, auth.WithJWTLifetime(10*time.Minute, time.Minute)))
	ctx := context.Background()
	if _, err := tr.Transcribe(ctx, api.TranscribeRequest{File: sim.SampleBriefingURL}); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(30 * time.Minute) // the first token is long expired: a new one is minted
	if _, err := tr.Transcribe(ctx, api.TranscribeRequest{File: sim.SampleBriefingURL}); err != nil {
		t.Fatal(err)
	}
	// A fixed token that expired is refused with the expiry code.
	ts := demoJWT(t, f, auth.WithJWTLifetime(10*time.Minute, time.Minute))
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(11 * time.Minute)
	_, err = newTranscriber(t, f, oauth2.StaticTokenSource(tok)).Transcribe(ctx, api.TranscribeRequest{File: sim.SampleBriefingURL})
	wantCode(t, err, http.StatusUnauthorized, sim.CodeAITokenExpired)
}

func TestNewTranscriberNeedsTokenSource(t *testing.T) {
	if _, err := api.NewTranscriber("https://api.example.com/v2", nil); err == nil || !strings.Contains(err.Error(), "login --ai") {
		t.Fatalf("got %v", err)
	}
}
