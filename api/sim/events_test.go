package sim

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
)

func TestAuth(t *testing.T) {
	e := newEnv(t, Options{})
	e.do("GET", "/events", "", nil).wantError(t, 401, 124)
	e.do("GET", "/events", "nope", nil).wantError(t, 401, 124)
	r := e.do("POST", "/events", ReadOnlyToken, validCreate(testEpoch))
	er := r.wantError(t, 403, 4711)
	if !strings.Contains(er.Message, "vendor_events_basic:write") {
		t.Errorf("scope message %q does not name the scope", er.Message)
	}
	e.do("GET", "/events?role_type=host", ReadOnlyToken, nil).decode(t, 200, nil)

	// The :admin variant and the granular scope are accepted as well.
	e.sim.st.mu.Lock()
	u := e.sim.st.users[DemoHostID]
	e.sim.st.addToken("admin", u, []string{"vendor_events_basic:read:admin"})
	e.sim.st.addToken("granular", u, []string{"vendor_events:read:list_events"})
	e.sim.st.addToken("granular-admin", u, []string{"vendor_events:read:event:admin"})
	e.sim.st.mu.Unlock()
	id := e.sim.Fixtures().UpcomingEventID
	e.do("GET", "/events/"+id, "admin", nil).decode(t, 200, nil)
	e.do("GET", "/events", "granular", nil).decode(t, 200, nil)
	e.do("GET", "/events/"+id, "granular", nil).wantError(t, 403, 4711)
	e.do("GET", "/events/"+id, "granular-admin", nil).decode(t, 200, nil)
}

func TestPathWord(t *testing.T) {
	e := newEnv(t, Options{PathWord: "acme"})
	e.sim.st.mu.Lock()
	e.sim.st.addToken("acme", e.sim.st.users[DemoHostID], []string{"acme_events_basic:read"})
	e.sim.st.addToken("vendor", e.sim.st.users[DemoHostID], []string{"vendor_events_basic:read"})
	e.sim.st.mu.Unlock()
	e.do("GET", "/events?role_type=host", "acme", nil).decode(t, 200, nil)
	e.do("GET", "/events?role_type=host", DemoToken, nil).decode(t, 200, nil)
	e.do("GET", "/events?role_type=host", "vendor", nil).wantError(t, 403, 4711)
	var ev api.Event
	e.do("GET", "/events/"+e.sim.Fixtures().DraftEventID, DemoToken, nil).decode(t, 200, &ev)
	if !strings.Contains(ev.EventURL, "acme") {
		t.Errorf("event_url %s", ev.EventURL)
	}
}

func TestUnknownRoute(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.do("GET", "/nothing", DemoToken, nil)
	r.decode(t, 404, nil)
	r = e.do("PUT", "/events", DemoToken, nil)
	r.decode(t, 405, nil)
	if allow := r.header.Get("Allow"); allow != "GET, POST" {
		t.Errorf("Allow %q", allow)
	}
}

func TestListRolesAndStatuses(t *testing.T) {
	e := newEnv(t, Options{})
	now := e.clock.Now()
	seen := map[string]string{}
	for _, status := range []string{"upcoming", "past", "draft", "cancelled"} {
		for _, ev := range e.listAll(DemoToken, "host", status, 300) {
			if prev, dup := seen[ev.EventID]; dup {
				t.Errorf("%s listed under %s and %s", ev.Name, prev, status)
			}
			seen[ev.EventID] = status
			rec := e.record(ev.EventID)
			if rec.hostID() != DemoHostID {
				t.Errorf("%s is not the demo host's", ev.Name)
			}
			switch status {
			case "upcoming":
				if ev.Status != api.StatusPublished || rec.cancelled || ev.EndTime.Before(now) {
					t.Errorf("upcoming %s: %s cancelled=%v end %v", ev.Name, ev.Status, rec.cancelled, ev.EndTime)
				}
			case "past":
				if ev.Status != api.StatusPublished || rec.cancelled || !ev.EndTime.Before(now) {
					t.Errorf("past %s", ev.Name)
				}
			case "draft":
				if ev.Status != api.StatusDraft {
					t.Errorf("draft %s has status %s", ev.Name, ev.Status)
				}
			case "cancelled":
				if ev.Status != api.StatusPublished || !rec.cancelled {
					t.Errorf("cancelled %s: %s", ev.Name, ev.Status)
				}
			}
		}
	}
	if len(seen) < 60 {
		t.Errorf("demo host lists %d events", len(seen))
	}

	// attendee (the default role): the other host's events the caller is registered for.
	var page api.EventList
	e.do("GET", "/events", DemoToken, nil).decode(t, 200, &page)
	if page.TotalRecords != 2 || len(page.Events) != 2 {
		t.Fatalf("attendee upcoming: %d events", page.TotalRecords)
	}
	for _, ev := range page.Events {
		if rec := e.record(ev.EventID); rec.hostID() != OtherHostID || !rec.attendees[DemoHostID] {
			t.Errorf("attendee listing has %s", ev.Name)
		}
	}
	e.do("GET", "/events?event_status_type=past", DemoToken, nil).decode(t, 200, &page)
	if page.TotalRecords != 1 {
		t.Errorf("attendee past: %d", page.TotalRecords)
	}
	for _, st := range []string{"draft", "cancelled"} {
		e.do("GET", "/events?role_type=attendee&event_status_type="+st, DemoToken, nil).wantError(t, 400, 300)
	}
	if r := e.do("GET", "/events?role_type=guest", DemoToken, nil); !r.hasField("role_type") {
		t.Errorf("bad role_type: %s", r.body)
	}
	if r := e.do("GET", "/events?role_type=host&event_status_type=soon", DemoToken, nil); !r.hasField("event_status_type") {
		t.Errorf("bad event_status_type: %s", r.body)
	}
	// The other host sees its own events only.
	for _, ev := range e.listAll(OtherHostToken, "host", "upcoming", 0) {
		if rec := e.record(ev.EventID); rec.hostID() != OtherHostID {
			t.Errorf("other host lists %s", ev.Name)
		}
	}
}

func TestListShapes(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.do("GET", "/events?role_type=host&page_size=300", DemoToken, nil)
	var raw struct {
		Events []map[string]json.RawMessage `json:"events"`
	}
	r.decode(t, 200, &raw)
	sawWeekly, sawMonthly := false, false
	for _, ev := range raw.Events {
		for _, k := range []string{"host_id", "venue", "physical_location"} {
			if _, ok := ev[k]; ok {
				t.Errorf("list item carries %s", k)
			}
		}
		if _, ok := ev["contact_email"]; !ok {
			t.Error("list item lacks contact_email")
		}
		if rec, ok := ev["recurrence"]; ok {
			var m map[string]json.RawMessage
			_ = json.Unmarshal(rec, &m)
			if w, ok := m["weekly_days"]; ok {
				sawWeekly = true
				if w[0] != '"' {
					t.Errorf("list weekly_days %s is not a string", w)
				}
			}
			if d, ok := m["monthly_days"]; ok {
				sawMonthly = true
				if d[0] < '0' || d[0] > '9' {
					t.Errorf("list monthly_days %s is not an integer", d)
				}
			}
		}
	}
	if !sawWeekly || !sawMonthly {
		t.Error("no recurrence days in the upcoming listing")
	}
	// Get carries host_id, venue and contact_email, compact days.
	f := e.sim.Fixtures()
	var got map[string]json.RawMessage
	e.do("GET", "/events/"+f.RecurringEventID, DemoToken, nil).decode(t, 200, &got)
	for _, k := range []string{"host_id", "venue", "contact_email", "physical_location", "event_url", "start_time", "end_time"} {
		if _, ok := got[k]; !ok {
			t.Errorf("get lacks %s", k)
		}
	}
	ev := e.get(DemoToken, f.RecurringEventID)
	if ev.HostID != DemoHostID || ev.Recurrence.WeeklyDays == nil || !ev.Recurrence.WeeklyDays.Compact ||
		!slices.Equal(ev.Recurrence.WeeklyDays.Days, []int{3, 5}) {
		t.Errorf("get recurrence %+v", ev.Recurrence)
	}
	m := e.get(DemoToken, f.MonthlyEventID)
	if md := m.Recurrence.MonthlyDays; md == nil || !md.Compact || !slices.Equal(md.Days, []int{15}) {
		t.Errorf("monthly days %+v", md)
	}
}

func TestPageSize(t *testing.T) {
	e := newEnv(t, Options{})
	var page api.EventList
	e.do("GET", "/events?role_type=host", DemoToken, nil).decode(t, 200, &page)
	if len(page.Events) != 30 || page.NextPageToken == "" || page.TotalRecords <= 30 {
		t.Errorf("default page: %d events of %d, token %q", len(page.Events), page.TotalRecords, page.NextPageToken)
	}
	var whole api.EventList
	e.do("GET", "/events?role_type=host&page_size=300", DemoToken, nil).decode(t, 200, &whole)
	if len(whole.Events) != whole.TotalRecords || whole.NextPageToken != "" {
		t.Errorf("max page: %d events of %d", len(whole.Events), whole.TotalRecords)
	}
	for _, bad := range []string{"301", "0", "-1", "ten", "1.5"} {
		r := e.do("GET", "/events?role_type=host&page_size="+bad, DemoToken, nil)
		r.wantError(t, 400, 300)
		if !r.hasField("page_size") {
			t.Errorf("page_size=%s: %s", bad, r.body)
		}
	}
}

func TestPagingThroughAllPages(t *testing.T) {
	e := newEnv(t, Options{})
	all := e.listAll(DemoToken, "host", "upcoming", 7)
	one := e.listAll(DemoToken, "host", "upcoming", 300)
	if len(all) != len(one) || len(all) < 30 {
		t.Fatalf("paged %d, whole %d", len(all), len(one))
	}
	for i := range all {
		if all[i].EventID != one[i].EventID {
			t.Fatalf("order differs at %d", i)
		}
		if i > 0 {
			a, b := all[i-1], all[i]
			if b.StartTime.Before(*a.StartTime) || (b.StartTime.Equal(*a.StartTime) && b.EventID < a.EventID) {
				t.Errorf("not ordered by start_time then id at %d", i)
			}
		}
	}
}

func TestPageTokenExpiry(t *testing.T) {
	e := newEnv(t, Options{})
	var first api.EventList
	e.do("GET", "/events?role_type=host&page_size=10", DemoToken, nil).decode(t, 200, &first)
	next := "/events?role_type=host&page_size=10&next_page_token=" + url.QueryEscape(first.NextPageToken)

	e.clock.Advance(15*time.Minute - time.Second)
	var second api.EventList
	e.do("GET", next, DemoToken, nil).decode(t, 200, &second)
	if second.Events[0].EventID == first.Events[0].EventID {
		t.Error("the second page repeats the first")
	}
	e.clock.Advance(time.Second)
	er := e.do("GET", next, DemoToken, nil).wantError(t, 400, CodeInvalidPageToken)
	if er.Message != "The next page token is invalid or expired." {
		t.Errorf("message %q", er.Message)
	}
}

func TestPageTokenOtherListing(t *testing.T) {
	e := newEnv(t, Options{})
	var first api.EventList
	e.do("GET", "/events?role_type=host&page_size=5", DemoToken, nil).decode(t, 200, &first)
	tok := url.QueryEscape(first.NextPageToken)
	e.do("GET", "/events?role_type=host&event_status_type=past&page_size=5&next_page_token="+tok, DemoToken, nil).wantError(t, 400, 300)
	e.do("GET", "/events?role_type=host&page_size=5&next_page_token="+tok, OtherHostToken, nil).wantError(t, 400, 300)
	e.do("GET", "/events?role_type=host&page_size=5&next_page_token=garbage", DemoToken, nil).wantError(t, 400, 300)
	tampered := []byte(first.NextPageToken)
	tampered[3] ^= 1
	e.do("GET", "/events?role_type=host&page_size=5&next_page_token="+url.QueryEscape(string(tampered)), DemoToken, nil).wantError(t, 400, 300)
	// A token from the same listing works with another page size.
	e.do("GET", "/events?role_type=host&page_size=50&next_page_token="+tok, DemoToken, nil).decode(t, 200, nil)
}

func TestCreateEvent(t *testing.T) {
	e := newEnv(t, Options{})
	in := validCreate(e.clock.Now())
	in.EventType = api.EventTypeRecurring
	wd := api.NewWeekDays(false, 2, 4)
	in.Recurrence = &api.Recurrence{Type: api.RecurrenceWeekly, RepeatInterval: 1, Duration: 60, EndTimes: 4, WeeklyDays: &wd}
	r := e.do("POST", "/events", DemoToken, in)
	var raw map[string]json.RawMessage
	r.decode(t, 201, &raw)
	var rec map[string]json.RawMessage
	_ = json.Unmarshal(raw["recurrence"], &rec)
	if string(rec["weekly_days"]) != "[2,4]" {
		t.Errorf("create weekly_days %s, want an array", rec["weekly_days"])
	}
	for _, k := range []string{"host_id", "venue", "contact_email"} {
		if _, ok := raw[k]; ok {
			t.Errorf("create response carries %s", k)
		}
	}
	var created api.Event
	r.decode(t, 201, &created)
	if created.Status != api.StatusDraft || !seededID.MatchString(created.EventID) || created.EventURL == "" {
		t.Errorf("created %+v", created)
	}
	got := e.get(DemoToken, created.EventID)
	if got.HostID != DemoHostID || got.ContactEmail != DemoHostEmail || got.Name != in.Name {
		t.Errorf("get after create %+v", got)
	}
	// The series starts with its first Monday or Wednesday on or after the calendar's start.
	if lis, _ := time.LoadLocation("Europe/Lisbon"); got.StartTime.Before(*in.Calendar[0].StartTime) ||
		got.StartTime.Sub(*in.Calendar[0].StartTime) > 4*24*time.Hour ||
		(got.StartTime.In(lis).Weekday() != time.Monday && got.StartTime.In(lis).Weekday() != time.Wednesday) {
		t.Errorf("start %v, calendar's %v", got.StartTime, in.Calendar[0].StartTime)
	}
	if got.Recurrence.WeeklyDays.Days[0] != 2 || !got.Recurrence.WeeklyDays.Compact {
		t.Errorf("get weekly days %+v", got.Recurrence.WeeklyDays)
	}
	// Four sessions Mon/Wed: the series ends with the fourth.
	if span := got.EndTime.Sub(*got.StartTime); span < 7*24*time.Hour || span > 14*24*time.Hour {
		t.Errorf("series spans %v", span)
	}

	// No calendar: a week from now.
	in = validCreate(e.clock.Now())
	in.Calendar = nil
	in.Recurrence = nil
	md := api.NewMonthDays(false, 1, 15)
	in.Recurrence = &api.Recurrence{Type: api.RecurrenceMonthly, RepeatInterval: 1, MonthlyDays: &md}
	e.do("POST", "/events", DemoToken, in).decode(t, 201, &created)
	want := e.clock.Now().Add(7 * 24 * time.Hour).Truncate(time.Hour)
	if !created.StartTime.Equal(want) || created.Recurrence.MonthlyDays.Compact {
		t.Errorf("start %v, want %v", created.StartTime, want)
	}
	if got := e.get(DemoToken, created.EventID); !slices.Equal(got.Recurrence.MonthlyDays.Days, []int{1}) {
		t.Errorf("compact monthly days %v", got.Recurrence.MonthlyDays.Days)
	}
	// The draft shows up in the draft listing.
	found := false
	for _, ev := range e.listAll(DemoToken, "host", "draft", 0) {
		found = found || ev.EventID == created.EventID
	}
	if !found {
		t.Error("new draft not listed")
	}
}

func TestCreateEventErrors(t *testing.T) {
	e := newEnv(t, Options{})
	now := e.clock.Now()
	at := func(h int) *time.Time { return ptr(now.Add(time.Duration(h) * time.Hour).Truncate(time.Hour)) }
	cases := []struct {
		name   string
		edit   func(*api.EventCreate)
		status int
		code   int
		field  string
	}{
		{"calendar without end", func(c *api.EventCreate) { c.Calendar = []api.CalendarEntry{{StartTime: at(48)}} }, 400, 26204, ""},
		{"calendar without start", func(c *api.EventCreate) { c.Name = ""; c.Calendar = []api.CalendarEntry{{EndTime: at(48)}} }, 400, 26204, ""},
		{"end before start", func(c *api.EventCreate) { c.Calendar = []api.CalendarEntry{{StartTime: at(50), EndTime: at(48)}} }, 400, 26203, ""},
		{"end equals start", func(c *api.EventCreate) { c.Calendar = []api.CalendarEntry{{StartTime: at(48), EndTime: at(48)}} }, 400, 26203, ""},
		{"seven days", func(c *api.EventCreate) {
			c.Calendar = []api.CalendarEntry{{StartTime: at(48), EndTime: at(50)}, {StartTime: at(48 + 24*6), EndTime: at(50 + 24*6)}}
		}, 400, 26202, ""},
		{"missing name", func(c *api.EventCreate) { c.Name = "" }, 400, 300, "name"},
		{"bad timezone", func(c *api.EventCreate) { c.Timezone = "Mars/Olympus" }, 400, 300, "timezone"},
		{"bad category", func(c *api.EventCreate) { c.Categories = []string{"Crypto"} }, 400, 300, "categories"},
		{"simple without meeting type", func(c *api.EventCreate) { c.MeetingType = "" }, 400, 300, "meeting_type"},
		{"other host's hub", func(c *api.EventCreate) { c.HubID = OtherHostHubID }, 403, 26201, ""},
		{"unknown hub", func(c *api.EventCreate) { c.HubID = "nosuchhub" }, 403, 26201, ""},
		{"conference on a workshop hub", func(c *api.EventCreate) {
			c.HubID, c.EventType, c.MeetingType = NoConferenceHubID, api.EventTypeConference, ""
		}, 400, 260207, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := validCreate(now)
			tc.edit(&in)
			r := e.do("POST", "/events", DemoToken, in)
			r.wantError(t, tc.status, tc.code)
			if tc.field != "" && !r.hasField(tc.field) {
				t.Errorf("errors do not name %s: %s", tc.field, r.body)
			}
		})
	}
	// A conference on a hub that supports it is fine.
	in := validCreate(now)
	in.EventType, in.MeetingType = api.EventTypeConference, ""
	e.do("POST", "/events", DemoToken, in).decode(t, 201, nil)
	e.do("POST", "/events", DemoToken, nil).wantError(t, 400, 300)
	e.do("POST", "/events", DemoToken, "not an object").wantError(t, 400, 300)
}

func TestGetEvent(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	e.do("GET", "/events/NoSuchEvent000000000000", DemoToken, nil).wantError(t, 404, 2002)
	e.do("GET", "/events/"+f.OtherHostEventID, DemoToken, nil).wantError(t, 403, 260200)
	e.do("GET", "/events/"+f.AttendedEventID, DemoToken, nil).wantError(t, 403, 260200)
	if ev := e.get(OtherHostToken, f.OtherHostEventID); ev.HostID != OtherHostID {
		t.Errorf("host_id %s", ev.HostID)
	}
}

func TestUpdateEvent(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	before := e.get(DemoToken, f.UpcomingEventID)
	upd := api.EventUpdate{Name: ptr("Atlas Launch (rescheduled)"), Tags: []string{"launch"}}
	r := e.do("PATCH", "/events/"+f.UpcomingEventID, DemoToken, upd)
	if r.status != 204 || len(r.body) != 0 {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	after := e.get(DemoToken, f.UpcomingEventID)
	if after.Name != "Atlas Launch (rescheduled)" || !slices.Equal(after.Tags, []string{"launch"}) || after.Description != before.Description {
		t.Errorf("after update %+v", after)
	}
	// Moving the calendar moves start and end.
	start := e.clock.Now().Add(20 * 24 * time.Hour).Truncate(time.Hour)
	end := start.Add(3 * time.Hour)
	e.do("PATCH", "/events/"+f.UpcomingEventID, DemoToken, api.EventUpdate{Calendar: []api.CalendarEntry{{StartTime: &start, EndTime: &end}}}).decode(t, 204, nil)
	if got := e.get(DemoToken, f.UpcomingEventID); !got.StartTime.Equal(start) || !got.EndTime.Equal(end) {
		t.Errorf("moved to %v-%v", got.StartTime, got.EndTime)
	}
	// Weekly days sent in the update's compact form.
	wd := api.NewWeekDays(true, 1, 7)
	e.do("PATCH", "/events/"+f.RecurringEventID, DemoToken, api.EventUpdate{Recurrence: &api.Recurrence{Type: 2, RepeatInterval: 1, Duration: 90, EndTimes: 3, WeeklyDays: &wd}}).decode(t, 204, nil)
	if got := e.get(DemoToken, f.RecurringEventID); !slices.Equal(got.Recurrence.WeeklyDays.Days, []int{1, 7}) {
		t.Errorf("weekly days %v", got.Recurrence.WeeklyDays.Days)
	}

	e.do("PATCH", "/events/NoSuchEvent000000000000", DemoToken, upd).wantError(t, 404, 2003)
	e.do("PATCH", "/events/"+f.OtherHostEventID, DemoToken, upd).wantError(t, 403, 260200)
	e.do("PATCH", "/events/"+f.PastEventID, DemoToken, upd).wantError(t, 400, 260210)
	e.do("PATCH", "/events/"+f.CancelledEventID, DemoToken, upd).wantError(t, 400, 260210)
	if r := e.do("PATCH", "/events/"+f.DraftEventID, DemoToken, api.EventUpdate{AccessLevel: ptr("OPEN")}); !r.hasField("access_level") {
		t.Errorf("bad access level: %s", r.body)
	}
	e.do("PATCH", "/events/"+f.DraftEventID, DemoToken, api.EventUpdate{HubID: ptr(OtherHostHubID)}).wantError(t, 403, 26201)
	e.do("PATCH", "/events/"+f.ConferenceEventID, DemoToken, api.EventUpdate{HubID: ptr(NoConferenceHubID)}).wantError(t, 400, 260207)

	// An event whose end passes becomes past, and no longer editable.
	e.clock.Advance(e.get(DemoToken, f.NoRegistrantsEventID).EndTime.Sub(e.clock.Now()) + time.Minute)
	e.do("PATCH", "/events/"+f.NoRegistrantsEventID, DemoToken, upd).wantError(t, 400, 260210)
}

func TestDeleteEvent(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	r := e.do("DELETE", "/events/"+f.DraftEventID, DemoToken, nil)
	if r.status != 204 || len(r.body) != 0 {
		t.Fatalf("DELETE draft: %d %s", r.status, r.body)
	}
	e.do("GET", "/events/"+f.DraftEventID, DemoToken, nil).wantError(t, 404, 2002)
	e.do("DELETE", "/events/"+f.DraftEventID, DemoToken, nil).wantError(t, 404, 2002)
	er := e.do("DELETE", "/events/"+f.UpcomingEventID, DemoToken, nil).wantError(t, 400, CodeOnlyDrafts)
	if er.Message != "Only draft events can be deleted." {
		t.Errorf("message %q", er.Message)
	}
	e.do("DELETE", "/events/"+f.OtherHostEventID, DemoToken, nil).wantError(t, 403, 260200)
	e.do("DELETE", "/events/"+f.UpcomingEventID, ReadOnlyToken, nil).wantError(t, 403, 4711)
}

func action(e *env, token, id string, a any) reply {
	return e.do("POST", "/events/"+id+"/event_actions", token, a)
}

func TestPublish(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	var res api.ActionResult
	action(e, DemoToken, f.DraftEventID, api.EventAction{Operation: "publish"}).decode(t, 201, &res)
	if res.Status != api.ActionStatusPublished || res.EventID != "" {
		t.Errorf("publish: %+v", res)
	}
	if ev := e.get(DemoToken, f.DraftEventID); ev.Status != api.StatusPublished {
		t.Errorf("status after publish %s", ev.Status)
	}
	listed := false
	for _, ev := range e.listAll(DemoToken, "host", "upcoming", 0) {
		listed = listed || ev.EventID == f.DraftEventID
	}
	if !listed {
		t.Error("published event not upcoming")
	}
	er := action(e, DemoToken, f.DraftEventID, api.EventAction{Operation: "publish"}).wantError(t, 400, CodeNotDraft)
	if !strings.Contains(er.Message, "already published") {
		t.Errorf("message %q", er.Message)
	}
	action(e, DemoToken, f.DraftEventID, api.EventAction{Operation: "archive"}).wantError(t, 400, 300)
	action(e, DemoToken, f.DraftEventID, map[string]string{}).wantError(t, 400, 300)
}

func TestCancel(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	r := action(e, DemoToken, f.UpcomingEventID, api.EventAction{Operation: "cancel"})
	r.wantError(t, 400, 300)
	if !r.hasField("cancel_message") {
		t.Errorf("missing cancel_message not named: %s", r.body)
	}
	var res api.ActionResult
	action(e, DemoToken, f.UpcomingEventID, api.EventAction{Operation: "cancel", CancelMessage: "Sorry, the venue flooded."}).decode(t, 201, &res)
	if res.Status != api.ActionStatusCancelled {
		t.Errorf("cancel: %+v", res)
	}
	if ev := e.get(DemoToken, f.UpcomingEventID); ev.Status != api.StatusPublished {
		t.Errorf("cancelled event has status %s, want PUBLISHED", ev.Status)
	}
	in := func(status string) bool {
		for _, ev := range e.listAll(DemoToken, "host", status, 0) {
			if ev.EventID == f.UpcomingEventID {
				return true
			}
		}
		return false
	}
	if in("upcoming") || !in("cancelled") {
		t.Error("cancelled event listed in the wrong place")
	}
	action(e, DemoToken, f.UpcomingEventID, api.EventAction{Operation: "cancel", CancelMessage: "again"}).wantError(t, 400, CodeNotCancelable)
	// No registrants: no message needed.
	action(e, DemoToken, f.NoRegistrantsEventID, api.EventAction{Operation: "cancel"}).decode(t, 201, &res)
	action(e, DemoToken, f.DraftEventID, api.EventAction{Operation: "cancel", CancelMessage: "x"}).wantError(t, 400, CodeNotCancelable)
	action(e, DemoToken, f.PastEventID, api.EventAction{Operation: "cancel", CancelMessage: "x"}).wantError(t, 400, CodeNotCancelable)
}

func TestDuplicate(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	src := e.get(DemoToken, f.ConferenceEventID)
	start := e.clock.Now().Add(200 * 24 * time.Hour).Truncate(time.Hour)
	dup := api.EventAction{Operation: "duplicate", DuplicateEvent: &api.DuplicateEvent{Name: "Partner Summit (copy)", StartTime: start, Timezone: "Asia/Tokyo"}}
	var res api.ActionResult
	action(e, DemoToken, f.ConferenceEventID, dup).decode(t, 201, &res)
	if res.Status != api.ActionStatusDuplicated || res.EventID == "" || res.EventID == f.ConferenceEventID {
		t.Fatalf("duplicate: %+v", res)
	}
	cp := e.get(DemoToken, res.EventID)
	if cp.Status != api.StatusDraft || cp.Name != "Partner Summit (copy)" || cp.Timezone != "Asia/Tokyo" ||
		!cp.StartTime.Equal(start) || cp.EndTime.Sub(*cp.StartTime) != src.EndTime.Sub(*src.StartTime) ||
		cp.Description != src.Description || len(cp.Calendar) != len(src.Calendar) || cp.HubID != src.HubID {
		t.Errorf("copy %+v", cp)
	}
	if !cp.Calendar[0].StartTime.Equal(start) {
		t.Errorf("calendar not moved: %v", cp.Calendar[0].StartTime)
	}
	if got := e.get(DemoToken, f.ConferenceEventID); got.Name != src.Name || !got.StartTime.Equal(*src.StartTime) {
		t.Error("source changed")
	}
	// A cancelled event can be duplicated too.
	action(e, DemoToken, f.CancelledEventID, dup).decode(t, 201, nil)

	raw := func(d any) map[string]any { return map[string]any{"operation": "duplicate", "duplicate_event": d} }
	ok := start.Format(time.RFC3339)
	for name, tc := range map[string]struct {
		body any
		code int
	}{
		"no duplicate_event": {map[string]any{"operation": "duplicate"}, 1002},
		"empty name":         {raw(map[string]any{"name": " ", "start_time": ok, "timezone": "UTC"}), 1002},
		"no start":           {raw(map[string]any{"name": "x", "timezone": "UTC"}), 1002},
		"bad start":          {raw(map[string]any{"name": "x", "start_time": "tomorrow", "timezone": "UTC"}), 1002},
		"zero start":         {raw(map[string]any{"name": "x", "start_time": "0001-01-01T00:00:00Z", "timezone": "UTC"}), 1002},
		"no timezone":        {raw(map[string]any{"name": "x", "start_time": ok}), 1003},
		"unknown timezone":   {raw(map[string]any{"name": "x", "start_time": ok, "timezone": "Europe/Atlantis"}), 1003},
	} {
		t.Run(name, func(t *testing.T) {
			action(e, DemoToken, f.ConferenceEventID, tc.body).wantError(t, 400, tc.code)
		})
	}
}

func TestEventActionErrors(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	pub := api.EventAction{Operation: "publish"}
	for _, bad := range []string{"abc", "has.dot.inside", strings.Repeat("x", 65), "sp%20ace"} {
		action(e, DemoToken, bad, pub).wantError(t, 400, 1001)
	}
	action(e, DemoToken, "NoSuchEvent000000000000", pub).wantError(t, 404, 2002)
	action(e, DemoToken, f.OtherHostEventID, pub).wantError(t, 403, 260200)
	action(e, ReadOnlyToken, f.DraftEventID, pub).wantError(t, 403, 4711)
}
