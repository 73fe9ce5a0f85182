package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/checkin/place"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// A scan belongs to the server it was taken for. These tests run two
// simulators that serve the same event ids over real HTTP, and count the
// check-ins each one receives.

// countingSim is a simulator that can be made unreachable (every
// connection dropped) and counts the check-in requests it is sent.
type countingSim struct {
	sim     *sim.Sim
	url     string
	patches atomic.Int64
}

func newCountingSim(t *testing.T) *countingSim {
	t.Helper()
	c := &countingSim{sim: sim.New(sim.Options{NoRateLimit: true})}
	t.Cleanup(c.sim.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch {
			c.patches.Add(1)
		}
		c.sim.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c.url = srv.URL + "/v2"
	return c
}

func (c *countingSim) setDown(down bool) {
	if down {
		c.sim.SetFaults(0, 0, 1)
	} else {
		c.sim.SetFaults(0, 0, 0)
	}
}

// received says whether the server holds a check-in of email at ev.
func (c *countingSim) received(ev, email string) bool {
	for _, r := range c.sim.CheckIns(ev, "") {
		if r.Email == api.NormalizeEmail(email) {
			return true
		}
	}
	return false
}

// sent is how many check-in requests reached the server.
func (c *countingSim) sent() int64 { return c.patches.Load() }

// useServer points the commands at c with a token from the environment.
func useServer(t *testing.T, c *countingSim) {
	t.Setenv(config.EnvBaseURL, c.url)
	t.Setenv(config.EnvToken, sim.DemoToken)
	t.Setenv("EVDESK_RATE_LIMIT", "1000")
}

// legacyJournal writes, in the old layout (the journal root itself), a
// journal of ev with emails pending, and returns its path.
func legacyJournal(t *testing.T, ev string, emails ...string) string {
	t.Helper()
	j, err := scanqueue.Open(config.JournalDir(), ev, "")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if _, err := j.ScanMany(emails, "old desk"); err != nil {
		t.Fatal(err)
	}
	return j.Path()
}

func statsOf(t *testing.T, ev string) roster.Stats {
	t.Helper()
	out, stderr, err := execute(t, "checkin", "stats", ev, "-o", "json")
	if err != nil {
		t.Fatalf("stats: %v\n%s", err, stderr)
	}
	var st checkinStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return st.Stats
}

// The defect QA found: scans journaled offline for one server were sent to
// another serving the same event ids, and its stats showed check-ins it did
// not have. Now each server has its own journals and caches: nothing of the
// first reaches the second, the first gets its scans once it is back.
func TestScansStayWithTheServerTheyWereTakenFor(t *testing.T) {
	isolateXDG(t)
	a, b := newCountingSim(t), newCountingSim(t)
	ev := demoFixtures().LargeConferenceEventID
	regs := sim.New(sim.Options{}).RegistrantEmails(ev)
	// Old journals, and the server named by the environment: whose they
	// are is not certain, so they are kept aside and go nowhere.
	old := legacyJournal(t, ev, regs[3])

	useServer(t, b)
	before := statsOf(t, ev)

	// Offline at server A: the scan is journaled, not sent.
	a.setDown(true)
	useServer(t, a)
	if _, stderr, err := runWithInput(t, regs[0]+"\n", "checkin", ev, "-", "--wait", "200ms"); err == nil || !strings.Contains(err.Error(), "1 not sent") {
		t.Fatalf("offline checkin: %v\n%s", err, stderr)
	}
	// A desk at A saw someone arrive: A's arrivals cache has them.
	ar := roster.NewArrivals()
	ar.Note(regs[5], "Door A", time.Now())
	if err := ar.Save(roster.ArrivalsPath(folderOf(a.url), ev, ""), ev, ""); err != nil {
		t.Fatal(err)
	}

	// Server B, same event id: nothing of A's is sent, and evdesk says
	// where A's scan waits.
	useServer(t, b)
	_, stderr, err := execute(t, "checkin", ev)
	if err != nil {
		t.Fatalf("checkin at B: %v\n%s", err, stderr)
	}
	host := strings.TrimPrefix(strings.TrimSuffix(a.url, "/v2"), "http://")
	if !strings.Contains(stderr, "1 unsent scan of event "+ev+" belongs to "+host) || !strings.Contains(stderr, "sent only there") ||
		!strings.Contains(stderr, "--journal "+old) {
		t.Errorf("B's run does not say where A's scan and the old one wait:\n%s", stderr)
	}
	if _, stderr, err := runWithInput(t, "", "desk", ev, "--headless"); err != nil {
		t.Fatalf("desk at B: %v\n%s", err, stderr)
	} else if !strings.Contains(stderr, "belongs to "+host) {
		t.Errorf("the desk at B does not say where A's scan waits:\n%s", stderr)
	}
	after := statsOf(t, ev)
	if b.sent() != 0 {
		t.Fatalf("server B was sent %d check-in requests of another server's scans (or the old layout's)", b.sent())
	}
	if after.CheckedIn != before.CheckedIn {
		t.Errorf("B's stats changed from %d to %d check-ins", before.CheckedIn, after.CheckedIn)
	}
	for _, l := range after.Latest {
		if l.Email == api.NormalizeEmail(regs[5]) || l.Email == api.NormalizeEmail(regs[0]) {
			t.Errorf("B's stats show A's arrival %s", l.Email)
		}
	}

	// A is back: its scan is sent there, once.
	a.setDown(false)
	useServer(t, a)
	if _, stderr, err := execute(t, "checkin", ev); err != nil {
		t.Fatalf("checkin at A: %v\n%s", err, stderr)
	}
	once := a.sent()
	if _, stderr, err := execute(t, "checkin", ev); err != nil {
		t.Fatalf("checkin at A again: %v\n%s", err, stderr)
	}
	if !a.received(ev, regs[0]) || a.received(ev, regs[3]) || a.sent() != once || b.sent() != 0 {
		t.Fatalf("A holds its scan: %v, the old one's: %v; sent again: %d; B sent %d",
			a.received(ev, regs[0]), a.received(ev, regs[3]), a.sent()-once, b.sent())
	}
	if n, _ := scanqueue.PendingIn(config.JournalDir(), ev, ""); n != 1 {
		t.Fatalf("the old journal's scan was not kept aside: %d pending", n)
	}
}

// writeConfig writes the config file with profiles (name -> base URL).
func writeConfig(t *testing.T, profiles map[string]string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("default_profile = \"main\"\n")
	for name, url := range profiles {
		b.WriteString("[profiles." + name + "]\nbase_url = \"" + url + "\"\n")
	}
	if err := os.MkdirAll(config.Dir(), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config.Path(), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Journals of the old layout are taken for the profile's server when that
// is certain: its base URL comes from the config file, and no profile there
// names another server.
func TestOldJournalsAreAdoptedWhenTheirServerIsCertain(t *testing.T) {
	isolateXDG(t)
	a := newCountingSim(t)
	ev := demoFixtures().LargeConferenceEventID
	regs := sim.New(sim.Options{}).RegistrantEmails(ev)
	writeConfig(t, map[string]string{"main": a.url, "other": strings.Replace(a.url, "http://", "HTTP://", 1) + "/"})
	t.Setenv(config.EnvToken, sim.DemoToken)
	old := legacyJournal(t, ev, regs[1])

	_, stderr, err := execute(t, "checkin", ev)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "were taken for") || !strings.Contains(stderr, "the only server named in "+config.Path()) {
		t.Errorf("the adoption is not told:\n%s", stderr)
	}
	if !a.received(ev, regs[1]) {
		t.Fatal("the adopted scan did not reach the server")
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("the old journal is still in the old layout: %v", err)
	}
}

// With another server in the config file, old journals are kept aside and
// sent only when a person says whose they are (--journal), once; a journal
// of another server's folder is never taken.
func TestOldJournalsAreKeptAsideWhenTheirServerIsNotCertain(t *testing.T) {
	isolateXDG(t)
	a, b := newCountingSim(t), newCountingSim(t)
	ev := demoFixtures().LargeConferenceEventID
	regs := sim.New(sim.Options{}).RegistrantEmails(ev)
	writeConfig(t, map[string]string{"main": a.url, "staging": b.url})
	t.Setenv(config.EnvToken, sim.DemoToken)
	old := legacyJournal(t, ev, regs[2], regs[4])

	_, stderr, err := execute(t, "checkin", ev)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "2 unsent scans of event "+ev+" were journaled before evdesk recorded") ||
		!strings.Contains(stderr, "evdesk checkin "+ev+" --journal "+old) {
		t.Errorf("the kept-aside journal is not told:\n%s", stderr)
	}
	if a.sent() != 0 || b.sent() != 0 {
		t.Fatalf("an old scan was sent without being asked: A %d, B %d", a.sent(), b.sent())
	}

	_, stderr, err = execute(t, "checkin", ev, "--journal", old)
	if err != nil || !strings.Contains(stderr, "2 unsent scans taken from "+old) {
		t.Fatalf("--journal: %v\n%s", err, stderr)
	}
	once := a.sent()
	_, stderr, err = execute(t, "checkin", ev, "--journal", old)
	if err != nil || !strings.Contains(stderr, "0 unsent scans taken") {
		t.Fatalf("--journal again: %v\n%s", err, stderr)
	}
	if !a.received(ev, regs[2]) || !a.received(ev, regs[4]) || a.sent() != once || b.sent() != 0 {
		t.Fatalf("A holds %v and %v, was sent %d again; B %d", a.received(ev, regs[2]), a.received(ev, regs[4]), a.sent()-once, b.sent())
	}

	// Staging's own journal is never taken for main.
	stagingDir, err := place.Open(config.JournalDir(), place.Server{BaseURL: b.url})
	if err != nil {
		t.Fatal(err)
	}
	j, err := scanqueue.Open(stagingDir.Dir, ev, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Scan(regs[6], "staging desk"); err != nil {
		t.Fatal(err)
	}
	_ = j.Close()
	for _, c := range []struct{ file, want string }{
		{j.Path(), "belongs to " + strings.TrimPrefix(strings.TrimSuffix(b.url, "/v2"), "http://")},
		{filepath.Join(t.TempDir(), "other.jsonl"), "the journal of event " + ev + " is named"},
	} {
		if _, _, err := execute(t, "checkin", ev, "--journal", c.file); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--journal %s: %v, want %q", c.file, err, c.want)
		}
	}
	if a.received(ev, regs[6]) || b.sent() != 0 {
		t.Fatal("staging's scan was sent")
	}
}

// A venue file records its server; a desk of another server is refused
// before it joins.
func TestVenueFileRefusesADeskOfAnotherServer(t *testing.T) {
	isolateXDG(t)
	a, b := newCountingSim(t), newCountingSim(t)
	ev := demoFixtures().LargeConferenceEventID
	file := filepath.Join(t.TempDir(), "venue.json")
	useServer(t, a)
	out, _, err := execute(t, "venue", "init", "Hall", "--out", file)
	if err != nil || !strings.Contains(out, "its desks check in to "+config.ServerKey(a.url)) {
		t.Fatalf("venue init: %v\n%s", err, out)
	}
	useServer(t, b)
	_, _, err = runWithInput(t, "", "desk", ev, "--headless", "--venue", file, "--no-mdns")
	if err == nil || !strings.Contains(err.Error(), "is for the desks of "+config.ServerKey(a.url)) ||
		!strings.Contains(err.Error(), "evdesk venue init") {
		t.Fatalf("a desk of another server: %v", err)
	}
	if b.sent() != 0 {
		t.Fatal("B was sent a check-in")
	}
}
