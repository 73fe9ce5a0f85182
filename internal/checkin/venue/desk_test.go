package venue

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/fakeclock"
	"github.com/evdesk/evdesk/internal/testdir"
)

var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// clock is a fake clock the simulator, the clients and the desks share.
type clock = fakeclock.Clock

// noWait returns at once: retries and backoffs take no time in tests.
func noWait(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// untilWoken is a background wait that only a Refresh or Close ends.
func untilWoken(ctx context.Context, _ time.Duration) error { <-ctx.Done(); return ctx.Err() }

// venueRig is a simulator over loopback HTTP and the way to open desks on
// it, each with its own journal folder (its own laptop).
type venueRig struct {
	t     testing.TB
	sim   *sim.Sim
	srv   *httptest.Server
	clk   *clock
	event string
	// faults counts the answers that were a 5xx or a dropped connection.
	faults atomic.Int64
}

// faultCounter notes 5xx answers and dropped connections.
type faultCounter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w faultCounter) WriteHeader(code int) {
	if code >= 500 {
		w.n.Add(1)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w faultCounter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	w.n.Add(1)
	return w.ResponseWriter.(http.Hijacker).Hijack()
}

func newVenue(t testing.TB, opts sim.Options) *venueRig {
	t.Helper()
	clk := fakeclock.New(t0)
	opts.Now, opts.NoRateLimit = clk.Now, true
	s := sim.New(opts)
	v := &venueRig{t: t, sim: s, clk: clk, event: s.Fixtures().LargeConferenceEventID}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.ServeHTTP(faultCounter{w, &v.faults}, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	v.srv = srv
	return v
}

func (v *venueRig) client(attempts int) *api.Client {
	v.t.Helper()
	c, err := api.New(api.WithBaseURL(v.srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithClock(v.clk.Now), api.WithSleep(noWait),
		api.WithRetry(api.RetryPolicy{MaxAttempts: attempts, BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, MaxRetryAfter: time.Minute}))
	if err != nil {
		v.t.Fatal(err)
	}
	return c
}

// open opens a desk named name in dir.
func (v *venueRig) open(dir, name string, adjust ...func(*Options)) *Desk {
	v.t.Helper()
	o := Options{Dir: dir, EventID: v.event, Name: name, Client: v.client(8),
		CheckIn: v.client(2).Attendees.CheckIn, Now: v.clk.Now, Local: time.UTC, Wait: untilWoken,
		Sender: func(so *scanqueue.SenderOptions) { so.Sleep = noWait; so.Jitter = func() float64 { return 0 } }}
	for _, a := range adjust {
		a(&o)
	}
	d, err := Open(o)
	if err != nil {
		v.t.Fatal(err)
	}
	v.t.Cleanup(func() { _ = d.Close() })
	return d
}

// syncOnce syncs until one sync succeeds (the network fails some reads).
func syncOnce(t testing.TB, d *Desk) {
	t.Helper()
	var err error
	for range 50 {
		if err = d.Sync(context.Background()); err == nil {
			return
		}
	}
	t.Fatalf("%s never synced: %v", d.Name(), err)
}

// TestFourDesksThroughFaults: four desks, each on its own laptop, scan
// 5,000 people each against one server that fails 5% of requests with a 5xx
// and drops 5% of connections; every person is scanned at two desks. Every
// person ends checked in exactly once on the server, and after one sync
// each desk answers a scan of anyone the others checked in with ALREADY,
// naming the desk the server holds.
func TestFourDesksThroughFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("long: 20,000 synced scans at four desks")
	}
	v := newVenue(t, sim.Options{ErrorRate: 0.05, DropRate: 0.05})
	people := v.sim.RegistrantEmails(v.event)[:10000]
	const desks = 4
	ds := make([]*Desk, desks)
	lists := make([][]string, desks)
	for k := range desks {
		// In memory where the machine allows: 20,000 fsyncs to a disk
		// would be most of this test's time, and it tests the desks.
		ds[k] = v.open(testdir.Fast(t), fmt.Sprintf("Desk %d", k+1))
	}
	for i, p := range people {
		lists[i%desks] = append(lists[i%desks], p)
		lists[(i+1)%desks] = append(lists[(i+1)%desks], p)
	}
	var wg sync.WaitGroup
	errs := make(chan error, desks)
	for k := range desks {
		wg.Go(func() {
			for _, p := range lists[k] {
				if _, err := ds[k].Scan([]string{p}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, d := range ds {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		err := d.Sender().Flush(ctx)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", d.Name(), err)
		}
	}

	// Exactly once on the server, each by one of the desks.
	holder := map[string]string{}
	for _, r := range v.sim.CheckIns(v.event, "") {
		if holder[r.Email] != "" {
			t.Fatalf("%s checked in twice", r.Email)
		}
		holder[r.Email] = r.Source
	}
	if len(holder) != len(people) {
		t.Fatalf("the server holds %d check-ins for %d people", len(holder), len(people))
	}

	for _, d := range ds {
		syncOnce(t, d)
	}
	others := 0
	for _, d := range ds {
		scans, err := d.Scan(people)
		if err != nil {
			t.Fatal(err)
		}
		for i, sc := range scans {
			want := "checked in at " + holder[people[i]] + ", "
			if holder[people[i]] == d.Name() {
				want = "checked in at this desk (" + d.Name() + ")"
			} else {
				others++
			}
			if sc.Outcome != scanqueue.Already || !strings.Contains(sc.Message, want) {
				t.Fatalf("%s rescanning %s (held by %s): %+v", d.Name(), sc.Email, holder[people[i]], sc)
			}
		}
	}
	if others < desks*len(people)/2 {
		t.Fatalf("only %d answers named another desk", others)
	}
	if v.faults.Load() < 20 {
		t.Fatalf("only %d faults happened", v.faults.Load())
	}
	t.Logf("%d answers named another desk; the server failed or dropped %d requests", others, v.faults.Load())
	// Every board counts each desk's check-ins as the server holds them
	// (which desk wins a person scanned at two is a race, so the figures
	// come from the server, not from a guess).
	perDesk := map[string]int{}
	for _, desk := range holder {
		perDesk[desk]++
	}
	for _, d := range ds {
		st := d.Stats(5)
		got := map[string]int{}
		for _, pd := range st.PerDesk {
			got[pd.Desk] = pd.Count
		}
		if st.CheckedIn != len(people) || !maps.Equal(got, perDesk) {
			t.Fatalf("%s board: %d checked in, desks %+v; the server holds %v", d.Name(), st.CheckedIn, st.PerDesk, perDesk)
		}
	}
}

// TestDeskAnswersFromTheRosterOffline: once the roster is in, the server
// goes away; a registered scan is recorded as expected to be registered,
// a stranger as not on the roster, both journaled and pending; when the
// server returns the queue drains without a key, and the stranger, whom
// the server registered after the roster was taken, shows as a
// disagreement.
func TestDeskAnswersFromTheRosterOffline(t *testing.T) {
	v := newVenue(t, sim.Options{})
	ready := make(chan struct{}, 16)
	d := v.open(t.TempDir(), "Desk 1", func(o *Options) {
		o.OnChange = func() { ready <- struct{}{} }
	})
	for d.Roster() == nil {
		<-ready
	}
	regs := v.sim.RegistrantEmails(v.event)
	late := "late.comer@example.org"
	if _, err := v.client(1).Registration.CreateTickets(context.Background(), v.event, &api.TicketsRequest{
		Tickets: []api.TicketRequest{{Email: late, FirstName: "Late", LastName: "Comer"}}}); err != nil {
		t.Skipf("the simulator does not register here: %v", err)
	}
	v.sim.SetFaults(0, 0, 1) // offline
	scans, err := d.Scan([]string{regs[3], late, "nobody@example.org"})
	if err != nil {
		t.Fatal(err)
	}
	if scans[0].Expect != scanqueue.ExpectRegistered || scans[1].Expect != scanqueue.ExpectUnknown || scans[2].Expect != scanqueue.ExpectUnknown {
		t.Fatalf("offline verdicts %+v", scans)
	}
	if c := d.Journal().Counts(); c.Pending != 3 {
		t.Fatalf("not journaled: %+v", c)
	}
	v.sim.SetFaults(0, 0, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := d.Sender().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got, _ := d.Journal().Lookup(late)
	if got.Outcome != scanqueue.CheckedIn || !got.Disagrees() {
		t.Fatalf("the late registrant %+v", got)
	}
	if n, _ := d.Journal().Lookup("nobody@example.org"); n.Outcome != scanqueue.Rejected || n.Disagrees() {
		t.Fatalf("the stranger %+v", n)
	}
}

// A second desk (here a session's) finds the first one's roster in the
// cache: it answers from the start, with the server gone.
func TestRosterCacheIsShared(t *testing.T) {
	v := newVenue(t, sim.Options{})
	dir := t.TempDir()
	ready := make(chan struct{}, 16)
	d := v.open(dir, "Desk 1", func(o *Options) { o.OnChange = func() { ready <- struct{}{} } })
	for d.Roster() == nil {
		<-ready
	}
	d.Close()
	v.sim.SetFaults(0, 0, 1) // the server is gone; the cache is enough
	d2 := v.open(dir, "Desk 1", func(o *Options) { o.SessionID = v.sim.Fixtures().LargeConferenceSessionID })
	if ro := d2.Roster(); ro == nil || ro.Len() != 20000 {
		t.Fatal("the cache was not used")
	}
}

// TestDeskAtRest: once the first roster download and history sync are done
// and told, the desk rests; a Refresh or a scan ends the rest at once, and
// the desk rests again when their work is done.
func TestDeskAtRest(t *testing.T) {
	v := newVenue(t, sim.Options{})
	v.event = v.sim.Fixtures().UpcomingEventID
	changes := make(chan struct{}) // unbuffered: a change is told only when read
	d := v.open(t.TempDir(), "Desk 1", func(o *Options) { o.OnChange = func() { changes <- struct{}{} } })
	deadline := time.After(30 * time.Second)
	told := 0 // changes read since the last rest
	rest := func(what string) {
		t.Helper()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-changes:
				told++
				continue
			default:
			}
			if d.AtRest() {
				return
			}
			select {
			case <-changes:
				told++
			case <-tick.C:
			case <-deadline:
				t.Fatalf("timed out waiting for the desk to rest %s", what)
			}
		}
	}
	rest("after opening")
	if st := d.RosterState(); st.Roster == nil || st.Loading || d.Health().LastOK.IsZero() {
		t.Fatalf("at rest before the roster and the history were read: %+v, %+v", st, d.Health())
	}

	told = 0
	d.Refresh()
	if d.AtRest() {
		t.Fatal("at rest right after Refresh")
	}
	rest("after a refresh")
	if told == 0 {
		t.Fatal("at rest before the refresh's history sync was told")
	}

	who := v.sim.RegistrantEmails(v.event)[0]
	if _, err := d.Scan([]string{who}); err != nil {
		t.Fatal(err)
	}
	if d.AtRest() {
		t.Fatal("at rest with a scan just journaled")
	}
	rest("after a scan")
	if c := d.Journal().Counts(); c.CheckedIn != 1 || c.Pending != 0 {
		t.Fatalf("at rest with counts %+v", c)
	}
}

// A poke ends a loop's rest at once, and a poke that came before the loop
// lay down keeps it from resting: no moment shows a poked loop at rest.
func TestNapRestEndsAtAPoke(t *testing.T) {
	n := newNap()
	n.begin()
	if !n.resting() {
		t.Fatal("not resting after begin")
	}
	n.poke()
	if n.resting() {
		t.Fatal("still resting after a poke")
	}
	n.end()
	n.begin() // the poke is still waiting in the channel
	if n.resting() {
		t.Fatal("resting with a poke waiting")
	}
}

// A service that refuses the registrants list (403, in the documented
// shape): the desk says it works by email alone, checks in by email, and
// asks for the list again only at the usual refresh, not every few
// seconds.
func TestDeskWithoutTheRegistrantsListWorksByEmail(t *testing.T) {
	v := newVenue(t, sim.Options{})
	s := v.sim
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/registrants") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"code":4711,"message":"Invalid access token, does not contain scopes"}`))
			return
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(refusing.Close)
	v.srv = refusing
	waits := make(chan time.Duration, 16)
	changed := make(chan struct{}, 64)
	d := v.open(t.TempDir(), "Door A", func(o *Options) {
		o.RefreshEvery = 10 * time.Minute
		o.OnChange = func() {
			select {
			case changed <- struct{}{}:
			default:
			}
		}
		o.Wait = func(ctx context.Context, d time.Duration) error {
			waits <- d
			<-ctx.Done()
			return ctx.Err()
		}
	})
	for !d.RosterState().Refused {
		<-changed
	}
	st := d.RosterState()
	if st.Roster != nil || !strings.Contains(st.Err.Error(), "vendor_events_registrants:read") {
		t.Fatalf("roster state %+v", st)
	}
	regs := s.RegistrantEmails(v.event)
	if _, err := d.Scan([]string{regs[7]}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := d.Sender().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if sc, _ := d.Journal().Lookup(regs[7]); sc.Outcome != scanqueue.CheckedIn {
		t.Fatalf("by email: %+v", sc)
	}
	for {
		w := <-waits
		if w == 10*time.Minute {
			break // the roster's next try: at the usual refresh
		}
		if w == retryEvery {
			t.Fatalf("a refused list is asked for again after %v", w)
		}
	}
}

// TestOpenWaitsForAJournalBeingLetGo: a desk opening a journal another
// holds tries again while LockWait lasts, on a clock that never moves (the
// desk's fixed clock does not decide how long it waits), and opens it once
// it is let go; held for good, it says so.
func TestOpenWaitsForAJournalBeingLetGo(t *testing.T) {
	v := newVenue(t, sim.Options{})
	dir := t.TempDir()
	held, err := scanqueue.Open(dir, v.event, "")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Dir: dir, EventID: v.event, Name: "late", Client: v.client(1), CheckIn: v.client(1).Attendees.CheckIn,
		Now: v.clk.Now, Local: time.UTC, Wait: untilWoken, LockWait: 2 * lockRetry}
	if _, err := Open(o); !errors.Is(err, scanqueue.ErrLocked) {
		t.Fatalf("held for good: %v, want ErrLocked", err)
	}
	opened := make(chan error, 1)
	o.LockWait = time.Hour // tries until let go
	go func() {
		d, err := Open(o)
		if err == nil {
			err = d.Close()
		}
		opened <- err
	}()
	held.Close()
	if err := <-opened; err != nil {
		t.Fatalf("after the journal was let go: %v", err)
	}
}
