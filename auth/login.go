package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/cli/browser"
	"golang.org/x/oauth2"

	"github.com/evdesk/evdesk/config"
)

// DefaultLoginTimeout bounds the wait for the browser (or a paste).
const DefaultLoginTimeout = 5 * time.Minute

// Errors of Login.
var (
	// ErrLoginTimeout: nobody came back from the browser in time.
	ErrLoginTimeout = errors.New("login timed out")
	// ErrInvalidClient: the token endpoint rejected the client id or secret.
	ErrInvalidClient = errors.New("the token endpoint rejected the client id or client secret")
)

// LoginOptions configures Login.
type LoginOptions struct {
	// Profile must pass ValidateLogin; its ClientSecret may be empty when
	// ClientSecret below is set.
	Profile      config.Profile
	ClientSecret string
	// Store receives the session (and the client secret when
	// SaveClientSecret is set).
	Store            *Store
	SaveClientSecret bool
	// NoBrowser only prints the URL (SSH, headless).
	NoBrowser bool
	// OpenBrowser opens a URL; default github.com/cli/browser with its
	// output discarded (the terminal belongs to evdesk).
	OpenBrowser func(url string) error
	// Input delivers lines pasted by the user: the redirect URL or the bare
	// code. May be nil.
	Input *LineReader
	// Out receives the instructions (the URL); default io.Discard.
	Out io.Writer
	// Timeout bounds the whole wait; default DefaultLoginTimeout.
	Timeout time.Duration
	// Listener, when set, is used instead of listening on the redirect
	// URI's address (tests pass one on a random port).
	Listener net.Listener
	// AuthParams are extra authorization request parameters.
	AuthParams url.Values
	// Now and HTTPClient as in the token source options.
	Now        func() time.Time
	HTTPClient *http.Client
}

// Login runs the authorization-code flow with PKCE (S256) and a random
// state: it opens the browser and prints the URL; with a loopback redirect
// URI it listens there and at the same time accepts a pasted redirect URL
// or code; with any other (the https address the app was registered with)
// it takes the pasted address alone, its state checked as the listener's.
// It exchanges the code (HTTP Basic client authentication, the PKCE
// verifier) and stores the session. The first valid answer wins; a
// callback or paste with a wrong state is refused and ignored.
func Login(ctx context.Context, o LoginOptions) (*Session, error) {
	p := o.Profile
	if err := p.ValidateLogin(); err != nil {
		return nil, err
	}
	secret := o.ClientSecret
	if secret == "" {
		secret = p.ClientSecret
	}
	if secret == "" {
		return nil, fmt.Errorf("no client secret for profile %q: set %s or let `evdesk login` ask for it", p.Name, config.EnvClientSecret)
	}
	if o.Store == nil {
		return nil, errors.New("login: no store")
	}
	hc := o.HTTPClient
	if hc == nil { // the code exchange: TLS 1.2 or newer, the profile's authorities
		tc, err := p.TLSConfig()
		if err != nil {
			return nil, err
		}
		hc = refreshClient(DefaultRefreshTimeout, tc)
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	out := &lockedWriter{w: o.Out}
	if o.Timeout <= 0 {
		o.Timeout = DefaultLoginTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.OpenBrowser == nil {
		o.OpenBrowser = OpenBrowser
	}
	redirect, err := url.Parse(p.RedirectURI)
	if err != nil {
		return nil, err
	}
	// A loopback redirect is answered by evdesk's own listener; any other
	// (the https address the app was registered with) only by a paste.
	loopback := p.RedirectIsLoopback()
	if !loopback && o.Input == nil {
		return nil, fmt.Errorf("the redirect URI %s is not on this machine, so evdesk cannot hear the browser's answer: run `evdesk login` in a terminal, where you can paste the address the browser lands on", p.RedirectURI)
	}
	ln := o.Listener
	if loopback && ln == nil {
		addr, err := p.RedirectAddr()
		if err != nil {
			return nil, err
		}
		if ln, err = net.Listen("tcp", addr); err != nil {
			return nil, fmt.Errorf("listen on %s for the login redirect (is another `evdesk login` running?): %w", addr, err)
		}
	}

	state := randomString(32)
	verifier := oauth2.GenerateVerifier()
	conf := OAuthConfig(p, secret)
	authOpts := []oauth2.AuthCodeOption{oauth2.S256ChallengeOption(verifier)}
	for k, vs := range o.AuthParams {
		for _, v := range vs {
			authOpts = append(authOpts, oauth2.SetAuthURLParam(k, v))
		}
	}
	authURL := conf.AuthCodeURL(state, authOpts...)

	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	results := make(chan callbackResult, 4)
	if loopback {
		cbPath := redirect.Path
		if cbPath == "" {
			cbPath = "/"
		}
		srv := &http.Server{Handler: &callbackHandler{path: cbPath, state: state, results: results},
			ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		defer func() {
			sctx, scancel := context.WithTimeout(context.Background(), time.Second)
			defer scancel()
			_ = srv.Shutdown(sctx)
		}()
	}

	fmt.Fprintf(out, "Log in to profile %q: open this URL in a browser:\n\n  %s\n\n", p.Name, authURL)
	if !o.NoBrowser {
		go func() {
			if err := o.OpenBrowser(authURL); err != nil {
				fmt.Fprintf(out, "Could not open a browser (%s); open the URL above yourself.\n", config.Redact(err.Error()))
			}
		}()
	}
	if loopback {
		fmt.Fprintf(out, "Waiting for the browser to return to %s (up to %s).\n", p.RedirectURI, o.Timeout)
		if o.Input != nil {
			fmt.Fprintln(out, "If the browser runs on another machine, paste the address it ends on (or just the code) here and press Enter.")
		}
	} else {
		fmt.Fprintf(out, "After you approve, the browser goes to %s, which evdesk cannot see: that page may show\n"+
			"anything, even an error. Copy the whole address from the browser's address bar, paste it here\n"+
			"(or just the value after code=) and press Enter (up to %s).\n", p.RedirectURI, o.Timeout)
	}
	if o.Input != nil {
		go readPasted(ctx, o.Input, state, results, out)
	}

	var code string
	for code == "" {
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return nil, fmt.Errorf("%w after %s waiting for the browser: run `evdesk login` again (with --no-browser you can paste the redirect URL)", ErrLoginTimeout, o.Timeout)
			}
			return nil, ctx.Err()
		case r := <-results:
			if r.err != nil {
				return nil, r.err
			}
			code = r.code
		}
	}

	xctx := context.WithValue(ctx, oauth2.HTTPClient, hc)
	now := o.Now()
	tok, err := conf.Exchange(xctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode == "invalid_client" {
			return nil, fmt.Errorf("%w (profile %q, client id %q)", ErrInvalidClient, p.Name, p.ClientID)
		}
		return nil, fmt.Errorf("exchange the authorization code: %s", config.Redact(err.Error()))
	}
	sess, err := sessionFromToken(p.Name, tok, now)
	if err != nil {
		return nil, err
	}
	bindSession(p, sess, nil)
	lctx, lcancel := context.WithTimeout(context.Background(), DefaultLockTimeout)
	defer lcancel()
	unlock, err := o.Store.Lock(lctx, p.Name)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := o.Store.Save(sess); err != nil {
		return nil, err
	}
	if o.SaveClientSecret {
		if _, err := o.Store.SaveClientSecret(p.Name, p.AuthURL, secret); err != nil {
			return sess, err
		}
	}
	return sess, nil
}

type callbackResult struct {
	code string
	err  error
}

// callbackHandler accepts exactly one valid callback on path.
type callbackHandler struct {
	path    string
	state   string
	results chan<- callbackResult
	mu      sync.Mutex
	done    bool
}

const pageDone = `<!doctype html><html><head><meta charset="utf-8"><title>evdesk login</title></head>
<body style="font-family: sans-serif; margin: 3em"><h1>evdesk received the authorization</h1>
<p>You can close this tab and return to the terminal.</p></body></html>
`

func (h *callbackHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	bad := func(msg string) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "<!doctype html><html><body><h1>evdesk login</h1><p>%s</p></body></html>\n", html.EscapeString(msg))
	}
	if r.Method != http.MethodGet || r.URL.Path != h.path {
		bad("This is not the address evdesk is waiting on.")
		return
	}
	q := r.URL.Query()
	if !sameState(q.Get("state"), h.state) {
		bad("This answer does not belong to the login evdesk is waiting for (state mismatch). Start over from the terminal if needed.")
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.done {
		bad("This login was already completed.")
		return
	}
	if e := q.Get("error"); e != "" {
		h.done = true
		msg := "the provider answered " + e
		if d := q.Get("error_description"); d != "" {
			msg += ": " + d
		}
		bad("Login failed: " + msg + ". You can close this tab.")
		h.results <- callbackResult{err: fmt.Errorf("login refused: %s", config.Redact(msg))}
		return
	}
	code := q.Get("code")
	if code == "" {
		bad("The answer carries no authorization code.")
		return
	}
	h.done = true
	_, _ = io.WriteString(w, pageDone)
	h.results <- callbackResult{code: code}
}

func sameState(got, want string) bool {
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// readPasted turns pasted lines into results: a redirect URL (its state is
// checked) or a bare code. Other lines get a hint and are ignored.
func readPasted(ctx context.Context, in *LineReader, state string, results chan<- callbackResult, out io.Writer) {
	for {
		line, err := in.ReadLine(ctx)
		if err != nil {
			return // EOF or done: the browser path may still answer
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.Contains(line, "://") || strings.HasPrefix(line, "/") || strings.HasPrefix(line, "?") {
			u, err := url.Parse(line)
			if err != nil {
				fmt.Fprintln(out, "That is not a URL evdesk can read; paste the whole address from the browser, or just the code.")
				continue
			}
			q := u.Query()
			if !sameState(q.Get("state"), state) {
				fmt.Fprintln(out, "That address belongs to another login attempt (state mismatch); paste the one this login ended on.")
				continue
			}
			if e := q.Get("error"); e != "" {
				results <- callbackResult{err: fmt.Errorf("login refused: the provider answered %s", config.Redact(e))}
				return
			}
			if q.Get("code") == "" {
				fmt.Fprintln(out, "That address carries no code; paste the address the browser ended on.")
				continue
			}
			results <- callbackResult{code: q.Get("code")}
			return
		}
		if strings.ContainsAny(line, " \t&=?") {
			fmt.Fprintln(out, "That does not look like a code; paste the whole address from the browser, or just the code.")
			continue
		}
		results <- callbackResult{code: line}
		return
	}
}

var browserOnce sync.Once

// OpenBrowser opens an http(s) address in the user's browser, with
// github.com/cli/browser, whose launcher output must never reach the
// terminal evdesk owns. Other schemes are refused: an address from a
// server must not start a program or open a local file.
func OpenBrowser(u string) error {
	parsed, err := url.Parse(u)
	if err != nil || (parsed.Scheme != "https" && parsed.Scheme != "http") || parsed.Host == "" {
		return fmt.Errorf("%q is not a web address (http or https)", u)
	}
	browserOnce.Do(func() {
		browser.Stdout = io.Discard
		browser.Stderr = io.Discard
	})
	return browser.OpenURL(parsed.String())
}

func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// lockedWriter serialises writes from the flow's goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
