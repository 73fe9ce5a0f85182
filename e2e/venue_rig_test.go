package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/testport"
)

// venueRig is a simulator in this process, counting what reaches it, and
// a venue of real desk processes (the evdesk binary, --headless) on
// loopback.
type venueRig struct {
	tb    testing.TB
	sim   *sim.Sim
	srv   *httptest.Server
	event string
	file  string // the venue's secret file

	mu       sync.Mutex
	requests []reqNote            // every request, in order
	sentAt   map[string]time.Time // email -> when a check-in of it first succeeded
	sent     map[string]int       // email -> successful check-in requests carrying it
	desks    []*deskProc
}

type reqNote struct {
	at     time.Time
	method string
	path   string
	walk   bool // a page of the history (page_size above 1)
	code   int
}

func newVenueRig(tb testing.TB, opts sim.Options) *venueRig {
	tb.Helper()
	s := sim.New(opts)
	v := &venueRig{tb: tb, sim: s, event: s.Fixtures().LargeConferenceEventID,
		sentAt: map[string]time.Time{}, sent: map[string]int{}}
	v.srv = httptest.NewServer(http.HandlerFunc(v.serve))
	tb.Cleanup(v.srv.Close)
	tb.Cleanup(s.Close)
	dir := tb.TempDir()
	v.file = filepath.Join(dir, "venue.json")
	// The file records the rig's server, as a venue's does (its desks
	// check in there).
	if out, err := v.command(dir, "venue", "init", "Test Hall", "--out", v.file).CombinedOutput(); err != nil {
		tb.Fatalf("venue init: %v\n%s", err, out)
	}
	return v
}

// serve passes a request to the simulator, noting it and, for a check-in
// the simulator took, which addresses it carried.
func (v *venueRig) serve(w http.ResponseWriter, r *http.Request) {
	var emails []string
	if r.Method == http.MethodPatch {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		r.Body = io.NopCloser(bytes.NewReader(body))
		var in struct {
			Attendees []struct{ Email string } `json:"attendees"`
		}
		_ = json.Unmarshal(body, &in)
		for _, a := range in.Attendees {
			emails = append(emails, api.NormalizeEmail(a.Email))
		}
	}
	rec := &codeRecorder{ResponseWriter: w}
	v.sim.ServeHTTP(rec, r)
	now := time.Now()
	ps, _ := strconv.Atoi(r.URL.Query().Get("page_size"))
	v.mu.Lock()
	defer v.mu.Unlock()
	walk := r.Method == http.MethodGet && ps > 1 && strings.HasSuffix(r.URL.Path, "/attendee_action")
	v.requests = append(v.requests, reqNote{at: now, method: r.Method, path: r.URL.Path, walk: walk, code: rec.code})
	if rec.code >= 200 && rec.code < 300 {
		for _, e := range emails {
			v.sent[e]++
			if _, ok := v.sentAt[e]; !ok {
				v.sentAt[e] = now
			}
		}
	}
}

type codeRecorder struct {
	http.ResponseWriter
	code int
}

func (c *codeRecorder) WriteHeader(code int) {
	if c.code == 0 {
		c.code = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *codeRecorder) Write(b []byte) (int, error) {
	if c.code == 0 {
		c.code = http.StatusOK
	}
	return c.ResponseWriter.Write(b)
}

// sentCount is how many successful check-in requests carried email.
func (v *venueRig) sentCount(email string) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.sent[email]
}

// command is an evdesk command line on the simulator, with dir for its
// own configuration and state.
func (v *venueRig) command(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "EVDESK_BASE_URL="+v.srv.URL+"/v2", "EVDESK_TOKEN="+sim.DemoToken,
		"EVDESK_PROFILE=")
	return cmd
}

// freeAddr is a loopback address no one listens on now (testport).
func freeAddr(tb testing.TB) string {
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(testport.Free(tb)))
}

// deskProc is one desk process: its answers and what it says of its
// venue, as they come.
type deskProc struct {
	name string
	addr string
	cmd  *exec.Cmd
	in   io.WriteCloser

	answers chan answerLine

	mu       sync.Mutex
	state    string
	upstream string
	desks    int
	replicas int
	roster   int
	verdicts map[string]string // email -> the service's verdict line
	tail     []string          // the latest lines of its output, for a failure's log
	changed  chan struct{}     // closed and replaced when the venue line changes
	arrivals []arrivalNote
	exited   chan struct{}
}

type answerLine struct {
	Scan    string    `json:"scan"`
	Verdict string    `json:"verdict"`
	Email   string    `json:"email"`
	Desk    string    `json:"desk"`
	At      time.Time `json:"at"`
	Detail  string    `json:"detail"`
	ID      string    `json:"id"`
	written time.Time // when the test wrote the scan
}

type arrivalNote struct {
	Email string    `json:"email"`
	Desk  string    `json:"desk"`
	At    time.Time `json:"at"`
	Known time.Time `json:"known"`
}

// startDesk starts a desk named name joining the desks at join (none for
// the first).
func (v *venueRig) startDesk(name string, join ...string) *deskProc {
	v.tb.Helper()
	addr := freeAddr(v.tb)
	args := []string{"--listen", addr, "--no-mdns"}
	if len(join) > 0 {
		args = append(args, "--join", strings.Join(join, ","))
	}
	return v.startDeskWith(name, addr, args...)
}

// startDeskFinding starts a desk named name that listens on every
// interface and finds the venue's other desks on the local network (mDNS),
// as a desk at a venue does by default.
func (v *venueRig) startDeskFinding(name string) *deskProc {
	v.tb.Helper()
	addr := freeAddr(v.tb)
	_, port, _ := net.SplitHostPort(addr)
	return v.startDeskWith(name, addr, "--listen", "0.0.0.0:"+port)
}

// startDeskWith starts a desk named name, reachable at addr, with the
// venue's arguments.
func (v *venueRig) startDeskWith(name, addr string, venueArgs ...string) *deskProc {
	v.tb.Helper()
	dir := v.tb.TempDir()
	// --wait: a desk stopped (its input closed) waits at most a moment for
	// verdicts still to come.
	args := append([]string{"desk", v.event, "--headless", "--wait", "2s", "--desk", name, "--venue", v.file, "--arrivals"}, venueArgs...)
	cmd := v.command(dir, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		v.tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		v.tb.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		v.tb.Fatal(err)
	}
	d := &deskProc{name: name, addr: addr, cmd: cmd, in: in, answers: make(chan answerLine, 4096),
		changed: make(chan struct{}), exited: make(chan struct{})}
	go d.read(out)
	go func() { _ = cmd.Wait(); close(d.exited) }()
	v.tb.Cleanup(func() {
		d.stop()
		keepLog(v.tb, dir, name)
		if v.tb.Failed() {
			d.mu.Lock()
			v.tb.Logf("%s stdout (the latest lines):\n%s\n%s stderr:\n%s", name, strings.Join(d.tail, "\n"), name, stderr.String())
			d.mu.Unlock()
		}
	})
	v.mu.Lock()
	v.desks = append(v.desks, d)
	v.mu.Unlock()
	return d
}

// keepLog copies the logs of the desk named name, whose configuration and
// state are in dir, to $EVDESK_VENUE_KEEP_LOGS/<name>/ when that is set:
// the test's folders go when it ends, and a venue's rare faults are read
// in its desks' logs (with EVDESK_MESH_DEBUG=1, their engines' too).
func keepLog(tb testing.TB, dir, name string) {
	keep := os.Getenv("EVDESK_VENUE_KEEP_LOGS")
	if keep == "" {
		return
	}
	to := filepath.Join(keep, strings.ReplaceAll(name, " ", "-"))
	logs, _ := filepath.Glob(filepath.Join(dir, "state", "evdesk", "*.log"))
	for _, p := range logs {
		b, err := os.ReadFile(p)
		if err == nil {
			err = os.MkdirAll(to, 0o700)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(to, filepath.Base(p)), b, 0o600)
		}
		if err != nil {
			tb.Logf("keep %s's log: %v", name, err)
		}
	}
}

func (d *deskProc) read(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		// Each kind of line is read as its own shape ("roster" is a count
		// on a venue line and a word on a scan's).
		var kind struct {
			Kind string `json:"kind"`
		}
		var vl struct {
			State    string `json:"state"`
			Upstream string `json:"upstream"`
			Desks    int    `json:"desks"`
			Replicas int    `json:"replicas"`
			Roster   int    `json:"roster"`
		}
		var verdict struct {
			Email   string `json:"email"`
			Verdict string `json:"verdict"`
		}
		line := sc.Bytes()
		d.mu.Lock()
		d.tail = append(d.tail, string(line))
		if len(d.tail) > 30 {
			d.tail = d.tail[1:]
		}
		d.mu.Unlock()
		if json.Unmarshal(line, &kind) != nil {
			continue
		}
		switch kind.Kind {
		case "scan":
			var a answerLine
			_ = json.Unmarshal(line, &a)
			d.answers <- a
		case "arrival":
			var a arrivalNote
			_ = json.Unmarshal(line, &a)
			d.mu.Lock()
			d.arrivals = append(d.arrivals, a)
			d.mu.Unlock()
		case "verdict":
			_ = json.Unmarshal(line, &verdict)
			d.mu.Lock()
			if d.verdicts == nil {
				d.verdicts = map[string]string{}
			}
			d.verdicts[verdict.Email] = verdict.Verdict
			d.mu.Unlock()
		case "venue":
			_ = json.Unmarshal(line, &vl)
			d.mu.Lock()
			d.state, d.upstream, d.desks, d.roster, d.replicas = vl.State, vl.Upstream, vl.Desks, vl.Roster, vl.Replicas
			close(d.changed)
			d.changed = make(chan struct{})
			d.mu.Unlock()
		}
	}
}

// venue is what the desk last said of its venue, and a channel that closes
// when it says more.
func (d *deskProc) venue() (state, upstream string, desks int, changed <-chan struct{}) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.state, d.upstream, d.desks, d.changed
}

// verdictOf is the service's verdict the desk wrote for email, if any.
func (d *deskProc) verdictOf(email string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.verdicts[email]
}

// waitReplicas waits until the desk says its venue keeps n copies.
func (d *deskProc) waitReplicas(tb testing.TB, n int) {
	tb.Helper()
	d.waitLine(tb, fmt.Sprintf("%d copies", n), time.Minute, func() (bool, string) {
		return d.replicas == n, fmt.Sprintf("%d copies", d.replicas)
	})
}

// waitVenue waits until the desk's venue line satisfies ok.
func (d *deskProc) waitVenue(tb testing.TB, what string, limit time.Duration, ok func(state, upstream string, desks int) bool) {
	tb.Helper()
	d.waitLine(tb, what, limit, func() (bool, string) {
		return ok(d.state, d.upstream, d.desks), fmt.Sprintf("state %q, upstream %q, %d desks", d.state, d.upstream, d.desks)
	})
}

// waitLine waits until cond (which reads the desk's venue line, under its
// lock) holds; its text says what the line was, for a failure.
func (d *deskProc) waitLine(tb testing.TB, what string, limit time.Duration, cond func() (bool, string)) {
	tb.Helper()
	deadline := time.After(limit)
	for {
		d.mu.Lock()
		ok, was := cond()
		changed := d.changed
		d.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-changed:
		case <-d.exited:
			tb.Fatalf("%s exited waiting for %s", d.name, what)
		case <-deadline:
			tb.Fatalf("%s: waited %v for %s (%s)", d.name, limit, what, was)
		}
	}
}

// scan types a scan and waits for its answer.
func (d *deskProc) scan(tb testing.TB, code string) answerLine {
	tb.Helper()
	a := d.scanLine(code)
	if a.Verdict == "" {
		tb.Fatalf("%s: %s", d.name, a.Detail)
	}
	return a
}

// scanLine is scan for any goroutine: a failure comes back as an answer
// with no verdict and the reason in Detail.
func (d *deskProc) scanLine(code string) answerLine {
	written := time.Now()
	if _, err := fmt.Fprintln(d.in, code); err != nil {
		return answerLine{Detail: err.Error()}
	}
	select {
	case a := <-d.answers:
		a.written = written
		return a
	case <-d.exited:
		return answerLine{Detail: "exited before answering " + code}
	case <-time.After(30 * time.Second):
		return answerLine{Detail: "no answer to " + code}
	}
}

// stop ends the desk as a person would (its input closes); kill ends it as
// a crash does.
func (d *deskProc) stop() {
	_ = d.in.Close()
	select {
	case <-d.exited:
	case <-time.After(20 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.exited
	}
}

func (d *deskProc) kill() {
	_ = d.cmd.Process.Kill()
	<-d.exited
}

// waitUntil polls cond (state in this process) until it holds.
func waitUntil(tb testing.TB, what string, limit time.Duration, cond func() bool) {
	tb.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			tb.Fatalf("timed out after %v waiting for %s", limit, what)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// checkInDirect checks people in at the service itself, as another tool
// would (a venue starts with some already in).
func (v *venueRig) checkInDirect(emails []string, source string) {
	v.tb.Helper()
	c, err := api.New(api.WithBaseURL(v.srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0))
	if err != nil {
		v.tb.Fatal(err)
	}
	for lo := 0; lo < len(emails); lo += api.MaxAttendeesPerBatch {
		if _, err := c.Attendees.CheckIn(v.tb.Context(), v.event, "", emails[lo:min(lo+api.MaxAttendeesPerBatch, len(emails))], source); err != nil {
			v.tb.Fatal(err)
		}
	}
}

// walks counts the pages of the check-in history the service served.
func (v *venueRig) walks() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	n := 0
	for _, r := range v.requests {
		if r.walk && r.code == http.StatusOK {
			n++
		}
	}
	return n
}
