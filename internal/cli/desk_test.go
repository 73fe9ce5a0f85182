package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
)

// runWithInput is execute with standard input.
func runWithInput(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	ios, in, out, errOut := TestStreams()
	in.WriteString(stdin)
	return executeOn(t, NewFactory(ios), out, errOut, args...)
}

func TestCheckinStatsPrintsTheBoardsFigures(t *testing.T) {
	startPhoneSim(t)
	f := demoFixtures()
	ev := f.LargeConferenceEventID
	regs := sim.New(sim.Options{}).RegistrantEmails(ev)
	if _, stderr, err := runWithInput(t, regs[0]+"\n"+regs[1]+"\n", "checkin", ev, "-", "--source", "Door B"); err != nil {
		t.Fatalf("checkin: %v\n%s", err, stderr)
	}
	out, _, err := execute(t, "checkin", "stats", ev, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		CheckedIn  int `json:"checked_in"`
		Registered int `json:"registered"`
		PerDesk    []struct {
			Desk  string `json:"desk"`
			Count int    `json:"count"`
		} `json:"per_desk"`
		Sessions []struct {
			SessionID string `json:"session_id"`
			CheckedIn int    `json:"checked_in"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if st.CheckedIn != 2 || st.Registered != 20000 || len(st.PerDesk) != 1 || st.PerDesk[0].Desk != "Door B" ||
		st.PerDesk[0].Count != 2 || len(st.Sessions) == 0 {
		t.Fatalf("stats %+v", st)
	}
	out, _, err = execute(t, "checkin", "stats", ev)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"checked in: 2 of 20,000 registered (<1%)", "Door B 2", "Check-ins by session", "untimed: 2"} {
		if !strings.Contains(squash(out), want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	sid := f.LargeConferenceSessionID
	out, _, err = execute(t, "checkin", "stats", ev, "--session", sid)
	if err != nil || !strings.Contains(out, "session "+sid) || strings.Contains(out, "Check-ins by session") {
		t.Fatalf("session stats: %v\n%s", err, out)
	}
	if _, _, err := execute(t, "checkin", "stats", ev, "-o", "csv"); err == nil || !strings.Contains(err.Error(), `"csv" is not an output format here; use table or json`) {
		t.Fatalf("-o csv: %v", err)
	}
}

func TestDeskFlagsAreCheckedBeforeTheConsoleStarts(t *testing.T) {
	isolateXDG(t)
	t.Setenv("EVDESK_KIOSK_PIN", "")
	ev := demoFixtures().LargeConferenceEventID
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"desk", ev, "--kiosk"}, "--kiosk needs a PIN to unlock the desk: set EVDESK_KIOSK_PIN, or kiosk_pin in profile"},
		{[]string{"desk", ev, "--desk", "  "}, "--desk is blank"},
		{[]string{"desk", ev, "--desk", strings.Repeat("x", 41)}, "--desk is 41 characters long: keep it to 40"},
		{[]string{"desk", ev, "--desk", "a\x1b[2Jb"}, "--desk holds a control character"},
		{[]string{"desk", ev, "--board", "--kiosk"}, "--board and --kiosk do not go together"},
	} {
		_, _, err := execute(t, demo(c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v", c.args, err)
		}
	}
	t.Setenv("EVDESK_KIOSK_PIN", "12x4")
	if _, _, err := execute(t, demo("desk", ev, "--kiosk")...); err == nil || !strings.Contains(err.Error(), "EVDESK_KIOSK_PIN is not a kiosk PIN") {
		t.Fatalf("a bad PIN: %v", err)
	}
}

// The demo's server starts afresh on every run, so its journal does too: a
// second run checks the same person in again (a kept journal would answer
// "already checked in" and send nothing), and nothing is left behind.
func TestDemoJournalsLastOneRun(t *testing.T) {
	dir := isolateXDG(t)
	ev := demoFixtures().LargeConferenceEventID
	who := sim.New(sim.Options{}).RegistrantEmails(ev)[0]
	for run := 1; run <= 2; run++ {
		out, stderr, err := runWithInput(t, who+"\n", demo("checkin", ev, "-", "-o", "json")...)
		if err != nil {
			t.Fatalf("run %d: %v\n%s", run, err, stderr)
		}
		var sum venue.ImportSummary
		if err := json.Unmarshal([]byte(out), &sum); err != nil {
			t.Fatal(err)
		}
		if sum.CheckedIn != 1 || sum.Already != 0 {
			t.Fatalf("run %d: %+v", run, sum)
		}
		if strings.HasPrefix(sum.Journal, dir) {
			t.Fatalf("run %d: the demo's journal %s is in the state dir", run, sum.Journal)
		}
		if _, err := os.Stat(filepath.Dir(sum.Journal)); !os.IsNotExist(err) {
			t.Fatalf("run %d: the demo's journal folder is left behind (%v)", run, err)
		}
	}
}

// TestCheckinListShowsWhenADeskHereFirstSawEach: the service keeps no
// times; the list shows the desks' times on this computer, - for others.
func TestCheckinListShowsWhenADeskHereFirstSawEach(t *testing.T) {
	startPhoneSim(t)
	ev := demoFixtures().LargeConferenceEventID
	regs := sim.New(sim.Options{}).RegistrantEmails(ev)
	if _, stderr, err := runWithInput(t, regs[0]+"\n"+regs[1]+"\n", "checkin", ev, "-", "--source", "Door B"); err != nil {
		t.Fatalf("checkin: %v\n%s", err, stderr)
	}
	at := time.Now()
	ar := roster.NewArrivals()
	ar.Note(regs[0], "Door B", at)
	if err := ar.Save(roster.ArrivalsPath(serverDir(t), ev, ""), ev, ""); err != nil {
		t.Fatal(err)
	}
	out, _, err := execute(t, "checkin", "list", ev)
	if err != nil {
		t.Fatal(err)
	}
	if l := lineOf(out, regs[0]); !strings.HasSuffix(l, roster.Arrival{At: at}.Seen(time.Now(), time.Local)) {
		t.Errorf("the desk's time is missing: %q\n%s", l, out)
	}
	if l := lineOf(out, regs[1]); !strings.HasSuffix(l, " -") || !strings.Contains(out, "FIRST SEEN HERE") {
		t.Errorf("a check-in no desk here saw: %q\n%s", l, out)
	}
	out, _, err = execute(t, "checkin", "list", ev, "-o", "json")
	if err != nil || strings.Contains(out, "seen") || !strings.Contains(out, regs[1]) {
		t.Errorf("JSON keeps the service's records: %v\n%s", err, out)
	}
}

func lineOf(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return strings.TrimRight(l, " ")
		}
	}
	return ""
}
