package auth

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
)

func TestLoginAgainstSimulator(t *testing.T) {
	e := newSimEnv(t)
	st := e.store(nil)
	ln, uri := e.listener()
	b := newBrowser()
	var seen string
	open := func(u string) error { seen = u; return b.open(u) }
	var out bytes.Buffer
	sess, err := Login(context.Background(), LoginOptions{Profile: e.profile(uri), ClientSecret: sim.DemoClientSecret,
		SaveClientSecret: true, Store: st, OpenBrowser: open, Listener: ln, Out: &syncWriter{w: &out}, Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	status, body := b.result()
	if status != http.StatusOK || !strings.Contains(body, "close this tab") {
		t.Fatalf("callback answered %d %q", status, body)
	}
	// PKCE S256 and state were sent; the server verified the verifier.
	q := mustQuery(t, seen)
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || len(q.Get("state")) < 32 ||
		q.Get("response_type") != "code" || q.Get("redirect_uri") != uri {
		t.Fatalf("authorization URL %s", seen)
	}
	if !strings.Contains(out.String(), seen) {
		t.Errorf("the URL was not printed: %s", out.String())
	}
	if sess.Backend != BackendKeyring || sess.UserID != sim.DemoHostID || len(sess.Scopes) == 0 ||
		!sess.Expiry.Equal(testEpoch.Add(time.Hour)) || !sess.RefreshIssuedAt.Equal(testEpoch) {
		t.Fatalf("%+v", sess)
	}
	if got := e.apiStatus(sess.AccessToken); got != http.StatusOK {
		t.Fatalf("API answered %d to the new token", got)
	}
	// Stored: tokens, metadata, client secret.
	again, err := e.store(nil).Load("work")
	if err != nil {
		t.Fatal(err)
	}
	if again.AccessToken != sess.AccessToken || again.RefreshToken != sess.RefreshToken || again.AccountID != sim.DemoAccountID {
		t.Fatalf("%+v", again)
	}
	if s, err := st.ClientSecret("work"); err != nil || s != sim.DemoClientSecret {
		t.Fatalf("%q %v", s, err)
	}
	// The secret never shows up in what was printed.
	if strings.Contains(out.String(), sim.DemoClientSecret) || strings.Contains(sess.String(), sess.AccessToken) {
		t.Error("secret leaked")
	}
}

func mustQuery(t *testing.T, u string) url.Values {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Query()
}

func TestLoginStateMismatchIsRejectedAndTheFlowKeepsWaiting(t *testing.T) {
	e := newSimEnv(t)
	ln, uri := e.listener()
	b := newBrowser()
	var forged int
	b.before = func(string) {
		for _, q := range []string{"?code=stolen&state=wrong", "?code=stolen", "?error=access_denied&state=wrong"} {
			resp, err := http.Get(uri + q)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("forged callback %s answered %d", q, resp.StatusCode)
			}
			forged++
		}
		if resp, err := http.Get(strings.Replace(uri, "/callback", "/other", 1)); err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("other path answered %d", resp.StatusCode)
			}
		}
	}
	sess, err := Login(context.Background(), LoginOptions{Profile: e.profile(uri), ClientSecret: sim.DemoClientSecret,
		Store: e.store(nil), OpenBrowser: b.open, Listener: ln, Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if status, _ := b.result(); status != http.StatusOK || forged != 3 {
		t.Fatalf("status %d, forged %d", status, forged)
	}
	if e.exchange.Load() != 1 {
		t.Fatalf("%d code exchanges, want 1 (the forged codes must never reach the server)", e.exchange.Load())
	}
	if e.apiStatus(sess.AccessToken) != http.StatusOK {
		t.Fatal("token refused")
	}
}

func TestLoginWrongVerifierFails(t *testing.T) {
	e := newSimEnv(t)
	ln, uri := e.listener()
	b := newBrowser()
	// A different challenge at the server: the code's verifier no longer matches.
	b.mutate = func(u string) string {
		p, _ := url.Parse(u)
		q := p.Query()
		q.Set("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
		p.RawQuery = q.Encode()
		return p.String()
	}
	_, err := Login(context.Background(), LoginOptions{Profile: e.profile(uri), ClientSecret: sim.DemoClientSecret,
		Store: e.store(nil), OpenBrowser: b.open, Listener: ln, Now: e.clock.Now})
	if err == nil || !strings.Contains(err.Error(), "invalid_grant") {
		t.Fatalf("got %v, want invalid_grant", err)
	}
}

func TestLoginWrongClientSecret(t *testing.T) {
	e := newSimEnv(t)
	ln, uri := e.listener()
	b := newBrowser()
	_, err := Login(context.Background(), LoginOptions{Profile: e.profile(uri), ClientSecret: "not-the-secret-42",
		Store: e.store(nil), OpenBrowser: b.open, Listener: ln, Now: e.clock.Now})
	if !errors.Is(err, ErrInvalidClient) || strings.Contains(err.Error(), "not-the-secret-42") {
		t.Fatalf("%v", err)
	}
}

// pasteEnv runs a --no-browser login whose input is a pipe the test writes.
type pasteEnv struct {
	e      *simEnv
	uri    string
	out    *notifyWriter
	in     *io.PipeWriter
	result chan error
	sess   *Session
}

func startPasteLogin(t *testing.T, e *simEnv) *pasteEnv {
	ln, uri := e.listener()
	return startPasteLoginAt(t, e, uri, ln)
}

// startPasteLoginAt is startPasteLogin with redirect URI uri, and ln its
// listener (nil for a redirect not on this machine).
func startPasteLoginAt(t *testing.T, e *simEnv, uri string, ln net.Listener) *pasteEnv {
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	pe := &pasteEnv{e: e, uri: uri, out: newNotifyWriter(), in: pw, result: make(chan error, 1)}
	go func() {
		var err error
		pe.sess, err = Login(context.Background(), LoginOptions{Profile: e.profile(uri), ClientSecret: sim.DemoClientSecret,
			Store: e.store(nil), NoBrowser: true, OpenBrowser: func(string) error { t.Error("browser opened with --no-browser"); return nil },
			Input: NewLineReader(pr), Listener: ln, Out: pe.out, Now: e.clock.Now})
		pe.result <- err
	}()
	return pe
}

// approve fetches the printed authorization URL like a browser elsewhere
// and returns the address it is redirected to (never visited).
func (pe *pasteEnv) approve(t *testing.T) string {
	t.Helper()
	authURL := pe.out.waitFor(t, pe.e.srv.URL+"/oauth/authorize?")
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest(http.MethodGet, authURL, nil)
	req.Header.Set(sim.AutoApproveHeader, "1")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.Header.Get("Location")
}

func TestLoginPastedRedirectURL(t *testing.T) {
	e := newSimEnv(t)
	pe := startPasteLogin(t, e)
	loc := pe.approve(t)
	if !strings.HasPrefix(loc, pe.uri+"?") {
		t.Fatalf("redirect %s", loc)
	}
	p, _ := url.Parse(loc)
	wrong := p.Query()
	wrong.Set("state", "someone-elses")
	p.RawQuery = wrong.Encode()
	io.WriteString(pe.in, "\n"+p.String()+"\nnot a code at all\n")
	pe.out.waitFor(t, "state mismatch")
	pe.out.waitFor(t, "does not look like a code")
	io.WriteString(pe.in, "  "+loc+"  \n")
	if err := <-pe.result; err != nil {
		t.Fatal(err)
	}
	if e.apiStatus(pe.sess.AccessToken) != http.StatusOK {
		t.Fatal("token refused")
	}
}

func TestLoginPastedBareCode(t *testing.T) {
	e := newSimEnv(t)
	pe := startPasteLogin(t, e)
	p, _ := url.Parse(pe.approve(t))
	io.WriteString(pe.in, p.Query().Get("code")+"\n")
	if err := <-pe.result; err != nil {
		t.Fatal(err)
	}
}

func TestLoginTimesOut(t *testing.T) {
	e := newSimEnv(t)
	ln, uri := e.listener()
	_, err := Login(context.Background(), LoginOptions{Profile: e.profile(uri), ClientSecret: sim.DemoClientSecret,
		Store: e.store(nil), NoBrowser: true, Listener: ln, Timeout: time.Millisecond, Now: e.clock.Now})
	if !errors.Is(err, ErrLoginTimeout) || !strings.Contains(err.Error(), "evdesk login") {
		t.Fatalf("%v", err)
	}
}

func TestLoginDenied(t *testing.T) {
	e := newSimEnv(t)
	ln, uri := e.listener()
	b := newBrowser()
	b.mutate = func(u string) string {
		// The user presses Deny on the consent page.
		p, _ := url.Parse(u)
		form := p.Query()
		form.Set("decision", "deny")
		resp, err := http.PostForm(e.srv.URL+"/oauth/authorize", form)
		if err == nil {
			resp.Body.Close()
		}
		return "http://127.0.0.1:1/unused" // nothing more to visit
	}
	_, err := Login(context.Background(), LoginOptions{Profile: e.profile(uri), ClientSecret: sim.DemoClientSecret,
		Store: e.store(nil), OpenBrowser: b.open, Listener: ln, Now: e.clock.Now})
	if err == nil || !strings.Contains(err.Error(), "access_denied") {
		t.Fatalf("%v", err)
	}
}

func TestLoginNeedsConsentWithoutKeyring(t *testing.T) {
	e := newSimEnv(t)
	kr := &recordingKeyring{}
	st := NewStore(StoreOptions{Keyring: kr, ConfigDir: e.cfgDir, StateDir: e.stateDir, GOOS: "linux", Getenv: noBusEnv})
	ln, uri := e.listener()
	b := newBrowser()
	_, err := Login(context.Background(), LoginOptions{Profile: e.profile(uri), ClientSecret: sim.DemoClientSecret,
		Store: st, OpenBrowser: b.open, Listener: ln, Now: e.clock.Now})
	if !errors.Is(err, ErrConsentRequired) || !strings.Contains(err.Error(), "--insecure-storage") {
		t.Fatalf("%v", err)
	}
	st.SetAllowFile(true)
	ln, uri = e.listener()
	b = newBrowser()
	sess, err := Login(context.Background(), LoginOptions{Profile: e.profile(uri), ClientSecret: sim.DemoClientSecret,
		Store: st, OpenBrowser: b.open, Listener: ln, Now: e.clock.Now})
	if err != nil || sess.Backend != BackendFile {
		t.Fatalf("%v %+v", err, sess)
	}
	if kr.calls.Load() != 0 {
		t.Fatalf("keyring called %d times without a session bus", kr.calls.Load())
	}
}

// notifyWriter collects output and lets tests wait for a substring.
type notifyWriter struct {
	mu      sync.Mutex
	buf     strings.Builder
	changed chan struct{}
}

func newNotifyWriter() *notifyWriter { return &notifyWriter{changed: make(chan struct{}, 1)} }

func (w *notifyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.buf.Write(p)
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// waitFor waits until the output holds sub and returns the rest of the
// whitespace-delimited word starting with it.
func (w *notifyWriter) waitFor(t *testing.T, sub string) string {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		w.mu.Lock()
		s := w.buf.String()
		w.mu.Unlock()
		if i := strings.Index(s, sub); i >= 0 {
			return strings.Fields(s[i:])[0]
		}
		select {
		case <-w.changed:
		case <-deadline:
			t.Fatalf("output never contained %q:\n%s", sub, s)
		}
	}
}

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func TestOpenBrowserRefusesAnythingButWebAddresses(t *testing.T) {
	for _, u := range []string{"file:///etc/passwd", "javascript:alert(1)", "ssh://host", "https://", "not a url", "xdg-open; rm -rf"} {
		if err := OpenBrowser(u); err == nil || !strings.Contains(err.Error(), "not a web address") {
			t.Errorf("OpenBrowser(%q) = %v, want a refusal", u, err)
		}
	}
}

// appRedirect is a redirect URI of the kind a provider app is registered
// with: https, on another machine.
const appRedirect = "https://app.example.com/evdesk/callback"

// TestLoginWithTheAppsHTTPSRedirect: the redirect is not on this machine,
// so nothing listens; the address the browser lands on is pasted, its
// state checked, and the code exchanged with the PKCE verifier.
func TestLoginWithTheAppsHTTPSRedirect(t *testing.T) {
	e := newSimEnv(t)
	e.sim.RegisterRedirectURI(appRedirect)
	pe := startPasteLoginAt(t, e, appRedirect, nil)
	loc := pe.approve(t)
	if !strings.HasPrefix(loc, appRedirect+"?") {
		t.Fatalf("redirect %s", loc)
	}
	pe.out.waitFor(t, "Copy the whole address from the browser's address bar")
	p, _ := url.Parse(loc)
	wrong := p.Query()
	wrong.Set("state", "someone-elses")
	p.RawQuery = wrong.Encode()
	io.WriteString(pe.in, p.String()+"\n")
	pe.out.waitFor(t, "state mismatch")
	io.WriteString(pe.in, loc+"\n")
	if err := <-pe.result; err != nil {
		t.Fatal(err)
	}
	if e.apiStatus(pe.sess.AccessToken) != http.StatusOK {
		t.Fatal("token refused")
	}
}

// The code alone works too, and a code without its verifier would not: the
// simulator checks PKCE, so a code taken by someone else is useless.
func TestLoginWithTheAppsRedirectTakesTheCodeAlone(t *testing.T) {
	e := newSimEnv(t)
	e.sim.RegisterRedirectURI(appRedirect)
	pe := startPasteLoginAt(t, e, appRedirect, nil)
	p, _ := url.Parse(pe.approve(t))
	io.WriteString(pe.in, p.Query().Get("code")+"\n")
	if err := <-pe.result; err != nil {
		t.Fatal(err)
	}
	if e.exchange.Load() != 1 {
		t.Fatalf("%d code exchanges", e.exchange.Load())
	}
}

// Without a terminal to paste into, a redirect evdesk cannot hear is
// refused at once, saying why.
func TestLoginWithARemoteRedirectNeedsAPaste(t *testing.T) {
	e := newSimEnv(t)
	_, err := Login(context.Background(), LoginOptions{Profile: e.profile(appRedirect), ClientSecret: sim.DemoClientSecret,
		Store: e.store(nil), NoBrowser: true, Now: e.clock.Now})
	if err == nil || !strings.Contains(err.Error(), "not on this machine") || !strings.Contains(err.Error(), "paste") {
		t.Fatalf("%v", err)
	}
}
