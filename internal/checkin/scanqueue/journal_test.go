package scanqueue

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const testEvent = "Ev7kQ2mW9xLp3RsT1nVbYc"

func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func TestJournalDedupAndReplay(t *testing.T) {
	dir := t.TempDir()
	clk := newFakeClock()
	j, err := Open(dir, testEvent, "", WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	a, err := j.Scan(" Ana.Costa@Example.ORG ", "Desk-1")
	if err != nil || a.Outcome != Pending || a.Email != "ana.costa@example.org" || a.ID != "1" || !a.At.Equal(clk.Now()) {
		t.Fatalf("first scan %+v %v", a, err)
	}
	dup, _ := j.Scan("ana.costa@example.org", "Desk-1")
	if dup.Outcome != Already || !strings.Contains(dup.Message, "waiting") {
		t.Fatalf("pending duplicate %+v", dup)
	}
	if _, err := j.Scan("https://events.example/qr?t=1", "Desk-1"); !errors.Is(err, ErrNotAnEmail) {
		t.Fatalf("a URL: %v", err)
	}
	b, _ := j.Scan("ben.okafor@example.com", "Desk-1")
	c, _ := j.Scan("chen.wang@example.net", "Desk-1")
	clk.Advance(3e9)
	settled, err := j.Ack([]Ack{{ID: a.ID, Outcome: CheckedIn}, {ID: b.ID, Outcome: Rejected, Message: "Attendee is not registered for this event."},
		{ID: "404", Outcome: CheckedIn}})
	if err != nil || len(settled) != 2 || settled[0].AckedAt.IsZero() {
		t.Fatalf("ack: %+v %v", settled, err)
	}
	if again, _ := j.Scan("ANA.COSTA@example.org", "Desk-2"); again.Outcome != Already || !strings.Contains(again.Message, "checked in") {
		t.Fatalf("checked-in duplicate %+v", again)
	}
	// A rejected attendee may be scanned again (after registering at the desk).
	b2, _ := j.Scan("ben.okafor@example.com", "Desk-1")
	if b2.Outcome != Pending {
		t.Fatalf("rescan after rejection %+v", b2)
	}
	want := Counts{Pending: 2, CheckedIn: 1, Already: 2, Rejected: 1}
	if got := j.Counts(); got != want {
		t.Fatalf("counts %+v", got)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Scan("x@example.org", ""); !errors.Is(err, ErrClosed) {
		t.Fatalf("scan after close: %v", err)
	}

	// Replay: the same state, the same pending queue, fresh ids.
	j = mustOpen(t, dir, testEvent, "", WithClock(clk.Now))
	if got := j.Counts(); got != want {
		t.Fatalf("after replay %+v", got)
	}
	p := j.Pending(0)
	if len(p) != 2 || p[0].ID != c.ID || p[1].ID != b2.ID {
		t.Fatalf("pending after replay %+v", p)
	}
	if sc, ok := j.Lookup("ana.costa@example.org"); !ok || sc.Outcome != CheckedIn || sc.ID != a.ID {
		t.Fatalf("lookup %+v", sc)
	}
	if n, _ := j.Scan("dara.kim@example.org", ""); n.ID != "7" {
		t.Fatalf("id after replay %q", n.ID)
	}
	// Pending scans remain, so the file was not compacted.
	if !strings.Contains(strings.Join(lines(t, j.Path()), "\n"), `"t":"ack"`) {
		t.Error("acks vanished while scans are pending")
	}
}

func TestJournalScanManyIsOneAppend(t *testing.T) {
	j := mustOpen(t, t.TempDir(), testEvent, "S1")
	out, err := j.ScanMany([]string{"a@example.org", "b@example.org", "A@example.org"}, "import")
	if err != nil || len(out) != 3 || out[2].Outcome != Already {
		t.Fatalf("%+v %v", out, err)
	}
	if _, err := j.ScanMany([]string{"c@example.org", "nope"}, "import"); err == nil || !strings.Contains(err.Error(), "entry 2") {
		t.Fatalf("bad entry: %v", err)
	}
	if got := j.Counts(); got.Total() != 3 {
		t.Fatalf("a refused list recorded scans: %+v", got)
	}
	if l := lines(t, j.Path()); len(l) != 4 || !strings.Contains(l[0], `"session":"S1"`) {
		t.Fatalf("file %q", l)
	}
}

func TestJournalTornLastLineIsDropped(t *testing.T) {
	dir := t.TempDir()
	j := mustOpen(t, dir, testEvent, "")
	j.Scan("a@example.org", "d")
	j.Scan("b@example.org", "d")
	path := j.Path()
	j.Close()
	whole, _ := os.ReadFile(path)
	for name, tail := range map[string]string{
		"cut mid-record": `{"t":"scan","id":"3","email":"c@exa`,
		"newline lost":   `{"t":"scan","id":"3","email":"c@example.org","at":"2026-11-23T09:00:00Z"}`,
		"garbage line":   "\x00\x00\x00\n",
	} {
		if err := os.WriteFile(path, append(append([]byte{}, whole...), tail...), 0o600); err != nil {
			t.Fatal(err)
		}
		j, err := Open(dir, testEvent, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := j.Counts(); got.Pending != 2 {
			t.Errorf("%s: counts %+v", name, got)
		}
		if b, _ := os.ReadFile(path); string(b) != string(whole) {
			t.Errorf("%s: file not cut back to its last whole line:\n%q", name, b)
		}
		j.Close()
	}
	// New scans follow cleanly.
	j = mustOpen(t, dir, testEvent, "")
	if sc, err := j.Scan("c@example.org", "d"); err != nil || sc.ID != "3" {
		t.Fatalf("%+v %v", sc, err)
	}

	// A damaged line that is not the last is an error naming the file and line.
	j.Close()
	l := lines(t, path)
	l[1] = `{"t":"scan",`
	os.WriteFile(path, []byte(strings.Join(l, "\n")+"\n"), 0o600)
	if _, err := Open(dir, testEvent, ""); err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), path) {
		t.Fatalf("damaged middle line: %v", err)
	}
}

func TestJournalCompactsWhenAllAcked(t *testing.T) {
	dir := t.TempDir()
	j := mustOpen(t, dir, testEvent, "")
	var acks []Ack
	for _, e := range []string{"a@example.org", "b@example.org", "c@example.org", "a@example.org"} {
		sc, _ := j.Scan(e, "d")
		acks = append(acks, Ack{ID: sc.ID, Outcome: CheckedIn})
	}
	acks[1].Outcome, acks[1].Message = Rejected, "Attendee is not registered for this event."
	if _, err := j.Ack(acks); err != nil {
		t.Fatal(err)
	}
	before := j.Scans()
	path := j.Path()
	j.Close()
	if n := len(lines(t, path)); n != 1+4+3 { // header, scans, acks of the three sent
		t.Fatalf("%d lines before compaction", n)
	}
	j = mustOpen(t, dir, testEvent, "")
	l := lines(t, path)
	if len(l) != 1+4 || strings.Contains(strings.Join(l, ""), `"t":"ack"`) {
		t.Fatalf("after compaction:\n%s", strings.Join(l, "\n"))
	}
	after := j.Scans()
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("scan %d: %+v became %+v", i, before[i], after[i])
		}
	}
	if sc, _ := j.Scan("a@example.org", "d"); sc.Outcome != Already {
		t.Errorf("dedup lost in compaction: %+v", sc)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("left behind %s", e.Name())
		}
	}
	// A second open finds nothing to compact and changes nothing.
	j.Close()
	b1, _ := os.ReadFile(path)
	mustOpen(t, dir, testEvent, "")
	if b2, _ := os.ReadFile(path); string(b1) != string(b2) {
		t.Error("reopening rewrote a compact file")
	}
}

func TestFileNames(t *testing.T) {
	names := map[string]bool{}
	for _, ids := range [][2]string{{testEvent, ""}, {testEvent, "Ss1"}, {"../../etc/passwd", ""}, {"a/b", "c"}, {"a", "b/c"},
		{"a.b", ""}, {"a", "b"}, {strings.Repeat("x", 200), ""}} {
		n := FileName(ids[0], ids[1])
		if names[n] || strings.ContainsAny(n, `/\`) || n != filepath.Base(n) || len(n) > 140 {
			t.Errorf("%q -> %q", ids, n)
		}
		names[n] = true
	}
	if FileName(testEvent, "Ss1") != testEvent+".Ss1.jsonl" {
		t.Errorf("plain ids are not kept: %s", FileName(testEvent, "Ss1"))
	}
}

func TestJournalBelongsToItsEvent(t *testing.T) {
	dir := t.TempDir()
	j := mustOpen(t, dir, "EventA", "")
	j.Close()
	os.Rename(filepath.Join(dir, FileName("EventA", "")), filepath.Join(dir, FileName("EventB", "")))
	if _, err := Open(dir, "EventB", ""); err == nil || !strings.Contains(err.Error(), `event "EventA"`) {
		t.Fatalf("foreign file: %v", err)
	}
}

func TestJournalLockedInThisProcess(t *testing.T) {
	dir := t.TempDir()
	mustOpen(t, dir, testEvent, "")
	_, err := Open(dir, testEvent, "")
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), FileName(testEvent, "")) {
		t.Fatalf("second open: %v", err)
	}
	// Another session of the same event has its own journal.
	mustOpen(t, dir, testEvent, "Ss1")
}

func TestJournalLockedByAnotherProcess(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "EVDESK_CHECKIN_HELPER=lock", "EVDESK_HELPER_DIR="+dir, "EVDESK_HELPER_EVENT="+testEvent)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper said %q (%v)", line, err)
	}
	_, err = Open(dir, testEvent, "")
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), filepath.Join(dir, FileName(testEvent, ""))) ||
		!strings.Contains(err.Error(), "another evdesk process") {
		t.Fatalf("open while another process holds it: %v", err)
	}
	stdin.Close() // the helper closes its journal and exits
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	mustOpen(t, dir, testEvent, "")
}

// TestHelperProcess is the body of the child processes the tests start.
func TestHelperProcess(t *testing.T) {
	switch os.Getenv("EVDESK_CHECKIN_HELPER") {
	case "":
		t.Skip("runs only as a child process of other tests")
	case "lock":
		j, err := Open(os.Getenv("EVDESK_HELPER_DIR"), os.Getenv("EVDESK_HELPER_EVENT"), "")
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("locked\n")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until the parent closes stdin
		j.Close()
	case "crash":
		crashHelper(t)
	}
}
