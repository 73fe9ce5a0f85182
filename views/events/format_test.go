package events

import (
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
)

func TestDescribeRecurrence(t *testing.T) {
	wd := api.NewWeekDays(true, 2, 4)
	md := api.NewMonthDays(true, 15)
	end := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		r    *api.Recurrence
		want string
	}{
		{nil, "Does not repeat"},
		{&api.Recurrence{Type: 2, RepeatInterval: 1, WeeklyDays: &wd, EndTimes: 8}, "Weekly on Mon and Wed, 8 occurrences"},
		{&api.Recurrence{Type: 1, RepeatInterval: 3, Duration: 90, EndDateTime: &end}, "Every 3 days, 1 h 30 min each, until Mon 1 Mar 2027"},
		{&api.Recurrence{Type: 3, RepeatInterval: 1, MonthlyDays: &md, EndTimes: 1}, "Monthly on the 15th, 1 occurrence"},
		{&api.Recurrence{Type: 3, RepeatInterval: 2, MonthlyWeek: -1, MonthlyWeekDay: 6}, "Every 2 months on the last Fri"},
		{&api.Recurrence{Type: 3, MonthlyWeek: 2, MonthlyWeekDay: 3, Duration: 45}, "Monthly on the 2nd Tue, 45 min each"},
	} {
		if got := describeRecurrence(tc.r, time.UTC); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestDualTimeShowsLocalOnlyWhenDifferent(t *testing.T) {
	at := time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC)
	lisbon, _ := time.LoadLocation("Europe/Lisbon")
	ny, _ := time.LoadLocation("America/New_York")
	if got := dualTime(&at, lisbon, lisbon); got != "Wed 2 Dec 2026 15:00 WET" {
		t.Errorf("same zone: %q", got)
	}
	if got := dualTime(&at, lisbon, ny); got != "Wed 2 Dec 2026 15:00 WET (Wed 2 Dec 10:00 EST local)" {
		t.Errorf("two zones: %q", got)
	}
	if got := dualTime(&at, lisbon, time.UTC); got != "Wed 2 Dec 2026 15:00 WET" {
		t.Errorf("same offset, other zone: %q", got)
	}
	if dualTime(nil, lisbon, ny) != "-" {
		t.Error("nil time")
	}
}

func TestOrdinalAndJoin(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 31: "31st"} {
		if ordinal(n) != want {
			t.Errorf("ordinal(%d) = %s", n, ordinal(n))
		}
	}
	if joinWords([]string{"a", "b", "c"}) != "a, b and c" {
		t.Error(joinWords([]string{"a", "b", "c"}))
	}
}

func TestWithoutSharedLead(t *testing.T) {
	got := withoutSharedLead(map[string]string{"a": "Northwind Events", "b": "Northwind Community Workshops",
		"c": "Northwind Internal"})
	if got["a"] != "Events" || got["b"] != "Community Workshops" || got["c"] != "Internal" {
		t.Errorf("%v", got)
	}
	if one := withoutSharedLead(map[string]string{"a": "Northwind Events"}); one["a"] != "Northwind Events" {
		t.Errorf("a single hub keeps its name: %v", one)
	}
	// A one-word name cannot lose a word, so nothing is dropped.
	for range 20 { // map order varies: the answer must not
		if got := withoutSharedLead(map[string]string{"a": "Acme", "b": "Acme Labs"}); got["a"] != "Acme" || got["b"] != "Acme Labs" {
			t.Fatalf("%v", got)
		}
	}
}

// A calendar entry that ends on another day says which (it read "Thu 10
// Dec 04:00 UTC to 06:00" for an entry ending two days later).
func TestACalendarEntryNamesItsEndDay(t *testing.T) {
	start := time.Date(2026, 12, 10, 4, 0, 0, 0, time.UTC)
	sameDay, later := start.Add(2*time.Hour), start.Add(50*time.Hour)
	if got := endOf(&start, &sameDay, time.UTC); got != "06:00" {
		t.Errorf("same day: %q", got)
	}
	if got := endOf(&start, &later, time.UTC); got != "Sat 12 Dec 2026 06:00" {
		t.Errorf("two days later: %q", got)
	}
	// 04:00 to 06:00 UTC is one day in UTC, two in New York (23:00 to 01:00).
	ny, _ := time.LoadLocation("America/New_York")
	if got := endOf(&start, &sameDay, ny); got != "Thu 10 Dec 2026 01:00" {
		t.Errorf("in the event's zone: %q", got)
	}
	if endOf(&start, nil, time.UTC) != "?" {
		t.Error("no end")
	}
}
