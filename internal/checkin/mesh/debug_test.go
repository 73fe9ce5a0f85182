package mesh

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
)

func TestSubjectMatches(t *testing.T) {
	for _, c := range []struct {
		filter, subj string
		want         bool
	}{
		{"$KV.evdesk_arrivals.>", "$KV.evdesk_arrivals.x", true},
		{"$KV.evdesk_arrivals.>", "$KV.evdesk_arrivals", false},
		{"$JS.API.>", "$JS.API.STREAM.INFO.KV_x", true},
		{"$JS.API.STREAM.INFO.*", "$JS.API.STREAM.INFO.KV_x", true},
		{"$JS.API.STREAM.INFO.*", "$JS.API.STREAM.INFO.KV_x.y", false},
		{"$KV.evdesk_desks.x", "$KV.evdesk_desks.x", true},
		{"$KV.evdesk_desks.x", "$KV.evdesk_desks.y", false},
		{"a.b.c", "a.b", false},
	} {
		if got := subjectMatches(c.filter, c.subj); got != c.want {
			t.Errorf("subjectMatches(%q, %q) = %v", c.filter, c.subj, got)
		}
	}
}

// The engine's log masks the venue's link password and the engine's local
// one, even in a line that prints a route's URL whole (as the engine does
// for a route removed on reload).
func TestEngineLogMasksPasswords(t *testing.T) {
	var got []string
	l := engineLog{logf: func(f string, a ...any) { got = append(got, fmt.Sprintf(f, a...)) }, hide: []string{"s3cret", "l0cal", ""}}
	u := &url.URL{Scheme: "nats-route", User: url.UserPassword("venue", "s3cret"), Host: "127.0.0.1:7248"}
	l.Noticef("Removed route %v", u)
	l.Debugf("client pass %s\n", "l0cal")
	l.Tracef("<<- [CONNECT {\"pass\":\"s3cret\"}]")
	if len(got) != 2 {
		t.Fatalf("logged %q: want the notice and the debug line, no trace", got)
	}
	for _, line := range got {
		if strings.Contains(line, "s3cret") || strings.Contains(line, "l0cal") || !strings.Contains(line, "[redacted]") {
			t.Errorf("logged %q", line)
		}
	}
}

// Two engines that meet log through EngineLog what they do, and neither
// that log nor the engine's state names a password.
func TestEngineLogOfTwoEnginesNamesNoSecret(t *testing.T) {
	sec, err := NewSecret("Test Hall")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var lines []string
	logf := func(f string, a ...any) {
		mu.Lock()
		lines = append(lines, fmt.Sprintf(f, a...))
		mu.Unlock()
	}
	a, b := twoEngines(t, sec, logf)
	waitFor(t, "the engines to meet", func() bool { return a.peers() == 1 && b.peers() == 1 })
	state := a.state()
	if !strings.Contains(state, "bbbbbbbbbbbbbbbb") {
		t.Errorf("the state names no route to the other engine: %s", state)
	}
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(append(lines, state), "\n")
	if !strings.Contains(all, "Route connection created") {
		t.Errorf("the engines' log says nothing of their route:\n%s", all)
	}
	for _, secret := range []string{sec.Password, a.opts.Password, b.opts.Password} {
		if strings.Contains(all, secret) {
			t.Fatalf("the engines' log names a password:\n%s", all)
		}
	}
}
