package sim

import (
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
)

var seededID = regexp.MustCompile(`^[A-Za-z0-9]{22}$`)

func TestSeedCoverage(t *testing.T) {
	s := New(Options{Now: newFakeClock(testEpoch).Now})
	now := testEpoch
	types, atts, states := map[string]int{}, map[string]int{}, map[string]int{}
	recTypes := map[int]int{}
	var monthlyByDay, monthlyByWeek, multiWeekday, withEndTimes, withEndDate, withLobby, withBlocked, withVenue int
	countries, zones, hubs := map[string]bool{}, map[string]bool{}, map[string]bool{}
	names := map[string]bool{}
	demo := 0
	for id, e := range s.st.events {
		ev := e.ev
		if !seededID.MatchString(id) || ev.EventID != id {
			t.Errorf("id %q is not 22 alphanumerics", id)
		}
		if names[ev.Name] {
			t.Errorf("duplicate name %q", ev.Name)
		}
		names[ev.Name] = true
		if ev.HostID != DemoHostID {
			continue
		}
		demo++
		types[ev.EventType]++
		atts[ev.AttendanceType]++
		states[e.statusType(now)]++
		hubs[ev.HubID] = true
		zones[ev.Timezone] = true
		if ev.EventType == api.EventTypeConference && !s.st.hub(ev.HubID).Conference {
			t.Errorf("%s: conference on a hub without conference support", ev.Name)
		}
		if ev.Venue != nil {
			withVenue++
			countries[ev.Venue.Country] = true
		}
		if (ev.Venue == nil) != (ev.AttendanceType == api.AttendanceVirtual) {
			t.Errorf("%s: venue %v for %s", ev.Name, ev.Venue, ev.AttendanceType)
		}
		if ev.LobbyStartTime != nil {
			withLobby++
		}
		if len(ev.BlockedCountries) > 0 {
			withBlocked++
		}
		if len(ev.Calendar) == 0 || ev.StartTime == nil || ev.EndTime == nil || !ev.EndTime.After(*ev.StartTime) {
			t.Errorf("%s: bad schedule", ev.Name)
		}
		if ev.ContactName == "" || ev.ContactEmail == "" || ev.Tagline == "" || len(ev.Tags) == 0 || ev.Description == "" {
			t.Errorf("%s: missing details", ev.Name)
		}
		for _, c := range ev.Categories {
			if !slices.Contains(api.Categories, c) {
				t.Errorf("%s: category %q", ev.Name, c)
			}
		}
		if r := ev.Recurrence; r != nil {
			recTypes[r.Type]++
			if r.Type == api.RecurrenceMonthly && r.MonthlyDays != nil {
				monthlyByDay++
			}
			if r.Type == api.RecurrenceMonthly && r.MonthlyWeek != 0 {
				monthlyByWeek++
			}
			if r.WeeklyDays != nil && len(r.WeeklyDays.Days) > 1 {
				multiWeekday++
			}
			if r.EndTimes > 0 {
				withEndTimes++
			}
			if r.EndDateTime != nil {
				withEndDate++
			}
		}
		// The published upcoming events stay upcoming all day long.
		if e.statusType(now) == api.ListUpcoming && ev.EndTime.Before(now.Truncate(24*time.Hour).Add(24*time.Hour)) {
			t.Errorf("%s ends on the seed day", ev.Name)
		}
	}
	if demo < 60 {
		t.Errorf("demo host has %d events, want >= 60", demo)
	}
	for _, k := range api.EventTypes {
		if types[k] == 0 {
			t.Errorf("no %s event", k)
		}
	}
	for _, k := range api.AttendanceTypes {
		if atts[k] == 0 {
			t.Errorf("no %s event", k)
		}
	}
	for _, k := range []string{api.ListUpcoming, api.ListPast, api.ListDraft, api.ListCancelled} {
		if states[k] < 3 {
			t.Errorf("only %d %s events", states[k], k)
		}
	}
	for _, k := range []int{api.RecurrenceDaily, api.RecurrenceWeekly, api.RecurrenceMonthly} {
		if recTypes[k] == 0 {
			t.Errorf("no recurrence of type %d", k)
		}
	}
	for name, n := range map[string]int{"monthly by day": monthlyByDay, "monthly by week": monthlyByWeek,
		"several weekly days": multiWeekday, "end_times": withEndTimes, "end_date_time": withEndDate,
		"lobby": withLobby, "blocked countries": withBlocked, "venue": withVenue} {
		if n == 0 {
			t.Errorf("no event with %s", name)
		}
	}
	if len(countries) < 8 || len(zones) < 10 || len(hubs) != 3 {
		t.Errorf("%d countries, %d timezones, %d hubs", len(countries), len(zones), len(hubs))
	}
	other := 0
	for _, e := range s.st.events {
		if e.ev.HostID == OtherHostID {
			other++
		}
	}
	if other < 5 {
		t.Errorf("other host has %d events", other)
	}
}

func TestSeedDeterministicPerDay(t *testing.T) {
	morning := New(Options{Now: func() time.Time { return testEpoch.Truncate(24 * time.Hour).Add(time.Second) }})
	night := New(Options{Now: func() time.Time { return testEpoch.Truncate(24 * time.Hour).Add(24*time.Hour - time.Second) }})
	if len(morning.st.events) != len(night.st.events) {
		t.Fatalf("%d vs %d events", len(morning.st.events), len(night.st.events))
	}
	for id, a := range morning.st.events {
		b := night.st.events[id]
		if b == nil {
			t.Fatalf("event %s missing from the second run", id)
		}
		if !a.ev.StartTime.Equal(*b.ev.StartTime) || a.ev.Name != b.ev.Name || a.registrants != b.registrants ||
			a.ev.AccessLevel != b.ev.AccessLevel || a.ev.ContactName != b.ev.ContactName {
			t.Errorf("event %s differs between runs on the same day", id)
		}
		// Upcoming for one is upcoming for the other.
		if a.statusType(morning.now()) != b.statusType(night.now()) {
			t.Errorf("%s: %s in the morning, %s at night", a.ev.Name, a.statusType(morning.now()), b.statusType(night.now()))
		}
	}
	if morning.Fixtures() != night.Fixtures() {
		t.Error("fixtures differ")
	}
}

func TestFixtures(t *testing.T) {
	s := New(Options{Now: newFakeClock(testEpoch).Now})
	f := s.Fixtures()
	now := testEpoch
	check := func(name, id, host, status string, ok func(*eventRec) bool) {
		t.Helper()
		e := s.st.events[id]
		if e == nil {
			t.Fatalf("%s: no event %q", name, id)
		}
		if e.hostID() != host || e.statusType(now) != status || (ok != nil && !ok(e)) {
			t.Errorf("%s: %s host %s status %s registrants %d", name, e.ev.Name, e.hostID(), e.statusType(now), e.registrants)
		}
	}
	check("draft", f.DraftEventID, DemoHostID, api.ListDraft, nil)
	check("upcoming", f.UpcomingEventID, DemoHostID, api.ListUpcoming, func(e *eventRec) bool { return e.registrants > 0 })
	check("no registrants", f.NoRegistrantsEventID, DemoHostID, api.ListUpcoming, func(e *eventRec) bool { return e.registrants == 0 })
	check("past", f.PastEventID, DemoHostID, api.ListPast, nil)
	check("cancelled", f.CancelledEventID, DemoHostID, api.ListCancelled, nil)
	check("conference", f.ConferenceEventID, DemoHostID, api.ListUpcoming, func(e *eventRec) bool { return e.ev.EventType == api.EventTypeConference })
	check("recurring", f.RecurringEventID, DemoHostID, api.ListUpcoming, func(e *eventRec) bool { return e.ev.Recurrence.Type == api.RecurrenceWeekly })
	check("monthly", f.MonthlyEventID, DemoHostID, api.ListUpcoming, func(e *eventRec) bool { return e.ev.Recurrence.Type == api.RecurrenceMonthly })
	check("other", f.OtherHostEventID, OtherHostID, api.ListUpcoming, func(e *eventRec) bool { return !e.attendees[DemoHostID] })
	check("attended", f.AttendedEventID, OtherHostID, api.ListUpcoming, func(e *eventRec) bool { return e.attendees[DemoHostID] })
	for _, id := range []string{HubID, NoConferenceHubID, InternalHubID, OtherHostHubID, DemoHostID, OtherHostID, DemoAccountID, OtherAccountID} {
		if !seededID.MatchString(id) {
			t.Errorf("%q is not 22 alphanumerics", id)
		}
	}
}

func TestOccurrences(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	start := time.Date(2026, time.March, 3, 18, 0, 0, 0, ny) // a Tuesday
	wd := api.NewWeekDays(false, 3, 5)                       // Tuesday, Thursday
	got := occurrences(start, ny, &api.Recurrence{Type: api.RecurrenceWeekly, RepeatInterval: 1, EndTimes: 4, WeeklyDays: &wd})
	want := []string{"2026-03-03", "2026-03-05", "2026-03-10", "2026-03-12"}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i, g := range got {
		if l := g.In(ny); l.Format("2006-01-02") != want[i] || l.Hour() != 18 {
			t.Errorf("occurrence %d = %v, want %s 18:00 local", i, l, want[i])
		}
	}
	// Last Thursday of the month, twice.
	got = occurrences(start, ny, &api.Recurrence{Type: api.RecurrenceMonthly, RepeatInterval: 1, EndTimes: 2, MonthlyWeek: -1, MonthlyWeekDay: 5})
	if got[0].In(ny).Format("2006-01-02") != "2026-03-26" || got[1].In(ny).Format("2006-01-02") != "2026-04-30" {
		t.Errorf("last Thursdays: %v", got)
	}
	// Day 31 skips short months.
	md := api.NewMonthDays(false, 31)
	got = occurrences(start, ny, &api.Recurrence{Type: api.RecurrenceMonthly, RepeatInterval: 1, EndTimes: 3, MonthlyDays: &md})
	if got[0].In(ny).Format("01-02") != "03-31" || got[1].In(ny).Format("01-02") != "05-31" || got[2].In(ny).Format("01-02") != "07-31" {
		t.Errorf("31sts: %v", got)
	}
	// Daily until a date.
	until := time.Date(2026, time.March, 7, 22, 0, 0, 0, time.UTC) // 17:00 in New York
	got = occurrences(start, ny, &api.Recurrence{Type: api.RecurrenceDaily, RepeatInterval: 2, EndDateTime: &until})
	if len(got) != 2 {
		t.Errorf("every other day until the 7th: %v", got)
	}
}

// Every seeded venue fills every field of spec 2.4, so a detail that shows
// the whole venue is tested on a whole one.
func TestSeedVenuesFillEveryField(t *testing.T) {
	for key, v := range seedVenues {
		for _, f := range v.Venue.Fields() {
			if f[1] == "" {
				t.Errorf("venue %s has no %s", key, f[0])
			}
		}
	}
}
