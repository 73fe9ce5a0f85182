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
