package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
)

// countedSim is a simulator that counts the requests it is sent.
func countedSim(t *testing.T) (url string, hits *atomic.Int64) {
	t.Helper()
	s := sim.New(sim.Options{NoRateLimit: true})
	hits = new(atomic.Int64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	return srv.URL, hits
}

// Adding a profile never changes the one in use (the compare
// recipe made the other account's events the plain command's); only
// `config use` does, and it takes `default` back. Two real servers count
// where each plain `evdesk events list` of the real binary went.
func TestSetProfileLeavesPlainCommandsOnTheirAccount(t *testing.T) {
	t.Parallel()
	home, homeHits := countedSim(t)
	other, otherHits := countedSim(t)
	env := append(isolatedEnv(t), "EVDESK_TOKEN="+sim.DemoToken, "EVDESK_TOKEN_OTHER_HOST="+sim.DemoToken)
	// list runs a plain events list and fails unless it asked only the
	// server named.
	list := func(name string) {
		t.Helper()
		h0, o0 := homeHits.Load(), otherHits.Load()
		out, err := runCLI(env, "events", "list")
		if err != nil || !strings.Contains(string(out), "NAME") {
			t.Fatalf("events list: %v\n%s", err, out)
		}
		toHome, toOther := homeHits.Load()-h0, otherHits.Load()-o0
		if (name == "home") != (toHome > 0 && toOther == 0) || (name == "other") != (toOther > 0 && toHome == 0) {
			t.Fatalf("events list asked home %d and other %d times; want only %s", toHome, toOther, name)
		}
	}
	if out, err := runCLI(env, "config", "set-profile", "default", "--base-url", home+"/v2"); err != nil {
		t.Fatalf("set-profile default: %v\n%s", err, out)
	}
	list("home")
	out, err := runCLI(env, "config", "set-profile", "other", "--base-url", other+"/v2", "--token-env", "EVDESK_TOKEN_OTHER_HOST")
	if err != nil || !strings.Contains(string(out), `still use "default"`) {
		t.Fatalf("set-profile other: %v\n%s", err, out)
	}
	list("home")
	if out, err := runCLI(env, "config", "use", "other"); err != nil {
		t.Fatalf("use other: %v\n%s", err, out)
	}
	list("other")
	if out, err := runCLI(env, "config", "use", "default"); err != nil {
		t.Fatalf("use default: %v\n%s", err, out)
	}
	list("home")
}
