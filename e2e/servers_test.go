package e2e

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
)

// simServer is a simulator on loopback, and the environment that points
// the binary at it (env, with a token).
func simServer(t *testing.T, env []string) (*sim.Sim, []string) {
	t.Helper()
	s := sim.New(sim.Options{NoRateLimit: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	return s, append(append([]string(nil), env...), config.EnvBaseURL+"="+srv.URL+"/v2", config.EnvToken+"="+sim.DemoToken)
}

// checkedIn counts the server's check-ins of email at event id.
func checkedIn(s *sim.Sim, id, email string) int {
	n := 0
	for _, c := range s.CheckIns(id, "") {
		if api.NormalizeEmail(c.Email) == api.NormalizeEmail(email) {
			n++
		}
	}
	return n
}

// The real binary, two servers with the same event ids, one state folder:
// a scan journaled while server A is unreachable is never sent to server
// B, B's run says where it waits, and A gets it once it is back.
func TestScansStayWithTheirServerEndToEnd(t *testing.T) {
	t.Parallel()
	env := isolatedEnv(t)
	a, envA := simServer(t, env)
	b, envB := simServer(t, env)
	id, regs := largeEvent()
	list := filepath.Join(t.TempDir(), "list.txt")
	if err := os.WriteFile(list, []byte(regs[0]+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	a.SetFaults(0, 0, 1) // every connection dropped: A cannot be reached
	r := runBinary(t, envA, "checkin", id, list, "--wait", "1s")
	if r.exitCode() == 0 || !strings.Contains(string(r.stderr), "1 not sent") {
		t.Fatalf("offline at A: exit %d\n%s", r.exitCode(), r.stderr)
	}

	r = runBinary(t, envB, "checkin", id)
	if r.exitCode() != 0 || !strings.Contains(string(r.stderr), "1 unsent scan of event "+id+" belongs to ") {
		t.Fatalf("at B: exit %d\n%s", r.exitCode(), r.stderr)
	}
	terminalSafe(t, "stderr", r.stderr)
	if n := checkedIn(b, id, regs[0]); n != 0 {
		t.Fatalf("server B checked in A's scan %d times", n)
	}

	a.SetFaults(0, 0, 0)
	r = runBinary(t, envA, "checkin", id)
	if r.exitCode() != 0 || checkedIn(a, id, regs[0]) != 1 || checkedIn(b, id, regs[0]) != 0 {
		t.Fatalf("A back: exit %d, A %d, B %d\n%s", r.exitCode(), checkedIn(a, id, regs[0]), checkedIn(b, id, regs[0]), r.stderr)
	}
}
