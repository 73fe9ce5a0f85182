package scanqueue

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A journal kept aside is handed over once: its pending scans go into the
// taking journal with their source and time, and are settled in the old
// one, so neither sends them twice, even when the hand-over runs again.
func TestTakeHandsPendingScansOverOnce(t *testing.T) {
	aside, here := t.TempDir(), t.TempDir()
	old, err := Open(aside, "ev", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.ScanMany([]string{"ana@example.org", "bo@example.org"}, "Door A"); err != nil {
		t.Fatal(err)
	}
	sent, _ := old.ScanMany([]string{"cy@example.org"}, "Door B")
	if _, err := old.Ack([]Ack{{ID: sent[0].ID, Outcome: CheckedIn}}); err != nil {
		t.Fatal(err)
	}
	if n, err := PendingIn(aside, "ev", ""); n != 2 || err != nil {
		t.Fatalf("pending, read aside: %d %v", n, err)
	}
	before := old.Pending(0)

	j, err := Open(here, "ev", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Scan("bo@example.org", "Door C"); err != nil { // already pending here
		t.Fatal(err)
	}
	n, err := j.Take(old, "handed over to test")
	if err != nil || n != 1 {
		t.Fatalf("took %d: %v", n, err)
	}
	if c := old.Counts(); c.Pending != 0 {
		t.Fatalf("the old journal still sends %d", c.Pending)
	}
	got := j.Pending(0)
	if len(got) != 2 || got[1].Email != "ana@example.org" || got[1].Source != "Door A" || !got[1].At.Equal(before[0].At) {
		t.Fatalf("pending here: %+v", got)
	}
	if n, err := j.Take(old, "again"); n != 0 || err != nil {
		t.Fatalf("again: %d %v", n, err)
	}
	if _, err := j.Take(j, "self"); err == nil {
		t.Fatal("a journal took its own scans")
	}
	other, err := Open(t.TempDir(), "ev2", "")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := j.Take(other, "x"); err == nil || !strings.Contains(err.Error(), "ev2") {
		t.Fatalf("another event: %v", err)
	}
	_ = old.Close()
	_ = j.Close()
	// Both survive a reopen as they were left.
	if n, _ := PendingIn(aside, "ev", ""); n != 0 {
		t.Fatalf("old journal, reopened: %d pending", n)
	}
	if n, _ := PendingIn(here, "ev", ""); n != 2 {
		t.Fatalf("new journal, reopened: %d pending", n)
	}
}

// PendingIn only reads: a damaged line is neither set aside nor fatal, no
// lock is taken, and a missing journal counts nothing.
func TestPendingInOnlyReads(t *testing.T) {
	dir := t.TempDir()
	if n, err := PendingIn(dir, "ev", ""); n != 0 || err != nil {
		t.Fatal(n, err)
	}
	path := filepath.Join(dir, FileName("ev", ""))
	body := `{"t":"journal","v":1,"event":"ev"}` + "\n" +
		`{"t":"scan","id":"1","email":"ana@example.org","source":"s","at":"2026-11-23T09:00:00Z"}` + "\n" +
		"\x00garbage\n" +
		`{"t":"scan","id":"2","email":"bo@example.org","source":"s","at":"2026-11-23T09:00:00Z"}` + "\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if n, err := PendingIn(dir, "ev", ""); n != 2 || err != nil {
		t.Fatal(n, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("reading left %d files", len(entries))
	}
	if b, _ := os.ReadFile(path); string(b) != body {
		t.Fatal("reading changed the journal")
	}
	if _, err := PendingIn(dir, "other", ""); err != nil { // another event's file name: none
		t.Fatal(err)
	}
}
