package mesh

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/testport"
)

// rig is a simulator over loopback HTTP that counts, per address, the
// check-ins that reached it, and a venue's desks on it, in this process.
type rig struct {
	t     *testing.T
	sim   *sim.Sim
	srv   *httptest.Server
	event string
	sec   *Secret

	mu   sync.Mutex
	sent map[string]int // address -> check-in requests that carried it

	now func() time.Time // the desks' clock (nil: the wall clock)
}

func newRig(t *testing.T) *rig {
	t.Helper()
	s := sim.New(sim.Options{NoRateLimit: true})
	r := &rig{t: t, sim: s, event: s.Fixtures().LargeConferenceEventID, sent: map[string]int{}}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodPatch {
			body, _ := io.ReadAll(req.Body)
			req.Body = io.NopCloser(bytes.NewReader(body))
			var in struct {
				Attendees []struct{ Email string } `json:"attendees"`
			}
			_ = json.Unmarshal(body, &in)
			rec := &statusRecorder{ResponseWriter: w}
			s.ServeHTTP(rec, req)
			if rec.code < 300 {
				r.mu.Lock()
				for _, a := range in.Attendees {
					r.sent[api.NormalizeEmail(a.Email)]++
				}
				r.mu.Unlock()
			}
			return
		}
		s.ServeHTTP(w, req)
	}))
	t.Cleanup(r.srv.Close)
	t.Cleanup(s.Close)
	sec, err := NewSecret("Test Hall")
	if err != nil {
		t.Fatal(err)
	}
	r.sec = sec
	return r
}

type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(c int) { s.code = c; s.ResponseWriter.WriteHeader(c) }
func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.code == 0 {
		s.code = 200
	}
	return s.ResponseWriter.Write(b)
}

func (r *rig) client() *api.Client {
	c, err := api.New(api.WithBaseURL(r.srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithRetry(api.RetryPolicy{MaxAttempts: 1}))
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

// freePort finds a port on loopback no one listens on now (testport).
func freePort(t *testing.T) int { return testport.Free(t) }

type meshDesk struct {
	*venue.Desk
	node *Node
	addr string
}

// open opens a meshed desk named name that joins the desks at join.
func (r *rig) open(name string, join ...string) *meshDesk {
	r.t.Helper()
	return r.openWith(name, nil, join...)
}

// openThree opens Door A, and Door B and Door C joining it, and waits
// until the three are meshed.
func (r *rig) openThree(t *testing.T) (a, b, c *meshDesk) {
	t.Helper()
	a = r.open("Door A")
	b = r.open("Door B", a.addr)
	c = r.open("Door C", a.addr)
	for _, d := range []*meshDesk{a, b, c} {
		waitFor(t, d.Name()+" meshed", func() bool { return d.node.Info().State == "meshed" })
	}
	return a, b, c
}

// agreeOnUpstream waits until the desks are meshed and all name the same
// upstream desk, and returns its name.
func agreeOnUpstream(t *testing.T, desks ...*meshDesk) string {
	t.Helper()
	for _, d := range desks {
		waitFor(t, d.Name()+" meshed", func() bool { return d.node.Info().State == "meshed" })
	}
	var up string
	waitFor(t, "an upstream desk", func() bool {
		up = desks[0].node.Info().Upstream
		for _, d := range desks[1:] {
			if d.node.Info().Upstream != up {
				return false
			}
		}
		return up != ""
	})
	return up
}

// hears has a desk's log set said once it says what.
func hears(o *Options, what string, said *atomic.Bool) {
	logf := o.Logf
	o.Logf = func(f string, args ...any) {
		logf(f, args...)
		if strings.Contains(fmt.Sprintf(f, args...), what) {
			said.Store(true)
		}
	}
}

// openWith is open with options of the test's.
func (r *rig) openWith(name string, adjust func(*Options), join ...string) *meshDesk {
	r.t.Helper()
	dir := r.t.TempDir()
	o := Options{Secret: r.sec, Dir: dir + "/venue", Listen: "127.0.0.1:" + strconv.Itoa(freePort(r.t)), Join: join,
		Linger: 100 * time.Millisecond, SyncEvery: 500 * time.Millisecond, Tick: 250 * time.Millisecond,
		LeaseTTL: 2 * time.Second, Logf: func(f string, a ...any) { r.t.Logf(name+": "+f, a...) }}
	if adjust != nil {
		adjust(&o)
	}
	addr := o.Listen
	n, err := Join(o)
	if err != nil {
		r.t.Fatal(err)
	}
	c := r.client()
	d, err := venue.Open(venue.Options{Dir: dir, EventID: r.event, Name: name, Client: c,
		CheckIn: c.Attendees.CheckIn, Local: time.UTC, Venue: n, Now: r.now,
		Sender: func(so *scanqueue.SenderOptions) { so.MaxDelay = 200 * time.Millisecond }})
	if err != nil {
		n.Shutdown()
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { _ = d.Close() })
	return &meshDesk{Desk: d, node: n, addr: addr}
}

// sentOnce waits until every desk has heard back from the service, then
// checks that each person reached it in exactly one request.
func (r *rig) sentOnce(t *testing.T, desks []*meshDesk, people []string) {
	t.Helper()
	for _, d := range desks {
		waitFor(t, d.Name()+" to hear back", func() bool { return d.Journal().Counts().Pending == 0 })
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range people {
		if r.sent[p] != 1 {
			t.Errorf("%s sent %d times", p, r.sent[p])
		}
	}
	if n := len(r.sim.CheckIns(r.event, "")); n != len(people) {
		t.Fatalf("the service holds %d check-ins for %d people", n, len(people))
	}
}

// needVenue skips a test of several engines unless EVDESK_VENUE_E2E is set
// (.ci/run's venue step sets it): their elections and leases take seconds.
func needVenue(t *testing.T, what string) {
	t.Helper()
	if os.Getenv("EVDESK_VENUE_E2E") == "" {
		t.Skipf("set EVDESK_VENUE_E2E=1 to run it (%s; .ci/run does)", what)
	}
}

// waitFor polls cond until it holds, failing after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Three desks in this process: they agree with the service out of reach,
// only a desk with the venue's file gets through a desk's door, a board
// sees the venue, and every check-in reaches the service once. Three
// engines' elections take about 11 s: it runs with the venue tests.
func TestThreeDesksAgreeOfflineAndSendOnce(t *testing.T) {
	needVenue(t, "three engines, about 11 s")
	t.Parallel()
	r := newRig(t)
	d1, d2, d3 := r.openThree(t)
	desks := []*meshDesk{d1, d2, d3}
	agreeOnUpstream(t, desks...)
	// Three desks keep three copies of the venue.
	waitFor(t, "three copies", func() bool { return d1.node.Info().Replicas == 3 })
	// Only a desk with the venue's file gets through a desk's door: the
	// links are TLS both ways with the venue's own authority.
	if err := routeHandshake(d1.addr, r.sec); err != nil {
		t.Fatalf("a desk of the venue: %v", err)
	}
	stranger, err := NewSecret("Test Hall")
	if err != nil {
		t.Fatal(err)
	}
	if err := routeHandshake(d1.addr, stranger); err == nil {
		t.Fatal("a desk with another venue's file got through the TLS handshake")
	}
	// A supervisor's board watches the venue without being a desk of it.
	ob, err := Observe(Options{Secret: r.sec, Dir: t.TempDir(), Listen: "127.0.0.1:" + strconv.Itoa(freePort(t)),
		Join: []string{d2.addr}}, r.event, "")
	if err != nil {
		t.Fatal(err)
	}
	defer ob.Close()
	waitFor(t, "the board to see the venue", func() bool {
		in := ob.Info()
		return in.State == "meshed" && len(in.Desks) == 3 && in.Upstream == d1.node.Info().Upstream
	})
	people := r.sim.RegistrantEmails(r.event)[:30]
	r.sim.SetFaults(0, 1, 0) // the service is out of reach: every request fails
	for i, p := range people {
		sc, err := desks[i%3].Scan([]string{p})
		if err != nil {
			t.Fatal(err)
		}
		if sc[0].Outcome != scanqueue.Pending {
			t.Fatalf("first scan of %s: %+v", p, sc[0])
		}
	}
	for i, p := range people { // everyone again, at the next desk
		d := desks[(i+1)%3]
		waitFor(t, "the venue to know "+p, func() bool { _, ok := d.Arrivals().Lookup(p); return ok })
		sc, err := d.Scan([]string{p})
		if err != nil {
			t.Fatal(err)
		}
		first := desks[i%3].Name()
		if sc[0].Outcome != scanqueue.Already || !strings.Contains(sc[0].Message, "checked in at "+first) {
			t.Fatalf("second scan of %s at %s: %+v", p, d.Name(), sc[0])
		}
	}
	if n := len(r.sim.CheckIns(r.event, "")); n != 0 {
		t.Fatalf("the service holds %d check-ins while offline", n)
	}
	// The board has each admission at its scan's time (the service's
	// history will carry none).
	waitFor(t, "the board to hold every admission", func() bool {
		adm, loaded := ob.Admissions()
		return loaded && len(adm) == len(people)
	})
	adm, _ := ob.Admissions()
	for _, a := range adm {
		first, _ := desks[slices.Index(people, a.Email)%3].Journal().Lookup(a.Email)
		if !a.At.Equal(first.At) || a.Desk != desks[slices.Index(people, a.Email)%3].Name() {
			t.Fatalf("the board's %s: %+v, scanned %+v", a.Email, a, first)
		}
	}
	// A desk's first read of the arrivals ends at its own target's last
	// admission, even when another target's came later.
	ctx := context.Background()
	mine := d1.node.lastRevision(ctx, d1.node.target+".>")
	other, err := d1.node.arrivals().Put(ctx, targetOf("another event", "")+".someone", []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	if again := d1.node.lastRevision(ctx, d1.node.target+".>"); mine == 0 || again != mine || mine >= other {
		t.Fatalf("the target's last admission: %d, then %d, another target's %d", mine, again, other)
	}
	if none := d1.node.lastRevision(ctx, targetOf("a third event", "")+".>"); none != 0 {
		t.Fatalf("a target with no admissions has its last at %d", none)
	}
	r.sim.SetFaults(0, 0, 0)
	r.sentOnce(t, desks, people)
	waitFor(t, "the board's queue to empty", func() bool { return ob.Info().Queue == 0 })
}

// A desk that worked alone (it met no other desk in time) admitted someone
// the venue admitted too: when it joins, the board lists the person as
// admitted twice, its own pending scan sends nothing, and the service gets
// the person once.
func TestAdmittedOnBothSidesOfASplit(t *testing.T) {
	needVenue(t, "four engines, about 20 s")
	t.Parallel()
	r := newRig(t)
	r.sim.SetFaults(0, 1, 0) // the service is out of reach throughout the split
	late := freePort(t)
	lateAddr := "127.0.0.1:" + strconv.Itoa(late)
	c := r.openWith("Door C", func(o *Options) { o.JoinGrace = 200 * time.Millisecond }, lateAddr)
	waitFor(t, "Door C to work alone", func() bool { return c.node.Info().State == "alone" && c.node.Alone() })
	who := r.sim.RegistrantEmails(r.event)[7]
	if sc, err := c.Scan([]string{who}); err != nil || sc[0].Outcome != scanqueue.Pending {
		t.Fatalf("alone: %+v %v", sc, err)
	}
	// Door A and Door B form the venue apart from Door C, and Door A
	// admits the same person; then Door D comes up where Door C looks.
	a := r.open("Door A")
	b := r.open("Door B", a.addr)
	for _, d := range []*meshDesk{a, b} {
		waitFor(t, d.Name()+" meshed", func() bool { return d.node.Info().State == "meshed" })
	}
	if sc, err := a.Scan([]string{who}); err != nil || sc[0].Outcome != scanqueue.Pending {
		t.Fatalf("Door A: %+v %v", sc, err)
	}
	r.openWith("Door D", func(o *Options) { o.Listen = lateAddr }, a.addr)
	waitFor(t, "Door C to join", func() bool { return c.node.Info().State == "meshed" })
	waitFor(t, "the second admission on the board", func() bool {
		tw := a.node.Info().Twice
		return len(tw) == 1 && tw[0].Email == who && tw[0].First == "Door A" && tw[0].Again == "Door C"
	})
	// Door C notes the second admission in the venue first, then settles
	// its own scan: the board may show it a moment before Door C's
	// journal does.
	waitFor(t, "Door C to settle its scan", func() bool {
		got, _ := c.Journal().Lookup(who)
		return got.Outcome != scanqueue.Pending
	})
	got, _ := c.Journal().Lookup(who)
	if got.Outcome != scanqueue.Already || !strings.Contains(got.Message, "admitted again while the venue was split; first checked in at Door A") {
		t.Fatalf("Door C's scan after the split: %+v", got)
	}
	r.sim.SetFaults(0, 0, 0)
	waitFor(t, "Door A to hear back", func() bool { return a.Journal().Counts().Pending == 0 })
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sent[who] != 1 {
		t.Fatalf("%s sent %d times", who, r.sent[who])
	}
}

// routeHandshake opens a link to a desk's route port as a desk with sec
// would: TLS with sec's certificate, checking the desk's against sec's
// authority.
func routeHandshake(addr string, sec *Secret) error {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	cfg, err := sec.TLS()
	if err != nil {
		return err
	}
	return tls.Client(conn, cfg).Handshake()
}
