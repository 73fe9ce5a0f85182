package api

import (
	"testing"
	"time"
)

func TestNextOccurrence(t *testing.T) {
	lisbon, _ := time.LoadLocation("Europe/Lisbon")
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04", s, lisbon)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ptr := func(s string) *time.Time { v := at(s); return &v }
	weekly := func(days ...int) *WeekDays { w := NewWeekDays(true, days...); return &w }
	monthly := func(days ...int) *MonthDays { m := NewMonthDays(true, days...); return &m }
	for _, tc := range []struct {
		name       string
		start, now string
		r          *Recurrence
		want       string // "" for none
	}{
		{"daily, later today", "2026-11-01 09:00", "2026-11-23 08:00", &Recurrence{Type: RecurrenceDaily}, "2026-11-23 09:00"},
		{"daily, passed today", "2026-11-01 09:00", "2026-11-23 10:00", &Recurrence{Type: RecurrenceDaily}, "2026-11-24 09:00"},
		{"every 3 days", "2026-11-01 09:00", "2026-11-23 10:00", &Recurrence{Type: RecurrenceDaily, RepeatInterval: 3}, "2026-11-25 09:00"},
		{"not started yet", "2026-12-01 09:00", "2026-11-23 10:00", &Recurrence{Type: RecurrenceDaily}, "2026-12-01 09:00"},
		{"weekly Sun and Wed", "2026-11-11 12:00", "2026-11-23 10:00", &Recurrence{Type: RecurrenceWeekly, WeeklyDays: weekly(1, 4)}, "2026-11-25 12:00"},
		{"every 2 weeks on Mon", "2026-11-02 18:00", "2026-11-10 10:00", &Recurrence{Type: RecurrenceWeekly, RepeatInterval: 2, WeeklyDays: weekly(2)}, "2026-11-16 18:00"},
		{"weekly across the clock change keeps the hour", "2026-10-18 09:00", "2026-10-26 00:00", &Recurrence{Type: RecurrenceWeekly, WeeklyDays: weekly(1)}, "2026-11-01 09:00"},
		{"monthly on the 31st skips short months", "2026-01-31 10:00", "2026-02-02 00:00", &Recurrence{Type: RecurrenceMonthly, MonthlyDays: monthly(31)}, "2026-03-31 10:00"},
		{"monthly second Tuesday", "2026-11-10 19:00", "2026-11-23 00:00", &Recurrence{Type: RecurrenceMonthly, MonthlyWeek: 2, MonthlyWeekDay: 3}, "2026-12-08 19:00"},
		{"monthly last Friday", "2026-11-27 19:00", "2026-11-28 00:00", &Recurrence{Type: RecurrenceMonthly, MonthlyWeek: -1, MonthlyWeekDay: 6}, "2026-12-25 19:00"},
		{"ended by count", "2026-11-01 09:00", "2026-11-23 10:00", &Recurrence{Type: RecurrenceDaily, EndTimes: 5}, ""},
		{"last by count is still ahead", "2026-11-20 09:00", "2026-11-23 08:00", &Recurrence{Type: RecurrenceDaily, EndTimes: 4}, "2026-11-23 09:00"},
		{"ended by date", "2026-11-01 09:00", "2026-11-23 10:00", &Recurrence{Type: RecurrenceDaily, EndDateTime: ptr("2026-11-20 23:00")}, ""},
		{"unknown type", "2026-11-01 09:00", "2026-11-23 10:00", &Recurrence{Type: 9}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := NextOccurrence(at(tc.start), tc.r, lisbon, at(tc.now))
			if tc.want == "" {
				if ok {
					t.Fatalf("got %v, want none", got)
				}
				return
			}
			if !ok || !got.Equal(at(tc.want)) {
				t.Fatalf("got %v (%v), want %s", got.In(lisbon), ok, tc.want)
			}
		})
	}
	if _, ok := NextOccurrence(time.Time{}, &Recurrence{Type: RecurrenceDaily}, nil, time.Now()); ok {
		t.Fatal("no start, no occurrence")
	}
	if _, ok := NextOccurrence(at("2026-11-01 09:00"), nil, lisbon, at("2026-11-23 10:00")); ok {
		t.Fatal("no recurrence, no occurrence")
	}
}

func FuzzNextOccurrenceEnds(f *testing.F) {
	f.Add(1, 1, 0, 0, 0, 0, int64(0))
	f.Add(2, 12, 3, 0, 0, 0, int64(1e6))
	f.Add(3, 3, 0, -1, 6, 31, int64(5e7))
	f.Fuzz(func(t *testing.T, typ, every, endTimes, week, weekDay, monthDay int, later int64) {
		start := time.Date(2026, 1, 31, 9, 0, 0, 0, time.UTC)
		r := &Recurrence{Type: typ, RepeatInterval: every % 100, EndTimes: endTimes % 1000, MonthlyWeek: week % 6, MonthlyWeekDay: weekDay % 9}
		if monthDay != 0 {
			m := NewMonthDays(true, monthDay%40)
			r.MonthlyDays = &m
		}
		next, ok := NextOccurrence(start, r, time.UTC, start.Add(time.Duration(later%(1<<50))))
		if ok && next.Before(start) {
			t.Fatalf("an occurrence before the series starts: %v", next)
		}
	})
}

// An event's next start: a series' next occurrence in its own timezone,
// a single event's start, nothing without one.
func TestEventNextStart(t *testing.T) {
	start := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	daily := Event{StartTime: &start, Timezone: "Europe/Lisbon", Recurrence: &Recurrence{Type: RecurrenceDaily, RepeatInterval: 1}}
	if got := daily.NextStart(now); got == nil || !got.Equal(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)) {
		t.Fatalf("daily: %v", got)
	}
	single := Event{StartTime: &start}
	if got := single.NextStart(now); got != &start {
		t.Fatalf("single: %v", got)
	}
	if got := (&Event{}).NextStart(now); got != nil {
		t.Fatalf("no start: %v", got)
	}
	if loc := (&Event{Timezone: "Mars/Base"}).Location(); loc != time.UTC {
		t.Fatalf("an unknown zone: %v", loc)
	}
}
