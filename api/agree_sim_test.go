package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

// The client's checks and the simulator's are written apart (the simulator
// never calls Validate). These tests send the same requests through both:
// the client's verdict (Validate) must match the server's (the request sent
// with the client's check bypassed), so a client rule that is too strict or
// too loose fails here.

// countryCodes returns n distinct current ISO country codes.
func countryCodes(n int) []string {
	var out []string
	for a := 'A'; a <= 'Z' && len(out) < n; a++ {
		for b := 'A'; b <= 'Z' && len(out) < n; b++ {
			s := string([]rune{a, b})
			if r, err := language.ParseRegion(s); err == nil && r.IsCountry() && r.Canonicalize().String() == s {
				out = append(out, s)
			}
		}
	}
	return out
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// validEvent is a create request both sides accept.
func validEvent(now time.Time) api.EventCreate {
	start := now.Add(10 * 24 * time.Hour).Truncate(time.Hour)
	end := start.Add(2 * time.Hour)
	return api.EventCreate{Name: "Agreement", Description: "Both sides agree.", Timezone: "Europe/Lisbon",
		EventType: api.EventTypeSimple, HubID: sim.HubID, AccessLevel: api.AccessPrivateUnrestricted,
		AttendanceType: api.AttendanceHybrid, MeetingType: api.MeetingTypeMeeting,
		Calendar: []api.CalendarEntry{{StartTime: &start, EndTime: &end}}}
}

// calendar returns n entries a day apart, within span.
func calendar(from time.Time, n int, step time.Duration) []api.CalendarEntry {
	out := make([]api.CalendarEntry, n)
	for i := range out {
		s := from.Add(time.Duration(i) * step)
		e := s.Add(time.Hour)
		out[i] = api.CalendarEntry{StartTime: &s, EndTime: &e}
	}
	return out
}

func TestClientAndSimulatorAgreeOnEventCreates(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	now := f.clock.Now()
	day := 24 * time.Hour
	cases := map[string]func(*api.EventCreate){
		"valid":                   func(*api.EventCreate) {},
		"6 calendar entries":      func(c *api.EventCreate) { c.Calendar = calendar(now.Add(10*day), 6, 20*time.Hour) },
		"7 calendar entries":      func(c *api.EventCreate) { c.Calendar = calendar(now.Add(10*day), 7, 10*time.Hour) },
		"200 tags":                func(c *api.EventCreate) { c.Tags = repeat("tag", 200) },
		"201 tags":                func(c *api.EventCreate) { c.Tags = repeat("tag", 201) },
		"200 blocked countries":   func(c *api.EventCreate) { c.BlockedCountries = countryCodes(200) },
		"201 blocked countries":   func(c *api.EventCreate) { c.BlockedCountries = repeat("US", 201) },
		"former country code UK":  func(c *api.EventCreate) { c.BlockedCountries = []string{"UK"} },
		"lower-case country":      func(c *api.EventCreate) { c.BlockedCountries = []string{"us"} },
		"three-letter country":    func(c *api.EventCreate) { c.BlockedCountries = []string{"USA"} },
		"20 categories":           func(c *api.EventCreate) { c.Categories = repeat("Other", 20) },
		"21 categories":           func(c *api.EventCreate) { c.Categories = repeat("Other", 21) },
		"unknown category":        func(c *api.EventCreate) { c.Categories = []string{"Crypto"} },
		"no meeting type":         func(c *api.EventCreate) { c.MeetingType = "" },
		"conference, no meeting":  func(c *api.EventCreate) { c.EventType, c.MeetingType = api.EventTypeConference, "" },
		"virtual with a place":    func(c *api.EventCreate) { c.AttendanceType, c.PhysicalLocation = api.AttendanceVirtual, "Hall 1" },
		"upper-case attendance":   func(c *api.EventCreate) { c.AttendanceType = "HYBRID" },
		"public access on create": func(c *api.EventCreate) { c.AccessLevel = api.AccessPublic },
		"unknown timezone":        func(c *api.EventCreate) { c.Timezone = "Mars/Olympus" },
		"no name":                 func(c *api.EventCreate) { c.Name = " " },
		"lobby ends first": func(c *api.EventCreate) {
			s, e := now.Add(9*day), now.Add(9*day-time.Hour)
			c.LobbyStartTime, c.LobbyEndTime = &s, &e
		},
		"daily every 90": func(c *api.EventCreate) {
			c.EventType, c.Recurrence = api.EventTypeRecurring, &api.Recurrence{Type: api.RecurrenceDaily, RepeatInterval: 90, EndTimes: 3}
		},
		"daily every 91": func(c *api.EventCreate) {
			c.EventType, c.Recurrence = api.EventTypeRecurring, &api.Recurrence{Type: api.RecurrenceDaily, RepeatInterval: 91, EndTimes: 3}
		},
		"monthly week 5": func(c *api.EventCreate) {
			c.EventType, c.Recurrence = api.EventTypeRecurring, &api.Recurrence{Type: api.RecurrenceMonthly, MonthlyWeek: 5, MonthlyWeekDay: 2}
		},
		"weekday 8": func(c *api.EventCreate) {
			wd := api.NewWeekDays(false, 2, 8)
			c.EventType, c.Recurrence = api.EventTypeRecurring, &api.Recurrence{Type: api.RecurrenceWeekly, WeeklyDays: &wd}
		},
		// A time in another zone, with a fraction: the client writes it in
		// UTC, whole seconds, which the server takes.
		"time with a zone and a fraction": func(c *api.EventCreate) {
			lisbon, _ := time.LoadLocation("Europe/Lisbon")
			s := now.Add(10 * day).In(lisbon).Add(1234567 * time.Nanosecond)
			e := s.Add(time.Hour)
			c.Calendar = []api.CalendarEntry{{StartTime: &s, EndTime: &e}}
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			req := validEvent(now)
			change(&req)
			clientOK := req.Validate() == nil
			_, err := f.client.Events.RawCreate(ctx, &req)
			serverOK := err == nil
			if err != nil && !api.IsStatus(err, http.StatusBadRequest) {
				t.Fatalf("server: %v", err)
			}
			if clientOK != serverOK {
				t.Errorf("client accepts: %v (%v); server accepts: %v (%v)", clientOK, req.Validate(), serverOK, err)
			}
		})
	}
}

func TestClientAndSimulatorAgreeOnEventUpdates(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	now := f.clock.Now()
	id := f.ids.UpcomingEventID
	blank := " "
	cases := map[string]api.EventUpdate{
		"200 tags":            {Tags: repeat("t", 200)},
		"201 tags":            {Tags: repeat("t", 201)},
		"7 calendar entries":  {Calendar: calendar(now.Add(10*24*time.Hour), 7, 10*time.Hour)},
		"bad country":         {BlockedCountries: []string{"ZZ"}},
		"blank name":          {Name: &blank},
		"unknown attendance":  {AttendanceType: &blank},
		"200 countries again": {BlockedCountries: countryCodes(200)},
	}
	for name, u := range cases {
		t.Run(name, func(t *testing.T) {
			clientOK := u.Validate() == nil
			err := f.client.Events.RawUpdate(ctx, id, &u)
			if err != nil && !api.IsStatus(err, http.StatusBadRequest) {
				t.Fatalf("server: %v", err)
			}
			if clientOK != (err == nil) {
				t.Errorf("client accepts: %v (%v); server accepts: %v (%v)", clientOK, u.Validate(), err == nil, err)
			}
		})
	}
}

// TestAnUpdateDoesNotChangeTheMeetingType: the spec routes meeting_type
// through the session API: the client cannot send it, the server ignores it.
func TestAnUpdateDoesNotChangeTheMeetingType(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	id := f.ids.UpcomingEventID
	before, err := f.client.Events.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	other := api.MeetingTypeMeeting
	if before.MeetingType == other {
		other = api.MeetingTypeWebinar
	}
	b, _ := json.Marshal(api.EventUpdate{})
	if strings.Contains(string(b), "meeting_type") {
		t.Fatalf("an update carries meeting_type: %s", b)
	}
	if err := f.client.Events.RawUpdate(ctx, id, map[string]any{"meeting_type": other, "tagline": "New"}); err != nil {
		t.Fatal(err)
	}
	after, err := f.client.Events.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.MeetingType != before.MeetingType || after.Tagline != "New" {
		t.Fatalf("meeting type %q -> %q, tagline %q", before.MeetingType, after.MeetingType, after.Tagline)
	}
}

func TestClientAndSimulatorAgreeOnAccessLinks(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	id := f.ids.RecurringEventID
	valid := func() api.AccessLinkCreate {
		return api.AccessLinkCreate{Type: api.LinkRegistration, AuthenticationMethod: api.AuthBypass}
	}
	cases := map[string]func(*api.AccessLinkCreate){
		"valid":                       func(*api.AccessLinkCreate) {},
		"50 domains":                  func(c *api.AccessLinkCreate) { c.AllowDomainList = domains(50) },
		"51 domains":                  func(c *api.AccessLinkCreate) { c.AllowDomainList = domains(51) },
		"domain without a dot":        func(c *api.AccessLinkCreate) { c.AllowDomainList = []string{"localhost"} },
		"bad restricted address":      func(c *api.AccessLinkCreate) { c.EmailRestrictList = []string{"a@b"} },
		"ticket type on registration": func(c *api.AccessLinkCreate) { c.TicketTypeID = sim.TicketTypeID(id, "VIP") },
		"email check on group join": func(c *api.AccessLinkCreate) {
			c.Type, c.SecurityAtJoin = api.LinkGroupJoin, &api.SecurityAtJoin{EmailAuthentication: true}
		},
		"idp on another method": func(c *api.AccessLinkCreate) { c.IdPName = "okta" },
		"unknown method":        func(c *api.AccessLinkCreate) { c.AuthenticationMethod = "magic" },
		"unknown option":        func(c *api.AccessLinkCreate) { c.RecurringRegistrationOption = "weekly" },
		"account method":        func(c *api.AccessLinkCreate) { c.AuthenticationMethod = api.AuthAccountOTP },
	}
	n := 0
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			n++
			req := valid()
			req.Name = "Link " + strings.Repeat("x", n)
			change(&req)
			clientOK := req.Validate() == nil
			_, err := f.client.AccessLinks.RawCreateLink(ctx, id, &req)
			if err != nil && !api.IsStatus(err, http.StatusBadRequest) {
				t.Fatalf("server: %v", err)
			}
			if clientOK != (err == nil) {
				t.Errorf("client accepts: %v (%v); server accepts: %v (%v)", clientOK, req.Validate(), err == nil, err)
			}
		})
	}
}

func TestClientAndSimulatorAgreeOnTickets(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	id := f.ids.UpcomingEventID
	yes := true
	long := func(n int) string { return strings.Repeat("x", n) }
	cases := map[string]api.TicketsRequest{
		"valid":               {Tickets: []api.TicketRequest{{Email: "a@example.org"}}},
		"source of 16":        {RegistrationSource: long(16), Tickets: []api.TicketRequest{{Email: "a@example.org"}}},
		"source of 17":        {RegistrationSource: long(17), Tickets: []api.TicketRequest{{Email: "a@example.org"}}},
		"first name of 64":    {Tickets: []api.TicketRequest{{Email: "a@example.org", FirstName: long(64)}}},
		"first name of 65":    {Tickets: []api.TicketRequest{{Email: "a@example.org", FirstName: long(65)}}},
		"title of 257":        {ValidationLevel: api.ValidationNone, Tickets: []api.TicketRequest{{Email: "a@example.org", CustomQuestions: []api.CustomAnswer{{Title: long(257)}}}}},
		"level none":          {ValidationLevel: api.ValidationNone, Tickets: []api.TicketRequest{{Email: "a@example.org"}}},
		"strict, unknown Q":   {ValidationLevel: api.ValidationStrict, Tickets: []api.TicketRequest{{Email: "a@example.org", Phone: "5550100"}}},
		"registration needed": {Tickets: []api.TicketRequest{{Email: "a@example.org", RegistrationNeeded: &yes}}},
	}
	for name, req := range cases {
		t.Run(name, func(t *testing.T) {
			clientOK := req.Validate() == nil
			_, err := f.client.Registration.CreateTickets(ctx, id, &req)
			if clientOK {
				// The client sends it; the server may still refuse a
				// question it does not know (strict), which the client
				// cannot know beforehand.
				if err != nil && !api.IsCode(err, api.CodeUnconfiguredQuestions) {
					t.Errorf("client accepts, server refuses: %v", err)
				}
				return
			}
			q := ""
			if req.ValidationLevel != "" {
				q = "?validation_level=" + req.ValidationLevel
			}
			_, err = f.client.Registration.RawCreateTicketsQuery(ctx, id, q, &req)
			if !api.IsStatus(err, http.StatusBadRequest) {
				t.Errorf("client refuses (%v); server: %v", req.Validate(), err)
			}
		})
	}
}
