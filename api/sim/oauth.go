package sim

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"html"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/evdesk/evdesk/api"
)

// The demo OAuth application the simulator knows (spec section 5). `evdesk
// sim` prints them as EVDESK_AUTH_URL, EVDESK_CLIENT_ID and
// EVDESK_CLIENT_SECRET.
const (
	DemoClientID     = "evdesk-sim-client"
	DemoClientSecret = "evdesk-sim-client-secret"
	// DemoRedirectURI is the registered redirect URI; it matches evdesk's
	// default, and the simulator compares redirect URIs exactly.
	DemoRedirectURI = "http://127.0.0.1:8976/callback"
)

// Lifetimes of what the OAuth endpoints issue, on the simulator's clock.
const (
	AccessTokenLifetime  = time.Hour
	RefreshTokenLifetime = 30 * 24 * time.Hour
	authCodeLifetime     = 10 * time.Minute
)

// Auto-approval for tests: GET /oauth/authorize with the query parameter
// AutoApproveParam=1 or the header AutoApproveHeader: 1 redirects at once
// with a code instead of rendering the consent page.
const (
	AutoApproveParam  = "sim_auto_approve"
	AutoApproveHeader = "X-Sim-Auto-Approve"
)

// oauthServer is the authorization server's state.
type oauthServer struct {
	mu        sync.Mutex
	redirects map[string]bool // registered redirect URIs of the demo client
	codes     map[string]*authCode
	refresh   map[string]*refreshGrant // live refresh tokens
	retired   map[string]bool          // rotated-out refresh tokens
}

type authCode struct {
	redirectURI string
	challenge   string // S256 code challenge; empty when PKCE was not used
	scopes      []string
	expires     time.Time
}

type refreshGrant struct {
	scopes  []string
	expires time.Time
}

// oauthRoutes serves the OAuth endpoints. They sit outside /v2 and are
// reached without a bearer token (see serve).
func (s *Sim) oauthRoutes() {
	s.oauth = &oauthServer{
		redirects: map[string]bool{DemoRedirectURI: true},
		codes:     map[string]*authCode{},
		refresh:   map[string]*refreshGrant{},
		retired:   map[string]bool{},
	}
	s.mux.HandleFunc("GET /oauth/authorize", s.authorize)
	s.mux.HandleFunc("POST /oauth/authorize", s.authorize)
	s.mux.HandleFunc("POST /oauth/token", s.token)
}

// RegisterRedirectURI adds a redirect URI to the demo application (tests
// use a loopback port picked at random).
func (s *Sim) RegisterRedirectURI(uri string) {
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	s.oauth.redirects[uri] = true
}

func isOAuthPath(p string) bool { return strings.HasPrefix(p, "/oauth/") }

// authorize is GET /oauth/authorize (consent page, or an immediate redirect
// when auto-approved) and POST /oauth/authorize (the consent form).
func (s *Sim) authorize(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "malformed request", http.StatusBadRequest)
		return
	}
	q := r.Form
	// Errors about the client or redirect URI are shown, never redirected.
	if q.Get("client_id") != DemoClientID {
		http.Error(w, "unknown client_id", http.StatusBadRequest)
		return
	}
	redirect := q.Get("redirect_uri")
	s.oauth.mu.Lock()
	registered := s.oauth.redirects[redirect]
	s.oauth.mu.Unlock()
	if !registered {
		http.Error(w, "redirect_uri does not equal a registered redirect URI", http.StatusBadRequest)
		return
	}
	back := func(v url.Values) {
		if st := q.Get("state"); st != "" {
			v.Set("state", st)
		}
		u, _ := url.Parse(redirect)
		u.RawQuery = v.Encode()
		status := http.StatusFound
		if r.Method == http.MethodPost {
			status = http.StatusSeeOther
		}
		http.Redirect(w, r, u.String(), status)
	}
	fail := func(code, desc string) { back(url.Values{"error": {code}, "error_description": {desc}}) }
	if q.Get("response_type") != "code" {
		fail("unsupported_response_type", "response_type must be code")
		return
	}
	challenge, method := q.Get("code_challenge"), q.Get("code_challenge_method")
	if challenge != "" && method != "S256" {
		fail("invalid_request", "code_challenge_method must be S256")
		return
	}
	scopes, ok := s.grantableScopes(q.Get("scope"))
	if !ok {
		fail("invalid_scope", "the application is not allowed one of the requested scopes")
		return
	}
	approved := q.Get(AutoApproveParam) == "1" || r.Header.Get(AutoApproveHeader) == "1"
	if r.Method == http.MethodPost {
		if q.Get("decision") != "approve" {
			fail("access_denied", "the user denied access")
			return
		}
		approved = true
	}
	if !approved {
		s.consentPage(w, q, scopes)
		return
	}
	code := randomToken("simcode")
	s.oauth.mu.Lock()
	s.oauth.codes[code] = &authCode{redirectURI: redirect, challenge: challenge, scopes: scopes,
		expires: s.now().Add(authCodeLifetime)}
	s.oauth.mu.Unlock()
	back(url.Values{"code": {code}})
}

// grantableScopes is the requested scopes (space-separated), or every scope
// of the demo host when none was asked for; ok is false for a scope that is
// not one of this provider's (neither a "<word>_" scope nor one the demo
// host holds, such as phone:read:admin).
func (s *Sim) grantableScopes(requested string) ([]string, bool) {
	asked := strings.Fields(requested)
	all := s.allScopes()
	if len(asked) == 0 {
		return all, true
	}
	// The phone endpoint's granular scope may be asked for too.
	grantable := append(slices.Clone(all), api.PhoneGranularScope)
	for _, sc := range asked {
		if !strings.HasPrefix(sc, s.word+"_") && !slices.Contains(grantable, strings.TrimSuffix(sc, ":admin")) &&
			!slices.Contains(grantable, sc) {
			return nil, false
		}
	}
	return asked, true
}

// consentPage shows what the login asks for and posts the decision back
// with the request's parameters. Every value is HTML-escaped.
func (s *Sim) consentPage(w http.ResponseWriter, q url.Values, scopes []string) {
	var b strings.Builder
	esc := html.EscapeString
	b.WriteString(`<!doctype html>
<html><head><meta charset="utf-8"><title>Authorize evdesk</title></head>
<body style="font-family: sans-serif; max-width: 36em; margin: 3em auto">
<h1>Authorize evdesk (simulator)</h1>
<p>The application <b>` + esc(DemoClientID) + `</b> asks to act as <b>` + esc(DemoHostName+" <"+DemoHostEmail+">") +
		`</b> with these scopes:</p>
<ul>`)
	for _, sc := range scopes {
		b.WriteString(`<li><code>` + esc(sc) + `</code></li>`)
	}
	b.WriteString("</ul>\n<form method=\"post\" action=\"/oauth/authorize\">\n")
	for _, k := range []string{"client_id", "code_challenge", "code_challenge_method", "redirect_uri", "response_type", "scope", "state"} {
		for _, v := range q[k] {
			b.WriteString(`<input type="hidden" name="` + esc(k) + `" value="` + esc(v) + "\">\n")
		}
	}
	b.WriteString(`<button name="decision" value="approve">Approve</button>
<button name="decision" value="deny">Deny</button>
</form></body></html>
`)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = io.WriteString(w, b.String())
}

// tokenError is an OAuth error answer (RFC 6749 section 5.2).
func tokenError(w http.ResponseWriter, status int, code, desc string) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="oauth"`)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// token is POST /oauth/token: HTTP Basic client authentication, then the
// authorization_code grant (with PKCE when the code was issued with a
// challenge) or the refresh_token grant with rotation.
func (s *Sim) token(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := r.BasicAuth()
	if !ok {
		tokenError(w, http.StatusUnauthorized, "invalid_client", "client authentication must use HTTP Basic")
		return
	}
	if subtle.ConstantTimeCompare([]byte(id), []byte(DemoClientID)) != 1 ||
		subtle.ConstantTimeCompare([]byte(secret), []byte(DemoClientSecret)) != 1 {
		tokenError(w, http.StatusUnauthorized, "invalid_client", "unknown client or wrong client secret")
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		tokenError(w, http.StatusBadRequest, "invalid_request", "the body must be application/x-www-form-urlencoded")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		tokenError(w, http.StatusBadRequest, "invalid_request", "malformed form body")
		return
	}
	f := r.PostForm
	now := s.now()
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	var scopes []string
	switch f.Get("grant_type") {
	case "authorization_code":
		c := s.oauth.codes[f.Get("code")]
		delete(s.oauth.codes, f.Get("code")) // single use, even when the attempt fails
		switch {
		case c == nil || !now.Before(c.expires):
			tokenError(w, http.StatusBadRequest, "invalid_grant", "unknown, used or expired authorization code")
			return
		case f.Get("redirect_uri") != c.redirectURI:
			tokenError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri differs from the authorization request")
			return
		case c.challenge != "" && !pkceMatches(f.Get("code_verifier"), c.challenge):
			tokenError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code challenge")
			return
		}
		scopes = c.scopes
	case "refresh_token":
		rt := f.Get("refresh_token")
		g := s.oauth.refresh[rt]
		switch {
		case s.oauth.retired[rt]:
			tokenError(w, http.StatusBadRequest, "invalid_grant", "refresh token was already used (rotated)")
			return
		case g == nil || !now.Before(g.expires):
			tokenError(w, http.StatusBadRequest, "invalid_grant", "unknown or expired refresh token")
			return
		}
		delete(s.oauth.refresh, rt) // rotation: a refresh token works once
		s.oauth.retired[rt] = true
		scopes = g.scopes
	case "":
		tokenError(w, http.StatusBadRequest, "invalid_request", "grant_type is required")
		return
	default:
		tokenError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
		return
	}
	access, refresh := randomToken("simat"), randomToken("simrt")
	s.oauth.refresh[refresh] = &refreshGrant{scopes: scopes, expires: now.Add(RefreshTokenLifetime)}
	life := s.tokenTTL
	s.issueToken(access, DemoHostID, scopes, now.Add(life))
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token":  access,
		"token_type":    "bearer",
		"refresh_token": refresh,
		"expires_in":    max(1, int(life/time.Second)),
		"scope":         strings.Join(scopes, " "),
		// Not in the spec's answer; evdesk shows them when present.
		"user_id":    DemoHostID,
		"account_id": DemoAccountID,
	})
}

// pkceMatches checks an S256 code verifier against its challenge.
func pkceMatches(verifier, challenge string) bool {
	if verifier == "" {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	return subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) == 1
}

func randomToken(prefix string) string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return prefix + "_" + base64.RawURLEncoding.EncodeToString(b)
}
