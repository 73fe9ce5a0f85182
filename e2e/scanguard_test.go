package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
)

// serverState is what a scan must never change: every event the host has
// (each list: upcoming, draft, past, cancelled) with its status, and the
// access links of one event, read from the simulator over HTTP.
func serverState(t *testing.T, base, token, eventID string) string {
	t.Helper()
	c, err := api.New(api.WithBaseURL(base), api.WithToken(token), api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var lines []string
	for _, status := range []string{api.ListUpcoming, api.ListDraft, api.ListPast, api.ListCancelled} {
		for ev, err := range c.Events.List(ctx, api.ListEventsOptions{StatusType: status, PageSize: 300}) {
			if err != nil {
				t.Fatalf("listing %s events: %v", status, err)
			}
			lines = append(lines, fmt.Sprintf("event %s %s %s %q", status, ev.EventID, ev.Status, ev.Name))
		}
	}
	links, err := c.AccessLinks.List(ctx, eventID)
	if err != nil {
		t.Fatalf("listing the access links: %v", err)
	}
	for _, l := range links {
		lines = append(lines, fmt.Sprintf("link %s %q %s default=%v", l.AccessLinkID, l.Name, l.Type, l.IsDefault))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// The reproduction: after leaving the desk, a barcode scanner
// keeps typing into the console. Its bursts (whole codes ended by Enter in
// one write, as a keyboard-wedge scanner types) go over the event's
// detail (where d duplicates and l opens the links), into the open cancel
// question, into a new-link form and into the palette. None of them acts:
// the server's events, their states and the event's links are as before,
// and the status bar says the scans were ignored and how to get back.
func TestScansOutsideTheDeskChangeNothing(t *testing.T) {
	t.Parallel()
	requireCheckinCommands(t)
	vars, _ := startSim(t)
	base, token := vars["EVDESK_BASE_URL"], vars["EVDESK_TOKEN"]
	id := demoSim().Fixtures().UpcomingEventID
	regs := demoSim().RegistrantEmails(id)
	if len(regs) < 6 {
		t.Fatalf("the upcoming event has %d registrants", len(regs))
	}
	c, err := api.New(api.WithBaseURL(base), api.WithToken(token))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := c.Events.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	before := serverState(t, base, token, id)

	env := append(isolatedEnv(t), "EVDESK_BASE_URL="+base, "EVDESK_TOKEN="+token)
	tm := startTermEnv(t, 100, 30, env)
	tm.waitText("loaded")
	tm.openEvent(strings.ToLower(ev.Name), "(1 match)")
	tm.keys("i")
	tm.waitText("CHECK-IN DESK", "ONLINE")
	tm.scan(regs[0], "Enter") // at the desk a scan is a scan
	tm.waitText("CHECKED IN", "This desk today 1")
	tm.keys("Escape")
	tm.waitText("Leave the check-in desk?", "Yes: ctrl+y", "No: esc")
	tm.scan(regs[1], "Enter") // a scan into the question is a scan, not an answer
	tm.waitText("This desk today 2")
	tm.keys("Escape") // stay
	tm.waitGone("Leave the check-in desk?")
	tm.keys("Escape")
	tm.waitText("Leave the check-in desk?")
	tm.reply("C-y", "Leave the check-in desk?")
	tm.waitText("Overview")

	// Over the detail: d (duplicate) and l (links) are letters of these.
	tm.scan("dana.cole@example.com", "Enter")
	tm.waitText("a scan arrived outside the desk: ignored (F6 back to the desk)")
	for _, r := range regs[2:6] {
		tm.scan(r, "Enter")
	}
	tm.scan("4006381333931", "KPEnter")
	tm.scan("lyle.dunn@example.com", "Tab")
	tm.waitText("7 scans arrived outside the desk: ignored (F6 back to the desk)")

	// Into the open cancel question.
	tm.keys("c")
	tm.waitText("Cancel the event", "Keep it")
	tm.scan("carl.ng@example.com", "Enter")
	tm.scan("yolanda.ito@example.com", "Enter")
	tm.scan("yes", "C-j")
	tm.waitText("3 scans arrived") // counted since the c a person pressed
	tm.keys("Escape")
	tm.waitGone("Keep it")

	// Into a new access link's form.
	tm.keys("l")
	tm.waitText("Access links of")
	tm.keys("a")
	tm.waitText("New access link")
	tm.scan("dana.cole@example.com", "Enter")
	tm.scan("yolanda.ito@example.com", "Tab")
	tm.waitText("2 scans arrived")
	tm.keys("Escape")
	tm.waitGone("New access link")

	// Into the palette.
	tm.keys(":")
	tm.waitText("jump to an event")
	tm.scan("cancel", "Enter")
	tm.scan("yolanda.ito@example.com", "Enter")
	tm.waitText("2 scans arrived", "jump to an event") // still open, nothing chosen
	tm.keys("Escape")
	tm.waitGone("jump to an event")

	s := tm.screen()
	for _, typed := range []string{"dana.cole", "carl.ng", "yolanda", "4006381333931", "Duplicate"} {
		if strings.Contains(s, typed) {
			t.Fatalf("%q reached the console:\n%s", typed, s)
		}
	}
	if after := serverState(t, base, token, id); after != before {
		t.Fatalf("the scans changed the server:\nbefore:\n%s\nafter:\n%s", before, after)
	}

	// The key the note names goes back to the desk.
	tm.keys("F6")
	tm.waitText("CHECK-IN DESK", "ONLINE")
	tm.scan(regs[2], "Enter")
	tm.waitText("This desk today 3")
	tm.keys("Escape")
	tm.waitText("Leave the check-in desk?")
	tm.reply("C-y", "Leave the check-in desk?")
	tm.waitText("Access links of")
	tm.quitCleanly()
}

// Keys rebound by action name in the profile: ? shows the user's key and
// the key acts; a key that clashes is refused, naming the file, the line
// and the other action.
func TestKeysRebindInTheProfile(t *testing.T) {
	t.Parallel()
	vars, _ := startSim(t)
	env := append(isolatedEnv(t), "EVDESK_BASE_URL="+vars["EVDESK_BASE_URL"], "EVDESK_TOKEN="+vars["EVDESK_TOKEN"])
	var config string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_CONFIG_HOME="); ok {
			config = filepath.Join(v, "evdesk", "config.toml")
		}
	}
	write := func(keys string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(config), 0o700); err != nil {
			t.Fatal(err)
		}
		content := "[profiles.default]\nbase_url = \"" + vars["EVDESK_BASE_URL"] + "\"\n\n[profiles.default.keys]\n" + keys
		if err := os.WriteFile(config, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	write("refresh = \"ctrl+l\"\nerrors = \"X\"\n")
	tm := startTermEnv(t, 100, 30, env)
	tm.waitText("loaded")
	tm.keys("?")
	tm.waitText("ctrl+l", "refresh", "X ", "recent errors")
	tm.keys("Escape")
	tm.waitGone("Keys")
	tm.keys("X") // the errors list, on the user's key
	tm.waitText("Recent errors")
	tm.keys("Escape")
	tm.quitCleanly()

	write("cancel_event = \"C\"\n")
	tm = startTermEnv(t, 100, 30, env)
	refused := config + `:5: [keys] cancel_event: "C" is already compare's key`
	tm.waitForScreen(refused, tm.joined, func(s string) bool { return strings.Contains(s, refused) })
	if st := tm.exitStatus(); st == "0" {
		t.Fatal("a clashing key started the console")
	}
}
