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

func lines(t testing.TB, path string) []string {
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
	// Compacted though scans are pending: the acks are folded into their
	// scans, the "already" scans of people checked in or pending are
	// gone (and still counted), the pending scans are kept as they were.
	file := strings.Join(lines(t, j.Path()), "\n")
	if strings.Contains(file, `"t":"ack"`) || strings.Count(file, `"outcome":"already"`) != 0 || !strings.Contains(file, `"folded":2`) {
		t.Errorf("not compacted:\n%s", file)
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

	// A damaged line that is not the last is set aside, named; every
	// other scan stays, pending ones still to send.
	j.Close()
	l := lines(t, path)
	l[1] = `{"t":"scan",`
	os.WriteFile(path, []byte(strings.Join(l, "\n")+"\n"), 0o600)
	j, err := Open(dir, testEvent, "")
	if err != nil {
		t.Fatalf("damaged middle line: %v", err)
	}
	notes := j.Notes()
	if len(notes) != 1 || !strings.Contains(notes[0], path+": line 2 was damaged") || !strings.Contains(notes[0], "set aside in "+path+".damaged") {
		t.Fatalf("notes %q", notes)
	}
	if p := j.Pending(0); len(p) != 2 || p[0].Email != "b@example.org" || p[1].Email != "c@example.org" {
		t.Fatalf("pending %+v", p)
	}
	if b, _ := os.ReadFile(path + ".damaged"); string(b) != "{\"t\":\"scan\",\n" {
		t.Fatalf("set aside %q", b)
	}
	j.Close()
	if j = mustOpen(t, dir, testEvent, ""); len(j.Notes()) != 0 || len(j.Pending(0)) != 2 {
		t.Fatalf("the journal was not rewritten without the damaged line: %q", j.Notes())
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
	before, counts := j.Scans(), j.Counts()
	path := j.Path()
	j.Close()
	if n := len(lines(t, path)); n != 1+4+3 { // header, scans, acks of the three sent
		t.Fatalf("%d lines before compaction", n)
	}
	j = mustOpen(t, dir, testEvent, "")
	l := lines(t, path)
	// The second scan of a@ was "already": folded, still counted.
	if len(l) != 1+3 || strings.Contains(strings.Join(l, ""), `"t":"ack"`) || !strings.Contains(l[0], `"folded":1`) {
		t.Fatalf("after compaction:\n%s", strings.Join(l, "\n"))
	}
	after := j.Scans()
	for i := range after {
		if before[i] != after[i] {
			t.Errorf("scan %d: %+v became %+v", i, before[i], after[i])
		}
	}
	if len(after) != 3 || j.Counts() != counts {
		t.Errorf("%d scans kept, counts %+v, were %+v", len(after), j.Counts(), counts)
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
	// The "already" scan above is folded by the next open, which counts
	// it; an open after that finds nothing to compact and changes nothing.
	j.Close()
	if j = mustOpen(t, dir, testEvent, ""); j.Counts().Already != 2 || len(lines(t, path)) != 1+3 {
		t.Fatalf("counts %+v, %d lines", j.Counts(), len(lines(t, path)))
	}
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

// Opening folds the "already" scans that no longer matter and keeps what
// does: the counts, each person's answer, the pending queue, the ids.
func TestJournalFoldsWhatNoLongerMatters(t *testing.T) {
	dir := t.TempDir()
	j := mustOpen(t, dir, testEvent, "")
	a, _ := j.Scan("a@example.org", "d")
	j.Scan("b@example.org", "d")
	c, _ := j.Scan("c@example.org", "d")
	j.Ack([]Ack{{ID: a.ID, Outcome: CheckedIn}, {ID: c.ID, Outcome: Rejected, Message: "not registered"}})
	elsewhere := func(string) Prior { return Prior{Already: "checked in at Door B"} }
	for range 3 {
		j.ScanMany([]string{"a@example.org", "b@example.org"}, "rerun") // folded: a and b answer for them
		j.ScanWith([]string{"d@example.org"}, "rerun", elsewhere)       // only the latest is kept
	}
	last, _ := j.Lookup("d@example.org")
	counts, path := j.Counts(), j.Path()
	j.Close()
	if n := len(lines(t, path)); n != 1+3+2+9 {
		t.Fatalf("%d lines before", n)
	}
	j = mustOpen(t, dir, testEvent, "")
	if j.Counts() != counts {
		t.Errorf("counts %+v, were %+v", j.Counts(), counts)
	}
	if l := lines(t, path); len(l) != 1+4 || !strings.Contains(l[0], `"folded":8`) {
		t.Errorf("after:\n%s", strings.Join(l, "\n"))
	}
	if sc, _ := j.Lookup("d@example.org"); sc != last {
		t.Errorf("d: %+v, want the latest %+v", sc, last)
	}
	if sc, _ := j.Lookup("a@example.org"); sc.Outcome != CheckedIn {
		t.Errorf("a: %+v", sc)
	}
	if p := j.Pending(0); len(p) != 1 || p[0].Email != "b@example.org" {
		t.Errorf("pending %+v", p)
	}
	if sc, _ := j.Scan("e@example.org", "d"); sc.ID != "13" {
		t.Errorf("the next id is %s, want 13", sc.ID)
	}
}

// The quick way through "already" lines agrees with the decoder: a line of
// another shape, or an email written with an escape, takes the decoder.
func TestSkipAlreadyTakesOnlyWhatItCanRead(t *testing.T) {
	j := &Journal{byID: map[string]*Scan{}, active: map[string]*Scan{"a@example.org": {}, `q"a@example.org`: {}}}
	for line, want := range map[string]bool{
		`{"t":"scan","id":"7","email":"a@example.org","source":"x","outcome":"already","acked_at":"2026-11-23T09:00:00Z"}`: true,
		`{"t":"scan","id":"7","email":"b@example.org","source":"x","outcome":"already"}`:                                   false, // not active: its latest scan may matter
		`{"t":"scan","id":"7","email":"a@example.org","outcome":"checked-in"}`:                                             false,
		`{"t":"scan","id":"x7","email":"a@example.org","outcome":"already"}`:                                               false,
		`{"t":"scan","id":"7","email":"q\"a@example.org","outcome":"already"}`:                                             false,
		`{"t":"ack","id":"7","email":"a@example.org","outcome":"already"}`:                                                 false,
		`{"id":"7","t":"scan","email":"a@example.org","outcome":"already"}`:                                                false,
	} {
		before := j.counts.Already
		if got := j.skipAlready([]byte(line + "\n")); got != want || (j.counts.Already > before) != want {
			t.Errorf("%s: %v", line, got)
		}
	}
	if j.seq != 7 {
		t.Errorf("seq %d", j.seq)
	}
}

// A journal damaged throughout: every bad line is set aside as it is read,
// the note names the first few, and the good scans stay pending.
func TestJournalDamagedThroughout(t *testing.T) {
	dir := t.TempDir()
	j := mustOpen(t, dir, testEvent, "")
	j.ScanMany(guests(3), "d")
	path := j.Path()
	j.Close()
	l := lines(t, path)
	var b strings.Builder
	b.WriteString(l[0] + "\n" + l[1] + "\n")
	for range 5000 {
		b.WriteString("\x00garbage\n")
	}
	b.WriteString(l[2] + "\n" + l[3] + "\n")
	os.WriteFile(path, []byte(b.String()), 0o600)
	j = mustOpen(t, dir, testEvent, "")
	if p := j.Pending(0); len(p) != 3 {
		t.Fatalf("pending %+v", p)
	}
	if n := j.Notes(); len(n) != 1 || !strings.Contains(n[0], ": 5000 lines (3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 4990 more) were damaged") {
		t.Fatalf("notes %q", n)
	}
	if side := lines(t, path+".damaged"); len(side) != 5000 {
		t.Fatalf("%d lines set aside", len(side))
	}
	if l := lines(t, path); len(l) != 4 {
		t.Fatalf("the journal still holds %d lines", len(l))
	}
}
