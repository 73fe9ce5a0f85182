package walkin

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/roster"
)

var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// rig is a simulator over loopback HTTP, and a way to be offline: the
// client then dials a port nobody listens on.
type rig struct {
	t       *testing.T
	sim     *sim.Sim
	online  *api.Client
	offline *api.Client
	down    atomic.Bool
	// lose, when set, drops the connection after the server has handled
	// a create-tickets request: the registration went through, its answer
	// was lost.
	lose atomic.Bool
	now  time.Time
	mu   sync.Mutex
}

func newRig(t *testing.T) *rig {
	r := &rig{t: t, now: t0}
	r.sim = sim.New(sim.Options{Now: r.clock, NoRateLimit: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if r.lose.Load() && req.Method == http.MethodPost {
			// The server does the work; its answer never leaves.
			r.lose.Store(false)
			r.sim.ServeHTTP(httptest.NewRecorder(), req)
			if hj, ok := w.(http.Hijacker); ok {
				if conn, _, err := hj.Hijack(); err == nil {
					conn.Close()
				}
			}
			return
		}
		r.sim.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(r.sim.Close)
	r.online = r.client(srv.URL)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close()
	r.offline = r.client(dead)
	return r
}

func (r *rig) clock() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.now
}

func (r *rig) advance(d time.Duration) {
	r.mu.Lock()
	r.now = r.now.Add(d)
	r.mu.Unlock()
}

func (r *rig) client(base string) *api.Client {
	c, err := api.New(api.WithBaseURL(base+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithClock(r.clock), api.WithRetry(api.RetryPolicy{MaxAttempts: 1}))
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

func (r *rig) create(ctx context.Context, eventID string, req *api.TicketsRequest) (*api.TicketsResult, error) {
	c := r.online
	if r.down.Load() {
		c = r.offline
	}
	return c.Registration.CreateTickets(ctx, eventID, req)
}

// desk is a walk-in journal and its sender, with the check-ins it wrote
// and a roster the test sets.
type desk struct {
	j       *Journal
	s       *Sender
	changes chan Walkin
	mu      sync.Mutex
	checked []string
	ro      *roster.Roster
	refresh atomic.Int32
}

func (r *rig) open(dir, eventID string) *desk {
	j, err := Open(dir, eventID, "", r.clock)
	if err != nil {
		r.t.Fatal(err)
	}
	d := &desk{j: j, changes: make(chan Walkin, 64)}
	d.s = Start(j, Options{EventID: eventID, Create: r.create, Now: r.clock,
		Roster: func() *roster.Roster { d.mu.Lock(); defer d.mu.Unlock(); return d.ro },
		// Retries wait until woken: the test says when the server is back.
		Sleep:         func(ctx context.Context, _ time.Duration) error { <-ctx.Done(); return ctx.Err() },
		RefreshRoster: func() { d.refresh.Add(1) },
		CheckIn: func(w Walkin) (string, error) {
			d.mu.Lock()
			defer d.mu.Unlock()
			d.checked = append(d.checked, w.Email)
			return "scan-" + w.ID, nil
		},
		OnChange: func(w Walkin) { d.changes <- w },
	})
	r.t.Cleanup(func() { d.s.Close(); d.j.Close() })
	return d
}

// until waits for walk-in id to reach state.
func (d *desk) until(t *testing.T, id string, st State) Walkin {
	t.Helper()
	for {
		select {
		case w := <-d.changes:
			if w.ID == id && w.State == st {
				return w
			}
		case <-time.After(20 * time.Second):
			w, _ := d.j.Get(id)
			t.Fatalf("walk-in %s is %s (%s), not %s", id, w.State, w.Reason, st)
		}
	}
}

func (r *rig) ticketType(eventID string) api.TicketType {
	types, err := r.online.Registration.TicketTypes(context.Background(), eventID)
	if err != nil || len(types) == 0 {
		r.t.Fatalf("ticket types: %v %v", types, err)
	}
	return types[0]
}

func (r *rig) registered(eventID, email string) bool {
	for _, e := range r.sim.RegistrantEmails(eventID) {
		if e == email {
			return true
		}
	}
	return false
}

func TestWalkInOnline(t *testing.T) {
	r := newRig(t)
	ev := r.sim.Fixtures().UpcomingEventID
	tt := r.ticketType(ev)
	dir := t.TempDir()
	d := r.open(dir, ev)
	w, err := d.j.Add(Walkin{Email: " Walk.In@Example.org ", First: "Wally", Last: "Inn", TicketTypeID: tt.TicketTypeID, TicketTypeName: tt.Name})
	if err != nil {
		t.Fatal(err)
	}
	got := d.until(t, w.ID, CheckedIn)
	if len(got.Tickets) != 1 || got.Tickets[0].TicketID == "" || got.ScanID != "scan-"+w.ID {
		t.Fatalf("%+v", got)
	}
	// Another desk of the event reads them from the open journal, and a
	// desk of another event does not; a damaged journal of the event is
	// passed over.
	damaged := strings.TrimSuffix(Path(dir, ev, ""), ".walkins.jsonl") + ".s1.walkins.jsonl"
	if err := os.WriteFile(damaged, []byte("{\"t\":\"walkins\"\n\x1b[2Jnot json\n{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if regs := RegistrantsIn(dir, ev); len(regs) != 1 || regs[0].Email != "walk.in@example.org" || len(regs[0].Tickets) != 1 {
		t.Fatalf("registrants of the event's desks: %+v", regs)
	}
	if regs := RegistrantsIn(dir, r.sim.Fixtures().ConferenceEventID); len(regs) != 0 {
		t.Fatalf("registrants of another event: %+v", regs)
	}
	if !r.registered(ev, "walk.in@example.org") || len(d.checked) != 1 {
		t.Fatalf("registered %v, checked in %v", r.registered(ev, "walk.in@example.org"), d.checked)
	}
	// A second walk-in for the same address while the first is under way
	// is refused; after it settled, another may come (a new ticket type).
	if _, err := d.j.Add(Walkin{Email: "walk.in@example.org", First: "W"}); err != nil {
		t.Fatalf("after settling: %v", err)
	}
}

// Offline, walk-ins wait in the journal in order, across a restart; when
// the server is back each is registered, then checked in, in order.
func TestWalkInsOfflineKeepTheirOrder(t *testing.T) {
	r := newRig(t)
	ev := r.sim.Fixtures().UpcomingEventID
	tt := r.ticketType(ev)
	dir := t.TempDir()
	r.down.Store(true)
	d := r.open(dir, ev)
	var ids []string
	for _, e := range []string{"one@example.org", "two@example.org"} {
		w, err := d.j.Add(Walkin{Email: e, First: "N", TicketTypeID: tt.TicketTypeID})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, w.ID)
	}
	if _, err := d.j.Add(Walkin{Email: "one@example.org", First: "Again"}); err == nil || !strings.Contains(err.Error(), "already waiting") {
		t.Fatalf("a second walk-in while the first waits: %v", err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for d.s.LastErr() == nil || !d.s.AtRest() {
		if time.Now().After(deadline) {
			t.Fatal("the sender never tried")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if d.j.Unsettled() != 2 || len(d.checked) != 0 || r.registered(ev, "one@example.org") {
		t.Fatalf("offline: unsettled %d, checked %v", d.j.Unsettled(), d.checked)
	}
	// The desk closes and opens again; the walk-ins are still there.
	d.s.Close()
	d.j.Close()
	r.down.Store(false)
	d = r.open(dir, ev)
	d.until(t, ids[1], CheckedIn)
	if strings.Join(d.checked, ",") != "one@example.org,two@example.org" {
		t.Fatalf("checked in %v", d.checked)
	}
	for _, e := range []string{"one@example.org", "two@example.org"} {
		if !r.registered(ev, e) {
			t.Fatalf("%s not registered", e)
		}
	}
	// Opened once more, the journal names them registered, with their
	// tickets and when: the desk puts them back on its roster.
	d.s.Close()
	d.j.Close()
	d = r.open(dir, ev)
	got := d.j.Registrants()
	if len(got) != 2 || got[0].Email != "one@example.org" || len(got[1].Tickets) != 1 || !got[1].RegisteredAt.Equal(r.clock()) {
		t.Fatalf("registrants after reopening: %+v", got)
	}
}

// A registration the server refuses leaves the check-in unsent and says
// why, naming the questions the event's form requires.
func TestARefusedWalkInIsNotCheckedIn(t *testing.T) {
	r := newRig(t)
	ev := r.sim.Fixtures().QuestionsEventID
	d := r.open(t.TempDir(), ev)
	w, err := d.j.Add(Walkin{Email: "q@example.org", First: "Q", TicketTypeID: r.ticketType(ev).TicketTypeID})
	if err != nil {
		t.Fatal(err)
	}
	got := d.until(t, w.ID, Refused)
	if !strings.Contains(got.Reason, "the registration form requires Job title, Organization") || len(d.checked) != 0 {
		t.Fatalf("%+v, checked %v", got, d.checked)
	}
	if qs := d.j.Questions(); len(qs) < 3 {
		t.Fatalf("the questions were not kept for the next form: %v", qs)
	}
	// Answered, the next walk-in goes through.
	answers := map[string]string{}
	for _, q := range d.j.Questions() {
		answers[q] = "Hands-on lab"
	}
	answers["job_title"], answers["organization"] = "Engineer", "Contoso"
	w, err = d.j.Add(Walkin{Email: "q@example.org", First: "Q", TicketTypeID: r.ticketType(ev).TicketTypeID, Answers: answers})
	if err != nil {
		t.Fatal(err)
	}
	d.until(t, w.ID, CheckedIn)

	// A ticket type the event does not have.
	w, _ = d.j.Add(Walkin{Email: "tt@example.org", First: "T", TicketTypeID: "nope", Answers: answers})
	if got := d.until(t, w.ID, Refused); !strings.Contains(got.Reason, "the ticket type was not found") || !strings.Contains(got.Reason, "(ticket_type_notfound)") {
		t.Fatalf("%+v", got)
	}
}

// A registration whose answer is lost is never sent again blind: a roster
// downloaded after it tells that it went through, and the person is
// checked in once, with the one ticket.
func TestAnUnansweredWalkInWaitsForTheRoster(t *testing.T) {
	r := newRig(t)
	ev := r.sim.Fixtures().UpcomingEventID
	d := r.open(t.TempDir(), ev)
	sold := r.ticketType(ev).SoldQuantity
	r.lose.Store(true)
	w, err := d.j.Add(Walkin{Email: "lost@example.org", First: "L", TicketTypeID: r.ticketType(ev).TicketTypeID})
	if err != nil {
		t.Fatal(err)
	}
	d.until(t, w.ID, Uncertain)
	if d.refresh.Load() == 0 {
		t.Fatal("no roster was asked for")
	}
	// A roster from before the send tells nothing.
	d.mu.Lock()
	d.ro = roster.New(ev, t0.Add(-time.Minute), 0, nil)
	d.mu.Unlock()
	d.s.Wake()
	r.advance(time.Minute)
	ro, err := roster.Download(context.Background(), r.online, ev, r.clock, nil)
	if err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	d.ro = ro
	d.mu.Unlock()
	d.s.Wake()
	got := d.until(t, w.ID, CheckedIn)
	if len(got.Tickets) != 1 || got.Tickets[0].TicketID == "" {
		t.Fatalf("%+v", got)
	}
	if n := r.ticketType(ev).SoldQuantity - sold; n != 1 {
		t.Fatalf("the registration was sent %d times", n)
	}
}

func TestAWalkInIsValidatedBeforeItIsSaved(t *testing.T) {
	r := newRig(t)
	d := r.open(t.TempDir(), r.sim.Fixtures().UpcomingEventID)
	for _, tc := range []struct {
		w    Walkin
		want string
	}{
		{Walkin{Email: "nope", First: "A"}, "email"},
		{Walkin{Email: "a@example.org"}, "a name is needed"},
		{Walkin{Email: "a@example.org", First: strings.Repeat("x", 65)}, "first_name: is 65 characters long"},
		{Walkin{Email: "a@example.org", First: "A", Option: api.RecurringSingleSession}, "a single-session link takes exactly one"},
	} {
		if _, err := d.j.Add(tc.w); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.w, err, tc.want)
		}
	}
	if len(d.j.All()) != 0 {
		t.Fatal("a bad walk-in was saved")
	}
}

// A crash mid-write leaves a torn last line: it is dropped, the rest kept.
func TestATornLastLineIsDropped(t *testing.T) {
	r := newRig(t)
	ev := r.sim.Fixtures().UpcomingEventID
	dir := t.TempDir()
	j, err := Open(dir, ev, "", r.clock)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Add(Walkin{Email: "a@example.org", First: "A"}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	f, _ := os.OpenFile(Path(dir, ev, ""), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"t":"walkin","walkin":{"id":"w2","ema`)
	f.Close()
	j, err = Open(dir, ev, "", r.clock)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if all := j.All(); len(all) != 1 || all[0].State != Waiting {
		t.Fatalf("%+v", all)
	}
	if w, err := j.Add(Walkin{Email: "b@example.org", First: "B"}); err != nil || w.ID != "w2" {
		t.Fatalf("%+v %v", w, err)
	}
}

// The setup keeps each session's own zone, also in the kept copy used
// offline, so the walk-in form shows a start in the zone it names.
func TestTheSetupKeepsEachSessionsZone(t *testing.T) {
	r := newRig(t)
	id := r.sim.Fixtures().RecurringEventID
	dir := t.TempDir()
	s, err := LoadSetup(context.Background(), r.online, dir, id, t0)
	if err != nil || !s.NeedsSessions() || len(s.Sessions) == 0 {
		t.Fatalf("setup: %v, %+v", err, s)
	}
	served, err := r.online.Attendees.Sessions(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	zones := map[string]string{}
	for _, ss := range served {
		zones[ss.SessionID] = ss.Timezone
	}
	kept, err := LoadSetup(context.Background(), r.offline, dir, id, t0)
	if err != nil || !kept.Cached {
		t.Fatalf("kept: %v, %+v", err, kept)
	}
	for i, se := range s.Sessions {
		if se.Zone == "" || se.Zone != zones[se.ID] || kept.Sessions[i].Zone != se.Zone {
			t.Fatalf("session %s: zone %q, the server's %q, kept %q", se.ID, se.Zone, zones[se.ID], kept.Sessions[i].Zone)
		}
	}
}
