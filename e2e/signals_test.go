package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCheckinFromStdinEndsOnSIGTERM: a scheduler stops `evdesk checkin
// EVENT -` that waits on a pipe nobody writes to with SIGTERM, and it
// exits 3 (interrupted) instead of waiting for SIGKILL.
func TestCheckinFromStdinEndsOnSIGTERM(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binPath, "--demo", "checkin", "ev1", "-")
	cmd.Env = isolatedEnv(t)
	stdin, err := cmd.StdinPipe() // held open, never written to
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "evdesk to wait on standard input", time.Minute, func() bool { return readingStdin(cmd.Process.Pid) })
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("exit %v, want 3 (interrupted); stderr %q", err, stderr.String())
	}
}

// readingStdin reports whether a thread of process pid is in read(0, ...)
// (Linux: /proc/PID/task/TID/syscall starts with the call's number, 0 for
// read on amd64 and 63 on arm64, and its first argument, the descriptor).
func readingStdin(pid int) bool {
	tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "syscall"))
	for _, task := range tasks {
		b, err := os.ReadFile(task)
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) > 1 && (f[0] == "0" || f[0] == "63") && f[1] == "0x0" {
			return true
		}
	}
	return false
}
