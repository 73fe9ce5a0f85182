// Package config resolves where evdesk connects and how: the base URL, the
// path word and, for scripts and CI, a bearer token from the environment.
package config

import (
	"fmt"
	"net/url"
	"os"
	"strings"
)

// Environment variables read by evdesk.
const (
	EnvBaseURL  = "EVDESK_BASE_URL"
	EnvPathWord = "EVDESK_PATH_WORD"
	EnvToken    = "EVDESK_TOKEN"
)

// DefaultPathWord stands for the provider's name in /v2/<word>_events paths.
const DefaultPathWord = "vendor"

// Profile is one place evdesk can connect to.
type Profile struct {
	Name     string
	BaseURL  string
	PathWord string
	// Token is a bearer token from EVDESK_TOKEN; it is never written to disk.
	Token string
}

// FromEnv builds the profile from the environment, using lookup (os.LookupEnv
// in production, a map in tests).
func FromEnv(lookup func(string) (string, bool)) Profile {
	get := func(k string) string { v, _ := lookup(k); return strings.TrimSpace(v) }
	p := Profile{Name: "env", BaseURL: get(EnvBaseURL), PathWord: get(EnvPathWord), Token: get(EnvToken)}
	if p.PathWord == "" {
		p.PathWord = DefaultPathWord
	}
	return p
}

// Load reads the profile from the process environment.
func Load() Profile { return FromEnv(os.LookupEnv) }

// Validate reports what is missing or malformed, naming the variable.
func (p Profile) Validate() error {
	if p.BaseURL == "" {
		return fmt.Errorf("%s is not set: point it at the API (for example https://api.example.com/v2), or run `evdesk --demo` to try the embedded simulator", EnvBaseURL)
	}
	u, err := url.Parse(p.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s=%q is not an http(s) URL such as https://api.example.com/v2", EnvBaseURL, p.BaseURL)
	}
	if strings.ContainsAny(p.PathWord, "/?# ") {
		return fmt.Errorf("%s=%q must be a single word such as %q", EnvPathWord, p.PathWord, DefaultPathWord)
	}
	if p.Token == "" {
		return fmt.Errorf("%s is not set: evdesk needs an access token (login arrives in a later release); `evdesk sim` prints one for the simulator", EnvToken)
	}
	return nil
}
