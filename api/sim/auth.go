package sim

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
)

// Access tokens the simulator accepts from the start. `evdesk sim` prints them.
const (
	// DemoToken belongs to the demo host and carries every scope of the spec.
	DemoToken = "evdesk-sim-demo-host"
	// ReadOnlyToken belongs to the demo host and carries only the :read scopes.
	ReadOnlyToken = "evdesk-sim-read-only"
	// OtherHostToken belongs to a second host, owner of a few events and of
	// one hub; it carries every scope.
	OtherHostToken = "evdesk-sim-other-host"
	// NoPhoneToken belongs to a host whose account has no phone service: it
	// carries every scope, and the phone endpoint answers it 403.
	NoPhoneToken = "evdesk-sim-no-phone"
)

// Identities of the seeded users.
const (
	DemoHostID     = "Uk7nT2qWx9LmR4vBs1PcZa"
	DemoAccountID  = "Ac4Lp9xQ2mVt7RsK1nWbYe"
	DemoHostEmail  = "alex.morgan@northwind.example"
	DemoHostName   = "Alex Morgan"
	OtherHostID    = "Uf3pK8sLz1QwN6rYt4HcMv"
	OtherAccountID = "Ac8Rm2Nq5TvX1LpW7kSdZf"
	OtherHostEmail = "priya.raman@contoso.example"
	OtherHostName  = "Priya Raman"

	NoPhoneHostID    = "Um5tQ8wEr2YuI7oPa3SdFg"
	NoPhoneAccountID = "Ac2Hj6Kl9ZxC4vBn8MqWeR"
	NoPhoneHostEmail = "sam.okafor@fabrikam.example"
	NoPhoneHostName  = "Sam Okafor"
)

// User is a person the simulator knows.
type User struct {
	ID          string
	AccountID   string
	Email       string
	DisplayName string
}

// principal is an authenticated caller: the token, its user and its scopes.
type principal struct {
	token   string
	user    *User
	scopes  map[string]bool
	expires time.Time // zero: never (the seeded tokens)
}

type principalKey struct{}

func principalFrom(ctx context.Context) *principal {
	p, _ := ctx.Value(principalKey{}).(*principal)
	return p
}

// scope is what an endpoint needs: its scope or the granular scope, each
// also accepted with an :admin suffix (spec section 5).
type scope struct{ classic, granular string }

// scopeFor builds a scope from names without the "<word>_" prefix, e.g.
// scopeFor("events_basic:read", "events:read:list_events").
func (s *Sim) scopeFor(classic, granular string) scope {
	return scope{classic: s.word + "_" + classic, granular: s.word + "_" + granular}
}

func (sc scope) names() []string { return []string{sc.classic, sc.granular} }

func (sc scope) grantedTo(p *principal) bool {
	if p == nil {
		return false
	}
	for _, n := range sc.names() {
		if p.scopes[n] || p.scopes[n+":admin"] {
			return true
		}
	}
	return false
}

// allScopes lists the classic scope of every endpoint family of the spec
// (section 4 tables; hubs, sessions, ticket types, tickets and registrants
// from the provider's description).
func (s *Sim) allScopes() []string {
	var out []string
	for _, n := range []string{
		"events_basic:read", "events_basic:write",
		"events_attendee_actions:read", "events_attendee_actions:write",
		"events_coeditors:read", "events_coeditor:write",
		"events_email:read",
		"events_access_links:read", "events_access_links:write",
		"events_exhibitors:read", "events_exhibitors:write",
		"events_hubs:read", "events_sessions:read", "events_ticket_types:read",
		"events_tickets:write", "events_registrants:read",
	} {
		out = append(out, s.word+"_"+n)
	}
	return append(out, api.PhoneScope)
}

func (s *Sim) registerTokens() {
	demo := &User{ID: DemoHostID, AccountID: DemoAccountID, Email: DemoHostEmail, DisplayName: DemoHostName}
	other := &User{ID: OtherHostID, AccountID: OtherAccountID, Email: OtherHostEmail, DisplayName: OtherHostName}
	all := s.allScopes()
	var read []string
	for _, n := range all {
		if strings.HasSuffix(n, ":read") || n == api.PhoneScope {
			read = append(read, n)
		}
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	s.st.users[demo.ID] = demo
	s.st.users[other.ID] = other
	nophone := &User{ID: NoPhoneHostID, AccountID: NoPhoneAccountID, Email: NoPhoneHostEmail, DisplayName: NoPhoneHostName}
	s.st.users[nophone.ID] = nophone
	s.st.addToken(DemoToken, demo, all)
	s.st.addToken(ReadOnlyToken, demo, read)
	s.st.addToken(OtherHostToken, other, all)
	s.st.addToken(NoPhoneToken, nophone, all)
}

// authenticate finds the caller of a request from its bearer token.
func (s *Sim) authenticate(r *http.Request) (*principal, *apiError) {
	bad := &apiError{Status: http.StatusUnauthorized, Code: CodeInvalidToken, Message: "Invalid access token."}
	scheme, tok, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	tok = strings.TrimSpace(tok)
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return nil, bad
	}
	s.st.mu.Lock()
	p := s.st.tokens[tok]
	s.st.mu.Unlock()
	if p == nil || (!p.expires.IsZero() && !s.now().Before(p.expires)) {
		return nil, bad
	}
	return p, nil
}

// issueToken registers an access token issued by the OAuth endpoints as a
// principal of user userID with scopes, valid until expires.
// AddToken makes token a never-expiring access token of the demo host
// holding exactly scopes (tests of what a missing scope does).
func (s *Sim) AddToken(token string, scopes ...string) {
	s.issueToken(token, DemoHostID, scopes, time.Time{})
}

func (s *Sim) issueToken(tok, userID string, scopes []string, expires time.Time) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	s.st.addToken(tok, s.st.users[userID], scopes)
	s.st.tokens[tok].expires = expires
}
