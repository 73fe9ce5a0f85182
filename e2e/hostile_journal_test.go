package e2e

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim/hostile"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// The journal stays small and readable: reruns of a list fold away when it
// is opened, and one damaged line costs that line, not the journal.

// journalFile is the path of an event's journal under the binary's state
// folder, its folder made.
func journalFile(t *testing.T, env []string, eventID string) string {
	t.Helper()
	dir := filepath.Join(envValue(env, "XDG_STATE_HOME"), "evdesk", "journal")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, scanqueue.FileName(eventID, ""))
}

// writeJournal writes a journal's lines as the desk writes them: the
// header, then lines.
func writeJournal(t *testing.T, path, eventID string, lines func(w *bufio.Writer)) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(w, `{"t":"journal","v":1,"event":%q}`+"\n", eventID)
	lines(w)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func scanLine(w *bufio.Writer, id int, email, outcome string) {
	const at = "2026-11-23T09:00:00Z"
	switch outcome {
	case "":
		fmt.Fprintf(w, `{"t":"scan","id":"%d","email":%q,"source":"list.csv","at":%q}`+"\n", id, email, at)
	default:
		fmt.Fprintf(w, `{"t":"scan","id":"%d","email":%q,"source":"list.csv","at":%q,"outcome":%q,"acked_at":%q}`+"\n",
			id, email, at, outcome, at)
	}
}

// TestHostileDamagedJournalLineIsSetAside: a line damaged in the middle of
// a journal with pending scans used to make the journal unusable ("move the
// file aside", abandoning its scans). Now it is set aside and named, and
// every pending scan is still sent.
func TestHostileDamagedJournalLineIsSetAside(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{})
	id, regs := largeEvent()
	path := journalFile(t, he.env, id)
	writeJournal(t, path, id, func(w *bufio.Writer) {
		scanLine(w, 1, regs[0], "")
		w.WriteString(`{"t":"scan","id":"2","email":"` + "\x00\x1b[2J garbage\n")
		scanLine(w, 3, regs[1], "")
	})
	r := runBinary(t, he.env, "checkin", id)
	stderr := string(r.stderr)
	if r.exitCode() != 0 || !strings.Contains(stderr, "Sending 2 scans") || !strings.Contains(stderr, ": line 3 was damaged") ||
		!strings.Contains(stderr, "set aside in "+path+".damaged") {
		t.Fatalf("exit %d\n%s\n%s", r.exitCode(), r.stdout, stderr)
	}
	terminalSafe(t, "stderr", r.stderr)
	if got := len(he.sim.CheckIns(id, "")); got != 2 {
		t.Fatalf("the server holds %d check-ins, want the 2 pending scans", got)
	}
	if b, err := os.ReadFile(path + ".damaged"); err != nil || !strings.Contains(string(b), "garbage") {
		t.Fatalf("set aside: %q %v", b, err)
	}
}

// TestHostileMillionLineJournalOpensWithinItsTarget: 330 reruns of a list
// of 3,028 people leave a journal of 1,000,000 lines (about 200 MB). It
// took 13 s and 708 MB to open; the target is under 1 s and 100 MB. The
// file is 200 MB, so the test runs where EVDESK_HEAVY_TESTS=1 (.ci/run sets
// it); BenchmarkOpenMillionLineJournal measures the same in the package.
func TestHostileMillionLineJournalOpensWithinItsTarget(t *testing.T) {
	if os.Getenv("EVDESK_HEAVY_TESTS") != "1" {
		t.Skip("writes a 200 MB journal: set EVDESK_HEAVY_TESTS=1 (.ci/run does)")
	}
	t.Parallel()
	he := hostileAPI(t, hostile.Options{})
	id, regs := largeEvent()
	people := regs[:3028]
	path := journalFile(t, he.env, id)
	writeJournal(t, path, id, func(w *bufio.Writer) {
		for i := 1; i < 1_000_000; i++ {
			outcome := "checked-in"
			if i > len(people) {
				outcome = "already"
			}
			scanLine(w, i, people[(i-1)%len(people)], outcome)
		}
	})
	list := filepath.Join(t.TempDir(), "list.txt")
	if err := os.WriteFile(list, []byte(people[0]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	r := runBinary(t, he.env, "checkin", id, list)
	if r.exitCode() != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.exitCode(), r.stdout, r.stderr)
	}
	after, _ := os.Stat(path)
	t.Logf("1,000,000-line journal (%d MB): the run took %v (%v of CPU) with peak RSS %d MB; the journal is now %d KB",
		fi.Size()>>20, r.took.Round(time.Millisecond), r.cpu.Round(time.Millisecond), r.maxRSS>>20, after.Size()>>10)
	if r.maxRSS > 100<<20 {
		t.Errorf("peak RSS %d MB, over the 100 MB target", r.maxRSS>>20)
	}
	if after.Size() > 1<<20 {
		t.Errorf("the journal was not folded: %d bytes", after.Size())
	}
}

// TestHostileRosterCacheHoldsNoRawText: `evdesk checkin` downloads the
// roster to look up a ticket with the CLI's client, which keeps answers
// faithful; the cache it writes still holds only what the sanitiser lets
// through.
func TestHostileRosterCacheHoldsNoRawText(t *testing.T) {
	t.Parallel()
	he := hostileAPI(t, hostile.Options{Inject: true})
	id := he.sim.Fixtures().UpcomingEventID
	list := filepath.Join(t.TempDir(), "list.txt")
	if err := os.WriteFile(list, []byte("TKT9NOSUCHTICKET42\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, he.env, "checkin", id, list)
	cache, err := os.ReadFile(strings.TrimSuffix(journalFile(t, he.env, id), ".jsonl") + ".roster.json")
	if err != nil {
		t.Fatalf("no roster cache: %v\n%s", err, r.stderr)
	}
	if !strings.Contains(string(cache), "RED") {
		t.Fatalf("the injected text is not in the cache, so the test proves nothing: %.300s", cache)
	}
	for _, seq := range append(hostile.Sequences, `\u001b`, `\u0007`, `\u009b`, `\u202e`) {
		if i := strings.Index(string(cache), seq); i >= 0 {
			t.Errorf("%q in the roster cache: %q", seq, cache[max(0, i-60):min(len(cache), i+60)])
		}
	}
	terminalSafe(t, "stderr", r.stderr)
}
