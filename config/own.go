package config

import (
	"errors"
	"os"
	"slices"
)

// overrideVars are the variables that override the profile in use. They
// speak for that profile only: a second profile opened beside it (the other
// side of `phone compare`) never takes them, or the token, URLs and
// secrets meant for one server would reach another.
var overrideVars = []string{EnvProfile, EnvBaseURL, EnvAuthURL, EnvPathWord, EnvClientID, EnvClientSecret,
	EnvRedirectURI, EnvScopes, EnvToken, EnvAIKey, EnvAISecret, EnvKioskPIN}

// ErrNoName is LoadOwnProfile's answer when no profile is named.
var ErrNoName = errors.New("name the profile to open beside the one in use")

// LoadOwnProfile resolves the profile named name from the config file as
// the file defines it: without the environment's overrides, which belong to
// the profile in use, but with the variable its own token_env names.
func LoadOwnProfile(name string) (Profile, error) {
	return ResolveOwn(Path(), name, os.LookupEnv)
}

// ResolveOwn is LoadOwnProfile on the file at path and the environment
// lookup.
func ResolveOwn(path, name string, lookup func(string) (string, bool)) (Profile, error) {
	if name == "" {
		return Profile{}, ErrNoName
	}
	own := func(k string) (string, bool) {
		if slices.Contains(overrideVars, k) {
			return "", false
		}
		return lookup(k)
	}
	f, err := ReadFile(path)
	if err != nil {
		return Profile{}, err
	}
	if e, ok := f.Profiles[name]; ok && e.TokenEnv != "" {
		// The profile's own variable, whatever its name.
		own = func(k string) (string, bool) {
			if k == e.TokenEnv {
				return lookup(k)
			}
			if slices.Contains(overrideVars, k) {
				return "", false
			}
			return lookup(k)
		}
	}
	return f.Resolve(name, own)
}
