package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim/hostile"
)

// A full disk, for real: a small tmpfs holds the state folder (the
// journals), a file fills it, and removing the file frees it. Mounting
// needs root: the tests run where EVDESK_TMPFS_TESTS=1 says it can (.ci/run
// sets it; it runs as root).

const envTmpfsTests = "EVDESK_TMPFS_TESTS"

// smallDisk mounts a tmpfs of size bytes for the test and returns its
// folder.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	if os.Getenv(envTmpfsTests) != "1" {
		t.Skipf("mounts a tmpfs: set %s=1 as root (.ci/run does)", envTmpfsTests)
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a tmpfs (%s=1 needs root): %v\n%s", envTmpfsTests, err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fill writes to path until the disk is full, then leaves keep bytes free
// by cutting the file back.
func fill(t *testing.T, path string, keep int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	var n int64
	for {
		w, err := f.Write(chunk)
		n += int64(w)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Truncate(max(0, n-keep)); err != nil {
		t.Fatal(err)
	}
}

// journaled waits until the journal on disk holds n scans.
func journaled(t *testing.T, disk string, n int) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		paths, _ := filepath.Glob(filepath.Join(disk, "evdesk", "journal", "*.jsonl"))
		got := 0
		for _, p := range paths {
			b, _ := os.ReadFile(p)
			got += bytes.Count(b, []byte(`"t":"scan"`))
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the journal holds %d scans, want %d", got, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stateEnv points the binary's state folder (its journals) at dir.
func stateEnv(env []string, dir string) []string {
	return append(append([]string(nil), env...), "XDG_STATE_HOME="+dir)
}

// TestHostileFullDiskCLISaysWhatItCouldNotRecord: `evdesk checkin EVENT
// FILE` on a disk with room for part of the list records what fits, sends
// it, and when the answers cannot be recorded says so and exits non-zero;
// with space again, a rerun finishes the list.
func TestHostileFullDiskCLISaysWhatItCouldNotRecord(t *testing.T) {
	t.Parallel()
	disk := smallDisk(t, "2m")
	he := hostileAPI(t, hostile.Options{})
	id, regs := largeEvent()
	list := filepath.Join(t.TempDir(), "list.txt")
	if err := os.WriteFile(list, []byte(strings.Join(regs[:3000], "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := stateEnv(he.env, disk)
	filler := filepath.Join(disk, "filler")
	if err := os.MkdirAll(filepath.Join(disk, "evdesk", "journal"), 0o700); err != nil {
		t.Fatal(err)
	}
	fill(t, filler, 40<<10) // room for a chunk of the list (256 scans), not for their answers too

	r := runBinary(t, env, "checkin", id, list)
	stderr := string(r.stderr)
	if r.exitCode() == 0 || !strings.Contains(stderr, "could not record the answers") || !strings.Contains(stderr, "no space left on device") ||
		!strings.Contains(stderr, "free space and run this again") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.exitCode(), r.stdout, stderr)
	}
	terminalSafe(t, "stderr", r.stderr)
	t.Logf("full disk, CLI: exit %d: %s", r.exitCode(), strings.TrimSpace(stderr))

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	r = runBinary(t, env, "checkin", id, list, "-o", "json")
	var sum checkinSummary
	if err := jsonUnmarshal(r.stdout, &sum); err != nil || r.exitCode() != 0 || sum.Pending != 0 || sum.CheckedIn != 3000 || sum.Resent != 256 {
		t.Fatalf("rerun with space: exit %d %+v %v\n%s", r.exitCode(), sum, err, r.stderr)
	}
	if got := len(he.sim.CheckIns(id, "")); got != 3000 {
		t.Fatalf("the server holds %d check-ins, want 3000", got)
	}
}

// TestHostileFullDiskDeskHealsByItself: a desk's scan is journaled and
// sent; the disk fills while the server is answering, so the answer cannot
// be recorded: the desk says the disk is full and keeps the answer. Once
// the disk has room again the desk records it by itself, without a restart
// or a key.
func TestHostileFullDiskDeskHealsByItself(t *testing.T) {
	t.Parallel()
	disk := smallDisk(t, "1m")
	hold := make(chan struct{})
	he := hostileAPI(t, hostile.Options{})
	id, regs := largeEvent()
	tm := startTermEnv(t, 80, 24, stateEnv(he.env, disk), "desk", id, "--desk", "Door-A")
	tm.waitText("CHECK-IN DESK", "ONLINE", "roster 20,000")

	// Sixty scans at once, as a scanner pastes: their answers need more
	// than the slack of the journal's last page of disk.
	he.h.Set(hostile.Options{Hold: hold})
	tm.paste(strings.Join(regs[:60], "\n") + "\n")
	tm.waitText("60 pending")
	journaled(t, disk, 60)
	fill(t, filepath.Join(disk, "filler"), 0)
	close(hold)                                                           // the server checks them in; the answers find the disk full
	tm.waitText("DISK FULL", "answers held; auto-retry", "(ctrl+r: now)") // whole, at 80 columns
	if s := tm.screen(); strings.Contains(s, "STOPPED") || strings.Contains(s, "reopen") {
		t.Fatalf("the desk stopped:\n%s", s)
	}

	if err := os.Remove(filepath.Join(disk, "filler")); err != nil {
		t.Fatal(err)
	}
	tm.waitText("ONLINE  0 pending", "This desk today 60")
	if got := len(he.sim.CheckIns(id, "")); got != 60 {
		t.Fatalf("the server holds %d check-ins, want 60", got)
	}

	// Full again: scans that do not fit are refused in words that fit.
	fill(t, filepath.Join(disk, "filler"), 0)
	tm.paste(strings.Join(regs[60:120], "\n") + "\n")
	tm.waitText("NOT RECORDED", "not saved: the disk is full")
	tm.keys("C-c") // q would be typed into the scan field
	tm.waitText("not yet sent — quit anyway?")
	tm.keys("C-y")
	if st := tm.exitStatus(); st != "0" {
		t.Fatalf("exit status %s", st)
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
