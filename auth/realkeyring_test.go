package auth

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// TestRealSecretService stores, reads and clears a session through the OS
// keyring itself: go-keyring over D-Bus to a running Secret Service. It
// needs EVDESK_REAL_KEYRING=1 and a fresh process (other tests replace the
// keyring with go-keyring's mock); .ci/run starts gnome-keyring and runs it
// alone.
func TestRealSecretService(t *testing.T) {
	if os.Getenv("EVDESK_REAL_KEYRING") != "1" {
		t.Skip("needs a running Secret Service and EVDESK_REAL_KEYRING=1 (.ci/run provides both)")
	}
	dir := t.TempDir()
	st := NewStore(StoreOptions{ConfigDir: dir, StateDir: dir})
	if err := st.Probe(); err != nil {
		t.Fatalf("the Secret Service is not reachable: %v", err)
	}
	s := testSession()
	s.Profile = fmt.Sprintf("ci-%d", time.Now().UnixNano())
	service := Service(s.Profile)
	t.Cleanup(func() { _ = st.Clear(s.Profile) })

	if err := st.Save(s); err != nil || s.Backend != BackendKeyring {
		t.Fatalf("save: %v (backend %q)", err, s.Backend)
	}
	if v, err := keyring.Get(service, "refresh_token"); err != nil || v != "rt-1" {
		t.Fatalf("the refresh token is not in the keyring: %q %v", v, err)
	}
	got, err := st.Load(s.Profile)
	if err != nil || got.AccessToken != "at-1" || got.RefreshToken != "rt-1" {
		t.Fatalf("load: %+v %v", got, err)
	}
	if _, err := os.Stat(st.FilePath(s.Profile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a credentials file was written although the keyring works")
	}
	if err := st.Clear(s.Profile); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get(service, "access_token"); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("the access token is still in the keyring: %v", err)
	}
}
