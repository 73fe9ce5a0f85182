package api

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func validCreate() *EventCreate {
	return &EventCreate{Name: "Summit", Description: "d", Timezone: "Europe/Lisbon",
		EventType: EventTypeConference, HubID: "hub1", AccessLevel: AccessPrivateUnrestricted,
		AttendanceType: AttendanceHybrid}
}

func problemFields(t *testing.T, err error) string {
	t.Helper()
	var v *ValidationError
	if !errors.As(err, &v) {
		t.Fatalf("want *ValidationError, got %v", err)
	}
	var fields []string
	for _, p := range v.Problems {
		fields = append(fields, p.Field)
	}
	return strings.Join(fields, ",")
}

func TestEventCreateValidate(t *testing.T) {
	if err := validCreate().Validate(); err != nil {
		t.Fatalf("valid request rejected: %v", err)
	}
	at := func(h int) *time.Time { v := time.Date(2027, 1, 1, h, 0, 0, 0, time.UTC); return &v }
	days := func(d int) *time.Time { v := time.Date(2027, 1, 1+d, 0, 0, 0, 0, time.UTC); return &v }
	cases := []struct {
		name   string
		mutate func(*EventCreate)
		fields string
	}{
		{"missing name", func(c *EventCreate) { c.Name = " " }, "name"},
		{"bad enum", func(c *EventCreate) { c.AccessLevel = "PUBLIC" }, "access_level"},
		{"bad timezone", func(c *EventCreate) { c.Timezone = "Mars/Base" }, "timezone"},
		{"simple needs meeting type", func(c *EventCreate) { c.EventType = EventTypeSimple }, "meeting_type"},
		{"end before start", func(c *EventCreate) { c.Calendar = []CalendarEntry{{StartTime: at(10), EndTime: at(9)}} }, "calendar[0].end_time"},
		{"calendar half", func(c *EventCreate) { c.Calendar = []CalendarEntry{{StartTime: at(10)}} }, "calendar[0]"},
		{"seven days", func(c *EventCreate) { c.Calendar = []CalendarEntry{{StartTime: days(0), EndTime: days(7)}} }, "calendar"},
		{"daily 91", func(c *EventCreate) { c.Recurrence = &Recurrence{Type: 1, RepeatInterval: 91} }, "recurrence.repeat_interval"},
		{"weekly 13", func(c *EventCreate) { c.Recurrence = &Recurrence{Type: 2, RepeatInterval: 13} }, "recurrence.repeat_interval"},
		{"monthly 4", func(c *EventCreate) { c.Recurrence = &Recurrence{Type: 3, RepeatInterval: 4} }, "recurrence.repeat_interval"},
		{"weekday 8", func(c *EventCreate) {
			w := NewWeekDays(false, 8)
			c.Recurrence = &Recurrence{Type: 2, RepeatInterval: 1, WeeklyDays: &w}
		}, "recurrence.weekly_days"},
		{"category", func(c *EventCreate) { c.Categories = []string{"Sports"} }, "categories"},
		{"session of 7 days", func(c *EventCreate) { c.Recurrence = &Recurrence{Type: 2, RepeatInterval: 1, Duration: 7 * 24 * 60} }, "recurrence.duration"},
	}
	for _, tc := range cases {
		c := validCreate()
		tc.mutate(c)
		if got := problemFields(t, c.Validate()); got != tc.fields {
			t.Errorf("%s: fields %q, want %q", tc.name, got, tc.fields)
		}
	}
	// The six-day limit itself is allowed; the limits of each type too.
	c := validCreate()
	c.Calendar = []CalendarEntry{{StartTime: days(0), EndTime: days(6)}}
	c.Recurrence = &Recurrence{Type: 1, RepeatInterval: 90, Duration: 6 * 24 * 60}
	if err := c.Validate(); err != nil {
		t.Errorf("limits themselves rejected: %v", err)
	}
}

func TestEventUpdateAndActionValidate(t *testing.T) {
	blank := ""
	if got := problemFields(t, (&EventUpdate{Name: &blank}).Validate()); got != "name" {
		t.Errorf("blank name: %s", got)
	}
	if err := (&EventUpdate{}).Validate(); err != nil {
		t.Errorf("empty update rejected: %v", err)
	}
	dup := &EventAction{Operation: "duplicate", DuplicateEvent: &DuplicateEvent{Timezone: "Nowhere/City"}}
	if got := problemFields(t, dup.Validate()); got != "duplicate_event.name,duplicate_event.timezone,duplicate_event.start_time" {
		t.Errorf("duplicate: %s", got)
	}
	if got := problemFields(t, (&EventAction{Operation: "archive"}).Validate()); got != "operation" {
		t.Errorf("operation: %s", got)
	}
}

func FuzzEventCreateValidate(f *testing.F) {
	f.Add("Summit", "Europe/Lisbon", "CONFERENCE", 1, 5)
	f.Fuzz(func(t *testing.T, name, tz, typ string, rt, interval int) {
		c := validCreate()
		c.Name, c.Timezone, c.EventType = name, tz, typ
		c.Recurrence = &Recurrence{Type: rt, RepeatInterval: interval}
		_ = c.Validate()
	})
}
