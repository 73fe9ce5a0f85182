package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
)

// checkinSummary is the part of `evdesk checkin -o json`'s summary the
// tests read.
type checkinSummary struct {
	Resent    int `json:"resent"`
	CheckedIn int `json:"checked_in"`
	Already   int `json:"already_checked_in"`
	Rejected  int `json:"rejected"`
	Pending   int `json:"not_sent"`
	BadLines  []struct {
		Line int `json:"line"`
	} `json:"bad_lines"`
}

// The simulator's ids and registrants are the same on every run, so the
// tests learn them from an in-process simulator and use them against the
// binary's (--demo or `evdesk sim`).
var demoSim = sync.OnceValue(func() *sim.Sim { return sim.New(sim.Options{NoRateLimit: true}) })

func largeEvent() (id string, registrants []string) {
	s := demoSim()
	id = s.Fixtures().LargeConferenceEventID
	return id, s.RegistrantEmails(id)
}

// requireCheckinCommands fails unless the binary has the check-in
// commands (addCheckinCommands).
func requireCheckinCommands(t *testing.T) {
	t.Helper()
	out, err := runCLI(isolatedEnv(t), "desk", "--help")
	if err != nil || !strings.Contains(string(out), "check-in desk") {
		t.Fatalf("evdesk desk is not registered: %v\n%s", err, out)
	}
}

func TestDeskEndToEnd(t *testing.T) {
	t.Parallel()
	requireCheckinCommands(t)
	id, regs := largeEvent()
	tm := startTerm(t, 100, 30, "desk", id, "--demo", "--desk", "Door-A")
	tm.waitText("CHECK-IN DESK", "Observability Summit APAC", "ONLINE", "of 20,000", "desk: Door-A", "roster 20,000")

	// A registered attendee, typed as a scanner does, ended by keypad Enter.
	tm.scan(strings.ToUpper(regs[0]), "KPEnter")
	tm.waitText("[OK] CHECKED IN", regs[0], "This desk today 1")

	// Someone not registered: the server's reason is shown.
	tm.scan("nobody@example.org", "Enter")
	tm.waitText("[!!] NOT REGISTERED", "Attendee is not registered for this event")

	// Garbage never reaches the journal.
	tm.scan("garbage", "Enter")
	tm.waitText("[XX] NOT RECOGNISED", `read "garbage"`)

	// The same badge twice: the desk knows.
	tm.scan(regs[0], "Enter")
	tm.waitText("ALREADY CHECKED IN", "first scanned")

	// A scanner that pastes: every line is a scan.
	tm.paste(regs[1] + "\n" + regs[2] + "\n")
	tm.waitText("This desk today 3")

	// The attendee whose code does not scan: find them; the letters stay
	// in the input (q does not quit, / does not filter elsewhere).
	tm.keys("C-f")
	tm.waitText("Find a registrant", "20,000 of 20,000 loaded")
	name := strings.Split(regs[3], "@")[0]
	tm.keys("-l", name)
	tm.waitText("Scan > "+name, regs[3])
	tm.keys("Enter")
	tm.waitText("This desk today 4")
	tm.waitGone("Find a registrant")

	// The arrivals board, from a function key; the desk's name is on it.
	tm.keys("F4")
	tm.waitText("ARRIVALS BOARD", "Checked in 4 of 20,000", "Door-A")
	tm.keys("F4")
	tm.waitGone("ARRIVALS BOARD")

	// History from the desk, then back.
	tm.keys("F3")
	tm.waitText("Check-in history", regs[3], "4 of 4 loaded")
	tm.keys("Escape")
	tm.waitText("CHECK-IN DESK")

	// Nothing pending: ctrl+c quits at once.
	tm.keys("C-c")
	if st := tm.exitStatus(); st != "0" {
		t.Fatalf("exit status %s", st)
	}
}

// TestDeskOfflineKeepsScansAndAsksBeforeQuitting runs the desk against
// `evdesk sim`, stops the server, scans, leaves the desk, quits past the
// question there, and lets `evdesk checkin` deliver the journaled scan to
// a new server.
func TestDeskOfflineKeepsScansAndAsksBeforeQuitting(t *testing.T) {
	t.Parallel()
	requireCheckinCommands(t)
	id, regs := largeEvent()
	env := isolatedEnv(t)
	vars, simCmd := startSim(t)
	deskEnv := append(env, "EVDESK_BASE_URL="+vars["EVDESK_BASE_URL"], "EVDESK_TOKEN="+vars["EVDESK_TOKEN"])
	tm := startTermEnv(t, 100, 30, deskEnv, "desk", id, "--desk", "Door-B")
	tm.waitText("CHECK-IN DESK", "ONLINE")
	tm.scan(regs[5], "Enter")
	tm.waitText("[OK] CHECKED IN")

	_ = simCmd.Process.Kill()
	_ = simCmd.Wait()
	tm.scan(regs[6], "Enter")
	tm.waitText("OFFLINE", "QUEUED OFFLINE", "1 pending")
	// Typing goes on while offline.
	tm.scan("garbage", "Enter")
	tm.waitText("NOT RECOGNISED")

	tm.keys("C-c")
	tm.waitText("1 check-in not yet sent", "quit anyway?")
	tm.keys("Escape")
	tm.waitGone("quit anyway?")
	// A scanner burst typed into the question, starting with a "y": a
	// letter of a scan, never a yes. The desk keeps running and records it.
	burst := ""
	for _, r := range regs[10:] {
		if strings.HasPrefix(r, "y") {
			burst = r
			break
		}
	}
	tm.keys("C-c")
	tm.waitText("quit anyway?")
	tm.scan(burst, "Enter")
	tm.waitText("2 pending", burst)
	if _, err := os.Stat(tm.status); err == nil {
		t.Fatal("the scanner's y answered the quit question")
	}
	tm.keys("Escape")
	tm.waitGone("quit anyway?")
	tm.keys("C-c")
	tm.waitText("2 check-ins not yet sent", "quit anyway?")
	tm.keys("Escape")
	tm.waitGone("quit anyway?")

	// Away from the desk the scans still wait (sending in the background),
	// and quitting asks from there too, q as well as ctrl+c.
	tm.keys("Escape")
	tm.waitText("Leave the check-in desk?")
	tm.reply("C-y", "Leave the check-in desk?")
	tm.waitText("choose an upcoming event", "still sending in the background")
	tm.keys("q")
	tm.waitText("2 check-ins not yet sent (desk of", "quit anyway?")
	tm.keys("n")
	tm.waitGone("quit anyway?")
	tm.keys("C-c")
	tm.waitText("2 check-ins not yet sent (desk of", "quit anyway?")
	tm.keys("y")
	if st := tm.exitStatus(); st != "0" {
		t.Fatalf("exit status %s", st)
	}

	// The server back at its address (a journal belongs to its server);
	// the headless command sends what the desk left.
	vars2, _ := startSimWith(t, "--addr", strings.TrimSuffix(strings.TrimPrefix(vars["EVDESK_BASE_URL"], "http://"), "/v2"))
	env2 := append(env, "EVDESK_BASE_URL="+vars2["EVDESK_BASE_URL"], "EVDESK_TOKEN="+vars2["EVDESK_TOKEN"])
	out, err := runCLI(env2, "checkin", id, "-o", "json")
	if err != nil {
		t.Fatalf("checkin: %v\n%s", err, out)
	}
	var sum checkinSummary
	if err := json.Unmarshal(out, &sum); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if sum.Resent != 2 || sum.CheckedIn != 2 || sum.Pending != 0 {
		t.Fatalf("summary %+v", sum)
	}
	out, err = runCLI(env2, "checkin", "list", id, "-o", "csv")
	if err != nil || !strings.Contains(string(out), regs[6]+",check-in,Door-B") {
		t.Fatalf("checkin list: %v\n%s", err, out)
	}
}

func TestCheckinImportEndToEnd(t *testing.T) {
	t.Parallel()
	requireCheckinCommands(t)
	id, regs := largeEvent()
	vars, _ := startSim(t)
	env := append(isolatedEnv(t), "EVDESK_BASE_URL="+vars["EVDESK_BASE_URL"], "EVDESK_TOKEN="+vars["EVDESK_TOKEN"])
	list := filepath.Join(t.TempDir(), "emails.txt")
	content := strings.Join([]string{
		"# arrivals, morning",                  // 1: a comment
		regs[0],                                // 2
		"  " + strings.ToUpper(regs[1]) + "  ", // 3: normalised
		"",                                     // 4: blank
		"nobody@example.org",                   // 5: not registered
		"not an email",                         // 6: bad line
		regs[2],                                // 7
	}, "\n") + "\n"
	if err := os.WriteFile(list, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}

	out, err := runCLI(env, "checkin", id, list, "--source", "door-2")
	if err == nil {
		t.Fatalf("a failed line must fail the run:\n%s", out)
	}
	text := string(out)
	for _, want := range []string{
		"recorded from list:    4", "checked in:            3", "rejected:              1",
		"bad lines:             1", `line 5: nobody@example.org: Attendee is not registered for this event.`,
		`line 6: read "not an email"; expected an email, a ticket QR code or a ticket id`, "2 not checked in: 1 bad line, 1 rejected",
	} {
		if !strings.Contains(text, want) {
			t.Fatalf("output lacks %q:\n%s", want, text)
		}
	}

	// Again: the journal knows who is in; only the refused one is sent.
	out, err = runCLI(env, "checkin", id, list, "-o", "json")
	if err == nil {
		t.Fatalf("second run must fail too:\n%s", out)
	}
	var sum checkinSummary
	if jerr := json.Unmarshal(out[:strings.LastIndex(string(out), "}")+1], &sum); jerr != nil {
		t.Fatalf("%v\n%s", jerr, out)
	}
	if sum.Already != 3 || sum.CheckedIn != 0 || sum.Rejected != 1 || len(sum.BadLines) != 1 || sum.BadLines[0].Line != 6 {
		t.Fatalf("second run: %+v", sum)
	}

	// A CSV with an email column, from standard input.
	cmd := exec.Command(binPath, "checkin", id, "-")
	cmd.Env = env
	cmd.Stdin = strings.NewReader("name,email\n\"Silva, Ana\"," + regs[3] + "\n")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "checked in:            1") {
		t.Fatalf("csv from stdin: %v\n%s", err, out)
	}

	out, err = runCLI(env, "checkin", "list", id, "-o", "json")
	var listed []map[string]string
	if err != nil || json.Unmarshal(out, &listed) != nil || len(listed) != 4 || listed[0]["source"] != "door-2" {
		t.Fatalf("checkin list: %v\n%s", err, out)
	}
}

func TestConsoleCheckinSectionEndToEnd(t *testing.T) {
	t.Parallel()
	requireCheckinCommands(t)
	tm := startTerm(t, 100, 30, "--demo")
	// Screens are polled, never read once: a capture can catch a frame
	// half drawn.
	tm.waitText("DEMO", "1 All", "Check-in") // the console has a Check-in section
	activeTab := func(screen string) string {
		first, _, _ := strings.Cut(screen, "\n")
		if _, rest, ok := strings.Cut(first, "["); ok {
			tab, _, _ := strings.Cut(rest, "]")
			return tab
		}
		return ""
	}
	for i := 0; i < 12 && activeTab(tm.screen()) != "Check-in"; i++ {
		prev := activeTab(tm.screen())
		tm.keys("Tab")
		tm.waitFor("the next tab", func(s string) bool { return activeTab(s) != prev })
	}
	tm.waitText("choose an upcoming event")
	tm.keys("/")
	tm.keys("-l", "observ")
	tm.waitText("Observability Summit APAC") // the list, loaded and filtered
	tm.keys("Enter")
	tm.keys("Enter")
	tm.waitText("Whole event", "Opening Keynote")
	tm.keys("Down")
	tm.keys("Enter")
	tm.waitText("Desk: Opening Keynote", "ONLINE")
	tm.keys("Escape")
	tm.waitText("Leave the check-in desk?")
	tm.reply("C-y", "Leave the check-in desk?")
	tm.waitText("Whole event")
	tm.quitCleanly()
}

func TestEventDetailOpensTheDeskEndToEnd(t *testing.T) {
	t.Parallel()
	requireCheckinCommands(t)
	tm := startTerm(t, 100, 30, "--demo")
	tm.waitText("63 loaded")
	tm.openEvent("observ", "Observability Summit APAC")
	tm.keys("?")
	tm.waitText("Keys", "check-in desk") // the event detail's help lists the desk's key
	tm.keys("?")
	tm.keys("i")
	tm.waitText("Whole event", "Opening Keynote")
	tm.keys("Enter")
	tm.waitText("Desk: Observability Summit APAC", "ONLINE")
	tm.keys("F3")
	tm.waitText("Check-in history")
	tm.keys("Escape")
	tm.waitText("CHECK-IN DESK")
	tm.keys("Escape") // the input is empty: leaving asks
	tm.waitText("Leave the check-in desk?", "Yes: ctrl+y")
	tm.reply("C-y", "Leave the check-in desk?")
	tm.waitText("Whole event")
	tm.keys("Escape")
	tm.waitText("Overview")
	tm.keys("h")
	tm.waitText("Check-in history", "Observability Summit APAC")
	tm.quitCleanly()
}

// A control character inside a scanner's burst, as tmux types it into the
// real binary: the desk refuses the code whole, naming the key, and checks
// in no one, not even when the rest of the code is a registrant's address.
func TestAControlCharacterInsideAScanIsRefusedEndToEnd(t *testing.T) {
	t.Parallel()
	requireCheckinCommands(t)
	id, regs := largeEvent()
	tm := startTerm(t, 100, 30, "desk", id, "--demo", "--desk", "Door-A")
	tm.waitText("CHECK-IN DESK", "ONLINE", "roster 20,000")

	tm.scan(regs[0][:4]+"\x02"+regs[0][4:], "Enter")
	tm.waitText("[XX] NOT RECOGNISED", "The scanner sent ctrl+b inside this code")
	tm.scan("zz\x1d"+regs[1], "Enter") // a GS1 separator, then an address
	tm.waitText("The scanner sent ctrl+] inside this code", "zz"+regs[1])
	tm.scan(regs[2], "Enter")
	tm.waitText("[OK] CHECKED IN", regs[2], "This desk today 1")
}
