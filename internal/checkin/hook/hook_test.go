package hook

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func needShell(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the hook's tests run /bin/sh")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
}

func collect(t *testing.T, o Options) (*Runner, chan Result) {
	ch := make(chan Result, 16)
	o.OnResult = func(r Result) { ch <- r }
	r := New(o)
	t.Cleanup(r.Close)
	return r, ch
}

func next(t *testing.T, ch chan Result) Result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(20 * time.Second):
		t.Fatal("the hook never reported")
	}
	return Result{}
}

// Each placeholder is one argument, whatever it holds: a name with quotes,
// semicolons and $(...) reaches the command as data, never as shell.
func TestArgumentsAreDataNotShell(t *testing.T) {
	needShell(t)
	t.Setenv("EVDESK_TOKEN", "secret-token")
	t.Setenv("ACME_API_TOKEN", "another")
	out := filepath.Join(t.TempDir(), "out")
	r, ch := collect(t, Options{Argv: []string{"sh", "-c", `printf '%s|%s|%s|%s|%s\n' "$1" "$2" "$3" "$4" "${EVDESK_TOKEN:-none}${ACME_API_TOKEN:-none}" >> "$5"; echo done`,
		"hook", "{email}", "{name}", "{ticket}", "{desk} @ {event}", out}})
	r.Run(Vars{Email: "ana@example.org", Name: `Ana "x"; $(touch pwned) Costa`, Ticket: "tk1", Desk: "Door A", Event: "Launch"})
	res := next(t, ch)
	if res.Err != nil || res.Output != "done" {
		t.Fatalf("%+v", res)
	}
	b, _ := os.ReadFile(out)
	if got := string(b); got != "ana@example.org|Ana \"x\"; $(touch pwned) Costa|tk1|Door A @ Launch|nonenone\n" {
		t.Fatalf("the command got %q", got)
	}
	if _, err := os.Stat("pwned"); err == nil {
		t.Fatal("a name ran as a command")
	}
}

func TestFailuresAreReported(t *testing.T) {
	needShell(t)
	r, ch := collect(t, Options{Argv: []string{"sh", "-c", "echo oops >&2; printf '\\033[2J'; exit 3"}})
	r.Run(Vars{Email: "a@b.c"})
	res := next(t, ch)
	if res.Err == nil || !strings.Contains(res.Err.Error(), "exit status 3") || strings.Contains(res.Output, "\x1b") || !strings.Contains(res.Output, "oops") {
		t.Fatalf("%+v", res)
	}
	r2, ch2 := collect(t, Options{Argv: []string{"evdesk-no-such-command-xyz"}})
	r2.Run(Vars{})
	if res := next(t, ch2); res.Err == nil || !strings.Contains(res.Err.Error(), "was not found") {
		t.Fatalf("%+v", res)
	}
}

func TestASlowCommandIsStoppedAndNeverBlocks(t *testing.T) {
	needShell(t)
	r, ch := collect(t, Options{Argv: []string{"sleep", "30"}, Timeout: 200 * time.Millisecond, MaxRunning: 1, MaxQueued: 1})
	start := time.Now()
	for range 3 {
		r.Run(Vars{Email: "a@b.c"}) // returns at once, whatever the command does
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Run blocked for %s", d)
	}
	busy, stopped := 0, 0
	for range 3 {
		res := next(t, ch)
		switch {
		case errors.Is(res.Err, ErrBusy):
			busy++
		case res.Err != nil && strings.Contains(res.Err.Error(), "did not finish within 200ms"):
			stopped++
		default:
			t.Fatalf("%+v", res)
		}
	}
	if busy < 1 || stopped < 1 {
		t.Fatalf("busy %d, stopped %d", busy, stopped)
	}
}

func TestNoCommandNoRunner(t *testing.T) {
	if New(Options{}) != nil || New(Options{Argv: []string{""}}) != nil {
		t.Fatal("a runner without a command")
	}
	var r *Runner
	r.Run(Vars{}) // a desk without a hook calls it all the same
	r.Close()
}
