package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/mesh"
)

func TestVenueInitWritesASecretOnlyOnce(t *testing.T) {
	isolateXDG(t)
	out := filepath.Join(t.TempDir(), "venue.json")
	stdout, _, err := execute(t, "venue", "init", "Lisbon Congress Centre", "--out", out)
	if err != nil || !strings.Contains(stdout, "written to "+out) {
		t.Fatalf("%v\n%s", err, stdout)
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the file: %v %v", fi.Mode(), err)
	}
	sec, err := mesh.ReadSecret(out)
	if err != nil || sec.Name != "Lisbon Congress Centre" {
		t.Fatalf("read back: %+v %v", sec, err)
	}
	if _, _, err := execute(t, "venue", "init", "Other", "--out", out); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("replaced without --force: %v", err)
	}
	if again, _ := mesh.ReadSecret(out); again.ID != sec.ID {
		t.Fatal("the file changed")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"venue", "init", "  ", "--out", out + "2"}, "the venue's name is blank"},
		{[]string{"venue", "init", "Hall"}, "--out is required"},
		{[]string{"venue", "init", "Ha\x1b[2Jll", "--out", out + "2"}, "control character"},
	} {
		if _, _, err := execute(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v", c.args, err)
		}
	}
}

// A venue file that is not one is refused in words before the desk opens:
// too big, not JSON, or a field that does not hold.
func TestDeskRefusesABadVenueFileAndVenueFlags(t *testing.T) {
	isolateXDG(t)
	dir := t.TempDir()
	ev := demoFixtures().LargeConferenceEventID
	good := filepath.Join(dir, "venue.json")
	if _, _, err := execute(t, "venue", "init", "Hall", "--out", good); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.json")
	if err := os.WriteFile(huge, []byte(strings.Repeat("x", 70<<10)), 0o600); err != nil {
		t.Fatal(err)
	}
	garbage := filepath.Join(dir, "garbage.json")
	if err := os.WriteFile(garbage, []byte("\x1b[2J not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	var sec map[string]any
	raw, _ := os.ReadFile(good)
	_ = json.Unmarshal(raw, &sec)
	sec["cert"] = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"
	tampered := filepath.Join(dir, "tampered.json")
	b, _ := json.Marshal(sec)
	if err := os.WriteFile(tampered, b, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"desk", ev, "--headless", "--venue", huge}, "is over 64 KiB: it is not a venue file"},
		{[]string{"desk", ev, "--headless", "--venue", garbage}, "is not a venue file"},
		{[]string{"desk", ev, "--headless", "--venue", tampered}, "cert and key"},
		{[]string{"desk", ev, "--headless", "--venue", filepath.Join(dir, "none.json")}, "no such file"},
		{[]string{"desk", ev, "--listen", ":7248"}, "--listen goes with --venue FILE"},
		{[]string{"desk", ev, "--venue", good, "--listen", "nowhere"}, "--listen \"nowhere\": give HOST:PORT"},
		{[]string{"desk", ev, "--venue", good, "--listen", "host.example:7248"}, "give an IP address"},
		{[]string{"desk", ev, "--venue", good, "--join", "10.0.0.2:99999"}, "the port must be a number from 1 to 65535"},
		{[]string{"desk", ev, "--headless", "--board"}, "--headless goes alone"},
	} {
		_, _, err := execute(t, demo(c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v", c.args, err)
		} else if strings.ContainsRune(err.Error(), '\x1b') {
			t.Errorf("%q: the error carries an escape: %q", c.args, err)
		}
	}
}

// A desk without a screen and without a venue answers each line of its
// input as a JSON line, as the desk screen would.
func TestHeadlessDeskAnswersEachLine(t *testing.T) {
	isolateXDG(t)
	ev := demoFixtures().LargeConferenceEventID
	people := sim.New(sim.Options{}).RegistrantEmails(ev)
	ios, in, out, errOut := TestStreams()
	in.WriteString(people[0] + "\r\n" + strings.ToUpper(people[0]) + "\n\nnot a scan \x1b[31m\nnobody@example.org\n")
	if _, _, err := executeOn(t, NewFactory(ios), out, errOut, demo("desk", ev, "--headless", "--desk", "Gate 3")...); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	var got []answer
	sc := bufio.NewScanner(strings.NewReader(out.String()))
	for sc.Scan() {
		var a answer
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("not a JSON line: %q", sc.Text())
		}
		if a.Kind == "scan" { // the service's verdicts may follow, as "verdict" lines
			got = append(got, a)
		}
	}
	if len(got) != 4 {
		t.Fatalf("%d answers for 4 scans:\n%s", len(got), out)
	}
	want := []struct{ verdict, desk string }{{"RECORDED", "Gate 3"}, {"ALREADY CHECKED IN", "Gate 3"}, {"NOT RECOGNISED", ""}, {"", ""}}
	for i, w := range want[:3] {
		if got[i].Verdict != w.verdict || got[i].Desk != w.desk {
			t.Errorf("answer %d: %+v", i+1, got[i])
		}
	}
	if got[0].Email != people[0] || got[0].At.IsZero() || got[1].At != got[0].At {
		t.Errorf("who and when: %+v / %+v", got[0], got[1])
	}
	if strings.ContainsRune(out.String(), '\x1b') {
		t.Errorf("an escape reached the output: %q", out)
	}
	// Without a roster at hand the stranger is recorded and sent (the
	// server's refusal follows as a verdict line); with one, the roster
	// says so first.
	if v := got[3].Verdict; v != "NOT REGISTERED" && v != "RECORDED" {
		t.Errorf("the stranger: %+v", got[3])
	}
	// Its input ended before the service answered: the desk waited for
	// the service's word on each scan it sent, and wrote it.
	for _, a := range []answer{got[0], got[3]} {
		if !strings.Contains(out.String(), `"kind":"verdict"`) || !strings.Contains(out.String(), `"id":"`+a.ID+`"}`) {
			t.Errorf("no verdict line for %s (scan %s):\n%s", a.Email, a.ID, out)
		}
	}
	if strings.Contains(errOut.String(), "not answered") {
		t.Errorf("the desk left scans unanswered: %s", errOut)
	}
}

// A headless desk whose server does not answer waits --wait once its input
// ends, then says what it leaves in its journal for its next run.
func TestHeadlessDeskSaysWhatItLeavesUnsent(t *testing.T) {
	isolateXDG(t)
	c := newCountingSim(t)
	useServer(t, c)
	c.setDown(true)
	ev := demoFixtures().LargeConferenceEventID
	people := c.sim.RegistrantEmails(ev)
	out, errOut, err := runWithInput(t, people[0]+"\n"+people[1]+"\n", "desk", ev, "--headless", "--wait", "300ms")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if strings.Count(out, `"kind":"scan"`) != 2 || !strings.Contains(errOut, "2 scans not answered by the service yet: kept in this desk's journal") {
		t.Fatalf("out:\n%s\nerr:\n%s", out, errOut)
	}
	if _, _, err := runWithInput(t, "", "desk", ev, "--wait", "5s"); err == nil || !strings.Contains(err.Error(), "--wait goes with --headless") {
		t.Fatalf("--wait without --headless: %v", err)
	}
}
