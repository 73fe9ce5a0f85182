package sim

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// oauthClient talks to the OAuth endpoints without following redirects.
type oauthClient struct {
	t  *testing.T
	e  *env
	hc *http.Client
}

func newOAuthEnv(t *testing.T) *oauthClient {
	e := newEnv(t, Options{})
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &oauthClient{t: t, e: e, hc: hc}
}

func (c *oauthClient) get(path string, q url.Values, hdr map[string]string) *http.Response {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, c.e.srv.URL+path+"?"+q.Encode(), nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// postForm posts form to path with HTTP Basic auth (none when id is empty).
func (c *oauthClient) postForm(path, id, secret string, form url.Values) (*http.Response, map[string]any) {
	c.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.e.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if id != "" {
		req.SetBasicAuth(id, secret)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return resp, m
}

const testVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-verifier-long-enough"

func s256(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func authorizeQuery() url.Values {
	return url.Values{"response_type": {"code"}, "client_id": {DemoClientID}, "redirect_uri": {DemoRedirectURI},
		"state": {"st-123"}, "code_challenge": {s256(testVerifier)}, "code_challenge_method": {"S256"}}
}

// code runs an auto-approved authorization and returns the code.
func (c *oauthClient) code(q url.Values) string {
	c.t.Helper()
	resp := c.get("/oauth/authorize", q, map[string]string{AutoApproveHeader: "1"})
	if resp.StatusCode != http.StatusFound {
		c.t.Fatalf("status %d", resp.StatusCode)
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if !strings.HasPrefix(loc.String(), DemoRedirectURI+"?") || loc.Query().Get("state") != q.Get("state") {
		c.t.Fatalf("location %s", loc)
	}
	return loc.Query().Get("code")
}

func (c *oauthClient) exchange(code, verifier string) (*http.Response, map[string]any) {
	return c.postForm("/oauth/token", DemoClientID, DemoClientSecret, url.Values{"grant_type": {"authorization_code"},
		"code": {code}, "redirect_uri": {DemoRedirectURI}, "code_verifier": {verifier}})
}

func (c *oauthClient) refresh(rt string) (*http.Response, map[string]any) {
	return c.postForm("/oauth/token", DemoClientID, DemoClientSecret, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}})
}

func wantOAuthError(t *testing.T, resp *http.Response, body map[string]any, status int, code string) {
	t.Helper()
	if resp.StatusCode != status || body["error"] != code {
		t.Fatalf("got %d %v, want %d %s", resp.StatusCode, body, status, code)
	}
}

func TestOAuthAuthorizeChecksClientAndRedirect(t *testing.T) {
	c := newOAuthEnv(t)
	auto := map[string]string{AutoApproveHeader: "1"}
	for name, mut := range map[string]func(url.Values){
		"unknown client":     func(q url.Values) { q.Set("client_id", "nope") },
		"redirect differs":   func(q url.Values) { q.Set("redirect_uri", DemoRedirectURI+"/x") },
		"redirect port":      func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:8977/callback") },
		"redirect not given": func(q url.Values) { q.Del("redirect_uri") },
	} {
		q := authorizeQuery()
		mut(q)
		if resp := c.get("/oauth/authorize", q, auto); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", name, resp.StatusCode)
		}
	}
	q := authorizeQuery()
	q.Set("response_type", "token")
	resp := c.get("/oauth/authorize", q, auto)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Query().Get("error") != "unsupported_response_type" || loc.Query().Get("state") != "st-123" {
		t.Fatalf("%d %s", resp.StatusCode, loc)
	}
	// The query parameter auto-approves too.
	q = authorizeQuery()
	q.Set(AutoApproveParam, "1")
	if resp := c.get("/oauth/authorize", q, nil); resp.StatusCode != http.StatusFound {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

func TestOAuthConsentPage(t *testing.T) {
	c := newOAuthEnv(t)
	resp := c.get("/oauth/authorize", authorizeQuery(), nil)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `value="approve"`) ||
		!strings.Contains(string(body), `method="post"`) || !strings.Contains(string(body), "st-123") {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	form := authorizeQuery()
	form.Set("decision", "approve")
	r, _ := c.postForm("/oauth/authorize", "", "", form)
	loc, _ := url.Parse(r.Header.Get("Location"))
	if r.StatusCode != http.StatusSeeOther || loc.Query().Get("code") == "" || loc.Query().Get("state") != "st-123" {
		t.Fatalf("%d %s", r.StatusCode, loc)
	}
	form.Set("decision", "deny")
	r, _ = c.postForm("/oauth/authorize", "", "", form)
	loc, _ = url.Parse(r.Header.Get("Location"))
	if loc.Query().Get("error") != "access_denied" || loc.Query().Get("code") != "" {
		t.Fatalf("%s", loc)
	}
}

func TestOAuthTokenNeedsHTTPBasic(t *testing.T) {
	c := newOAuthEnv(t)
	code := c.code(authorizeQuery())
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {DemoRedirectURI},
		"code_verifier": {testVerifier}, "client_id": {DemoClientID}, "client_secret": {DemoClientSecret}}
	resp, body := c.postForm("/oauth/token", "", "", form) // credentials in the body only
	wantOAuthError(t, resp, body, http.StatusUnauthorized, "invalid_client")
	if resp.Header.Get("WWW-Authenticate") == "" {
		t.Error("no WWW-Authenticate")
	}
	resp, body = c.postForm("/oauth/token", DemoClientID, "wrong", form)
	wantOAuthError(t, resp, body, http.StatusUnauthorized, "invalid_client")
	resp, body = c.postForm("/oauth/token", DemoClientID, DemoClientSecret, url.Values{"grant_type": {"password"}})
	wantOAuthError(t, resp, body, http.StatusBadRequest, "unsupported_grant_type")
}

func TestOAuthCodeExchangeVerifiesPKCE(t *testing.T) {
	c := newOAuthEnv(t)
	resp, body := c.exchange(c.code(authorizeQuery()), "a-different-verifier-of-the-right-sort-of-length-000")
	wantOAuthError(t, resp, body, http.StatusBadRequest, "invalid_grant")

	resp, body = c.exchange(c.code(authorizeQuery()), "")
	wantOAuthError(t, resp, body, http.StatusBadRequest, "invalid_grant")

	code := c.code(authorizeQuery())
	resp, body = c.exchange(code, testVerifier)
	if resp.StatusCode != http.StatusOK || body["token_type"] != "bearer" || body["expires_in"] != float64(3600) ||
		body["access_token"] == "" || body["refresh_token"] == "" || !strings.Contains(body["scope"].(string), "vendor_events_basic:read") {
		t.Fatalf("%d %v", resp.StatusCode, body)
	}
	if resp.Header.Get("Cache-Control") != "no-store" {
		t.Error("token answer is cacheable")
	}
	// A code works once.
	resp2, body2 := c.exchange(code, testVerifier)
	wantOAuthError(t, resp2, body2, http.StatusBadRequest, "invalid_grant")

	// The issued access token is a principal of the demo host until it expires.
	at := body["access_token"].(string)
	c.e.do("GET", "/events?role_type=host", at, nil).decode(t, http.StatusOK, nil)
	c.e.clock.Advance(AccessTokenLifetime)
	c.e.do("GET", "/events?role_type=host", at, nil).wantError(t, http.StatusUnauthorized, CodeInvalidToken)
}

func TestOAuthRequestedScopesOnly(t *testing.T) {
	c := newOAuthEnv(t)
	q := authorizeQuery()
	q.Set("scope", "vendor_events_basic:read")
	_, body := c.exchange(c.code(q), testVerifier)
	if body["scope"] != "vendor_events_basic:read" {
		t.Fatalf("%v", body)
	}
	q.Set("scope", "other_thing:read")
	resp := c.get("/oauth/authorize", q, map[string]string{AutoApproveHeader: "1"})
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if loc.Query().Get("error") != "invalid_scope" {
		t.Fatalf("%s", loc)
	}
}

func TestOAuthRefreshRotates(t *testing.T) {
	c := newOAuthEnv(t)
	_, body := c.exchange(c.code(authorizeQuery()), testVerifier)
	rt1 := body["refresh_token"].(string)
	resp, body := c.refresh(rt1)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %v", resp.StatusCode, body)
	}
	rt2, at2 := body["refresh_token"].(string), body["access_token"].(string)
	if rt2 == rt1 || rt2 == "" {
		t.Fatal("refresh token not rotated")
	}
	c.e.do("GET", "/events?role_type=host", at2, nil).decode(t, http.StatusOK, nil)
	resp, body = c.refresh(rt1) // rotated out
	wantOAuthError(t, resp, body, http.StatusBadRequest, "invalid_grant")
	// Refresh tokens live 30 days.
	c.e.clock.Advance(RefreshTokenLifetime - time.Second)
	resp, body = c.refresh(rt2)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %v", resp.StatusCode, body)
	}
	c.e.clock.Advance(RefreshTokenLifetime)
	resp, body = c.refresh(body["refresh_token"].(string))
	wantOAuthError(t, resp, body, http.StatusBadRequest, "invalid_grant")
}

func TestOAuthPathsBypassBearerAuthOnly(t *testing.T) {
	c := newOAuthEnv(t)
	// No bearer token needed for the OAuth endpoints...
	resp, body := c.refresh("nope")
	wantOAuthError(t, resp, body, http.StatusBadRequest, "invalid_grant")
	// ...but the API still needs one.
	c.e.do("GET", "/events?role_type=host", "", nil).wantError(t, http.StatusUnauthorized, CodeInvalidToken)
	// A path that only looks like an OAuth one is cleaned and redirected, not served.
	req, _ := http.NewRequest(http.MethodGet, c.e.srv.URL+"/oauth/../v2/vendor_events/events", nil)
	req.URL.Opaque = "/oauth/../v2/vendor_events/events"
	r, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode == http.StatusOK {
		t.Fatal("dot-dot path served without a token")
	}
}

func TestServerAuthURL(t *testing.T) {
	srv, err := Start("127.0.0.1:0", Options{NoRateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if srv.AuthURL()+"/v2" != srv.URL() {
		t.Fatalf("%s vs %s", srv.AuthURL(), srv.URL())
	}
}

// TestOAuthGrantsTheGranularPhoneScope: a token asked for with the phone
// endpoint's granular scope alone reads the phone settings and nothing else.
func TestOAuthGrantsTheGranularPhoneScope(t *testing.T) {
	c := newOAuthEnv(t)
	q := authorizeQuery()
	q.Set("scope", "phone:read:list_account_settings:admin")
	_, body := c.exchange(c.code(q), testVerifier)
	at, _ := body["access_token"].(string)
	if body["scope"] != "phone:read:list_account_settings:admin" || at == "" {
		t.Fatalf("%v", body)
	}
	c.e.phoneGet(at, nil).decode(t, http.StatusOK, nil)
	c.e.do("GET", "/events?role_type=host", at, nil).wantError(t, http.StatusForbidden, CodeMissingScope)
}
