package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/evdesk/evdesk/internal/atomicfile"
)

// FileName is the config file's name inside Dir().
const FileName = "config.toml"

// File is the config file: named profiles and the default one.
type File struct {
	// Path is where the file lives (not part of its content).
	Path           string                  `toml:"-"`
	DefaultProfile string                  `toml:"default_profile,omitempty"`
	Profiles       map[string]ProfileEntry `toml:"profiles,omitempty"`

	src []byte // content as read, to locate keys for messages
}

// ProfileEntry is one profile as stored in the file. There is deliberately
// no field for the client secret or tokens.
type ProfileEntry struct {
	BaseURL     string   `toml:"base_url,omitempty"`
	AuthURL     string   `toml:"auth_url,omitempty"`
	PathWord    string   `toml:"path_word,omitempty"`
	ClientID    string   `toml:"client_id,omitempty"`
	RedirectURI string   `toml:"redirect_uri,omitempty"`
	Scopes      []string `toml:"scopes,omitempty"`
	// TokenEnv names the variable holding the profile's token (the name,
	// never the token, is stored).
	TokenEnv string `toml:"token_env,omitempty"`
	// MaxResponseMB caps one answer's size in MiB; 0 (absent) is the default.
	MaxResponseMB int `toml:"max_response_mb,omitzero"`
	// MaxListingMB and MaxListingItems bound one listing across its pages;
	// 0 (absent) is the default.
	MaxListingMB    int `toml:"max_listing_mb,omitzero"`
	MaxListingItems int `toml:"max_listing_items,omitzero"`
	// RateLimit is the most requests a second; 0 (absent) is the default.
	RateLimit float64 `toml:"rate_limit,omitzero"`
	// PhoneBaseline is the baseline file the console checks the account's
	// phone policy against (relative to the config file's folder).
	PhoneBaseline string `toml:"phone_baseline,omitempty"`
	// Mouse, when false, leaves the mouse to the terminal.
	Mouse *bool `toml:"mouse,omitempty"`
	// KioskPIN unlocks this profile's kiosk desks (6 to 12 digits).
	KioskPIN string `toml:"kiosk_pin,omitempty"`
	// DeskSettings: walk-ins, badges, the check-in hook (desk.go).
	DeskSettings
	// ChangelogURL is the developer change log feed.
	ChangelogURL string `toml:"changelog_url,omitempty"`
	// ChangelogNotice, when false, turns the start-up notice off.
	ChangelogNotice *bool `toml:"changelog_notice,omitempty"`
	// KioskSearch offers the registrant search at a locked kiosk (names
	// only, partly masked).
	KioskSearch bool `toml:"kiosk_search,omitempty"`
	// AllowInsecureHTTP accepts plain http:// to another machine.
	AllowInsecureHTTP bool `toml:"allow_insecure_http,omitempty"`
	// CAFile is a PEM bundle of certificate authorities trusted besides the
	// system's (relative to the config file's folder).
	CAFile string `toml:"ca_file,omitempty"`
	// ReadOnly, Theme and ReduceMotion are the console's preferences
	// (prefs.go).
	ReadOnly     *bool  `toml:"read_only,omitempty"`
	Theme        string `toml:"theme,omitempty"`
	ReduceMotion *bool  `toml:"reduce_motion,omitempty"`
}

var knownFields = []string{FieldBaseURL, FieldAuthURL, FieldPathWord, FieldClientID, FieldRedirectURI, FieldScopes,
	FieldTokenEnv, FieldMaxResponseMB, FieldMaxListingMB, FieldMaxListingItems, FieldRateLimit, FieldPhoneBaseline, FieldMouse,
	FieldKioskPIN, FieldKioskSearch, FieldAllowInsecureHTTP, FieldCAFile, FieldReadOnly, FieldTheme, FieldReduceMotion,
	FieldChangelogURL, FieldChangelogNotice}

// Dir is evdesk's config directory: $XDG_CONFIG_HOME/evdesk (read at call
// time, so tests and wrappers may set it).
func Dir() string { return filepath.Join(xdgDir("XDG_CONFIG_HOME", configHome), "evdesk") }

// Path is the config file's path: Dir()/config.toml.
func Path() string { return filepath.Join(Dir(), FileName) }

// FileError is a problem in the config file, located by line (0 when
// unknown) and key (e.g. profiles.work.base_url).
type FileError struct {
	File string
	Line int
	Key  string
	Msg  string
	Err  error // the decoder's error, if any
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Key != "" {
		b.WriteString(": " + e.Key)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

func (e *FileError) Unwrap() error { return e.Err }

// ReadFile reads and checks the config file at path. A missing file is an
// empty File (with Path set) and no error; a malformed one is a *FileError
// naming the file, line and field.
func ReadFile(path string) (*File, error) {
	src, err := ReadCapped(path, MaxFileSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &File{Path: path}, nil
	case errors.Is(err, ErrTooLarge):
		return nil, tooLarge(path)
	case err != nil:
		return nil, fmt.Errorf("read the config file: %w", err)
	}
	return Parse(path, src)
}

// Parse decodes and checks config file content; path names the file in
// errors.
func Parse(path string, src []byte) (*File, error) {
	if len(src) > MaxFileSize {
		return nil, tooLarge(path)
	}
	f := &File{Path: path, src: src}
	md, err := DecodeTOML(path, src, ConfigLimits, f)
	if err != nil {
		return nil, err
	}
	f.Path = path
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		k := undecoded[0]
		fe := &FileError{File: path, Line: locateKey(src, k), Key: k.String()}
		last := k[len(k)-1]
		switch {
		case len(k) == 3 && k[0] == "profiles" && (last == "client_secret" || strings.Contains(last, "token")):
			fe.Msg = fmt.Sprintf("secrets do not belong in the config file: remove %s; evdesk keeps the client secret and tokens in the keyring (`evdesk login` asks for it) or reads %s / %s", last, EnvClientSecret, EnvToken)
		case len(k) == 3 && k[0] == "profiles":
			fe.Msg = "unknown field (known: " + strings.Join(append(slices.Clone(knownFields), deskFields...), ", ") + ")"
		case len(k) == 1:
			fe.Msg = "unknown setting (known: default_profile, [profiles.NAME])"
		default:
			fe.Msg = "unknown key"
		}
		return nil, fe
	}
	if err := f.Check(); err != nil {
		return nil, err
	}
	return f, nil
}

// Check validates every profile and the default profile name, naming file,
// line and field.
func (f *File) Check() error {
	for _, name := range f.ProfileNames() {
		e := f.Profiles[name]
		bad := func(field, msg string) error {
			return &FileError{File: f.Path, Line: f.line(name, field), Key: "profiles." + quoteKey(name) + "." + field, Msg: msg}
		}
		if err := CheckProfileName(name); err != nil {
			return &FileError{File: f.Path, Line: locateKey(f.src, toml.Key{"profiles", name}), Key: "profiles." + quoteKey(name), Msg: err.Error()}
		}
		if msg := serverURLProblem(e.BaseURL, exampleBaseURL); e.BaseURL != "" && msg != "" {
			return bad(FieldBaseURL, msg)
		}
		if msg := serverURLProblem(e.AuthURL, exampleAuthURL); e.AuthURL != "" && msg != "" {
			return bad(FieldAuthURL, msg)
		}
		if msg := serverURLProblem(e.ChangelogURL, exampleChangelogURL); e.ChangelogURL != "" && msg != "" {
			return bad(FieldChangelogURL, msg)
		}
		if err := CheckPathWord(e.PathWord); err != nil {
			return bad(FieldPathWord, fmt.Sprintf("%q %v", e.PathWord, err))
		}
		if e.RedirectURI != "" {
			if err := CheckRedirectURI(e.RedirectURI); err != nil {
				return bad(FieldRedirectURI, fmt.Sprintf("%q %v", e.RedirectURI, err))
			}
		}
		for _, s := range e.Scopes {
			if err := CheckScope(s); err != nil {
				return bad(FieldScopes, fmt.Sprintf("%q %v", s, err))
			}
		}
		if e.TokenEnv != "" {
			if err := CheckEnvName(e.TokenEnv); err != nil {
				return bad(FieldTokenEnv, fmt.Sprintf("%q %v, such as ACME_EVDESK_TOKEN", e.TokenEnv, err))
			}
		}
		// 0 is "absent" once decoded; an explicit 0 in the file is still wrong.
		if e.MaxResponseMB != 0 || f.line(name, FieldMaxResponseMB) > 0 {
			if err := CheckMaxResponseMB(e.MaxResponseMB); err != nil {
				return bad(FieldMaxResponseMB, fmt.Sprintf("%d %v", e.MaxResponseMB, err))
			}
		}
		for field, v := range map[string]int{FieldMaxListingMB: e.MaxListingMB, FieldMaxListingItems: e.MaxListingItems} {
			if v != 0 || f.line(name, field) > 0 {
				if err := CheckListingBudget(field, v); err != nil {
					return bad(field, fmt.Sprintf("%d %v", v, err))
				}
			}
		}
		if e.RateLimit != 0 || f.line(name, FieldRateLimit) > 0 {
			if err := CheckRateLimit(e.RateLimit); err != nil {
				return bad(FieldRateLimit, fmt.Sprintf("%v %v", e.RateLimit, err))
			}
		}
		if e.KioskPIN != "" {
			if err := CheckKioskPIN(e.KioskPIN); err != nil {
				return bad(FieldKioskPIN, err.Error())
			}
		}
		if field, msg := e.DeskSettings.check(); msg != "" {
			return bad(field, msg)
		}
		if e.PhoneBaseline != "" {
			if err := CheckFilePath(e.PhoneBaseline); err != nil {
				return bad(FieldPhoneBaseline, fmt.Sprintf("%q %v", e.PhoneBaseline, err))
			}
		}
		if e.CAFile != "" {
			if err := CheckFilePath(e.CAFile); err != nil {
				return bad(FieldCAFile, fmt.Sprintf("%q %v", e.CAFile, err))
			}
		}
	}
	if f.DefaultProfile != "" {
		if _, ok := f.Profiles[f.DefaultProfile]; !ok {
			return &FileError{File: f.Path, Line: locateKey(f.src, toml.Key{"default_profile"}), Key: "default_profile",
				Msg: fmt.Sprintf("names profile %q, which the file does not define (defined: %s)", f.DefaultProfile, f.namesOrNone())}
		}
	}
	return nil
}

// ProfileNames lists the file's profiles in order.
func (f *File) ProfileNames() []string {
	names := make([]string, 0, len(f.Profiles))
	for n := range f.Profiles {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func (f *File) namesOrNone() string {
	if len(f.Profiles) == 0 {
		return "none"
	}
	return strings.Join(f.ProfileNames(), ", ")
}

func (f *File) unknownProfile(name string) error {
	if len(f.Profiles) == 0 {
		return fmt.Errorf("profile %q not found: %s defines no profiles; create it with `evdesk config set-profile %s --base-url URL --auth-url URL --client-id ID`",
			name, f.Path, name)
	}
	return fmt.Errorf("profile %q not found in %s (defined: %s); create it with `evdesk config set-profile %s ...`",
		name, f.Path, f.namesOrNone(), name)
}

// SetProfile adds or replaces the named profile. It never changes which
// profile is in use: a new profile beside the implicit "default" one (the
// environment's) must not turn plain commands to another account; only Use
// does that.
func (f *File) SetProfile(name string, e ProfileEntry) error {
	if err := CheckProfileName(name); err != nil {
		return err
	}
	if f.Profiles == nil {
		f.Profiles = map[string]ProfileEntry{}
	}
	f.Profiles[name] = e
	f.src = nil
	return f.Check()
}

// Use makes name the default profile. "default" is always accepted: when
// the file defines no profile of that name, it is the implicit profile
// (the environment's), and the file then names no default.
func (f *File) Use(name string) error {
	if _, ok := f.Profiles[name]; !ok {
		if name != DefaultProfileName {
			return f.unknownProfile(name)
		}
		f.DefaultProfile = ""
		return nil
	}
	f.DefaultProfile = name
	return nil
}

// InUse is the name of the profile a command uses when asked for name
// (empty: EVDESK_PROFILE, then the file's default_profile, then
// "default"), as Resolve chooses it.
func (f *File) InUse(name string, lookup func(string) (string, bool)) string {
	chosen := strings.TrimSpace(name)
	if chosen == "" {
		chosen = getenv(lookup, EnvProfile)
	}
	if chosen == "" {
		chosen = f.DefaultProfile
	}
	if chosen == "" {
		chosen = DefaultProfileName
	}
	return chosen
}

// Known lists the profiles there are to choose from: the file's, and the
// one in use (the implicit "default" profile may be defined by the
// environment alone), in order.
func (f *File) Known(inUse string) []string {
	names := f.ProfileNames()
	if inUse != "" && !slices.Contains(names, inUse) {
		names = append(names, inUse)
		slices.Sort(names)
	}
	return names
}

// fileHeader starts every file evdesk writes.
const fileHeader = `# evdesk configuration (written by ` + "`evdesk config`" + `; edits are kept, comments are not).
#
# Each [profiles.NAME] table is a place evdesk connects to. Pick one with
# --profile NAME or EVDESK_PROFILE; default_profile is used otherwise.
# Every field can be overridden by EVDESK_<FIELD> (EVDESK_BASE_URL,
# EVDESK_AUTH_URL, EVDESK_PATH_WORD, EVDESK_CLIENT_ID, EVDESK_REDIRECT_URI,
# EVDESK_SCOPES, EVDESK_MAX_RESPONSE_MB, EVDESK_MAX_LISTING_MB,
# EVDESK_MAX_LISTING_ITEMS, EVDESK_RATE_LIMIT). max_response_mb caps the
# size of one answer from the server in MiB (default 64); max_listing_mb
# and max_listing_items bound one listing across all its pages (default 128
# MiB and 250000 items); raise them only when a call says it needs more. rate_limit is the most
# requests a second (default 30, the LIGHT limit of a Pro account); evdesk
# slows down by itself when the server answers 429, so set it only to use a
# higher plan's limit. Secrets never go here: the client secret and
# tokens live in the OS keyring (` + "`evdesk login`" + `) or come from
# EVDESK_CLIENT_SECRET / EVDESK_TOKEN; token_env = "NAME" makes a profile
# read its token from $NAME instead.
# phone_baseline = "FILE" names the baseline the console checks the account's
# phone policy against (relative to this file's folder; ~/ is your home).
# mouse = false leaves the mouse to the terminal (for selecting text).
# kiosk_pin = "DIGITS" unlocks ` + "`evdesk desk --kiosk`" + ` (EVDESK_KIOSK_PIN wins);
# it keeps a desk on screen and opens no account. kiosk_search = true lets
# the public find themselves at a locked kiosk (names only, partly masked).
# At the check-in desk: walk_ins = false stops registering walk-ins (a kiosk
# takes them only with walk_ins = true); badge_printer = "Badges" (a CUPS
# queue), "ipp://host:631/printers/Badges" or a printer's own ipp:// address
# prints badges, on every check-in
# with print_badges = "always", on a key with "ask" (the default), or never;
# badge_layout = "4x3" (or 4x6, a6, 62mm, or a .toml layout file);
# on_checkin = ["command", "{email}", "{name}", "{ticket}", "{desk}"] runs a
# command after each confirmed check-in (no shell; output to the log).
# changelog_url = "URL" is the provider's developer change log feed
# (EVDESK_CHANGELOG_URL wins); changelog_notice = false turns off the
# console's start-up notice of breaking changes and deprecations.

`

// Render encodes the file as written to disk: the header comment,
// default_profile, then one table per profile in name order.
func (f *File) Render() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(fileHeader)
	enc := func(v any) error {
		if err := toml.NewEncoder(&buf).Encode(v); err != nil {
			return fmt.Errorf("encode the config file: %w", err)
		}
		return nil
	}
	if f.DefaultProfile != "" {
		if err := enc(struct {
			D string `toml:"default_profile"`
		}{f.DefaultProfile}); err != nil {
			return nil, err
		}
	}
	for _, name := range f.ProfileNames() {
		fmt.Fprintf(&buf, "\n[profiles.%s]\n", quoteKey(name))
		if err := enc(f.Profiles[name]); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// Save writes the file atomically (temp file + rename) with mode 0600,
// creating its directory (0700).
func (f *File) Save() error {
	if err := f.Check(); err != nil {
		return err
	}
	b, err := f.Render()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return fmt.Errorf("create the config directory: %w", err)
	}
	if err := atomicfile.WriteFile(f.Path, b, 0o600); err != nil {
		return fmt.Errorf("write the config file: %w", err)
	}
	f.src = b
	return nil
}

// NewDefaultFile is the file `evdesk config set-profile` starts from: one
// "default" profile with the default path word and redirect URI.
func NewDefaultFile(path string) *File {
	return &File{Path: path, DefaultProfile: DefaultProfileName, Profiles: map[string]ProfileEntry{
		DefaultProfileName: {PathWord: DefaultPathWord, RedirectURI: DefaultRedirectURI},
	}}
}

// origin is "<file>:<line>" for a field of a profile.
func (f *File) origin(profile, field string) string {
	if l := f.line(profile, field); l > 0 {
		return fmt.Sprintf("%s:%d", f.Path, l)
	}
	return f.Path
}

func (f *File) line(profile, field string) int {
	return locateKey(f.src, toml.Key{"profiles", profile, field})
}

var bareKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func quoteKey(k string) string {
	if bareKey.MatchString(k) {
		return k
	}
	return strconv.Quote(k)
}

// locateKey finds the line (1-based) defining key in TOML source, or 0. It
// understands table headers and dotted, quoted keys, which is all an evdesk
// config needs; it is only used to point at lines in messages.
func locateKey(src []byte, key toml.Key) int {
	var table []string
	tableLine := 0
	for i, line := range strings.Split(string(src), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "[") {
			inner := strings.Trim(strings.SplitN(t, "#", 2)[0], " []")
			table = splitDotted(inner)
			tableLine = i + 1
			if slices.Equal(table, []string(key)) {
				return tableLine
			}
			continue
		}
		eq := strings.IndexByte(t, '=')
		if eq < 0 {
			continue
		}
		full := append(slices.Clone(table), splitDotted(strings.TrimSpace(t[:eq]))...)
		if len(full) >= len(key) && slices.Equal(full[:len(key)], []string(key)) {
			return i + 1
		}
	}
	return 0
}

// splitDotted splits a.b."c.d" into its parts; a double-quoted part's
// escapes ("t\u00e9") are decoded, so it matches the decoder's key.
func splitDotted(s string) []string {
	var parts []string
	var cur strings.Builder
	quote, start := byte(0), 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '"' && c == '\\' && i+1 < len(s):
			cur.WriteString(s[i : i+2])
			i++
		case quote != 0 && c == quote:
			if quote == '"' {
				done := cur.String()
				if u, err := strconv.Unquote(`"` + done[start:] + `"`); err == nil {
					cur.Reset()
					cur.WriteString(done[:start] + u)
				}
			}
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, start = c, cur.Len()
		case c == '.':
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, strings.TrimSpace(cur.String()))
}
