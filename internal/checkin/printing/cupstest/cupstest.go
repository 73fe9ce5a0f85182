// Package cupstest runs a real CUPS scheduler for tests: cupsd with its
// own configuration on a loopback port, a raw queue whose jobs go to
// /dev/null, and every job's document kept in its spool, so a test can
// print through the real IPP client (lp) and read what arrived. The jobs
// run as the lp user (cupsd refuses to run them as root).
package cupstest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// EnvRealPrint, set by .ci/run, runs the tests that need a real print
// server and poppler's and zbar's tools; without it they skip, so a bare
// `go test ./...` passes where CUPS is not installed.
const EnvRealPrint = "EVDESK_REAL_PRINT"

// Need skips t unless EnvRealPrint is set, and fails it when it is set but
// a tool is missing.
func Need(t testing.TB, tools ...string) {
	t.Helper()
	if os.Getenv(EnvRealPrint) == "" {
		t.Skip("set " + EnvRealPrint + "=1 to run against a real print server (.ci/run does)")
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s=1 but %s is missing (.ci/run installs cups, cups-client, poppler-utils and zbar-tools): %v", EnvRealPrint, tool, err)
		}
	}
}

// Server is a running cupsd.
type Server struct {
	// Addr is host:port; Queue the raw queue's name.
	Addr, Queue string
	dir         string
	cmd         *exec.Cmd
	t           testing.TB
}

// QueueURI is the queue's address for badge_printer.
func (s *Server) QueueURI() string { return "ipp://" + s.Addr + "/printers/" + s.Queue }

// Start runs cupsd until the test ends, with one queue, "Badges".
func Start(t testing.TB) *Server {
	t.Helper()
	Need(t, "cupsd", "lp", "lpstat", "lpadmin", "cupsdisable", "cupsreject")
	if os.Geteuid() != 0 {
		t.Fatalf("%s=1: cupsd is started as root here (it runs the jobs as lp); run as root, as .ci/run does", EnvRealPrint)
	}
	dir, err := os.MkdirTemp("", "evdesk-cups-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"conf", "spool", "spool/tmp", "cache", "log", "state"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := &Server{Addr: freeAddr(t), Queue: "Badges", dir: dir, t: t}
	conf := fmt.Sprintf(`LogLevel warn
Listen %s
Browsing No
DefaultAuthType None
WebInterface No
PreserveJobFiles Yes
PreserveJobHistory Yes
MaxJobs 0
<Location />
  Order allow,deny
  Allow from 127.0.0.1
</Location>
<Policy default>
  <Limit All>
    Order deny,allow
  </Limit>
</Policy>
`, s.Addr)
	files := fmt.Sprintf(`User lp
Group lp
SystemGroup root
FileDevice Yes
ServerRoot %[1]s/conf
RequestRoot %[1]s/spool
CacheDir %[1]s/cache
StateDir %[1]s/state
TempDir %[1]s/spool/tmp
ErrorLog %[1]s/log/error_log
AccessLog %[1]s/log/access_log
PageLog %[1]s/log/page_log
`, dir)
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, "conf", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("cupsd.conf", conf)
	write("cups-files.conf", files)
	s.cmd = exec.Command("cupsd", "-f", "-c", filepath.Join(dir, "conf", "cupsd.conf"), "-s", filepath.Join(dir, "conf", "cups-files.conf"))
	s.cmd.Dir = dir
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	if !s.waitFor(func() bool { return s.Running() }) {
		log, _ := os.ReadFile(filepath.Join(dir, "log", "error_log"))
		t.Fatalf("cupsd did not start on %s:\n%s", s.Addr, log)
	}
	s.admin("lpadmin", "-p", s.Queue, "-E", "-v", "file:///dev/null")
	return s
}

func freeAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// waitFor polls cond (each poll is a request to the server) for up to
// 20 s.
func (s *Server) waitFor(cond func() bool) bool {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cond()
}

// Running asks the scheduler whether it runs.
func (s *Server) Running() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, "lpstat", "-h", s.Addr, "-r").Output()
	return strings.Contains(string(out), "is running")
}

func (s *Server) admin(cmd string, args ...string) {
	s.t.Helper()
	out, err := exec.Command(cmd, append([]string{"-h", s.Addr}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("%s %v: %v %s", cmd, args, err, out)
	}
}

// Stop the printer ("out of paper"): jobs wait at the server.
func (s *Server) Disable(reason string) { s.admin("cupsdisable", "-r", reason, s.Queue) }

// Enable the printer again.
func (s *Server) Enable() { s.admin("cupsenable", s.Queue) }

// Reject refuses new jobs (a full queue).
func (s *Server) Reject(reason string) { s.admin("cupsreject", "-r", reason, s.Queue) }

// Accept takes jobs again.
func (s *Server) Accept() { s.admin("cupsaccept", s.Queue) }

// Stop ends cupsd (the print server switched off).
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	s.cmd = nil
}

// Documents returns every job's document as the server received it,
// oldest first.
func (s *Server) Documents() [][]byte {
	paths, _ := filepath.Glob(filepath.Join(s.dir, "spool", "d*-001"))
	sort.Strings(paths)
	var out [][]byte
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			out = append(out, b)
		}
	}
	return out
}

// WaitDocuments waits until the server holds n documents.
func (s *Server) WaitDocuments(n int) [][]byte {
	s.t.Helper()
	if !s.waitFor(func() bool { return len(s.Documents()) >= n }) {
		s.t.Fatalf("the print server holds %d documents, want %d", len(s.Documents()), n)
	}
	return s.Documents()
}

// PDFText is pdftotext's reading of a document.
func PDFText(t testing.TB, pdf []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(f, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", f, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}
