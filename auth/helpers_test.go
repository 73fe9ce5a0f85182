package auth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/fakeclock"
)

var testEpoch = time.Date(2026, time.March, 10, 10, 0, 0, 0, time.UTC)

type fakeClock = fakeclock.Clock

// simEnv is the simulator's OAuth server over real HTTP, counting token
// requests by grant type.
type simEnv struct {
	t        *testing.T
	sim      *sim.Sim
	srv      *httptest.Server
	clock    *fakeClock
	refresh  atomic.Int32 // refresh_token grants seen
	exchange atomic.Int32 // authorization_code grants seen
	stateDir string
	cfgDir   string
}

func newSimEnv(t *testing.T) *simEnv { return newSimEnvWith(t, sim.Options{}) }

// newSimEnvWith is newSimEnv with simulator options (its clock and rate
// limit are the env's).
func newSimEnvWith(t *testing.T, opts sim.Options) *simEnv {
	t.Helper()
	keyring.MockInit()
	clock := fakeclock.New(testEpoch)
	e := &simEnv{t: t, clock: clock, stateDir: t.TempDir(), cfgDir: t.TempDir()}
	opts.Now, opts.NoRateLimit = clock.Now, true
	e.sim = sim.New(opts)
	e.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth/token" {
			b, _ := io.ReadAll(r.Body)
			form, _ := url.ParseQuery(string(b))
			switch form.Get("grant_type") {
			case "refresh_token":
				e.refresh.Add(1)
			case "authorization_code":
				e.exchange.Add(1)
			}
			r.Body = io.NopCloser(strings.NewReader(string(b)))
		}
		e.sim.ServeHTTP(w, r)
	}))
	t.Cleanup(e.srv.Close)
	return e
}

// store is a store over the mock keyring (a session bus "exists") in the
// env's temp dirs; each call builds a new Store, as another process would.
func (e *simEnv) store(kr Keyring) *Store {
	if kr == nil {
		kr = OSKeyring{}
	}
	return NewStore(StoreOptions{Keyring: kr, ConfigDir: e.cfgDir, StateDir: e.stateDir, GOOS: "linux",
		Getenv: busEnv, Now: e.clock.Now})
}

func busEnv(k string) string {
	if k == "DBUS_SESSION_BUS_ADDRESS" {
		return "unix:path=/run/user/1000/bus"
	}
	return ""
}

func noBusEnv(string) string { return "" }

// listener opens the loopback redirect listener on a random port and
// registers its URI with the simulator.
func (e *simEnv) listener() (net.Listener, string) {
	e.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.t.Fatal(err)
	}
	uri := "http://" + ln.Addr().String() + "/callback"
	e.sim.RegisterRedirectURI(uri)
	return ln, uri
}

func (e *simEnv) profile(redirect string) config.Profile {
	return config.Profile{Name: "work", BaseURL: e.srv.URL + "/v2", AuthURL: e.srv.URL, PathWord: "vendor",
		ClientID: sim.DemoClientID, RedirectURI: redirect}
}

// approvingBrowser plays the user's browser: it follows the authorization
// URL (auto-approved by header) to the loopback callback and reports the
// callback's answer.
type approvingBrowser struct {
	mu     sync.Mutex
	status int
	body   string
	done   chan struct{}
	before func(authURL string) // runs first (e.g. a forged callback)
	mutate func(authURL string) string
}

func newBrowser() *approvingBrowser { return &approvingBrowser{done: make(chan struct{})} }

func (b *approvingBrowser) open(u string) error {
	go func() {
		defer close(b.done)
		if b.before != nil {
			b.before(u)
		}
		if b.mutate != nil {
			u = b.mutate(u)
		}
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		req.Header.Set(sim.AutoApproveHeader, "1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		b.mu.Lock()
		b.status, b.body = resp.StatusCode, string(body)
		b.mu.Unlock()
	}()
	return nil
}

func (b *approvingBrowser) result() (int, string) {
	<-b.done
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.status, b.body
}

// login runs a full login through the browser path.
func (e *simEnv) login(st *Store) *Session {
	e.t.Helper()
	ln, uri := e.listener()
	b := newBrowser()
	sess, err := Login(context.Background(), LoginOptions{Profile: e.profile(uri), ClientSecret: sim.DemoClientSecret,
		SaveClientSecret: true, Store: st, OpenBrowser: b.open, Listener: ln, Now: e.clock.Now})
	if err != nil {
		e.t.Fatal(err)
	}
	b.result()
	return sess
}

// apiStatus calls an API endpoint with token and returns the status.
func (e *simEnv) apiStatus(token string) int {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/v2/vendor_events/events?role_type=host", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// rawRefresh spends a refresh token outside any token source.
func (e *simEnv) rawRefresh(rt string) (access, refresh string, status int) {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/oauth/token",
		strings.NewReader(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {rt}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(sim.DemoClientID, sim.DemoClientSecret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var m struct {
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	b, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(b, &m)
	return m.AccessToken, m.RefreshToken, resp.StatusCode
}

// recordingKeyring wraps the mock keyring, counting calls and failing
// writes of chosen entries on demand.
type recordingKeyring struct {
	calls    atomic.Int32
	mu       sync.Mutex
	failSets map[string]bool
}

func (k *recordingKeyring) failSet(user string, fail bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.failSets == nil {
		k.failSets = map[string]bool{}
	}
	k.failSets[user] = fail
}

func (k *recordingKeyring) Set(service, user, secret string) error {
	k.calls.Add(1)
	k.mu.Lock()
	fail := k.failSets[user]
	k.mu.Unlock()
	if fail {
		return errors.New("org.freedesktop.DBus.Error.NoReply: the keyring daemon did not answer")
	}
	return keyring.Set(service, user, secret)
}

func (k *recordingKeyring) Get(service, user string) (string, error) {
	k.calls.Add(1)
	return keyring.Get(service, user)
}

func (k *recordingKeyring) Delete(service, user string) error {
	k.calls.Add(1)
	return keyring.Delete(service, user)
}

// hangingKeyring never answers (until the test ends).
type hangingKeyring struct{ release chan struct{} }

func (k hangingKeyring) Set(string, string, string) error   { <-k.release; return nil }
func (k hangingKeyring) Get(string, string) (string, error) { <-k.release; return "", nil }
func (k hangingKeyring) Delete(string, string) error        { <-k.release; return nil }
func firedAfter(time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	c <- time.Time{}
	return c
}
