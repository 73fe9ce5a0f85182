package checkin

import (
	"github.com/evdesk/evdesk/views"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
	"time"
)

// on_checkin runs after each check-in the server confirmed, with the
// person's details as arguments, and never holds the desk up; a failing
// command is shown.
func TestOnCheckinHook(t *testing.T) {
	if goruntime.GOOS == "windows" {
		t.Skip("the hook's command here is /bin/sh")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	out := filepath.Join(t.TempDir(), "hook.log")
	r := newRig(t, withSize(100, 30), withExtras(views.Extras{OnCheckin: []string{"sh", "-c", `printf '%s|%s|%s\n' "$1" "$2" "$3" >> "$4"`,
		"hook", "{email}", "{desk}", "{event}", out}}))
	r.settle("ONLINE")
	h := r.holderWith("ATTENDEE", 0)
	r.scan(h.email)
	r.settle("[OK] CHECKED IN")
	want := h.email + "|evdesk desk test|" + r.ids.LargeConferenceEventID + "\n"
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(out)
		if string(b) == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hook wrote %q, want %q", b, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The same person again is ALREADY CHECKED IN: no second run.
	r.scan(h.email)
	r.settle("ALREADY CHECKED IN")

	// A command that fails says so, and the desk scans on.
	r2 := newRig(t, withSize(100, 30), withExtras(views.Extras{OnCheckin: []string{"sh", "-c", "exit 7"}}))
	r2.settle("ONLINE")
	r2.scan(r2.holderWith("ATTENDEE", 1).email)
	r2.settle("[OK] CHECKED IN", "on_checkin for ", "exit status 7")
	if b, _ := os.ReadFile(out); strings.Count(string(b), "\n") != 1 {
		t.Fatalf("the hook ran again for an ALREADY: %q", b)
	}
}
