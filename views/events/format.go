package events

import (
	"fmt"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
)

// Bucket is where an event sits in the provider's listings: the status the
// user thinks in (the API's status field only says DRAFT or PUBLISHED).
type Bucket int

const (
	BucketAll Bucket = iota
	BucketUpcoming
	BucketDraft
	BucketPast
	BucketCancelled
)

var bucketNames = [...]string{"All", "Upcoming", "Draft", "Past", "Cancelled"}

func (b Bucket) String() string { return bucketNames[b] }

// listing is the API's event_status_type for a bucket.
func (b Bucket) listing() string {
	return [...]string{"", api.ListUpcoming, api.ListDraft, api.ListPast, api.ListCancelled}[b]
}

// loadOrder is the order buckets are fetched in: what staff need first.
var loadOrder = []Bucket{BucketUpcoming, BucketDraft, BucketPast, BucketCancelled}

var weekdayNames = [...]string{"", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}

func weekday(n int) string {
	if n >= 1 && n <= 7 {
		return weekdayNames[n]
	}
	return fmt.Sprintf("day %d", n)
}

// joinWords writes "a", "a and b", "a, b and c".
func joinWords(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// describeRecurrence puts a schedule in words, for example
// "Weekly on Mon and Wed, 8 occurrences".
func describeRecurrence(r *api.Recurrence, loc *time.Location) string {
	if r == nil {
		return "Does not repeat"
	}
	every := max(r.RepeatInterval, 1)
	unit := map[int]string{api.RecurrenceDaily: "day", api.RecurrenceWeekly: "week", api.RecurrenceMonthly: "month"}[r.Type]
	var head string
	switch {
	case unit == "":
		head = fmt.Sprintf("Repeats (type %d)", r.Type)
	case every == 1:
		head = map[string]string{"day": "Daily", "week": "Weekly", "month": "Monthly"}[unit]
	default:
		head = fmt.Sprintf("Every %d %ss", every, unit)
	}
	var on string
	switch r.Type {
	case api.RecurrenceWeekly:
		if r.WeeklyDays != nil && len(r.WeeklyDays.Days) > 0 {
			var days []string
			for _, d := range r.WeeklyDays.Days {
				days = append(days, weekday(d))
			}
			on = " on " + joinWords(days)
		}
	case api.RecurrenceMonthly:
		switch {
		case r.MonthlyDays != nil && len(r.MonthlyDays.Days) > 0:
			var days []string
			for _, d := range r.MonthlyDays.Days {
				days = append(days, ordinal(d))
			}
			on = " on the " + joinWords(days)
		case r.MonthlyWeek != 0:
			week := "last"
			if r.MonthlyWeek > 0 {
				week = ordinal(r.MonthlyWeek)
			}
			on = fmt.Sprintf(" on the %s %s", week, weekday(r.MonthlyWeekDay))
		}
	}
	parts := []string{head + on}
	if r.Duration > 0 {
		parts = append(parts, humanMinutes(r.Duration)+" each")
	}
	switch {
	case r.EndTimes == 1:
		parts = append(parts, "1 occurrence")
	case r.EndTimes > 1:
		parts = append(parts, fmt.Sprintf("%d occurrences", r.EndTimes))
	case r.EndDateTime != nil:
		parts = append(parts, "until "+r.EndDateTime.In(loc).Format("Mon 2 Jan 2006"))
	}
	return strings.Join(parts, ", ")
}

func humanMinutes(m int) string {
	h, rest := m/60, m%60
	switch {
	case h == 0:
		return fmt.Sprintf("%d min", rest)
	case rest == 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, rest)
}

// eventLocation is the event's timezone, or UTC when unknown.
// listTime is a sortable local time for table cells.
func listTime(t *time.Time, local *time.Location) string {
	if t == nil {
		return "-"
	}
	return t.In(local).Format("2006-01-02 15:04")
}

// dualTime shows a time in the event's zone and, when different, the user's.
func dualTime(t *time.Time, eventLoc, local *time.Location) string {
	if t == nil {
		return "-"
	}
	ev := t.In(eventLoc)
	s := ev.Format("Mon 2 Jan 2006 15:04 MST")
	// Zones with the same offset (WET and UTC in winter) show the same clock.
	if lt := t.In(local); !sameOffset(ev, lt) {
		s += " (" + lt.Format("Mon 2 Jan 15:04 MST") + " local)"
	}
	return s
}

func sameOffset(a, b time.Time) bool {
	_, ao := a.Zone()
	_, bo := b.Zone()
	return ao == bo
}

// bucketOf places an event fetched on its own (not from a listing).
func bucketOf(e *api.Event, now time.Time) Bucket {
	if strings.EqualFold(e.Status, api.StatusDraft) {
		return BucketDraft
	}
	if e.EndTime != nil && e.EndTime.Before(now) {
		return BucketPast
	}
	return BucketUpcoming
}
