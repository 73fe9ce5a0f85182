package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
	"github.com/zalando/go-keyring"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/atomicfile"
)

// Backend is where a profile's secrets live.
type Backend string

const (
	// BackendKeyring is the OS keyring (Secret Service, macOS Keychain,
	// Windows Credential Manager), service "evdesk:<profile>".
	BackendKeyring Backend = "keyring"
	// BackendFile is a 0600 file in the config dir, used only with the
	// user's consent when the keyring is unavailable.
	BackendFile Backend = "file"
)

// Errors of the store.
var (
	// ErrKeyringUnreachable: the keyring did not answer in time, there is
	// no session bus, or it failed. The message always starts with
	// "keyring unreachable".
	ErrKeyringUnreachable = errors.New("keyring unreachable")
	// ErrNotLoggedIn: no stored session for the profile.
	ErrNotLoggedIn = errors.New("not logged in")
	// ErrNotFound: no stored secret of that kind (client secret, AI
	// credentials).
	ErrNotFound = errors.New("not stored")
	// ErrConsentRequired: the keyring is unavailable and the user has not
	// agreed to keep secrets in a plain file.
	ErrConsentRequired = errors.New("storing credentials in a plain file needs your consent")
	// ErrSecretTooLarge: a value exceeds the keyring's per-entry limit.
	ErrSecretTooLarge = errors.New("secret too large for the keyring")
)

// MaxSecretLen is the largest value stored in one keyring entry (Windows
// allows 2560 bytes, macOS about 3000 including the names).
const MaxSecretLen = 2500

// DefaultKeyringTimeout bounds every keyring call.
const DefaultKeyringTimeout = 3 * time.Second

// Keyring is the part of go-keyring the store uses; tests inject fakes.
type Keyring interface {
	Set(service, user, secret string) error
	Get(service, user string) (string, error)
	Delete(service, user string) error
}

// OSKeyring is the system keyring through go-keyring (keyring.MockInit()
// swaps it for an in-memory one).
type OSKeyring struct{}

func (OSKeyring) Set(service, user, secret string) error   { return keyring.Set(service, user, secret) }
func (OSKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (OSKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }

// StoreOptions configures a Store. The zero value uses the OS keyring, a 3 s
// timeout, config.Dir() for the fallback file and config.StateDir() for
// session metadata and lock files.
type StoreOptions struct {
	Keyring   Keyring
	Timeout   time.Duration
	ConfigDir string // fallback credentials: <ConfigDir>/credentials/<profile>.json
	StateDir  string // metadata: <StateDir>/sessions/<profile>.json; locks: <StateDir>/locks/
	// AllowFile is the user's consent (--insecure-storage) to keep secrets in
	// a 0600 file when the keyring is unavailable.
	AllowFile bool
	// Getenv and GOOS decide whether a session bus exists (defaults:
	// os.Getenv, runtime.GOOS).
	Getenv func(string) string
	GOOS   string
	// After starts the keyring timeout (default time.After); tests make it
	// fire at once.
	After func(time.Duration) <-chan time.Time
	// Now stamps metadata (default time.Now).
	Now func() time.Time
}

// Store keeps sessions, client secrets and transcription credentials per
// profile: secrets in the keyring (or the consented file), non-secret
// metadata in a JSON file in the state dir. It never caches: every call
// reads what is stored now, so several processes can share it (under the
// profile's lock, see Lock).
type Store struct {
	kr        Keyring
	timeout   time.Duration
	configDir string
	stateDir  string
	getenv    func(string) string
	goos      string
	after     func(time.Duration) <-chan time.Time
	now       func() time.Time

	mu        sync.Mutex // guards allowFile and file read-modify-write in this process
	allowFile bool
}

// NewStore builds a store.
func NewStore(o StoreOptions) *Store {
	s := &Store{kr: o.Keyring, timeout: o.Timeout, configDir: o.ConfigDir, stateDir: o.StateDir,
		getenv: o.Getenv, goos: o.GOOS, after: o.After, now: o.Now, allowFile: o.AllowFile}
	if s.kr == nil {
		s.kr = OSKeyring{}
	}
	if s.timeout <= 0 {
		s.timeout = DefaultKeyringTimeout
	}
	if s.configDir == "" {
		s.configDir = config.Dir()
	}
	if s.stateDir == "" {
		s.stateDir = config.StateDir()
	}
	if s.getenv == nil {
		s.getenv = os.Getenv
	}
	if s.goos == "" {
		s.goos = runtime.GOOS
	}
	if s.after == nil {
		s.after = time.After
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// SetAllowFile records the user's consent to the plain-file fallback.
func (s *Store) SetAllowFile(ok bool) {
	s.mu.Lock()
	s.allowFile = ok
	s.mu.Unlock()
}

func (s *Store) fileAllowed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.allowFile
}

// Service is the keyring service name of a profile.
func Service(profile string) string { return "evdesk:" + profile }

// FilePath is the fallback credentials file of a profile.
func (s *Store) FilePath(profile string) string {
	return filepath.Join(s.configDir, "credentials", profile+".json")
}

// LockPath is the lock file guarding a profile's session.
func (s *Store) LockPath(profile string) string {
	return filepath.Join(s.stateDir, "locks", profile+".lock")
}

func (s *Store) metaPath(profile string) string {
	return filepath.Join(s.stateDir, "sessions", profile+".json")
}

// Lock takes the profile's cross-process lock, waiting until ctx ends.
func (s *Store) Lock(ctx context.Context, profile string) (unlock func(), err error) {
	if err := config.CheckProfileName(profile); err != nil {
		return nil, err
	}
	p := s.LockPath(profile)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, fmt.Errorf("create the lock directory: %w", err)
	}
	fl := flock.New(p, flock.SetPermissions(0o600))
	start := time.Now()
	ok, err := fl.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil || !ok {
		if err == nil {
			err = ctx.Err()
		}
		if dl, has := ctx.Deadline(); has && errors.Is(err, context.DeadlineExceeded) {
			return nil, &LockBusyError{Profile: profile, Path: p, Waited: dl.Sub(start)}
		}
		return nil, fmt.Errorf("wait for the session lock %s (another evdesk may be refreshing): %w", p, err)
	}
	return func() { _ = fl.Unlock() }, nil
}

// LockBusyError: another evdesk process held the profile's lock (it is
// refreshing, logging in or logging out) for the whole wait.
type LockBusyError struct {
	Profile string
	Path    string // the lock file
	Waited  time.Duration
}

func (e *LockBusyError) Error() string {
	waited := e.Waited.Round(time.Millisecond)
	if e.Waited >= time.Second {
		waited = e.Waited.Round(100 * time.Millisecond)
	}
	return fmt.Sprintf("another evdesk process is refreshing or changing the login of profile %q; gave up waiting after %s: try again when it has finished (lock file %s)",
		e.Profile, waited, e.Path)
}

// ---- keyring access, bounded and gated ----

// keyringProblem says why the keyring cannot be used without touching it,
// or returns nil. On Linux and the BSDs the keyring is the Secret Service on
// the session bus: without DBUS_SESSION_BUS_ADDRESS it is not called at all.
func (s *Store) keyringProblem() error {
	switch s.goos {
	case "darwin", "windows":
		return nil
	}
	if strings.TrimSpace(s.getenv("DBUS_SESSION_BUS_ADDRESS")) == "" {
		return fmt.Errorf("%w: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is empty), so no Secret Service", ErrKeyringUnreachable)
	}
	return nil
}

// call runs one keyring operation bounded by the timeout. A call that does
// not answer is left behind (go-keyring cannot be cancelled).
func (s *Store) call(op string, fn func() error) error {
	if err := s.keyringProblem(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		switch {
		case err == nil, errors.Is(err, keyring.ErrNotFound):
			return err
		case errors.Is(err, keyring.ErrSetDataTooBig):
			return fmt.Errorf("%w (%s)", ErrSecretTooLarge, op)
		}
		return fmt.Errorf("%w: %s failed: %s", ErrKeyringUnreachable, op, config.Redact(err.Error()))
	case <-s.after(s.timeout):
		return fmt.Errorf("%w: %s did not answer within %s", ErrKeyringUnreachable, op, s.timeout)
	}
}

// Probe reports whether the keyring can be used now (nil) or why not.
func (s *Store) Probe() error {
	err := s.call("keyring lookup", func() error {
		_, err := s.kr.Get(Service("evdesk-probe"), "probe")
		return err
	})
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}

// ---- secret backends ----

func (s *Store) krGet(profile string, keys []string) (map[string]string, error) {
	out := map[string]string{}
	for _, k := range keys {
		var v string
		err := s.call("keyring read of "+k, func() (err error) { v, err = s.kr.Get(Service(profile), k); return err })
		if errors.Is(err, keyring.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

func (s *Store) krSet(profile string, kv []entry) error {
	for _, e := range kv {
		if len(e.val) > MaxSecretLen {
			return fmt.Errorf("%w: the %s is %d bytes; the keyring holds at most %d per entry", ErrSecretTooLarge, e.key, len(e.val), MaxSecretLen)
		}
	}
	for _, e := range kv {
		if err := s.call("keyring write of "+e.key, func() error { return s.kr.Set(Service(profile), e.key, e.val) }); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) krDelete(profile string, keys []string) error {
	for _, k := range keys {
		err := s.call("keyring delete of "+k, func() error { return s.kr.Delete(Service(profile), k) })
		if err != nil && !errors.Is(err, keyring.ErrNotFound) {
			return err
		}
	}
	return nil
}

func (s *Store) fileRead(profile string) (map[string]string, error) {
	b, err := os.ReadFile(s.FilePath(profile))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the credentials file: %w", err)
	}
	m := map[string]string{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("the credentials file %s is damaged (run `evdesk logout` and log in again): %v", s.FilePath(profile), errors.Unwrap(err))
	}
	return m, nil
}

func (s *Store) fileGet(profile string, keys []string) (map[string]string, error) {
	m, err := s.fileRead(profile)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out, nil
}

// fileUpdate rewrites the profile's credentials file atomically with mode
// 0600; an empty result removes the file.
func (s *Store) fileUpdate(profile string, set []entry, del []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, err := s.fileRead(profile)
	if err != nil {
		return err
	}
	for _, e := range set {
		m[e.key] = e.val
	}
	for _, k := range del {
		delete(m, k)
	}
	p := s.FilePath(profile)
	if len(m) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove the credentials file: %w", err)
		}
		return nil
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("create the credentials directory: %w", err)
	}
	if err := atomicfile.WriteFile(p, b, 0o600); err != nil {
		return fmt.Errorf("write the credentials file: %w", err)
	}
	return nil
}

type entry struct{ key, val string }

// get reads keys of a group from its recorded backend.
func (s *Store) get(profile string, b Backend, keys ...string) (map[string]string, error) {
	if b == BackendFile {
		return s.fileGet(profile, keys)
	}
	return s.krGet(profile, keys)
}

// put stores a group of secrets. With keep (a refresh), a group recorded in
// the file stays there (consent was given when it was written); otherwise
// the keyring is tried first and the file needs consent.
func (s *Store) put(profile string, recorded Backend, keep bool, kv ...entry) (Backend, error) {
	keys := make([]string, len(kv))
	for i, e := range kv {
		keys[i] = e.key
	}
	if keep && recorded == BackendFile {
		return BackendFile, s.fileUpdate(profile, kv, nil)
	}
	err := s.krSet(profile, kv)
	if err == nil {
		if recorded == BackendFile { // moved back into the keyring
			_ = s.fileUpdate(profile, nil, keys)
		}
		return BackendKeyring, nil
	}
	if !errors.Is(err, ErrKeyringUnreachable) || keep {
		return "", err
	}
	if !s.fileAllowed() {
		return "", fmt.Errorf("%w: %w; run again with --insecure-storage to keep them in %s (mode 0600)", ErrConsentRequired, err, s.FilePath(profile))
	}
	return BackendFile, s.fileUpdate(profile, kv, nil)
}

// del removes a group's keys from both backends (a keyring that cannot be
// reached is an error only when the group was recorded there).
func (s *Store) del(profile string, recorded Backend, keys ...string) error {
	ferr := s.fileUpdate(profile, nil, keys)
	var kerr error
	if recorded != BackendFile {
		kerr = s.krDelete(profile, keys)
	} else if s.keyringProblem() == nil {
		_ = s.krDelete(profile, keys) // leftovers; best effort
	}
	return errors.Join(kerr, ferr)
}

// ---- metadata ----

// meta is the non-secret record of a profile, kept in the state dir.
type meta struct {
	Profile      string       `json:"profile"`
	Session      *sessionMeta `json:"session,omitempty"`
	ClientSecret *secretMeta  `json:"client_secret,omitempty"`
	AI           *aiMeta      `json:"ai,omitempty"`
	Webhook      *groupMeta   `json:"webhook,omitempty"`
}

type groupMeta struct {
	Backend   Backend   `json:"backend"`
	UpdatedAt time.Time `json:"updated_at"`
}

// secretMeta is the client secret's record: it is sent only to the
// sign-in server it was given for.
type secretMeta struct {
	groupMeta
	AuthURL string `json:"auth_url,omitempty"`
}

type aiMeta struct {
	groupMeta
	APIKeyHint string `json:"api_key_hint,omitempty"`
	// BaseURL is the API the credentials were stored for: the tokens they
	// sign go there only.
	BaseURL string `json:"base_url,omitempty"`
}

type sessionMeta struct {
	groupMeta
	TokenType       string    `json:"token_type,omitempty"`
	Expiry          time.Time `json:"expiry"`
	RefreshIssuedAt time.Time `json:"refresh_issued_at"`
	Scopes          []string  `json:"scopes,omitempty"`
	UserID          string    `json:"user_id,omitempty"`
	AccountID       string    `json:"account_id,omitempty"`
	// BaseURL and AuthURL are the servers the session belongs to.
	BaseURL string `json:"base_url,omitempty"`
	AuthURL string `json:"auth_url,omitempty"`
}

func (s *Store) readMeta(profile string) (*meta, error) {
	if err := config.CheckProfileName(profile); err != nil {
		return nil, err
	}
	m := &meta{Profile: profile}
	b, err := os.ReadFile(s.metaPath(profile))
	if errors.Is(err, fs.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read session metadata: %w", err)
	}
	if err := json.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("session metadata %s is damaged (run `evdesk logout` and log in again): %v", s.metaPath(profile), err)
	}
	m.Profile = profile
	return m, nil
}

func (s *Store) writeMeta(m *meta) error {
	p := s.metaPath(m.Profile)
	if m.Session == nil && m.ClientSecret == nil && m.AI == nil && m.Webhook == nil {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove session metadata: %w", err)
		}
		return nil
	}
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("create the state directory: %w", err)
	}
	if err := atomicfile.WriteFile(p, b, 0o600); err != nil {
		return fmt.Errorf("write session metadata: %w", err)
	}
	return nil
}

// Profiles lists the profiles with anything stored.
func (s *Store) Profiles() ([]string, error) {
	var out []string
	for _, dir := range []string{filepath.Join(s.stateDir, "sessions"), filepath.Dir(s.FilePath("x"))} {
		entries, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), ".json")
			if ok && config.CheckProfileName(name) == nil && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// ---- sessions ----

// Session is a stored login: the tokens and what is known about them.
type Session struct {
	Profile      string
	AccessToken  string
	RefreshToken string
	TokenType    string
	Expiry       time.Time // of the access token
	// RefreshIssuedAt is when the current refresh token was issued (login
	// or the last rotation); it expires RefreshTokenLifetime later.
	RefreshIssuedAt time.Time
	Scopes          []string
	UserID          string
	AccountID       string
	Backend         Backend
	// BaseURL and AuthURL are the API and sign-in servers the session was
	// issued for: it is used against them only (empty for a session stored
	// before evdesk recorded them).
	BaseURL, AuthURL string
}

// String never shows the tokens.
func (s *Session) String() string {
	return fmt.Sprintf("session{profile=%s backend=%s expiry=%s}", s.Profile, s.Backend, s.Expiry.Format(time.RFC3339))
}

// Secret entry names in the keyring (user field) and the fallback file.
const (
	keyAccess       = "access_token"
	keyRefresh      = "refresh_token"
	keyClientSecret = "client_secret"
	keyAIKey        = "ai_api_key"
	keyAISecret     = "ai_api_secret"
	keyWebhook      = "webhook_secret_token"
)

// Load reads the profile's session; ErrNotLoggedIn when there is none.
func (s *Store) Load(profile string) (*Session, error) {
	m, err := s.readMeta(profile)
	if err != nil {
		return nil, err
	}
	if m.Session == nil {
		return nil, fmt.Errorf("%w to profile %q", ErrNotLoggedIn, profile)
	}
	sec, err := s.get(profile, m.Session.Backend, keyRefresh, keyAccess)
	if err != nil {
		return nil, err
	}
	if sec[keyRefresh] == "" && sec[keyAccess] == "" {
		return nil, fmt.Errorf("%w to profile %q (the %s holds no tokens)", ErrNotLoggedIn, profile, describeBackend(m.Session.Backend))
	}
	sm := m.Session
	return &Session{Profile: profile, AccessToken: sec[keyAccess], RefreshToken: sec[keyRefresh], TokenType: sm.TokenType,
		Expiry: sm.Expiry, RefreshIssuedAt: sm.RefreshIssuedAt, Scopes: sm.Scopes, UserID: sm.UserID,
		AccountID: sm.AccountID, Backend: sm.Backend, BaseURL: sm.BaseURL, AuthURL: sm.AuthURL}, nil
}

// Save stores a new session (a login): the keyring when it works, else the
// file if the user consented. It sets sess.Backend. The refresh token is
// written before the access token.
func (s *Store) Save(sess *Session) error { return s.save(sess, false) }

// save with keep keeps the recorded backend (a refresh).
func (s *Store) save(sess *Session, keep bool) error {
	m, err := s.readMeta(sess.Profile)
	if err != nil {
		return err
	}
	var recorded Backend
	if m.Session != nil {
		recorded = m.Session.Backend
	}
	b, err := s.put(sess.Profile, recorded, keep, entry{keyRefresh, sess.RefreshToken}, entry{keyAccess, sess.AccessToken})
	if err != nil {
		return fmt.Errorf("store the tokens of profile %q: %w", sess.Profile, err)
	}
	sess.Backend = b
	m.Session = &sessionMeta{groupMeta: groupMeta{Backend: b, UpdatedAt: s.now().UTC()}, TokenType: sess.TokenType,
		Expiry: sess.Expiry.UTC(), RefreshIssuedAt: sess.RefreshIssuedAt.UTC(), Scopes: sess.Scopes,
		UserID: sess.UserID, AccountID: sess.AccountID, BaseURL: sess.BaseURL, AuthURL: sess.AuthURL}
	return s.writeMeta(m)
}

// Clear removes the profile's tokens (client secret and transcription
// credentials stay).
func (s *Store) Clear(profile string) error {
	m, err := s.readMeta(profile)
	if err != nil {
		return err
	}
	var recorded Backend
	if m.Session != nil {
		recorded = m.Session.Backend
	}
	if err := s.del(profile, recorded, keyAccess, keyRefresh); err != nil {
		return fmt.Errorf("remove the tokens of profile %q: %w", profile, err)
	}
	m.Session = nil
	return s.writeMeta(m)
}

// Forget removes everything stored for the profile: tokens, client secret
// and transcription credentials.
func (s *Store) Forget(profile string) error {
	m, err := s.readMeta(profile)
	if err != nil {
		return err
	}
	var errs []error
	for _, g := range []struct {
		b    *Backend
		keys []string
	}{
		{backendOf(m.Session != nil, func() Backend { return m.Session.Backend }), []string{keyAccess, keyRefresh}},
		{backendOf(m.ClientSecret != nil, func() Backend { return m.ClientSecret.Backend }), []string{keyClientSecret}},
		{backendOf(m.AI != nil, func() Backend { return m.AI.Backend }), []string{keyAIKey, keyAISecret}},
		{backendOf(m.Webhook != nil, func() Backend { return m.Webhook.Backend }), []string{keyWebhook}},
	} {
		if g.b == nil {
			continue
		}
		errs = append(errs, s.del(profile, *g.b, g.keys...))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("forget profile %q: %w", profile, err)
	}
	return s.writeMeta(&meta{Profile: profile})
}

func backendOf(present bool, f func() Backend) *Backend {
	if !present {
		return nil
	}
	b := f()
	return &b
}

// ---- client secret ----

// ClientSecret reads the profile's OAuth client secret; ErrNotFound when
// none is stored.
func (s *Store) ClientSecret(profile string) (string, error) {
	m, err := s.readMeta(profile)
	if err != nil {
		return "", err
	}
	if m.ClientSecret == nil {
		return "", fmt.Errorf("client secret of profile %q: %w", profile, ErrNotFound)
	}
	sec, err := s.get(profile, m.ClientSecret.Backend, keyClientSecret)
	if err != nil {
		return "", err
	}
	if sec[keyClientSecret] == "" {
		return "", fmt.Errorf("client secret of profile %q: %w", profile, ErrNotFound)
	}
	return sec[keyClientSecret], nil
}

// SaveClientSecret stores the client secret (same rules as Save) for the
// sign-in server at authURL.
func (s *Store) SaveClientSecret(profile, authURL, secret string) (Backend, error) {
	m, err := s.readMeta(profile)
	if err != nil {
		return "", err
	}
	var recorded Backend
	if m.ClientSecret != nil {
		recorded = m.ClientSecret.Backend
	}
	b, err := s.put(profile, recorded, false, entry{keyClientSecret, secret})
	if err != nil {
		return "", fmt.Errorf("store the client secret of profile %q: %w", profile, err)
	}
	m.ClientSecret = &secretMeta{groupMeta: groupMeta{Backend: b, UpdatedAt: s.now().UTC()}, AuthURL: authURL}
	return b, s.writeMeta(m)
}

// ---- transcription credentials ----

// AICredentials are the API key and secret that sign transcription JWTs.
type AICredentials struct {
	APIKey    string
	APISecret string
}

// String never shows the secret.
func (c AICredentials) String() string { return "ai-credentials{key=" + keyHint(c.APIKey) + "}" }

// keyHint shows the first characters of an API key.
func keyHint(k string) string {
	if len(k) <= 4 {
		return strings.Repeat("*", len(k))
	}
	return k[:4] + "…"
}

// AICredentials reads the profile's transcription credentials.
func (s *Store) AICredentials(profile string) (AICredentials, error) {
	m, err := s.readMeta(profile)
	if err != nil {
		return AICredentials{}, err
	}
	if m.AI == nil {
		return AICredentials{}, fmt.Errorf("transcription credentials of profile %q: %w (run `evdesk login --ai`)", profile, ErrNotFound)
	}
	sec, err := s.get(profile, m.AI.Backend, keyAIKey, keyAISecret)
	if err != nil {
		return AICredentials{}, err
	}
	if sec[keyAIKey] == "" || sec[keyAISecret] == "" {
		return AICredentials{}, fmt.Errorf("transcription credentials of profile %q: %w (run `evdesk login --ai`)", profile, ErrNotFound)
	}
	return AICredentials{APIKey: sec[keyAIKey], APISecret: sec[keyAISecret]}, nil
}

// SaveAICredentials stores the transcription credentials (same rules as
// Save) for the API at baseURL.
func (s *Store) SaveAICredentials(profile, baseURL string, c AICredentials) (Backend, error) {
	if c.APIKey == "" || c.APISecret == "" {
		return "", errors.New("both the API key and the API secret are required")
	}
	m, err := s.readMeta(profile)
	if err != nil {
		return "", err
	}
	var recorded Backend
	if m.AI != nil {
		recorded = m.AI.Backend
	}
	b, err := s.put(profile, recorded, false, entry{keyAIKey, c.APIKey}, entry{keyAISecret, c.APISecret})
	if err != nil {
		return "", fmt.Errorf("store the transcription credentials of profile %q: %w", profile, err)
	}
	m.AI = &aiMeta{groupMeta: groupMeta{Backend: b, UpdatedAt: s.now().UTC()}, APIKeyHint: keyHint(c.APIKey), BaseURL: baseURL}
	return b, s.writeMeta(m)
}

// ---- webhook secret token ----

// WebhookSecret reads the profile's webhook secret token; ErrNotFound
// when none is stored.
func (s *Store) WebhookSecret(profile string) (string, error) {
	m, err := s.readMeta(profile)
	if err != nil {
		return "", err
	}
	missing := fmt.Errorf("webhook secret token of profile %q: %w (run `evdesk login --webhook-secret`)", profile, ErrNotFound)
	if m.Webhook == nil {
		return "", missing
	}
	sec, err := s.get(profile, m.Webhook.Backend, keyWebhook)
	if err != nil {
		return "", err
	}
	if sec[keyWebhook] == "" {
		return "", missing
	}
	return sec[keyWebhook], nil
}

// SaveWebhookSecret stores the webhook secret token (same rules as Save).
func (s *Store) SaveWebhookSecret(profile, secret string) (Backend, error) {
	if secret == "" {
		return "", errors.New("the webhook secret token is empty")
	}
	m, err := s.readMeta(profile)
	if err != nil {
		return "", err
	}
	var recorded Backend
	if m.Webhook != nil {
		recorded = m.Webhook.Backend
	}
	b, err := s.put(profile, recorded, false, entry{keyWebhook, secret})
	if err != nil {
		return "", fmt.Errorf("store the webhook secret token of profile %q: %w", profile, err)
	}
	m.Webhook = &groupMeta{Backend: b, UpdatedAt: s.now().UTC()}
	return b, s.writeMeta(m)
}

// ---- status ----

// Info is what `evdesk auth status` shows, read without touching secrets.
type Info struct {
	Profile      string
	Session      *Session // tokens left empty
	ClientSecret Backend  // "" when none stored
	AI           Backend  // "" when none stored
	AIKeyHint    string
}

// Info reads the profile's metadata only (never the keyring).
func (s *Store) Info(profile string) (*Info, error) {
	m, err := s.readMeta(profile)
	if err != nil {
		return nil, err
	}
	in := &Info{Profile: profile}
	if sm := m.Session; sm != nil {
		in.Session = &Session{Profile: profile, TokenType: sm.TokenType, Expiry: sm.Expiry, RefreshIssuedAt: sm.RefreshIssuedAt,
			Scopes: sm.Scopes, UserID: sm.UserID, AccountID: sm.AccountID, Backend: sm.Backend,
			BaseURL: sm.BaseURL, AuthURL: sm.AuthURL}
	}
	if m.ClientSecret != nil {
		in.ClientSecret = m.ClientSecret.Backend
	}
	if m.AI != nil {
		in.AI, in.AIKeyHint = m.AI.Backend, m.AI.APIKeyHint
	}
	return in, nil
}

// Describe says loudly where a backend keeps a profile's secrets.
func (s *Store) Describe(profile string, b Backend) string {
	if b == BackendFile {
		return fmt.Sprintf("a PLAIN FILE %s (mode 0600, not encrypted; consented with --insecure-storage)", s.FilePath(profile))
	}
	return fmt.Sprintf("the OS keyring (service %q)", Service(profile))
}

func describeBackend(b Backend) string {
	if b == BackendFile {
		return "credentials file"
	}
	return "keyring"
}
