package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/evdesk/evdesk/api"
)

func aiToken(t *testing.T, now time.Time, life time.Duration) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{
		"iss": DemoAIKey, "iat": now.Unix(), "exp": now.Add(life).Unix()}).SignedString([]byte(DemoAISecret))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (e *env) post(t *testing.T, path, bearer string, body any) (int, apiError) {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", e.srv.URL+path, bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer "+bearer)
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out apiError
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func TestTranscribeAuthIsJWTOnly(t *testing.T) {
	e := newEnv(t, Options{})
	body := api.TranscribeRequest{File: SampleKeynoteURL}
	path := "/v2" + api.TranscribePath
	if st, _ := e.post(t, path, aiToken(t, e.clock.Now(), time.Hour), body); st != 200 {
		t.Fatalf("valid JWT: %d", st)
	}
	if st, er := e.post(t, path, DemoToken, body); st != 401 || er.Code != CodeAITokenInvalid {
		t.Fatalf("OAuth token on the AI path: %d %+v", st, er)
	}
	tok := aiToken(t, e.clock.Now(), 30*time.Minute)
	e.clock.Advance(31 * time.Minute)
	if st, er := e.post(t, path, tok, body); st != 401 || er.Code != CodeAITokenExpired || !strings.Contains(er.Message, "expired") {
		t.Fatalf("expired: %d %+v", st, er)
	}
	// The JWT opens nothing else.
	if st, _ := e.post(t, "/v2/vendor_events/events", aiToken(t, e.clock.Now(), time.Hour), map[string]any{}); st != 401 {
		t.Fatalf("JWT on the events API: %d", st)
	}
}

func TestTranscribeNeedsTypJWT(t *testing.T) {
	e := newEnv(t, Options{})
	now := e.clock.Now()
	claims := jwt.MapClaims{"iss": DemoAIKey, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}
	for name, typ := range map[string]any{"no typ": nil, "other typ": "JWS"} {
		tok := jwt.NewWithClaims(jwt.SigningMethodHS256, claims)
		if typ == nil {
			delete(tok.Header, "typ")
		} else {
			tok.Header["typ"] = typ
		}
		raw, err := tok.SignedString([]byte(DemoAISecret))
		if err != nil {
			t.Fatal(err)
		}
		if st, er := e.post(t, "/v2"+api.TranscribePath, raw, api.TranscribeRequest{File: SampleKeynoteURL}); st != 401 ||
			er.Code != CodeAITokenInvalid || !strings.Contains(er.Message, "typ") {
			t.Errorf("%s: %d %+v", name, st, er)
		}
	}
}

// TestTranscribeGoesThroughTheRateLimit: the AI path has the LIGHT limit
// too (per API key); the frozen test clock never refills the bucket.
func TestTranscribeGoesThroughTheRateLimit(t *testing.T) {
	e := newEnv(t, Options{RPS: 2})
	tok := aiToken(t, e.clock.Now(), time.Hour)
	body := api.TranscribeRequest{File: SampleKeynoteURL}
	for i := range 2 {
		if st, er := e.post(t, "/v2"+api.TranscribePath, tok, body); st != 200 {
			t.Fatalf("request %d: %d %+v", i, st, er)
		}
	}
	if st, _ := e.post(t, "/v2"+api.TranscribePath, tok, body); st != http.StatusTooManyRequests {
		t.Fatalf("third request: %d", st)
	}
	e.clock.Advance(time.Second)
	if st, _ := e.post(t, "/v2"+api.TranscribePath, tok, body); st != 200 {
		t.Fatalf("after a second: %d", st)
	}
}
