package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/fakeclock"
)

// clock is a fake clock shared by the simulator and the client.
type clock = fakeclock.Clock

type fixture struct {
	sim    *sim.Sim
	srv    *httptest.Server
	client *api.Client
	clock  *clock
	ids    sim.Fixtures
	posts  *atomic.Int32
}

func newFixture(t *testing.T, token string) *fixture {
	t.Helper()
	clk := fakeclock.New(time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
	s := sim.New(sim.Options{Now: clk.Now, NoRateLimit: true})
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts.Add(1)
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(token), api.WithClock(clk.Now),
		api.WithRateLimit(0, 0), api.WithSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{sim: s, srv: srv, client: c, clock: clk, ids: s.Fixtures(), posts: &posts}
}

func wantCode(t *testing.T, err error, status, code int) {
	t.Helper()
	var e *api.Error
	if !errors.As(err, &e) {
		t.Fatalf("want API error %d/%d, got %v", status, code, err)
	}
	if e.Status != status || e.Code != code {
		t.Fatalf("got %d/%d (%v), want %d/%d", e.Status, e.Code, e, status, code)
	}
	if e.Meaning() == "" {
		t.Errorf("no meaning for %d", code)
	}
}

func TestListEveryListingAcrossPages(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	seen := map[string]string{}
	for _, st := range []string{api.ListUpcoming, api.ListDraft, api.ListPast, api.ListCancelled} {
		p := f.client.Events.Pager(api.ListEventsOptions{StatusType: st, PageSize: 7})
		n := 0
		for e, err := range p.All(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			if prev, dup := seen[e.EventID]; dup {
				t.Fatalf("%s listed in %s and %s", e.EventID, prev, st)
			}
			seen[e.EventID] = st
			n++
		}
		if n == 0 || n != p.Total() {
			t.Errorf("%s: delivered %d, total %d", st, n, p.Total())
		}
	}
	if len(seen) < 60 {
		t.Errorf("only %d events across listings", len(seen))
	}
}

func TestListAcrossTokenExpiryDeliversEachEventOnce(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	p := f.client.Events.Pager(api.ListEventsOptions{StatusType: api.ListUpcoming, PageSize: 5})
	seen := map[string]bool{}
	for e, err := range p.All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if seen[e.EventID] {
			t.Fatalf("%s delivered twice", e.EventID)
		}
		seen[e.EventID] = true
		if len(seen) == 7 {
			f.clock.Advance(16 * time.Minute) // the page token in hand is now stale
		}
	}
	if len(seen) != p.Total() || p.Restarts() != 1 {
		t.Fatalf("delivered %d of %d, restarts %d", len(seen), p.Total(), p.Restarts())
	}
}

func TestGetCreateUpdateDelete(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	e, err := f.client.Events.Get(ctx, f.ids.RecurringEventID)
	if err != nil {
		t.Fatal(err)
	}
	if e.HostID == "" || e.Recurrence == nil || e.Recurrence.WeeklyDays == nil && e.Recurrence.MonthlyDays == nil {
		t.Errorf("get lacks host or recurrence: %+v", e)
	}

	start := f.clock.Now().Add(72 * time.Hour)
	end := start.Add(3 * time.Hour)
	wd := api.NewWeekDays(true, 2, 4) // compact on purpose: Create must send an array
	created, err := f.client.Events.Create(ctx, &api.EventCreate{
		Name: "Robotics Club", Description: "Weekly build night", Timezone: "Europe/Berlin",
		EventType: api.EventTypeRecurring, HubID: sim.HubID, AccessLevel: api.AccessPrivateUnrestricted,
		AttendanceType: api.AttendanceInPerson, MeetingType: api.MeetingTypeMeeting,
		Calendar:   []api.CalendarEntry{{StartTime: &start, EndTime: &end}},
		Recurrence: &api.Recurrence{Type: api.RecurrenceWeekly, RepeatInterval: 1, WeeklyDays: &wd, EndTimes: 8, Duration: 180},
	})
	if err != nil {
		t.Fatal(err)
	}
	if created.EventID == "" || created.Status != api.StatusDraft {
		t.Fatalf("created %+v", created)
	}
	if created.Recurrence == nil || created.Recurrence.WeeklyDays == nil || created.Recurrence.WeeklyDays.Compact {
		t.Errorf("create response should carry weekly_days as an array: %+v", created.Recurrence)
	}

	name := "Robotics Club (autumn)"
	if err := f.client.Events.Update(ctx, created.EventID, &api.EventUpdate{Name: &name, Recurrence: created.Recurrence}); err != nil {
		t.Fatal(err)
	}
	got, err := f.client.Events.Get(ctx, created.EventID)
	if err != nil || got.Name != name {
		t.Fatalf("after update: %v %v", got, err)
	}
	if got.Recurrence.WeeklyDays == nil || !got.Recurrence.WeeklyDays.Compact || len(got.Recurrence.WeeklyDays.Days) != 2 {
		t.Errorf("weekly days after update: %+v", got.Recurrence.WeeklyDays)
	}
	if err := f.client.Events.Delete(ctx, created.EventID); err != nil {
		t.Fatal(err)
	}
	_, err = f.client.Events.Get(ctx, created.EventID)
	wantCode(t, err, 404, api.CodeEventNotFound)
}

func TestActionsFollowTheStatusTransitions(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	res, err := f.client.Events.Publish(ctx, f.ids.DraftEventID)
	if err != nil || res.Status != api.ActionStatusPublished {
		t.Fatalf("publish: %v %v", res, err)
	}
	e, _ := f.client.Events.Get(ctx, f.ids.DraftEventID)
	if e.Status != api.StatusPublished {
		t.Errorf("status after publish %s", e.Status)
	}
	if _, err := f.client.Events.Publish(ctx, f.ids.DraftEventID); !api.IsStatus(err, 400) {
		t.Errorf("second publish: %v", err)
	}
	// An event with registrants needs a cancel message.
	_, err = f.client.Events.Cancel(ctx, f.ids.UpcomingEventID, "")
	var apiErr *api.Error
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || !strings.Contains(apiErr.Message, "cancel_message") {
		t.Fatalf("cancel without message: %v", err)
	}
	res, err = f.client.Events.Cancel(ctx, f.ids.UpcomingEventID, "The venue flooded. Sorry!")
	if err != nil || res.Status != api.ActionStatusCancelled {
		t.Fatalf("cancel: %v %v", res, err)
	}
	if _, err = f.client.Events.Cancel(ctx, f.ids.NoRegistrantsEventID, ""); err != nil {
		t.Fatalf("cancel without registrants needs no message: %v", err)
	}
	// A start with a fraction of a second and a zone: it goes out in UTC
	// whole seconds, the only form the server takes.
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	dup, err := f.client.Events.Duplicate(ctx, f.ids.ConferenceEventID, api.DuplicateEvent{
		Name: "Summit again", StartTime: f.clock.Now().Add(30*24*time.Hour + 123456789).In(tokyo), Timezone: "Asia/Tokyo"})
	if err != nil || dup.Status != api.ActionStatusDuplicated || dup.EventID == "" {
		t.Fatalf("duplicate: %v %v", dup, err)
	}
	copyEv, err := f.client.Events.Get(ctx, dup.EventID)
	if err != nil || copyEv.Name != "Summit again" || copyEv.Status != api.StatusDraft {
		t.Fatalf("copy: %+v %v", copyEv, err)
	}
}

func TestEveryEventErrorCode(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	at := func(d time.Duration) *time.Time { v := f.clock.Now().Add(d); return &v }
	base := func() *api.EventCreate {
		return &api.EventCreate{Name: "X", Description: "d", Timezone: "UTC", EventType: api.EventTypeConference,
			HubID: sim.HubID, AccessLevel: api.AccessPrivateRestricted, AttendanceType: api.AttendanceVirtual}
	}
	create := func(mut func(*api.EventCreate)) error {
		c := base()
		mut(c)
		// Bypass client-side validation to see the server's own code.
		_, err := rawCreate(f, c)
		return err
	}
	cases := []struct {
		name         string
		err          error
		status, code int
	}{
		{"1001 bad id", func() error { _, err := f.client.Events.Publish(ctx, "bad id!"); return err }(), 400, api.CodeInvalidEventID},
		{"1002 no name", func() error {
			_, err := rawAction(f, f.ids.ConferenceEventID, `{"operation":"duplicate","duplicate_event":{"name":"","start_time":"2027-01-01T10:00:00Z","timezone":"UTC"}}`)
			return err
		}(), 400, api.CodeInvalidDuplicate},
		{"1003 bad tz", func() error {
			_, err := rawAction(f, f.ids.ConferenceEventID, `{"operation":"duplicate","duplicate_event":{"name":"n","start_time":"2027-01-01T10:00:00Z","timezone":"Mars/Olympus"}}`)
			return err
		}(), 400, api.CodeInvalidDuplicateTZ},
		{"2002 get unknown", func() error { _, err := f.client.Events.Get(ctx, "nosuchevent000000000000"); return err }(), 404, api.CodeEventNotFound},
		{"2003 patch unknown", func() error {
			n := "n"
			return f.client.Events.Update(ctx, "nosuchevent000000000000", &api.EventUpdate{Name: &n})
		}(), 404, api.CodeEventNotFoundForUpdate},
		{"260200 other host", func() error { _, err := f.client.Events.Get(ctx, f.ids.OtherHostEventID); return err }(), 403, api.CodeEventAccessDenied},
		{"260210 past", func() error {
			n := "n"
			return f.client.Events.Update(ctx, f.ids.PastEventID, &api.EventUpdate{Name: &n})
		}(), 400, api.CodeEventNotEditable},
		{"260210 cancelled", func() error {
			n := "n"
			return f.client.Events.Update(ctx, f.ids.CancelledEventID, &api.EventUpdate{Name: &n})
		}(), 400, api.CodeEventNotEditable},
		{"26201 hub", create(func(c *api.EventCreate) { c.HubID = sim.OtherHostHubID }), 403, api.CodeHubPermission},
		{"260207 conference hub", create(func(c *api.EventCreate) { c.HubID = sim.NoConferenceHubID }), 400, api.CodeHubConference},
		{"26202 six days", create(func(c *api.EventCreate) {
			c.Calendar = []api.CalendarEntry{{StartTime: at(24 * time.Hour), EndTime: at(8 * 24 * time.Hour)}}
		}), 400, api.CodeScheduleTooLong},
		{"26203 end before start", create(func(c *api.EventCreate) {
			c.Calendar = []api.CalendarEntry{{StartTime: at(48 * time.Hour), EndTime: at(24 * time.Hour)}}
		}), 400, api.CodeEndBeforeStart},
		{"26204 calendar", create(func(c *api.EventCreate) { c.Calendar = []api.CalendarEntry{{StartTime: at(time.Hour)}} }), 400, api.CodeCalendarIncomplete},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { wantCode(t, tc.err, tc.status, tc.code) })
	}
}

func TestAuthErrors(t *testing.T) {
	f := newFixture(t, "not-a-token")
	_, err := f.client.Events.Get(context.Background(), f.ids.DraftEventID)
	if !api.IsStatus(err, 401) {
		t.Fatalf("bad token: %v", err)
	}
	ro := newFixture(t, sim.ReadOnlyToken)
	if _, err := ro.client.Events.Get(context.Background(), ro.ids.DraftEventID); err != nil {
		t.Fatalf("read-only token cannot read: %v", err)
	}
	if _, err := ro.client.Events.Publish(context.Background(), ro.ids.DraftEventID); !api.IsStatus(err, 403) {
		t.Fatalf("read-only token published: %v", err)
	}
}

func TestClientValidatesBeforeSending(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	_, err := f.client.Events.Create(context.Background(), &api.EventCreate{Name: "no other fields"})
	var v *api.ValidationError
	if !errors.As(err, &v) || f.posts.Load() != 0 {
		t.Fatalf("err=%v posts=%d", err, f.posts.Load())
	}
}

func TestRetriesThroughSimulatorFaults(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	f.sim.SetFaults(0, 0.5, 0)
	ctx := context.Background()
	for range 20 {
		if _, err := f.client.Events.Get(ctx, f.ids.ConferenceEventID); err != nil {
			t.Fatalf("GET did not survive 50%% 5xx: %v", err)
		}
	}
	f.sim.SetFaults(0, 0, 0.3)
	for range 20 {
		if _, err := f.client.Events.Get(ctx, f.ids.ConferenceEventID); err != nil {
			t.Fatalf("GET did not survive dropped connections: %v", err)
		}
	}
	// A POST meets the same faults but is sent once; the error says the
	// outcome is unknown.
	f.sim.SetFaults(0, 1, 0)
	f.posts.Store(0)
	_, err := f.client.Events.Publish(ctx, f.ids.DraftEventID)
	if !errors.Is(err, api.ErrOutcomeUnknown) || f.posts.Load() != 1 {
		t.Fatalf("err=%v posts=%d", err, f.posts.Load())
	}
}

func TestRetriesAfterTheSimulatorsRateLimit(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	f.sim.SetRPS(1)
	var waits []time.Duration
	c, _ := api.New(api.WithBaseURL(f.srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0),
		api.WithSleep(func(_ context.Context, d time.Duration) error {
			waits = append(waits, d)
			f.clock.Advance(d) // the simulator's bucket refills on its clock
			return nil
		}))
	for range 3 {
		if _, err := c.Events.Get(context.Background(), f.ids.ConferenceEventID); err != nil {
			t.Fatal(err)
		}
	}
	if len(waits) == 0 || waits[0] < time.Second {
		t.Fatalf("429s were not honoured: waits %v", waits)
	}
}

func rawCreate(f *fixture, c *api.EventCreate) (*api.Event, error) {
	return f.client.Events.RawCreate(context.Background(), c)
}

func rawAction(f *fixture, id, body string) (*api.ActionResult, error) {
	return f.client.Events.RawAction(context.Background(), id, json.RawMessage(body))
}

// BenchmarkPagingThroughput walks every listing over loopback HTTP in pages
// events a page...  is the figure that matters for long lists.
func BenchmarkPagingThroughput(b *testing.B) {
	s := sim.New(sim.Options{NoRateLimit: true})
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, _ := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0))
	n := 0
	b.ResetTimer()
	for b.Loop() {
		for _, st := range []string{api.ListUpcoming, api.ListDraft, api.ListPast, api.ListCancelled} {
			for _, err := range c.Events.List(context.Background(), api.ListEventsOptions{StatusType: st, PageSize: 10}) {
				if err != nil {
					b.Fatal(err)
				}
				n++
			}
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "events/s")
}

// TestAnEmptyListClearsItAndANilOneKeepsIt: an update sends tags: [] to
// clear the tags, and leaves a list it does not name alone.
func TestAnEmptyListClearsItAndANilOneKeepsIt(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	before, err := f.client.Events.Get(ctx, f.ids.DraftEventID)
	if err != nil || len(before.Tags) == 0 {
		t.Fatalf("the draft needs tags for this test: %v %v", before, err)
	}
	name := "Renamed draft"
	if err := f.client.Events.Update(ctx, f.ids.DraftEventID, &api.EventUpdate{Name: &name}); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.client.Events.Get(ctx, f.ids.DraftEventID); len(got.Tags) != len(before.Tags) {
		t.Fatalf("an update that names no tags changed them: %v", got.Tags)
	}
	if err := f.client.Events.Update(ctx, f.ids.DraftEventID, &api.EventUpdate{Tags: []string{}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.client.Events.Get(ctx, f.ids.DraftEventID); len(got.Tags) != 0 {
		t.Fatalf("tags: [] should clear them: %v", got.Tags)
	}
}
