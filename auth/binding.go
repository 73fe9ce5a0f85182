package auth

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/evdesk/evdesk/config"
)

// A stored session belongs to the servers that issued it: the API base URL
// it was logged in for and the sign-in server that issued its tokens. It is
// used against those and nowhere else, so an override of a URL in the
// environment (or a profile edited to point elsewhere) never carries the
// tokens, the refresh token or the client secret to another server.

// ErrOtherServer is behind the error for a session (or client secret) asked
// to go to a server that did not issue it.
var ErrOtherServer = errors.New("the stored session belongs to another server")

// sameServer reports whether two URLs name the same place: scheme, host and
// port (the scheme's default spelt out) and path, without a trailing slash.
func sameServer(a, b string) bool { return serverKey(a) == serverKey(b) }

func serverKey(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" {
		return strings.TrimRight(strings.TrimSpace(s), "/")
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port + strings.TrimRight(u.EscapedPath(), "/")
}

// bound is one URL a session (or secret) is bound to.
type bound struct {
	field    string // config field: base_url or auth_url
	recorded string // the URL recorded with what was stored; "" before evdesk recorded them
	asked    string // the URL the profile resolves to now
}

// checkBound refuses to use what profile p stored (what: "session",
// "client secret") against a URL other than the one it was stored for. A
// session stored before evdesk recorded its servers is taken as the
// profile's own only when the URL comes from the profile, not from an
// environment override.
func checkBound(p config.Profile, what string, bs ...bound) error {
	for _, b := range bs {
		origin := p.Origin(b.field)
		override := strings.HasPrefix(origin, "EVDESK_")
		switch {
		case b.recorded == "" && !override:
			continue // adopted: recorded at the next save
		case b.recorded == "":
			was, it := "was", "it belongs"
			if strings.HasSuffix(what, "s") {
				was, it = "were", "they belong"
			}
			return fmt.Errorf("%w: the %s of profile %q %s stored before evdesk recorded which server %s to, and %s overrides the profile's %s with %s: unset %s, or run `%s` with it set to store new ones for that server (or give a token for it in %s)",
				ErrOtherServer, what, p.Name, was, it, origin, b.field, b.asked, origin, loginCommand(p.Name), config.EnvToken)
		case sameServer(b.recorded, b.asked):
			continue
		}
		where := "the profile's " + b.field + " is now " + b.asked
		fix := fmt.Sprintf("point %s back at %s", b.field, b.recorded)
		if override {
			where = fmt.Sprintf("%s asks for %s", origin, b.asked)
			fix = "unset " + origin
		}
		belongs, it := "belongs", "it"
		if strings.HasSuffix(what, "s") {
			belongs, it = "belong", "them"
		}
		return fmt.Errorf("%w: the %s of profile %q %s to %s, but %s; evdesk sends %s only to the server %s %s to: %s, run `%s` to log in to the new server, or give a token for it in %s",
			ErrOtherServer, what, p.Name, belongs, b.recorded, where, it, it, belongs, fix, loginCommand(p.Name), config.EnvToken)
	}
	return nil
}

// checkSession refuses a stored session for a profile whose base or auth
// URL is not the one the session was issued for.
func checkSession(p config.Profile, s *Session) error {
	return checkBound(p, "session", bound{config.FieldBaseURL, s.BaseURL, p.BaseURL},
		bound{config.FieldAuthURL, s.AuthURL, p.AuthURL})
}

// CheckSessionServers reports why session s (its metadata is enough) may
// not be used by profile p as it resolves now: its API or sign-in server is
// not the one that issued it. Nil when it may.
func CheckSessionServers(p config.Profile, s *Session) error { return checkSession(p, s) }

// bindSession records the servers a session belongs to: those it was
// bound to, else (a session stored before evdesk recorded them, adopted by
// checkSession) the profile's.
func bindSession(p config.Profile, next, prev *Session) {
	next.BaseURL, next.AuthURL = p.BaseURL, p.AuthURL
	if prev != nil && prev.BaseURL != "" {
		next.BaseURL, next.AuthURL = prev.BaseURL, prev.AuthURL
	}
}

// AICredentialsFor reads the transcription credentials stored for
// profile p, refusing them when p's API is not the one they were stored for
// (the tokens they sign would go there).
func (s *Store) AICredentialsFor(p config.Profile) (AICredentials, error) {
	c, err := s.AICredentials(p.Name)
	if err != nil {
		return AICredentials{}, err
	}
	m, err := s.readMeta(p.Name)
	if err != nil {
		return AICredentials{}, err
	}
	if m.AI != nil {
		if err := checkBound(p, "transcription credentials", bound{config.FieldBaseURL, m.AI.BaseURL, p.BaseURL}); err != nil {
			return AICredentials{}, err
		}
	}
	return c, nil
}

// ClientSecretFor reads the client secret stored for profile p, refusing
// it when p's sign-in server is not the one it was stored for (it would be
// sent there). ErrNotFound when none is stored.
func (s *Store) ClientSecretFor(p config.Profile) (string, error) {
	secret, err := s.ClientSecret(p.Name)
	if err != nil {
		return "", err
	}
	m, err := s.readMeta(p.Name)
	if err != nil {
		return "", err
	}
	if m.ClientSecret != nil {
		if err := checkBound(p, "client secret", bound{config.FieldAuthURL, m.ClientSecret.AuthURL, p.AuthURL}); err != nil {
			return "", err
		}
	}
	return secret, nil
}
