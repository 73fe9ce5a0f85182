package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/zalando/go-keyring"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/fakeclock"
)

func TestJWTClaimsAndSignature(t *testing.T) {
	clock := fakeclock.New(testEpoch.Add(123 * time.Millisecond))
	src, err := NewJWTSource(AICredentials{APIKey: "key-1", APISecret: "secret-1"}, WithJWTClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	s, exp, err := src.JWT()
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		t.Fatalf("%d parts", len(parts))
	}
	var header map[string]any
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	if err := json.Unmarshal(hb, &header); err != nil || header["alg"] != "HS256" || header["typ"] != "JWT" {
		t.Fatalf("header %s %v", hb, err)
	}
	var claims map[string]any
	pb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if err := json.Unmarshal(pb, &claims); err != nil {
		t.Fatal(err)
	}
	if len(claims) != 3 || claims["iss"] != "key-1" || claims["iat"] != float64(testEpoch.Unix()) ||
		claims["exp"] != float64(testEpoch.Add(time.Hour).Unix()) || !exp.Equal(testEpoch.Add(time.Hour)) {
		t.Fatalf("claims %s", pb)
	}
	// Signed with the secret (HMAC SHA-256), verified on the same clock.
	parsed, err := jwt.Parse(s, func(*jwt.Token) (any, error) { return []byte("secret-1"), nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(clock.Now), jwt.WithIssuer("key-1"), jwt.WithIssuedAt())
	if err != nil || !parsed.Valid {
		t.Fatalf("%v", err)
	}
	if _, err := jwt.Parse(s, func(*jwt.Token) (any, error) { return []byte("wrong"), nil }, jwt.WithTimeFunc(clock.Now)); err == nil {
		t.Fatal("verified with the wrong secret")
	}
}

func TestJWTCachedUntilShortlyBeforeExpiry(t *testing.T) {
	clock := fakeclock.New(testEpoch)
	src, _ := NewJWTSource(AICredentials{APIKey: "k", APISecret: "s"}, WithJWTClock(clock.Now))
	first, _, _ := src.JWT()
	clock.Advance(54 * time.Minute)
	if again, _, _ := src.JWT(); again != first {
		t.Fatal("not cached 6 minutes before expiry")
	}
	clock.Advance(time.Minute + time.Second) // inside the last 5 minutes
	next, exp, _ := src.JWT()
	if next == first || !exp.Equal(clock.Now().Truncate(time.Second).Add(time.Hour)) {
		t.Fatal("not renewed near expiry")
	}
	tok, err := src.Token()
	if err != nil || tok.AccessToken != next || tok.TokenType != "Bearer" {
		t.Fatalf("%+v %v", tok, err)
	}
}

func TestJWTLifetimeCappedAtOneHour(t *testing.T) {
	clock := fakeclock.New(testEpoch)
	src, _ := NewJWTSource(AICredentials{APIKey: "k", APISecret: "s"}, WithJWTClock(clock.Now), WithJWTLifetime(3*time.Hour, time.Minute))
	_, exp, _ := src.JWT()
	if exp.Sub(testEpoch) != time.Hour {
		t.Fatalf("lifetime %s", exp.Sub(testEpoch))
	}
	short, _ := NewJWTSource(AICredentials{APIKey: "k", APISecret: "s"}, WithJWTClock(clock.Now), WithJWTLifetime(10*time.Minute, 0))
	if _, exp, _ := short.JWT(); exp.Sub(testEpoch) != 10*time.Minute {
		t.Fatalf("lifetime %s", exp.Sub(testEpoch))
	}
	if _, err := NewJWTSource(AICredentials{APIKey: "k"}); err == nil {
		t.Fatal("no secret accepted")
	}
}

func TestJWTSourceForReadsTheStore(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	st := NewStore(StoreOptions{ConfigDir: dir, StateDir: dir, GOOS: "linux", Getenv: busEnv})
	p := config.Profile{Name: "work"}
	if _, err := JWTSourceFor(context.Background(), p, st); err == nil || !strings.Contains(err.Error(), "evdesk login --ai") {
		t.Fatalf("%v", err)
	}
	p.BaseURL = "https://api.example.com/v2"
	if _, err := st.SaveAICredentials("work", p.BaseURL, AICredentials{APIKey: "k", APISecret: "s"}); err != nil {
		t.Fatal(err)
	}
	src, err := JWTSourceFor(context.Background(), p, st)
	if err != nil {
		t.Fatal(err)
	}
	if s, _, err := src.JWT(); err != nil || s == "" {
		t.Fatal(err)
	}
	// The tokens they sign go only to the API they were stored for.
	other := envProfile("https://other.example/v2", "")
	if _, err := JWTSourceFor(context.Background(), other, st); !errors.Is(err, ErrOtherServer) ||
		!strings.Contains(err.Error(), `the transcription credentials of profile "work" belong to https://api.example.com/v2, but EVDESK_BASE_URL asks for https://other.example/v2`) {
		t.Fatalf("another API: %v", err)
	}
}

func TestJWTSourceForPrefersTheEnvironmentsCredentials(t *testing.T) {
	keyring.MockInit() // an empty keyring: only the profile's credentials can sign
	clock := fakeclock.New(testEpoch)
	p := config.FromEnv(func(k string) (string, bool) {
		v, ok := map[string]string{config.EnvBaseURL: "http://127.0.0.1:9/v2", config.EnvToken: "t",
			config.EnvAIKey: "env-key", config.EnvAISecret: "env-secret"}[k]
		return v, ok
	})
	src, err := JWTSourceFor(context.Background(), p, nil, WithJWTClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := src.JWT()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jwt.Parse(s, func(*jwt.Token) (any, error) { return []byte("env-secret"), nil },
		jwt.WithTimeFunc(clock.Now), jwt.WithIssuer("env-key")); err != nil {
		t.Fatalf("not signed with the environment's credentials: %v", err)
	}
}
