package e2e

import (
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestConsoleWithoutATerminalNamesTheSubcommands starts the console as a
// scheduler or a service would: no terminal on its streams and none to
// open (a session of its own). It says the console needs one and names the
// commands for scripts, not Bubble Tea's "could not open TTY".
func TestConsoleWithoutATerminalNamesTheSubcommands(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binPath, "--demo")
	cmd.Env = isolatedEnv(t)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("exit: %v\n%s", err, out)
	}
	got := string(out)
	for _, want := range []string{"the console needs a terminal", "evdesk events list", "evdesk --help"} {
		if !strings.Contains(got, want) {
			t.Fatalf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "TTY") {
		t.Fatalf("Bubble Tea's words leaked:\n%s", got)
	}
}
