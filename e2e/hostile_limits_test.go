package e2e

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/api/sim/hostile"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/testport"
)

// The hostile-server suite's limits: a server that pages for ever, answers
// without end, redirects the token elsewhere, asks absurd waits, never
// answers, or loses a refresh's answer. Each test drives the real binary
// and reports its figures with t.Logf (go test -v shows them).

func TestHostileEndlessPagingEnds(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{EndlessPages: true})
	r := runBinary(t, he.env, "events", "list", "--status", "upcoming")
	if r.err == nil || !strings.Contains(string(r.stderr), "kept sending page tokens") {
		t.Fatalf("an endless listing must stop with a clear error: %v\n%s", r.err, r.stderr)
	}
	t.Logf("endless paging: gave up after %d requests in %v, peak RSS %d MB", he.h.Requests(), r.took.Round(time.Millisecond), r.maxRSS>>20)
	terminalSafe(t, "stderr", r.stderr)

	// The console keeps the rows it has and says the load failed.
	tm := startTermEnv(t, 120, 36, he.env)
	tm.waitText("load failed", "loaded")
	if s := tm.screen(); !strings.Contains(s, "Half-Marathon Training Group") {
		t.Fatalf("the rows loaded before the failure should stay:\n%s", s)
	}
	tm.quitCleanly()
}

func TestHostileHugeAnswerStaysBounded(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{HugeBody: true})
	// The default cap, 64 MiB: the answer is read in chunks and nothing is
	// decoded before it is known to fit, so the process holds about the
	// cap and no decoder copies of it.
	r := runBinary(t, he.env, "events", "list", "--status", "upcoming")
	if r.err == nil || !strings.Contains(string(r.stderr), "larger than 64 MiB") {
		t.Fatalf("an endless answer must stop at the cap: %v\n%s", r.err, r.stderr)
	}
	t.Logf("endless body: refused after the server wrote %d MiB, in %v, peak RSS %d MB (cap 64 MiB)",
		he.h.BodyBytes()>>20, r.took.Round(time.Millisecond), r.maxRSS>>20)
	if r.maxRSS > 3*(64<<20)/2 {
		t.Errorf("peak RSS %d MB: over 1.5 times the 64 MiB cap", r.maxRSS>>20)
	}
}

func TestHostileRedirectNeverCarriesTheToken(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{})
	elsewhere := httptest.NewServer(he.h.Recorder()) // another port: another origin
	t.Cleanup(elsewhere.Close)
	he.h.Set(hostile.Options{RedirectTo: elsewhere.URL})
	runBinary(t, he.env, "events", "get", he.sim.Fixtures().UpcomingEventID)
	seen := he.h.AuthSeenByRecorder()
	if len(seen) == 0 {
		t.Fatal("the redirect was not followed at all, so the test proves nothing")
	}
	for _, a := range seen {
		if a != "" {
			t.Fatalf("the bearer token crossed to another origin: %q", a)
		}
	}
}

func TestHostileRetryAfterCannotParkTheCLI(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{RetryAfter: "9000000000"})
	r := runBinary(t, he.env, "events", "list")
	if r.err == nil || !strings.Contains(string(r.stderr), "years") || !strings.Contains(string(r.stderr), "not waiting longer than") {
		t.Fatalf("an absurd Retry-After must be refused in words: %v\n%s", r.err, r.stderr)
	}
	t.Logf("Retry-After 9000000000: gave up in %v", r.took.Round(time.Millisecond))
}

func TestHostileSilenceEndsAtTheTimeout(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{Stall: true})
	r := runBinary(t, he.env, "events", "list", "--timeout", "2s")
	if r.err == nil || !strings.Contains(string(r.stderr), "--timeout") || !strings.Contains(string(r.stderr), "list events") {
		t.Fatalf("a silent server must end at --timeout, saying what was awaited: %v\n%s", r.err, r.stderr)
	}
	if r.took > 30*time.Second {
		t.Errorf("--timeout 2s took %v", r.took)
	}
	t.Logf("silent server, --timeout 2s: gave up in %v", r.took.Round(time.Millisecond))
}

// TestHostileLostRefreshAnswerKeepsTheLogin logs in, then loses the answer
// to the refresh: the session is kept and the words say the sign-in server
// did not answer; only the server's explicit refusal later clears it.
func TestHostileLostRefreshAnswerKeepsTheLogin(t *testing.T) {
	t.Parallel()
	const ttl = time.Second
	s := sim.New(sim.Options{NoRateLimit: true, TokenTTL: ttl})
	h := hostile.Wrap(s, hostile.Options{})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	redirect := "http://127.0.0.1:" + freePort(t) + "/callback" // not the shared default port
	s.RegisterRedirectURI(redirect)
	env := append(isolatedEnv(t), "DBUS_SESSION_BUS_ADDRESS=",
		config.EnvBaseURL+"="+srv.URL+"/v2", config.EnvAuthURL+"="+srv.URL,
		config.EnvClientID+"="+sim.DemoClientID, config.EnvClientSecret+"="+sim.DemoClientSecret,
		config.EnvRedirectURI+"="+redirect)
	loginThroughBrowser(t, env, srv.URL)
	// The token expires at most ttl after the login's answer arrived: past
	// that moment the next command must refresh (a token is used, not
	// refreshed, for the first three quarters of its life).
	time.Sleep(ttl)

	h.Set(hostile.Options{LoseTokenAnswer: true})
	before := h.TokenCalls()
	r := runBinary(t, env, "events", "list", "--status", "draft")
	if r.err == nil || !strings.Contains(string(r.stderr), "did not answer") || !strings.Contains(string(r.stderr), "evdesk login") {
		t.Fatalf("a lost refresh answer must be told in words: %v\n%s", r.err, r.stderr)
	}
	if n := h.TokenCalls() - before; n != 1 {
		t.Fatalf("the refresh was sent %d times; a rotating refresh token is spent by the first", n)
	}
	if out, err := runCLI(env, "auth", "status"); err != nil {
		t.Fatalf("the session must be kept after a network failure: %v\n%s", err, out)
	}

	// The server rotated the token with the lost answer: now it refuses the
	// old one explicitly, and only then is the session cleared.
	h.Set(hostile.Options{})
	r = runBinary(t, env, "events", "list", "--status", "draft")
	if r.err == nil || !strings.Contains(string(r.stderr), "evdesk login") {
		t.Fatalf("a refused refresh token should ask for a login: %v\n%s", r.err, r.stderr)
	}
	if out, err := runCLI(env, "auth", "status"); err == nil {
		t.Fatalf("after an explicit invalid_grant the session is cleared:\n%s", out)
	}
}

// freePort finds a loopback port nothing listens on (testport).
func freePort(t *testing.T) string { return strconv.Itoa(testport.Free(t)) }
