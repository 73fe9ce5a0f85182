package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
)

// complete asks the root command for completions as a shell does (cobra's
// __complete) and returns the offered lines and the directive line.
func complete(t *testing.T, f *Factory, out interface{ String() string }, args ...string) []string {
	t.Helper()
	if err := f.Execute(context.Background(), append([]string{"__complete"}, args...)); err != nil {
		t.Fatal(err)
	}
	_ = f.IOStreams.Flush()
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

func completeNow(t *testing.T, args ...string) []string {
	t.Helper()
	ios, _, out, _ := TestStreams()
	return complete(t, NewFactory(ios), out, args...)
}

// TestCompletionKnowsTheData offers events with their names, an event's
// links, sessions and ticket types, and answers from the cache when the
// server is gone.
func TestCompletionKnowsTheData(t *testing.T) {
	isolateXDG(t)
	s := sim.New(sim.Options{NoRateLimit: true})
	t.Cleanup(s.Close)
	srv := httptest.NewServer(s)
	t.Setenv(config.EnvBaseURL, srv.URL+"/v2")
	t.Setenv(config.EnvToken, sim.DemoToken)
	fx := s.Fixtures()

	events := completeNow(t, "events", "get", "")
	if !containsLine(events, fx.UpcomingEventID+"\t") || events[len(events)-1] != ":4" {
		t.Fatalf("events: %q", events)
	}
	conf := fx.ConferenceEventID
	if got := completeNow(t, "checkin", "list", conf, "--session", ""); !containsLine(got, fx.ConferenceSessionID+"\t") {
		t.Fatalf("sessions: %q", got)
	}
	if got := completeNow(t, "links", "get", fx.UpcomingEventID, ""); len(got) < 2 || !strings.Contains(got[0], "\t") {
		t.Fatalf("links: %q", got)
	}
	if got := completeNow(t, "register", fx.UpcomingEventID, "--ticket-type", ""); len(got) < 2 || !strings.Contains(got[0], "\t") {
		t.Fatalf("ticket types: %q", got)
	}
	if got := completeNow(t, "events", "get", fx.UpcomingEventID, ""); len(got) != 1 || got[0] != ":4" {
		t.Fatalf("no second argument: %q", got)
	}

	// Offline: the last answer, from the cache; a prefix still filters.
	srv.Close()
	offline := completeNow(t, "events", "get", fx.UpcomingEventID[:4])
	if !containsLine(offline, fx.UpcomingEventID+"\t") || len(offline) >= len(events) {
		t.Fatalf("offline: %q", offline)
	}
}

func containsLine(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// TestCompletionIsSafeAndQuick: a server's names reach the shell as one
// plain line, an id a shell could act on is not offered, and a server that
// does not answer costs the completion's timeout, not the command's.
func TestCompletionIsSafeAndQuick(t *testing.T) {
	isolateXDG(t)
	f, output := cannedFactory(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("event_status_type") == "upcoming" {
			fmt.Fprint(w, `{"events":[{"event_id":"e1","name":"Launch\u001b]0;pwned\u0007\tnow"},`+
				`{"event_id":"x;rm -rf ~","name":"Trap"}],"total_records":2}`)
			return
		}
		fmt.Fprint(w, `{"events":[],"total_records":0}`)
	})
	if err := f.Execute(context.Background(), []string{"__complete", "events", "get", ""}); err != nil {
		t.Fatal(err)
	}
	out, _ := output()
	if strings.ContainsAny(out, "\x1b\x07") || strings.Count(out, "\t") != 1 || !strings.Contains(out, "e1\tLaunch") ||
		strings.Contains(out, "rm -rf") {
		t.Fatalf("%q", out)
	}

	stall := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(stall.Close)
	t.Setenv(config.EnvBaseURL, stall.URL+"/v2")
	t.Setenv(config.EnvToken, sim.DemoToken)
	ios, _, stalled, _ := TestStreams()
	f2 := NewFactory(ios)
	f2.CompleteTimeout = 100 * time.Millisecond                                                // the stalled server never answers: only the timeout ends the wait
	if got := complete(t, f2, stalled, "events", "get", ""); len(got) != 1 || got[0] != ":4" { // nothing cached for this server
		t.Fatalf("stalled: %q", got)
	}
}

func TestCompletionOfFlagsAndProfiles(t *testing.T) {
	isolateXDG(t)
	setProfile(t, "acme", "--base-url", "https://api.acme.example/v2")
	setProfile(t, "contoso", "--base-url", "https://api.contoso.example/v2")
	if got := completeNow(t, "--profile", ""); !containsLine(got, "acme") || !containsLine(got, "contoso") {
		t.Fatalf("profiles: %q", got)
	}
	if got := completeNow(t, "events", "list", "-o", ""); strings.Join(got, ",") != "table,json,csv,:4" {
		t.Fatalf("-o: %q", got)
	}
	if got := completeNow(t, "emails", "status", "e", "t", "--status", ""); !containsLine(got, "failed\t") {
		t.Fatalf("--status: %q", got)
	}
	if got := completeNow(t, "events", "create", "--attendance", ""); strings.Join(got, ",") != "virtual,in-person,hybrid,:4" {
		t.Fatalf("--attendance: %q", got)
	}
}
