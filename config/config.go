// Package config resolves where evdesk connects and how: named profiles in a
// TOML file in the XDG config dir (base URL, auth URL, path word, client id,
// redirect URI, scopes), overridden field by field by EVDESK_<FIELD>
// environment variables, and, for scripts and CI, a bearer token from
// EVDESK_TOKEN that overrides every other kind of authentication.
//
// Secrets never live in the config file: the client secret comes from the
// keyring (package auth) or EVDESK_CLIENT_SECRET, tokens from the keyring or
// EVDESK_TOKEN. A profile may name its own token variable (token_env), so
// one shell can hold the tokens of several accounts, as comparing two
// accounts or checking several from a scheduler needs.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Environment variables read by evdesk. Each profile field has one; a
// non-empty value wins over the config file.
const (
	EnvProfile      = "EVDESK_PROFILE"
	EnvBaseURL      = "EVDESK_BASE_URL"
	EnvAuthURL      = "EVDESK_AUTH_URL"
	EnvPathWord     = "EVDESK_PATH_WORD"
	EnvClientID     = "EVDESK_CLIENT_ID"
	EnvClientSecret = "EVDESK_CLIENT_SECRET"
	EnvRedirectURI  = "EVDESK_REDIRECT_URI"
	EnvScopes       = "EVDESK_SCOPES"
	// EnvMaxResponseMB caps the size of one answer from the server, in MiB.
	EnvMaxResponseMB = "EVDESK_MAX_RESPONSE_MB"
	// EnvMaxListingMB and EnvMaxListingItems bound one listing across its
	// pages.
	EnvMaxListingMB    = "EVDESK_MAX_LISTING_MB"
	EnvMaxListingItems = "EVDESK_MAX_LISTING_ITEMS"
	// EnvRateLimit is the most requests a second evdesk sends.
	EnvRateLimit = "EVDESK_RATE_LIMIT"
	// EnvToken is a bearer token that overrides all other authentication
	// (scripts, CI). It is never written to disk.
	EnvToken = "EVDESK_TOKEN"
	// EnvAIKey and EnvAISecret are the transcription service's API key and
	// secret; set together, they win over the ones `evdesk login --ai`
	// stored. Never written to disk.
	EnvAIKey    = "EVDESK_AI_KEY"
	EnvAISecret = "EVDESK_AI_SECRET"
	// EnvKioskPIN is the PIN that unlocks a kiosk desk (`evdesk desk
	// --kiosk`); it wins over the profile's kiosk_pin.
	EnvKioskPIN = "EVDESK_KIOSK_PIN"
	// EnvChangelogURL is the provider's developer change log feed.
	EnvChangelogURL = "EVDESK_CHANGELOG_URL"
	// EnvWebhookSecret is the webhook endpoint's secret token; it wins
	// over the one `evdesk login --webhook-secret` stored. Never written
	// to disk.
	EnvWebhookSecret = "EVDESK_WEBHOOK_SECRET"
)

// Defaults.
const (
	// DefaultPathWord stands for the provider's name in /v2/<word>_events paths.
	DefaultPathWord = "vendor"
	// DefaultProfileName names the implicit profile (no config file, or a
	// file without default_profile).
	DefaultProfileName = "default"
	// DefaultRedirectURI is the loopback address the login flow listens on.
	// The port is fixed because the provider matches registered redirect
	// URIs exactly.
	DefaultRedirectURI = "http://127.0.0.1:8976/callback"
	// DefaultMaxResponseMB is the answer-size cap when a profile sets none
	// (the api package's default, restated for messages and the file header).
	DefaultMaxResponseMB = 64
	// MaxMaxResponseMB bounds max_response_mb: 64 GiB is beyond any answer
	// this API gives and keeps the byte count far from overflow.
	MaxMaxResponseMB = 64 << 10
	// DefaultMaxListingMB and DefaultMaxListingItems are a listing's budget
	// across its pages when a profile sets none (the api package's
	// defaults, restated for messages).
	DefaultMaxListingMB    = 128
	DefaultMaxListingItems = 250_000
	// MaxMaxListingMB and MaxMaxListingItems bound the settings.
	MaxMaxListingMB    = 64 << 10
	MaxMaxListingItems = 100_000_000
	// DefaultRateLimit is the request rate when a profile sets none: the
	// LIGHT limit of a Pro account, the least plan the endpoints need (the
	// api package's default, restated for messages and the file header).
	DefaultRateLimit = 30
	// MaxRateLimit bounds rate_limit, far above any plan's LIGHT limit.
	MaxRateLimit = 1000
)

// Field names as they appear in the config file.
const (
	FieldBaseURL     = "base_url"
	FieldAuthURL     = "auth_url"
	FieldPathWord    = "path_word"
	FieldClientID    = "client_id"
	FieldRedirectURI = "redirect_uri"
	FieldScopes      = "scopes"
	// FieldTokenEnv names the environment variable that holds the profile's
	// bearer token; it wins over EVDESK_TOKEN for that profile.
	FieldTokenEnv = "token_env"
	// FieldMaxResponseMB caps one answer's size in MiB (default 64).
	FieldMaxResponseMB = "max_response_mb"
	// FieldMaxListingMB and FieldMaxListingItems bound one listing across
	// its pages (defaults 128 MiB and 250,000 items).
	FieldMaxListingMB    = "max_listing_mb"
	FieldMaxListingItems = "max_listing_items"
	// FieldRateLimit is the most requests a second (default 30; evdesk
	// slows down by itself when the server answers 429).
	FieldRateLimit = "rate_limit"
	// FieldPhoneBaseline names the profile's phone policy baseline file
	// (package baseline), which the console checks the account against.
	FieldPhoneBaseline = "phone_baseline"
	// FieldMouse turns the console's mouse reporting off (mouse = false),
	// leaving the mouse to the terminal for selecting text.
	FieldMouse = "mouse"
	// FieldKioskPIN is the PIN that unlocks a kiosk desk of this profile
	// (6 to 12 digits). It only keeps a desk on screen: it opens no account.
	FieldKioskPIN = "kiosk_pin"
	// FieldChangelogURL is the provider's developer change log feed (RSS,
	// Atom or JSON Feed), read by `evdesk changelog` and the console.
	FieldChangelogURL = "changelog_url"
	// FieldChangelogNotice, when false, turns off the console's start-up
	// notice of breaking changes and deprecations.
	FieldChangelogNotice = "changelog_notice"
	// FieldKioskSearch lets the public find themselves by name at a locked
	// kiosk (names only, partly masked); off by default.
	FieldKioskSearch = "kiosk_search"
)

// fieldEnv maps each settable field to its environment variable.
var fieldEnv = map[string]string{
	FieldBaseURL: EnvBaseURL, FieldAuthURL: EnvAuthURL, FieldPathWord: EnvPathWord,
	FieldClientID: EnvClientID, FieldRedirectURI: EnvRedirectURI, FieldScopes: EnvScopes,
	FieldMaxResponseMB: EnvMaxResponseMB, FieldRateLimit: EnvRateLimit, FieldCAFile: EnvCAFile,
	FieldMaxListingMB: EnvMaxListingMB, FieldMaxListingItems: EnvMaxListingItems,
	FieldChangelogURL: EnvChangelogURL,
}

// Profile is one place evdesk can connect to, with everything resolved:
// file values, environment overrides and defaults.
type Profile struct {
	Name        string
	BaseURL     string
	AuthURL     string // OAuth server root: {AuthURL}/oauth/authorize, /oauth/token
	PathWord    string
	ClientID    string
	RedirectURI string
	Scopes      []string // empty: login asks for every scope evdesk's features need
	// MaxResponseMB caps one answer's body in MiB; 0 means the default
	// (DefaultMaxResponseMB).
	MaxResponseMB int
	// MaxListingMB and MaxListingItems bound one listing across its pages;
	// 0 means the default.
	MaxListingMB, MaxListingItems int
	// RateLimit is the most requests a second; 0 means the default
	// (DefaultRateLimit).
	RateLimit float64
	// ClientSecret comes from EVDESK_CLIENT_SECRET only (else the keyring);
	// it is never written to the config file and never shown.
	ClientSecret string
	// Token is a bearer token from EVDESK_TOKEN, or from the variable
	// TokenEnv names; it is never written to disk.
	Token string
	// TokenEnv is the profile's own token variable (token_env), if any.
	TokenEnv string
	// PhoneBaseline is the profile's baseline file (phone_baseline), as a
	// path the program can open: a relative one is taken from the config
	// file's folder, ~/ from the home folder. Empty when none.
	PhoneBaseline string
	// NoMouse is mouse = false: the console leaves the mouse to the terminal.
	NoMouse bool
	// ReadOnly, Theme (never "": auto by default) and ReduceMotion are the
	// console's preferences (prefs.go).
	ReadOnly     bool
	Theme        string
	ReduceMotion bool
	// KioskPIN unlocks a kiosk desk: EVDESK_KIOSK_PIN, else kiosk_pin.
	// Never shown or logged.
	KioskPIN string
	// Desk is the check-in desk's settings (desk.go).
	Desk Desk
	// KioskSearch (kiosk_search = true) offers the registrant search at a
	// locked kiosk, names only and partly masked.
	KioskSearch bool
	// AllowInsecureHTTP accepts plain http:// to another machine
	// (allow_insecure_http = true); see InsecureHTTPWarning.
	AllowInsecureHTTP bool
	// CAFile is a PEM bundle of authorities trusted besides the system's
	// (ca_file, EVDESK_CA_FILE), as a path the program can open.
	CAFile string
	// AIKey and AISecret come from EVDESK_AI_KEY and EVDESK_AI_SECRET only
	// (else the keyring).
	AIKey, AISecret string
	// ChangelogURL is the change log feed (changelog_url or
	// EVDESK_CHANGELOG_URL); "" when none is set.
	ChangelogURL string
	// NoChangelogNotice is changelog_notice = false.
	NoChangelogNotice bool
	// WebhookSecret comes from EVDESK_WEBHOOK_SECRET only (else the
	// keyring); never shown or logged.
	WebhookSecret string
	// Keys rebinds the console's keys: action name to key names (the
	// profile's [keys] table; KeyOrigin says where each came from).
	Keys map[string][]string
	// File is the config file the profile came from; empty for the implicit
	// profile built from the environment alone.
	File string

	origins map[string]string // field -> where its value came from, for messages
	// badMaxResponse keeps an EVDESK_MAX_RESPONSE_MB that is not a number,
	// for Validate to report.
	badMaxResponse string
	// badListing keeps an EVDESK_MAX_LISTING_* that is not a number, by field.
	badListing map[string]string
	// badRateLimit keeps an EVDESK_RATE_LIMIT that is not a number.
	badRateLimit string
}

// MaxResponseBytes is the answer-size cap in bytes; 0 when the profile sets
// none, which the api package reads as its default.
func (p Profile) MaxResponseBytes() int64 { return int64(p.MaxResponseMB) << 20 }

// MaxListingBytes is a listing's byte budget; 0 when the profile sets none.
func (p Profile) MaxListingBytes() int64 { return int64(p.MaxListingMB) << 20 }

// RequestRate is the most requests a second the profile allows:
// rate_limit, else DefaultRateLimit.
func (p Profile) RequestRate() float64 {
	if p.RateLimit > 0 {
		return p.RateLimit
	}
	return DefaultRateLimit
}

// Origin says where a field's value came from: an environment variable
// name, "<file>:<line>" or "default". Empty when unset.
func (p Profile) Origin(field string) string { return p.origins[field] }

func (p *Profile) setOrigin(field, origin string) {
	if p.origins == nil {
		p.origins = map[string]string{}
	}
	p.origins[field] = origin
}

// label names a field in an error message: the environment variable it came
// from, or "<file>:<line>: profiles.<name>.<field>".
func (p Profile) label(field string) string {
	o := p.origins[field]
	switch {
	case o == "" || o == "default":
		if p.File != "" {
			return fmt.Sprintf("%s: profiles.%s.%s", p.File, p.Name, field)
		}
		return fieldEnv[field]
	case strings.HasPrefix(o, "EVDESK_"):
		return o
	}
	return fmt.Sprintf("%s: profiles.%s.%s", o, p.Name, field)
}

// FromEnv builds the implicit profile from the environment alone, using
// lookup (os.LookupEnv in production, a map in tests).
func FromEnv(lookup func(string) (string, bool)) Profile {
	p := Profile{Name: DefaultProfileName}
	applyEnv(&p, lookup)
	applyDefaults(&p)
	return p
}

// Load reads the implicit profile from the process environment only.
//
// Deprecated: use LoadProfile, which also reads the config file and the
// profile chosen by --profile or EVDESK_PROFILE.
func Load() Profile { return FromEnv(os.LookupEnv) }

// LoadProfile resolves the profile named name ("" picks EVDESK_PROFILE, then
// the file's default_profile) from the config file at Path() and the
// process environment.
func LoadProfile(name string) (Profile, error) { return Resolve(Path(), name, os.LookupEnv) }

// Resolve resolves a profile from the config file at path (a missing file
// is an empty one) and environment overrides read through lookup. The
// profile name is name, else EVDESK_PROFILE, else the file's
// default_profile, else "default". Without a file, or when no profile was
// asked for and the file defines none, the result is the implicit profile
// from the environment.
func Resolve(path, name string, lookup func(string) (string, bool)) (Profile, error) {
	f, err := ReadFile(path)
	if err != nil {
		return Profile{}, err
	}
	return f.Resolve(name, lookup)
}

// Resolve is the package-level Resolve on an already-read file.
func (f *File) Resolve(name string, lookup func(string) (string, bool)) (Profile, error) {
	asked := strings.TrimSpace(name)
	if asked == "" {
		asked = getenv(lookup, EnvProfile)
	}
	chosen := f.InUse(asked, lookup)
	p := Profile{Name: chosen}
	if e, ok := f.Profiles[chosen]; ok {
		p.File = f.Path
		set := func(field, v string) string {
			if v != "" {
				p.setOrigin(field, f.origin(chosen, field))
			}
			return v
		}
		p.BaseURL = set(FieldBaseURL, e.BaseURL)
		p.AuthURL = set(FieldAuthURL, e.AuthURL)
		p.PathWord = set(FieldPathWord, e.PathWord)
		p.ClientID = set(FieldClientID, e.ClientID)
		p.RedirectURI = set(FieldRedirectURI, e.RedirectURI)
		if len(e.Scopes) > 0 {
			p.Scopes = append([]string(nil), e.Scopes...)
			p.setOrigin(FieldScopes, f.origin(chosen, FieldScopes))
		}
		p.TokenEnv = set(FieldTokenEnv, e.TokenEnv)
		if e.MaxResponseMB != 0 {
			p.MaxResponseMB = e.MaxResponseMB
			p.setOrigin(FieldMaxResponseMB, f.origin(chosen, FieldMaxResponseMB))
		}
		for field, v := range map[string]int{FieldMaxListingMB: e.MaxListingMB, FieldMaxListingItems: e.MaxListingItems} {
			if v != 0 {
				*p.listingField(field) = v
				p.setOrigin(field, f.origin(chosen, field))
			}
		}
		if e.RateLimit != 0 {
			p.RateLimit = e.RateLimit
			p.setOrigin(FieldRateLimit, f.origin(chosen, FieldRateLimit))
		}
		p.PhoneBaseline = set(FieldPhoneBaseline, filePathFrom(f.Path, e.PhoneBaseline))
		if e.Mouse != nil {
			p.NoMouse = !*e.Mouse
			p.setOrigin(FieldMouse, f.origin(chosen, FieldMouse))
		}
		p.KioskPIN = set(FieldKioskPIN, e.KioskPIN)
		p.Desk = e.DeskSettings.resolve()
		p.ChangelogURL = set(FieldChangelogURL, e.ChangelogURL)
		if e.ChangelogNotice != nil {
			p.NoChangelogNotice = !*e.ChangelogNotice
			p.setOrigin(FieldChangelogNotice, f.origin(chosen, FieldChangelogNotice))
		}
		if e.KioskSearch {
			p.KioskSearch = true
			p.setOrigin(FieldKioskSearch, f.origin(chosen, FieldKioskSearch))
		}
		p.AllowInsecureHTTP = e.AllowInsecureHTTP
		p.CAFile = set(FieldCAFile, filePathFrom(f.Path, e.CAFile))
	} else if asked != "" && asked != DefaultProfileName {
		// An explicitly named profile must exist (the implicit "default"
		// profile may come from the environment alone).
		return Profile{}, f.unknownProfile(asked)
	}
	if err := CheckProfileName(p.Name); err != nil {
		return Profile{}, err
	}
	var entry *ProfileEntry
	if e, ok := f.Profiles[chosen]; ok {
		entry = &e
	}
	applyPreferences(&p, entry, func(field string) string { return f.origin(chosen, field) }, lookup)
	if err := applyKeys(&p, entry, func(action string) string { return f.keyOrigin(chosen, action) }); err != nil {
		return Profile{}, err
	}
	applyEnv(&p, lookup)
	applyDefaults(&p)
	return p, nil
}

func getenv(lookup func(string) (string, bool), k string) string {
	if lookup == nil {
		return ""
	}
	v, _ := lookup(k)
	return strings.TrimSpace(v)
}

func applyEnv(p *Profile, lookup func(string) (string, bool)) {
	for field, env := range fieldEnv {
		v := getenv(lookup, env)
		if v == "" {
			continue
		}
		p.setOrigin(field, env)
		switch field {
		case FieldBaseURL:
			p.BaseURL = v
		case FieldAuthURL:
			p.AuthURL = v
		case FieldPathWord:
			p.PathWord = v
		case FieldClientID:
			p.ClientID = v
		case FieldRedirectURI:
			p.RedirectURI = v
		case FieldChangelogURL:
			p.ChangelogURL = v
		case FieldCAFile:
			p.CAFile = v
		case FieldScopes:
			p.Scopes = SplitScopes(v)
		case FieldMaxResponseMB:
			n, err := strconv.Atoi(v)
			if err != nil {
				p.badMaxResponse = v
			}
			p.MaxResponseMB = n
		case FieldMaxListingMB, FieldMaxListingItems:
			n, err := strconv.Atoi(v)
			if err != nil {
				if p.badListing == nil {
					p.badListing = map[string]string{}
				}
				p.badListing[field] = v
			}
			*p.listingField(field) = n
		case FieldRateLimit:
			r, err := strconv.ParseFloat(v, 64)
			if err != nil {
				p.badRateLimit = v
			}
			p.RateLimit = r
		}
	}
	p.ClientSecret = getenv(lookup, EnvClientSecret)
	p.Token = getenv(lookup, EnvToken)
	if p.TokenEnv != "" {
		p.Token = getenv(lookup, p.TokenEnv)
	}
	p.AIKey, p.AISecret = getenv(lookup, EnvAIKey), getenv(lookup, EnvAISecret)
	p.WebhookSecret = getenv(lookup, EnvWebhookSecret)
	if pin := getenv(lookup, EnvKioskPIN); pin != "" {
		p.KioskPIN = pin
		p.setOrigin(FieldKioskPIN, EnvKioskPIN)
	}
}

func applyDefaults(p *Profile) {
	if p.Desk.PrintBadges == "" {
		p.Desk.PrintBadges = PrintNever
	}
	if p.PathWord == "" {
		p.PathWord = DefaultPathWord
		p.setOrigin(FieldPathWord, "default")
	}
	if p.RedirectURI == "" {
		p.RedirectURI = DefaultRedirectURI
		p.setOrigin(FieldRedirectURI, "default")
	}
	p.AuthURL = strings.TrimRight(p.AuthURL, "/")
}

// SplitScopes splits a scope list separated by spaces or commas.
func SplitScopes(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
}

// Validate reports what is missing or malformed for talking to the API,
// naming the variable or the file, line and field.
func (p Profile) Validate() error {
	if p.BaseURL == "" {
		if p.File != "" {
			return fmt.Errorf("%s: profile %q has no %s: run `evdesk config set-profile %s --base-url URL` or set %s (or run `evdesk --demo` to try the embedded simulator)",
				p.File, p.Name, FieldBaseURL, p.Name, EnvBaseURL)
		}
		return fmt.Errorf("%s is not set: point it at the API (for example https://api.example.com/v2), or run `evdesk --demo` to try the embedded simulator", EnvBaseURL)
	}
	if err := p.validateFields(); err != nil {
		return err
	}
	if p.TokenEnv != "" && p.Token == "" {
		return noCredentials(fmt.Errorf("%s: profile %q takes its token from %s, which is not set", p.label(FieldTokenEnv), p.Name, p.TokenEnv))
	}
	if p.Token == "" && (p.AuthURL == "" || p.ClientID == "") {
		return noCredentials(fmt.Errorf("no credentials for profile %q: set %s and %s (or `evdesk config set-profile %s --auth-url URL --client-id ID`) and run `evdesk login`, or set %s to an access token (`evdesk sim` prints one for the simulator)",
			p.Name, EnvAuthURL, EnvClientID, p.Name, EnvToken))
	}
	return nil
}

// ValidateLogin reports what `evdesk login` needs and lacks: the auth URL,
// the client id and a registered redirect URI (CheckRedirectURI).
func (p Profile) ValidateLogin() error {
	if err := p.validateFields(); err != nil {
		return err
	}
	for _, f := range []struct{ field, value, flag string }{
		{FieldAuthURL, p.AuthURL, "--auth-url URL"}, {FieldClientID, p.ClientID, "--client-id ID"},
	} {
		if f.value == "" {
			return fmt.Errorf("profile %q has no %s: run `evdesk config set-profile %s %s` or set %s",
				p.Name, f.field, p.Name, f.flag, fieldEnv[f.field])
		}
	}
	return nil
}

// validateFields checks the values that are set.
func (p Profile) validateFields() error {
	if msg := serverURLProblem(p.BaseURL, exampleBaseURL); p.BaseURL != "" && msg != "" {
		return fmt.Errorf("%s=%s", p.label(FieldBaseURL), msg)
	}
	if msg := serverURLProblem(p.AuthURL, exampleAuthURL); p.AuthURL != "" && msg != "" {
		return fmt.Errorf("%s=%s", p.label(FieldAuthURL), msg)
	}
	if err := p.CheckChangelogURL(); err != nil {
		return err
	}
	for _, f := range []struct{ field, value string }{{FieldBaseURL, p.BaseURL}, {FieldAuthURL, p.AuthURL}} {
		if msg := p.insecureProblem(f.field, f.value); msg != "" {
			return fmt.Errorf("%s=%s", p.label(f.field), msg)
		}
	}
	if err := CheckFilePath(p.CAFile); p.CAFile != "" && err != nil {
		return fmt.Errorf("%s=%q %v", p.label(FieldCAFile), p.CAFile, err)
	}
	if err := CheckPathWord(p.PathWord); err != nil {
		return fmt.Errorf("%s=%q %v", p.label(FieldPathWord), p.PathWord, err)
	}
	if err := CheckRedirectURI(p.RedirectURI); p.RedirectURI != "" && err != nil {
		return fmt.Errorf("%s=%q %v", p.label(FieldRedirectURI), p.RedirectURI, err)
	}
	for _, s := range p.Scopes {
		if err := CheckScope(s); err != nil {
			return fmt.Errorf("%s: scope %q %v", p.label(FieldScopes), s, err)
		}
	}
	if err := CheckKioskPIN(p.KioskPIN); p.KioskPIN != "" && err != nil {
		return fmt.Errorf("%s %v", p.label(FieldKioskPIN), err)
	}
	if err := CheckTheme(p.Theme); p.Theme != "" && err != nil {
		return fmt.Errorf("%s %v", p.label(FieldTheme), err)
	}
	if p.badMaxResponse != "" {
		return fmt.Errorf("%s=%q is not a whole number: give the cap in MiB, from 1 to %d (default %d)",
			p.label(FieldMaxResponseMB), p.badMaxResponse, MaxMaxResponseMB, DefaultMaxResponseMB)
	}
	if p.origins[FieldMaxResponseMB] != "" {
		if err := CheckMaxResponseMB(p.MaxResponseMB); err != nil {
			return fmt.Errorf("%s=%d %v", p.label(FieldMaxResponseMB), p.MaxResponseMB, err)
		}
	}
	for _, field := range []string{FieldMaxListingMB, FieldMaxListingItems} {
		if v, bad := p.badListing[field]; bad {
			return fmt.Errorf("%s=%q is not a whole number: %s", p.label(field), v, listingRange(field))
		}
		if p.origins[field] != "" {
			if err := CheckListingBudget(field, *p.listingField(field)); err != nil {
				return fmt.Errorf("%s=%d %v", p.label(field), *p.listingField(field), err)
			}
		}
	}
	if p.badRateLimit != "" {
		return fmt.Errorf("%s=%q is not a number: give requests a second, from 0.5 to %d (default %d)",
			p.label(FieldRateLimit), p.badRateLimit, MaxRateLimit, DefaultRateLimit)
	}
	if p.origins[FieldRateLimit] != "" {
		if err := CheckRateLimit(p.RateLimit); err != nil {
			return fmt.Errorf("%s=%v %v", p.label(FieldRateLimit), p.RateLimit, err)
		}
	}
	return nil
}

// CheckRateLimit reports whether r can be a request rate.
func CheckRateLimit(r float64) error {
	if !(r >= 0.5 && r <= MaxRateLimit) { // also refuses NaN
		return fmt.Errorf("is out of range: give requests a second, from 0.5 to %d (default %d, the LIGHT limit of a Pro account)",
			MaxRateLimit, DefaultRateLimit)
	}
	return nil
}

// CheckMaxResponseMB reports whether n can cap an answer's size in MiB.
func CheckMaxResponseMB(n int) error {
	if n < 1 || n > MaxMaxResponseMB {
		return fmt.Errorf("is out of range: give the cap in MiB, from 1 to %d (default %d)", MaxMaxResponseMB, DefaultMaxResponseMB)
	}
	return nil
}

// listingField is the profile's field for max_listing_mb or
// max_listing_items.
func (p *Profile) listingField(field string) *int {
	if field == FieldMaxListingMB {
		return &p.MaxListingMB
	}
	return &p.MaxListingItems
}

// CheckListingBudget reports whether n can be field, max_listing_mb or
// max_listing_items.
func CheckListingBudget(field string, n int) error {
	most := MaxMaxListingItems
	if field == FieldMaxListingMB {
		most = MaxMaxListingMB
	}
	if n < 1 || n > most {
		return fmt.Errorf("is out of range: %s", listingRange(field))
	}
	return nil
}

func listingRange(field string) string {
	if field == FieldMaxListingMB {
		return fmt.Sprintf("give the most one listing may read across its pages in MiB, from 1 to %d (default %d)", MaxMaxListingMB, DefaultMaxListingMB)
	}
	return fmt.Sprintf("give the most items one listing may hold, from 1 to %d (default %d)", MaxMaxListingItems, DefaultMaxListingItems)
}

// RedirectAddr is the host:port the login flow listens on, for a loopback
// redirect URI (RedirectIsLoopback).
func (p Profile) RedirectAddr() (string, error) {
	if err := CheckRedirectURI(p.RedirectURI); err != nil {
		return "", fmt.Errorf("%s=%q %v", p.label(FieldRedirectURI), p.RedirectURI, err)
	}
	u, _ := url.Parse(p.RedirectURI)
	if !IsLoopbackHost(u.Hostname()) {
		return "", fmt.Errorf("%s=%q is not on this machine: evdesk cannot listen for it", p.label(FieldRedirectURI), p.RedirectURI)
	}
	return u.Host, nil
}

// RedirectIsLoopback reports whether the redirect URI points at this
// machine, where the login flow listens for the browser's answer; any
// other (an app registered with https://app.example.com/callback) is
// answered by pasting the address the browser lands on.
func (p Profile) RedirectIsLoopback() bool {
	u, err := url.Parse(p.RedirectURI)
	return err == nil && u.Scheme == "http" && IsLoopbackHost(u.Hostname())
}

// CheckHTTPURL reports whether s is an absolute http(s) URL.
func CheckHTTPURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("is not an http(s) URL")
	}
	return nil
}

// serverURLProblem says what is wrong with a server address setting, or ""
// when nothing is. The value is shown with any password masked, and
// credentials in it are refused: they would travel in every request and
// reach logs and screens.
func serverURLProblem(s, example string) string {
	if err := CheckHTTPURL(s); err != nil {
		return fmt.Sprintf("%q %v, such as %s", Redact(s), err, example)
	}
	if u, _ := url.Parse(s); u.User != nil {
		u.User = nil // a user name alone may be a token: show neither
		shown := strings.Replace(u.String(), "://", "://[redacted]@", 1)
		return fmt.Sprintf("%q holds a user name or password (before the @): remove it; credentials belong in the keyring (`evdesk login`) or %s, never in a URL", shown, EnvToken)
	}
	return ""
}

// Examples shown when a server address is malformed.
const (
	exampleBaseURL = "https://api.example.com/v2"
	exampleAuthURL = "https://auth.example.com"
	// exampleChangelogURL shows what changelog_url looks like.
	exampleChangelogURL = "https://developers.example.com/changelog/rss"
)

// CheckPathWord reports whether w is a single path word.
func CheckPathWord(w string) error {
	if strings.ContainsAny(w, "/?# ") {
		return fmt.Errorf("must be a single word such as %q", DefaultPathWord)
	}
	return nil
}

// CheckRedirectURI reports whether s can be the registered redirect URI:
// a loopback http URL with a fixed port, on which evdesk listens (such as
// http://127.0.0.1:8976/callback), or any https URL the provider app was
// registered with (https://app.example.com/callback), whose address the
// user pastes back.
func CheckRedirectURI(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("is not a redirect URI: use the one registered with the provider app, such as https://app.example.com/callback, or a loopback address such as %s", DefaultRedirectURI)
	}
	if u.User != nil {
		return errors.New("must not hold a user name or password (before the @)")
	}
	if u.Fragment != "" || strings.Contains(s, "#") {
		return errors.New("must not carry a fragment (#...): the provider adds the code to the query")
	}
	if u.RawQuery != "" {
		return errors.New("must not carry a query: the provider adds the code and state to it")
	}
	loopback := IsLoopbackHost(u.Hostname())
	if u.Scheme == "http" && !loopback {
		return fmt.Errorf("uses plain http to %s: the authorization code would cross the network unencrypted; use the https address the app was registered with", u.Host)
	}
	if !loopback {
		return nil
	}
	host, port, err := net.SplitHostPort(u.Host)
	if err != nil || host == "" {
		return fmt.Errorf("needs an explicit port (the provider matches redirect URIs exactly), such as %s", DefaultRedirectURI)
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return fmt.Errorf("needs a fixed port between 1 and 65535, such as %s", DefaultRedirectURI)
	}
	if u.Scheme != "http" {
		return fmt.Errorf("on this machine is served by evdesk itself over plain http (it never leaves the machine): use http://%s%s", u.Host, u.EscapedPath())
	}
	return nil
}

// CheckScope reports whether s looks like a scope name.
func CheckScope(s string) error {
	if s == "" || strings.ContainsAny(s, " \t\n,\"'") {
		return fmt.Errorf("is not a scope name such as vendor_events_basic:read")
	}
	return nil
}

var profileNamePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

var envNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// MinKioskPIN and MaxKioskPIN bound a kiosk PIN's digits: six at least, so
// a PIN cannot be guessed at a desk before the backoff makes guessing slow.
const MinKioskPIN, MaxKioskPIN = 6, 12

// CheckKioskPIN reports whether pin can unlock a kiosk desk: 6 to 12
// digits, so the desk can tell a PIN from a badge scan. The message never
// repeats the PIN.
func CheckKioskPIN(pin string) error {
	if len(pin) < MinKioskPIN || len(pin) > MaxKioskPIN || strings.Trim(pin, "0123456789") != "" {
		return fmt.Errorf("is not a kiosk PIN: use %d to %d digits (digits only, so the desk never takes a badge scan for it)", MinKioskPIN, MaxKioskPIN)
	}
	return nil
}

// CheckEnvName reports whether name can name an environment variable.
func CheckEnvName(name string) error {
	if !envNamePattern.MatchString(name) {
		return fmt.Errorf("is not an environment variable name: use letters, digits and '_', not starting with a digit")
	}
	return nil
}

// maxPathLen bounds a file path in the config file.
const maxPathLen = 4096

// CheckFilePath reports whether p can name a file: not blank, without
// control characters (a line break or an escape sequence would reach
// messages and the terminal), and not absurdly long.
func CheckFilePath(p string) error {
	switch {
	case strings.TrimSpace(p) == "":
		return errors.New("is blank: name a file")
	case len(p) > maxPathLen:
		return fmt.Errorf("is %d bytes long, more than a path can be (%d)", len(p), maxPathLen)
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return errors.New("holds a control character (a line break, tab or escape): name a file")
	}
	return nil
}

// filePathFrom makes a path from the config file at configPath openable:
// ~/ is the home folder, a relative path is taken from the config file's
// folder (so it does not depend on where evdesk runs).
func filePathFrom(configPath, p string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(configPath), p)
}

// CheckProfileName reports whether name can name a profile: letters,
// digits, '.', '_' and '-', starting with a letter or digit (it becomes part
// of file names and keyring service names).
func CheckProfileName(name string) error {
	if !profileNamePattern.MatchString(name) {
		return fmt.Errorf("profile name %q is not valid: use letters, digits, '.', '_' and '-' (at most 64)", name)
	}
	return nil
}
