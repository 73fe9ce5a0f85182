package roster

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/fakeclock"
)

// clock is a fake clock the simulator and the client share.
type clock = fakeclock.Clock

func newClock() *clock { return fakeclock.New(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)) }

// rig is a simulator over loopback HTTP with a client on the same clock;
// wrap (may be nil) sees every request first.
type rig struct {
	sim    *sim.Sim
	client *api.Client
	clk    *clock
	event  string
}

func newRig(t testing.TB, wrap func(http.Handler) http.Handler) *rig {
	t.Helper()
	clk := newClock()
	s := sim.New(sim.Options{Now: clk.Now, NoRateLimit: true})
	var h http.Handler = s
	if wrap != nil {
		h = wrap(s)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithClock(clk.Now), api.WithSleep(func(ctx context.Context, _ time.Duration) error { return ctx.Err() }))
	if err != nil {
		t.Fatal(err)
	}
	return &rig{sim: s, client: c, clk: clk, event: s.Fixtures().LargeConferenceEventID}
}

// TestDownloadAcrossPageTokenExpiry: the download of 20,000 registrants
// (67 pages) stalls for 20 minutes twice, as on a venue network that comes
// and goes, so page tokens expire under it. The roster still holds
// everyone once, with their tickets.
func TestDownloadAcrossPageTokenExpiry(t *testing.T) {
	var firstPages, pages atomic.Int64
	var clk *clock
	r := newRig(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if strings.HasSuffix(req.URL.Path, "/registrants") {
				if req.URL.Query().Get("next_page_token") == "" {
					firstPages.Add(1)
				}
				if n := pages.Add(1); n == 10 || n == 40 {
					defer clk.Advance(20 * time.Minute)
				}
			}
			h.ServeHTTP(w, req)
		})
	})
	clk = r.clk
	var seen []int
	ro, err := Download(context.Background(), r.client, r.event, r.clk.Now, func(n, _ int) { seen = append(seen, n) })
	if err != nil {
		t.Fatal(err)
	}
	want := r.sim.RegistrantEmails(r.event)
	if ro.Len() != len(want) || ro.Total() != len(want) {
		t.Fatalf("roster of %d (total %d); the event has %d", ro.Len(), ro.Total(), len(want))
	}
	for _, e := range want {
		if _, ok := ro.ByEmail(e); !ok {
			t.Fatalf("%s is missing", e)
		}
	}
	if firstPages.Load() < 3 {
		t.Fatalf("the listing started %d times; the test meant tokens to expire", firstPages.Load())
	}
	if !slices.IsSorted(seen) || seen[len(seen)-1] != len(want) {
		t.Fatal("progress did not count up to the whole roster")
	}
	p, _ := ro.ByEmail(strings.ToUpper(want[7]))
	if len(p.Tickets) != 1 || p.Tickets[0].ID == "" || !strings.Contains(p.Tickets[0].QRCodeURL, p.Tickets[0].ID) || p.Role() == "" {
		t.Fatalf("tickets not kept: %+v", p)
	}
	if q, tk, ok := ro.ByTicket(" " + p.Tickets[0].ID + " "); !ok || q.Email != p.Email || tk != p.Tickets[0] {
		t.Fatalf("by ticket: %+v %+v %v", q, tk, ok)
	}
	if _, _, ok := ro.ByTicket("no-such-ticket"); ok {
		t.Fatal("an unknown ticket was found")
	}
	if !ro.Updated().Equal(r.clk.Now()) {
		t.Fatal("the roster is not stamped with the download's end")
	}
}

func TestRosterKeepsNamesTheServerSends(t *testing.T) {
	var regs []api.Registrant
	for _, body := range []string{
		`{"email":" Ana@Example.ORG ","registration_status":"registered","first_name":"Ana","last_name":"Costa","tickets":[{"ticket_id":"T1","role":"speaker"}]}`,
		`{"email":"bo@example.org","full_name":"Bo Lind"}`,
		`{"email":"ANA@example.org"}`,
		`{"email":"cy@example.org"}`,
	} {
		var r api.Registrant
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatal(err)
		}
		regs = append(regs, r)
	}
	ro := New("E1", time.Time{}, 4, FromRegistrants(regs))
	a, _ := ro.ByEmail("ana@example.org")
	b, _ := ro.ByEmail("bo@example.org")
	c, _ := ro.ByEmail("cy@example.org")
	if ro.Len() != 3 || a.Name != "Ana Costa" || a.Status != "REGISTERED" || a.Role() != "SPEAKER" || b.Name != "Bo Lind" || c.Name != "" {
		t.Fatalf("people %+v", ro.People())
	}
}

func TestRosterCache(t *testing.T) {
	dir := t.TempDir()
	path := CachePath(dir, "E1")
	if ro, err := Load(path, "E1"); ro != nil || err != nil {
		t.Fatalf("no file: %v %v", ro, err)
	}
	at := time.Date(2026, 11, 23, 9, 12, 0, 0, time.UTC)
	ro := New("E1", at, 2, []Person{{Email: "a@example.org", Tickets: []Ticket{{ID: "T9", QRCodeURL: "https://x.example/qr?t=T9", Role: "ATTENDEE"}}}, {Email: "b@example.org"}})
	if err := Save(path, ro); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v: the roster holds personal data", fi.Mode().Perm())
	}
	back, err := Load(path, "E1")
	if err != nil || back.Len() != 2 || !back.Updated().Equal(at) || back.Total() != 2 {
		t.Fatalf("loaded %+v, %v", back, err)
	}
	if p, _, ok := back.ByTicket("T9"); !ok || p.Email != "a@example.org" {
		t.Fatal("tickets lost in the cache")
	}
	if _, err := Load(path, "E2"); err == nil || !strings.Contains(err.Error(), `event "E1"`) {
		t.Fatalf("another event's cache: %v", err)
	}
	os.WriteFile(path, []byte(`{"version":1,"people":[`), 0o600)
	if _, err := Load(path, "E1"); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged cache: %v", err)
	}
	if filepath.Dir(path) != dir || !strings.HasSuffix(path, "E1.roster.json") {
		t.Fatalf("path %s", path)
	}
}

// TestArrivalsSync: check-ins made at two desks reach the history with
// their desk; the first look times nothing ("by"), later syncs time what
// they find; this desk's own check-ins keep their scan time; the cache
// keeps it all.
func TestArrivalsSync(t *testing.T) {
	var lists atomic.Int64
	r := newRig(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if req.Method == http.MethodGet && strings.HasSuffix(req.URL.Path, "/attendee_action") && req.URL.Query().Get("page_size") == "300" {
				lists.Add(1)
			}
			h.ServeHTTP(w, req)
		})
	})
	ctx := context.Background()
	regs := r.sim.RegistrantEmails(r.event)
	checkIn := func(source string, emails ...string) {
		t.Helper()
		if failed, err := r.client.Attendees.CheckIn(ctx, r.event, "", emails, source); err != nil || len(failed) > 0 {
			t.Fatal(failed, err)
		}
	}
	checkIn("Desk 2", regs[0], regs[1])
	a := NewArrivals()
	if n, err := a.Sync(ctx, r.client, r.event, "", r.clk.Now); err != nil || n != 2 {
		t.Fatalf("first sync: %d %v", n, err)
	}
	if ar, _ := a.Lookup(strings.ToUpper(regs[0])); ar.Desk != "Desk 2" || !ar.By {
		t.Fatalf("first look %+v", ar)
	}
	r.clk.Advance(5 * time.Second)
	if n, _ := a.Sync(ctx, r.client, r.event, "", r.clk.Now); n != 0 || lists.Load() != 1 {
		t.Fatalf("nothing new: %d found, %d walks", n, lists.Load())
	}
	a.Note(regs[2], "Desk 1", r.clk.Now().Add(-time.Second))
	checkIn("Desk 1", regs[2])
	checkIn("Desk 3", regs[3])
	r.clk.Advance(5 * time.Second)
	if n, _ := a.Sync(ctx, r.client, r.event, "", r.clk.Now); n != 1 {
		t.Fatalf("second sync found %d", n)
	}
	if ar, _ := a.Lookup(regs[3]); ar.Desk != "Desk 3" || ar.By || !ar.At.Equal(r.clk.Now()) {
		t.Fatalf("a check-in found within the sync interval %+v", ar)
	}
	if ar, _ := a.Lookup(regs[2]); ar.Desk != "Desk 1" || !ar.At.Equal(r.clk.Now().Add(-6*time.Second)) {
		t.Fatalf("this desk's check-in keeps its scan time: %+v", ar)
	}
	// This desk noted someone another desk had checked in first: the
	// server's record names that desk.
	a.Note(regs[4], "Desk 1", r.clk.Now())
	checkIn("Desk 2", regs[4])
	r.clk.Advance(5 * time.Minute) // an outage: what is found now is "by" it
	checkIn("Desk 2", regs[5])
	a.Sync(ctx, r.client, r.event, "", r.clk.Now)
	if ar, _ := a.Lookup(regs[4]); ar.Desk != "Desk 2" {
		t.Fatalf("the server's desk did not win: %+v", ar)
	}
	if ar, _ := a.Lookup(regs[5]); !ar.By {
		t.Fatalf("found after a gap: %+v", ar)
	}
	// In words: the time of day, "by" it after a gap, the date on another day.
	ar3, _ := a.Lookup(regs[3])
	ar5, _ := a.Lookup(regs[5])
	now := r.clk.Now()
	if got, want := ar3.Seen(now, time.UTC), ar3.At.UTC().Format("15:04:05"); got != want {
		t.Errorf("seen %q, want %q", got, want)
	}
	if got, want := ar5.Seen(now, time.UTC), "by "+now.UTC().Format("15:04:05"); got != want {
		t.Errorf("seen %q, want %q", got, want)
	}
	if got := ar5.Seen(now.Add(48*time.Hour), time.UTC); got != "by "+now.UTC().Format("Mon 2 Jan 15:04") {
		t.Errorf("seen on another day %q", got)
	}
	if got := (Arrival{}).Seen(now, time.UTC); got != "-" {
		t.Errorf("unknown time %q", got)
	}

	path := ArrivalsPath(t.TempDir(), r.event, "")
	leftover := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".7.tmp")
	os.WriteFile(leftover, nil, 0o600)
	if err := a.Save(path, r.event, ""); err != nil {
		t.Fatal(err)
	}
	back, err := LoadArrivals(path, r.event, "")
	if err != nil || back.Len() != 6 || !back.Synced().Equal(a.Synced()) {
		t.Fatalf("cache: %d arrivals, %v", back.Len(), err)
	}
	if _, err := os.Stat(leftover); err == nil {
		t.Fatal("a leftover of an interrupted save stayed")
	}
	if _, err := LoadArrivals(path, r.event, "S1"); err == nil {
		t.Fatal("another session's cache was taken")
	}
}

func TestStats(t *testing.T) {
	at := func(hm string) time.Time {
		x, _ := time.Parse("15:04:05", hm)
		return time.Date(2026, 11, 23, x.Hour(), x.Minute(), x.Second(), 0, time.UTC)
	}
	a := NewArrivals()
	a.merge([]api.AttendeeAction{{Email: "early@example.org", Source: "Desk 2", Action: "check-in"}}, 1, at("08:55:00"))
	for i, c := range []struct {
		email, desk, when string
	}{{"a@x.org", "Desk 1", "09:01:00"}, {"b@x.org", "Desk 1", "09:03:00"}, {"c@x.org", "Desk 2", "09:12:00"}, {"d@x.org", "Desk 1", "09:14:59"}} {
		_ = i
		a.Note(c.email, c.desk, at(c.when))
	}
	st := a.Stats(at("09:16:00"), 100, 2)
	if st.CheckedIn != 5 || st.Registered != 100 || st.Untimed != 1 {
		t.Fatalf("%+v", st)
	}
	if !slices.Equal(st.PerDesk, []DeskCount{{"Desk 1", 3}, {"Desk 2", 2}}) {
		t.Fatalf("per desk %+v", st.PerDesk)
	}
	var counts []int
	for _, b := range st.Buckets {
		counts = append(counts, b.Count)
	}
	if !slices.Equal(counts, []int{2, 0, 2, 0}) || !st.Buckets[0].Start.Equal(at("09:00:00")) {
		t.Fatalf("buckets %+v", st.Buckets)
	}
	if len(st.Latest) != 2 || st.Latest[0].Email != "d@x.org" || st.Latest[1].Email != "c@x.org" {
		t.Fatalf("latest %+v", st.Latest)
	}
	if empty := NewArrivals().Stats(at("09:00:00"), 0, 5); empty.PerDesk == nil || empty.Buckets == nil || empty.Latest == nil {
		t.Fatal("empty figures must be lists, for -o json")
	}
}

// A check-in the history gave (untimed at the first look, or timed when a
// sync found it) takes a desk's scan time when it is earlier: a venue's
// desks know when they scanned, a sync only when it found it.
func TestAScanTimeBeatsWhenASyncFoundIt(t *testing.T) {
	at := func(hm string) time.Time {
		x, _ := time.Parse("15:04", hm)
		return time.Date(2026, 11, 23, x.Hour(), x.Minute(), 0, 0, time.UTC)
	}
	a := NewArrivals()
	a.merge([]api.AttendeeAction{{Email: "early@example.org", Source: "Door B", Action: "check-in"}}, 1, at("09:00"))
	a.merge([]api.AttendeeAction{{Email: "early@example.org", Source: "Door B", Action: "check-in"},
		{Email: "later@example.org", Source: "Door B", Action: "check-in"}}, 2, at("09:01"))
	if st := a.Stats(at("09:06"), 10, 5); st.Untimed != 1 {
		t.Fatalf("before: %+v", st)
	}
	if !a.Note("early@example.org", "Door A", at("08:40")) || !a.Note("later@example.org", "Door A", at("08:58")) {
		t.Fatal("an earlier scan time changed nothing")
	}
	if a.Note("later@example.org", "Door A", at("08:59")) { // later than what it has: kept
		t.Fatal("a later time changed the arrival")
	}
	for email, want := range map[string]time.Time{"early@example.org": at("08:40"), "later@example.org": at("08:58")} {
		if ar, _ := a.Lookup(email); !ar.At.Equal(want) || ar.By || ar.Desk != "Door B" {
			t.Errorf("%s: %+v, want %v at Door B (the server's word on the desk)", email, ar, want)
		}
	}
	if st := a.Stats(at("09:06"), 10, 5); st.Untimed != 0 || st.Latest[0].Email != "later@example.org" {
		t.Fatalf("after: %+v", st)
	}
}

// A roster holds what the sanitiser lets through, whoever downloaded it:
// its cache never keeps a character a terminal would act on, and a cache
// written raw by an older evdesk is cleaned as it is read.
func TestARosterAndItsCacheHoldOnlySanitisedText(t *testing.T) {
	const evil = "\x1b]0;PWNED\x07\u009b1m\u202e"
	raw := []Person{{Email: "ann@example.org", Name: "Ann" + evil, Status: "REGISTERED" + evil,
		Tickets: []Ticket{{ID: "T1", QRCodeURL: "https://t.example/1" + evil, Role: "SPEAKER" + evil}}},
		{Email: "ben@example.org", Name: "Ben", Tickets: []Ticket{{ID: "T2"}}}}
	check := func(what string, r *Roster) {
		t.Helper()
		p, ok := r.ByEmail("ann@example.org")
		if !ok || strings.ContainsAny(p.Name+p.Status+p.Tickets[0].QRCodeURL+p.Tickets[0].Role, "\x1b\x07\u009b\u202e") {
			t.Errorf("%s: %+v", what, p)
		}
		if !strings.HasPrefix(p.Name, "Ann") {
			t.Errorf("%s: the text itself was lost: %q", what, p.Name)
		}
	}
	r := New("E1", time.Now(), 2, raw)
	check("roster", r)
	if raw[0].Tickets[0].Role != "SPEAKER"+evil {
		t.Error("the caller's people were changed")
	}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := Save(path, r); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); bytes.ContainsAny(b, "\x1b\x07") || strings.Contains(string(b), `\u001b`) || strings.Contains(string(b), "\u009b") {
		t.Errorf("the cache holds raw text: %s", b)
	}
	old, _ := json.Marshal(rosterFile{Version: cacheVersion, EventID: "E1", Updated: time.Now(), Total: 2, People: raw})
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(path, "E1")
	if err != nil {
		t.Fatal(err)
	}
	check("cache written raw", loaded)
}
