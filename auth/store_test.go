package auth

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

func testSession() *Session {
	return &Session{Profile: "work", AccessToken: "at-1", RefreshToken: "rt-1", TokenType: "bearer",
		Expiry: testEpoch.Add(time.Hour), RefreshIssuedAt: testEpoch, Scopes: []string{"a:read"}, UserID: "u1"}
}

func TestStoreKeyringRoundTrip(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	st := NewStore(StoreOptions{ConfigDir: dir, StateDir: dir, GOOS: "linux", Getenv: busEnv})
	if err := st.Probe(); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load("work"); !errors.Is(err, ErrNotLoggedIn) {
		t.Fatalf("%v", err)
	}
	s := testSession()
	if err := st.Save(s); err != nil || s.Backend != BackendKeyring {
		t.Fatalf("%v %s", err, s.Backend)
	}
	// Separate entries under service evdesk:<profile>.
	if v, _ := keyring.Get("evdesk:work", "access_token"); v != "at-1" {
		t.Fatalf("access %q", v)
	}
	if v, _ := keyring.Get("evdesk:work", "refresh_token"); v != "rt-1" {
		t.Fatalf("refresh %q", v)
	}
	got, err := st.Load("work")
	if err != nil || got.AccessToken != "at-1" || got.RefreshToken != "rt-1" || !got.Expiry.Equal(s.Expiry) ||
		got.UserID != "u1" || got.Backend != BackendKeyring {
		t.Fatalf("%+v %v", got, err)
	}
	// Metadata holds no secrets.
	b, _ := os.ReadFile(st.metaPath("work"))
	if strings.Contains(string(b), "at-1") || strings.Contains(string(b), "rt-1") || !strings.Contains(string(b), `"backend": "keyring"`) {
		t.Fatalf("metadata: %s", b)
	}
	if _, err := os.Stat(st.FilePath("work")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a credentials file was written although the keyring works")
	}
	if names, _ := st.Profiles(); len(names) != 1 || names[0] != "work" {
		t.Fatalf("%v", names)
	}
	if err := st.Clear("work"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load("work"); !errors.Is(err, ErrNotLoggedIn) {
		t.Fatalf("%v", err)
	}
	if _, err := keyring.Get("evdesk:work", "refresh_token"); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatal("refresh token left in the keyring")
	}
}

func TestStoreRejectsOversizedEntries(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	st := NewStore(StoreOptions{ConfigDir: dir, StateDir: dir, GOOS: "linux", Getenv: busEnv, AllowFile: true})
	s := testSession()
	s.AccessToken = strings.Repeat("x", MaxSecretLen+1)
	err := st.Save(s)
	if !errors.Is(err, ErrSecretTooLarge) || strings.Contains(err.Error(), "xxxx") {
		t.Fatalf("%v", err)
	}
}

func TestStoreNoSessionBusNeverCallsTheKeyring(t *testing.T) {
	dir := t.TempDir()
	kr := &recordingKeyring{}
	st := NewStore(StoreOptions{Keyring: kr, ConfigDir: dir, StateDir: dir, GOOS: "linux", Getenv: noBusEnv})
	err := st.Probe()
	if !errors.Is(err, ErrKeyringUnreachable) || !strings.Contains(err.Error(), "DBUS_SESSION_BUS_ADDRESS") {
		t.Fatalf("%v", err)
	}
	if err := st.Save(testSession()); !errors.Is(err, ErrConsentRequired) {
		t.Fatalf("%v", err)
	}
	if _, err := st.SaveClientSecret("work", "", "cs"); !errors.Is(err, ErrConsentRequired) {
		t.Fatalf("%v", err)
	}
	_, _ = st.Load("work")
	_ = st.Clear("work")
	if n := kr.calls.Load(); n != 0 {
		t.Fatalf("keyring called %d times", n)
	}
	// macOS and Windows have no session bus to check.
	mac := NewStore(StoreOptions{Keyring: kr, ConfigDir: dir, StateDir: dir, GOOS: "darwin", Getenv: noBusEnv})
	keyring.MockInit()
	if err := mac.Probe(); err != nil || kr.calls.Load() != 1 {
		t.Fatalf("%v %d", err, kr.calls.Load())
	}
}

func TestStoreFileFallbackNeedsConsentAndIs0600(t *testing.T) {
	cfg, state := t.TempDir(), t.TempDir()
	st := NewStore(StoreOptions{Keyring: &recordingKeyring{}, ConfigDir: cfg, StateDir: state, GOOS: "linux", Getenv: noBusEnv})
	s := testSession()
	err := st.Save(s)
	if !errors.Is(err, ErrConsentRequired) || !strings.Contains(err.Error(), "--insecure-storage") {
		t.Fatalf("%v", err)
	}
	if _, err := os.Stat(st.FilePath("work")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("file written without consent")
	}
	st.SetAllowFile(true)
	if err := st.Save(s); err != nil || s.Backend != BackendFile {
		t.Fatalf("%v %s", err, s.Backend)
	}
	if _, err := st.SaveClientSecret("work", "", "cs-1"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(st.FilePath("work"))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
	if !strings.Contains(st.Describe("work", BackendFile), "PLAIN FILE") {
		t.Error("the file backend is not announced loudly")
	}
	// A later process without consent still reads and refreshes into the
	// file the user agreed to, but a new login needs consent again.
	later := NewStore(StoreOptions{Keyring: &recordingKeyring{}, ConfigDir: cfg, StateDir: state, GOOS: "linux", Getenv: noBusEnv})
	got, err := later.Load("work")
	if err != nil || got.RefreshToken != "rt-1" || got.Backend != BackendFile {
		t.Fatalf("%+v %v", got, err)
	}
	got.RefreshToken = "rt-2"
	if err := later.save(got, true); err != nil {
		t.Fatal(err)
	}
	if err := later.Save(got); !errors.Is(err, ErrConsentRequired) {
		t.Fatalf("%v", err)
	}
	if cs, err := later.ClientSecret("work"); err != nil || cs != "cs-1" {
		t.Fatalf("%q %v", cs, err)
	}
	// Forget removes the file.
	if err := later.Forget("work"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(st.FilePath("work")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("credentials file left behind")
	}
}

func TestStoreKeyringTimeoutIsUnreachable(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	// Log in with a working keyring, then the keyring hangs.
	good := NewStore(StoreOptions{ConfigDir: dir, StateDir: dir, GOOS: "linux", Getenv: busEnv})
	if err := good.Save(testSession()); err != nil {
		t.Fatal(err)
	}
	st := NewStore(StoreOptions{Keyring: hangingKeyring{release}, ConfigDir: dir, StateDir: dir, GOOS: "linux",
		Getenv: busEnv, After: firedAfter, Timeout: 3 * time.Second})
	for name, err := range map[string]error{
		"probe": st.Probe(),
		"load":  func() error { _, err := st.Load("work"); return err }(),
		"save":  st.Save(testSession()),
	} {
		if !errors.Is(err, ErrKeyringUnreachable) || !strings.Contains(err.Error(), "keyring unreachable") ||
			!strings.Contains(err.Error(), "did not answer within 3s") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Consent moves a new login to the file even then.
	st.SetAllowFile(true)
	s := testSession()
	if err := st.Save(s); err != nil || s.Backend != BackendFile {
		t.Fatalf("%v %s", err, s.Backend)
	}
}

func TestStoreKeyringErrorsAreRedactedAndUnreachable(t *testing.T) {
	keyring.MockInitWithError(errors.New("dbus said: secret=hunter2 refused"))
	defer keyring.MockInit()
	dir := t.TempDir()
	st := NewStore(StoreOptions{ConfigDir: dir, StateDir: dir, GOOS: "linux", Getenv: busEnv})
	err := st.Probe()
	if !errors.Is(err, ErrKeyringUnreachable) || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("%v", err)
	}
}

func TestStoreAICredentials(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	st := NewStore(StoreOptions{ConfigDir: dir, StateDir: dir, GOOS: "linux", Getenv: busEnv})
	if _, err := st.AICredentials("work"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("%v", err)
	}
	c := AICredentials{APIKey: "key-abcdef", APISecret: "sec-123456"}
	if b, err := st.SaveAICredentials("work", "", c); err != nil || b != BackendKeyring {
		t.Fatalf("%v %s", err, b)
	}
	got, err := st.AICredentials("work")
	if err != nil || got != c {
		t.Fatalf("%+v %v", got, err)
	}
	if strings.Contains(got.String(), "sec-123456") {
		t.Error("secret in String")
	}
	in, _ := st.Info("work")
	if in.AI != BackendKeyring || in.AIKeyHint != "key-…" {
		t.Fatalf("%+v", in)
	}
}

func TestStoreRejectsBadProfileNames(t *testing.T) {
	dir := t.TempDir()
	st := NewStore(StoreOptions{ConfigDir: dir, StateDir: dir, GOOS: "linux", Getenv: noBusEnv})
	if _, err := st.Load("../etc"); err == nil {
		t.Fatal("path-like profile accepted")
	}
}
