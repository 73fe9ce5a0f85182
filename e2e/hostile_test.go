package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/api/sim/hostile"
	"github.com/evdesk/evdesk/config"
)

// hostileEnv is the simulator behind the hostile wrapper, served over HTTP.
type hostileEnv struct {
	h    *hostile.Server
	sim  *sim.Sim
	base string   // the API's base URL, with /v2
	env  []string // points the binary at it
}

func hostileAPI(t *testing.T, o hostile.Options) hostileEnv {
	t.Helper()
	s := sim.New(sim.Options{NoRateLimit: true})
	h := hostile.Wrap(s, o)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	base := srv.URL + "/v2"
	env := append(isolatedEnv(t), config.EnvBaseURL+"="+base, config.EnvToken+"="+sim.DemoToken,
		config.EnvAIKey+"="+sim.DemoAIKey, config.EnvAISecret+"="+sim.DemoAISecret)
	return hostileEnv{h: h, sim: s, base: base, env: env}
}

// ran is one run of the binary.
type ran struct {
	stdout, stderr []byte
	err            error
	took           time.Duration
	maxRSS         int64         // bytes
	cpu            time.Duration // user and system time of the process
	exit           int           // exit status (-1: killed, or not started)
}

// runBinary runs the binary through the spawner (spawner_test.go), so the
// peak memory it reports is the run's own.
func runBinary(t *testing.T, env []string, args ...string) ran {
	t.Helper()
	ans, stdout, stderr, err := theSpawner.run(t.TempDir(), binPath, env, 2*time.Minute, args...)
	if err != nil {
		t.Fatal(err)
	}
	r := ran{stdout: stdout, stderr: stderr, took: ans.Took, maxRSS: ans.MaxRSS, cpu: ans.CPU, exit: ans.Exit}
	if ans.Err != "" {
		r.err = errors.New(ans.Err)
	}
	return r
}

// terminalSafe fails the test when out holds a byte a terminal could act
// on: ESC, another C0 control but line break and tab, or a C1 or bidi
// control. (A CLI never writes an escape sequence of its own to a pipe.)
func terminalSafe(t *testing.T, what string, out []byte) {
	t.Helper()
	for i, r := range string(out) {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Errorf("%s: unsafe character %U at byte %d: %q", what, r, i, around(out, i))
			return
		}
	}
}

func around(b []byte, i int) []byte { return b[max(0, i-40):min(len(b), i+40)] }

func TestHostileTextNeverReachesTheTerminalFromTheCLI(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{Inject: true})
	fx, env := he.sim.Fixtures(), he.env
	// Something to list in the check-in history (set up past the wrapper).
	direct := httptest.NewServer(he.sim)
	defer direct.Close()
	c, err := api.New(api.WithBaseURL(direct.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var someone string
	for r, err := range c.Attendees.Registrants(context.Background(), fx.UpcomingEventID, api.ListRegistrantsOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		someone = r.Email
		break
	}
	if _, err := c.Attendees.CheckIn(context.Background(), fx.UpcomingEventID, "", []string{someone}, "Door A"); err != nil {
		t.Fatal(err)
	}
	var types []struct {
		ID string `json:"email_type_id"`
	}
	r := runBinary(t, env, "emails", "types", fx.UpcomingEventID, "-o", "json")
	if err := json.Unmarshal(r.stdout, &types); err != nil || len(types) == 0 {
		t.Fatalf("emails types: %v %s %s", err, r.stdout, r.stderr)
	}

	const missing = "no-such-event"
	for _, args := range [][]string{
		{"events", "list"},
		{"events", "get", fx.UpcomingEventID},
		{"emails", "types", fx.UpcomingEventID},
		{"emails", "status", fx.UpcomingEventID, types[0].ID},
		{"emails", "status", fx.UpcomingEventID, types[0].ID, "-o", "csv"},
		{"checkin", "list", fx.UpcomingEventID},
		{"coeditors", "list", fx.UpcomingEventID},
		{"links", "list", fx.UpcomingEventID},
		{"ticket-types", fx.UpcomingEventID},
		{"exhibitors", "list", fx.ConferenceEventID},
		{"phone", "settings"},
		{"transcribe", sim.SampleKeynoteURL, "-o", "text"},
		{"transcribe", sim.SampleKeynoteURL, "-o", "srt"},
		{"events", "get", missing}, // the server's error message on stderr
	} {
		name := strings.Join(args, " ")
		r := runBinary(t, env, args...)
		if (r.err != nil) != (args[len(args)-1] == missing) {
			t.Errorf("%s: %v\n%s", name, r.err, r.stderr)
		}
		if len(r.stdout)+len(r.stderr) == 0 {
			t.Errorf("%s printed nothing", name)
		}
		terminalSafe(t, name+" (stdout)", r.stdout)
		terminalSafe(t, name+" (stderr)", r.stderr)
	}
}

// JSON stays faithful to the data while every character a terminal could
// act on is written as an escape.
func TestHostileTextStaysExactInJSON(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{Inject: true})
	r := runBinary(t, he.env, "events", "get", he.sim.Fixtures().UpcomingEventID, "-o", "json")
	if r.err != nil {
		t.Fatalf("%v %s", r.err, r.stderr)
	}
	if bytes.ContainsFunc(r.stdout, func(c rune) bool {
		return c == 0x1b || (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)
	}) {
		t.Fatalf("raw control in JSON: %q", r.stdout)
	}
	var ev api.Event
	if err := json.Unmarshal(r.stdout, &ev); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(ev.Name, hostile.Payload) {
		t.Fatalf("name %q lost the data", ev.Name)
	}
}

// TestHostileTextNeverReachesTheTerminalFromTheConsole walks the console's
// screens against the injecting server and reads every byte the program
// sent to its terminal.
func TestHostileTextNeverReachesTheTerminalFromTheConsole(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{Inject: true})
	record := filepath.Join(t.TempDir(), "terminal.out")
	tm := startTermRecorded(t, 120, 36, he.env, record)
	tm.waitText("63 loaded", "Upcoming") // every event in: an Enter before would find no row
	tm.keys("Enter")                     // the first event's detail
	tm.waitText("When", "About")
	tm.keys("o") // its co-editors
	tm.waitText("Co-editors of")
	tm.keys("Escape") // apart from the next key, or the two read as alt+m
	tm.waitGone("Co-editors of")
	tm.keys("m") // its emails
	tm.waitText("Emails of")
	tm.keys("Escape")
	tm.waitGone("Emails of")
	tm.keys("Escape")
	tm.waitGone("About")
	tm.keys("Tab", "Tab")                                     // the phone policy
	tm.waitText("Phone settings", "Local survivability mode") // the list, loaded
	tm.keys("Enter")
	tm.waitText("J shows the raw JSON")
	tm.keys("J")
	tm.waitText("as received", "RED") // the injected text, drawn
	screen := tm.tmux("capture-pane", "-p", "-e")
	if title := tm.tmux("display-message", "-p", "#{pane_title}"); strings.Contains(title, "PWNED") {
		t.Errorf("the server set the window title: %q", title)
	}
	tm.keys("C-c")
	if st := tm.exitStatus(); st != "0" {
		t.Fatalf("exit status %s", st)
	}
	if !strings.Contains(screen, "RED") {
		t.Fatalf("the injected text is not on screen, so the test proves nothing:\n%s", screen)
	}
	out, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	for _, seq := range hostile.Sequences {
		for _, where := range []struct {
			name string
			text string
		}{{"terminal output", string(out)}, {"screen", screen}} {
			if i := strings.Index(where.text, seq); i >= 0 {
				t.Errorf("%q reached the %s: %q", seq, where.name, where.text[max(0, i-60):min(len(where.text), i+60)])
			}
		}
	}
}
