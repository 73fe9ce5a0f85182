package sim

import (
	"slices"
	"time"

	"github.com/evdesk/evdesk/api"
)

const (
	// defaultOccurrences bounds a series that names neither end_times nor
	// end_date_time.
	defaultOccurrences = 7
	maxOccurrences     = 120
)

// occurrences lists the start times (UTC) of a recurring series whose first
// session is due no earlier than start, laid out in loc.
func occurrences(start time.Time, loc *time.Location, rec *api.Recurrence) []time.Time {
	if rec == nil {
		return []time.Time{start.UTC()}
	}
	if loc == nil {
		loc = time.UTC
	}
	ls := start.In(loc)
	interval := max(rec.RepeatInterval, 1)
	limit := rec.EndTimes
	var until time.Time
	if rec.EndDateTime != nil {
		until = *rec.EndDateTime
	}
	switch {
	case limit <= 0 && until.IsZero():
		limit = defaultOccurrences
	case limit <= 0 || limit > maxOccurrences:
		limit = maxOccurrences
	}
	var out []time.Time
	// add appends t when it is in range; it reports false once the series is over.
	add := func(t time.Time) bool {
		if t.Before(ls) {
			return true
		}
		if !until.IsZero() && t.After(until) {
			return false
		}
		out = append(out, t.UTC())
		return len(out) < limit
	}
	y, m, d := ls.Date()
	hh, mm := ls.Hour(), ls.Minute()
	at := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, hh, mm, 0, 0, loc) }

	switch rec.Type {
	case api.RecurrenceWeekly:
		days := []int{int(ls.Weekday()) + 1}
		if rec.WeeklyDays != nil && len(rec.WeeklyDays.Days) > 0 {
			days = slices.Clone(rec.WeeklyDays.Days)
			slices.Sort(days)
			days = slices.Compact(days)
		}
		sunday := d - int(ls.Weekday())
	weeks:
		for w := 0; w < 52*10; w += interval {
			for _, wd := range days {
				if !add(at(y, m, sunday+7*w+wd-1)) {
					break weeks
				}
			}
		}
	case api.RecurrenceMonthly:
	months:
		for k := 0; k < 12*20; k += interval {
			var t time.Time
			var ok bool
			switch {
			case rec.MonthlyWeek != 0:
				wd := rec.MonthlyWeekDay
				if wd == 0 {
					wd = int(ls.Weekday()) + 1
				}
				t, ok = nthWeekday(y, m+time.Month(k), rec.MonthlyWeek, wd, at)
			default:
				day := d
				if rec.MonthlyDays != nil && len(rec.MonthlyDays.Days) > 0 {
					day = rec.MonthlyDays.Days[0]
				}
				t = at(y, m+time.Month(k), day)
				ok = t.Day() == day // skip months too short for the day
			}
			if ok && !add(t) {
				break months
			}
		}
	default: // daily
		for i := 0; i < 366*3; i++ {
			if !add(at(y, m, d+i*interval)) {
				break
			}
		}
	}
	if len(out) == 0 {
		out = []time.Time{start.UTC()}
	}
	return out
}

// nthWeekday is the date of the week-th weekday wd (1 = Sunday) of a month;
// week -1 is the last one.
func nthWeekday(y int, m time.Month, week, wd int, at func(int, time.Month, int) time.Time) (time.Time, bool) {
	first := time.Date(y, m, 1, 12, 0, 0, 0, time.UTC) // normalises m
	y, m = first.Year(), first.Month()
	target := time.Weekday(wd - 1)
	if week < 0 {
		last := time.Date(y, m+1, 0, 12, 0, 0, 0, time.UTC)
		back := (int(last.Weekday()) - int(target) + 7) % 7
		return at(y, m, last.Day()-back), true
	}
	day := 1 + (int(target)-int(first.Weekday())+7)%7 + (week-1)*7
	t := at(y, m, day)
	return t, t.Month() == m
}

// schedule works out an event's start and end: from the calendar when it has
// one, otherwise from fallback; a recurring series ends with its last session.
func schedule(ev *api.Event, fallback time.Time) {
	var start, end time.Time
	for _, c := range ev.Calendar {
		if c.StartTime != nil && (start.IsZero() || c.StartTime.Before(start)) {
			start = *c.StartTime
		}
		if c.EndTime != nil && c.EndTime.After(end) {
			end = *c.EndTime
		}
	}
	if start.IsZero() {
		start = fallback
	}
	dur := time.Hour
	if !end.IsZero() && end.After(start) {
		dur = end.Sub(start)
	}
	if ev.EventType == api.EventTypeRecurring && ev.Recurrence != nil {
		if ev.Recurrence.Duration > 0 {
			dur = time.Duration(ev.Recurrence.Duration) * time.Minute
		}
		loc, err := time.LoadLocation(ev.Timezone)
		if err != nil {
			loc = time.UTC
		}
		occ := occurrences(start, loc, ev.Recurrence)
		start = occ[0]
		end = occ[len(occ)-1].Add(dur)
	} else if end.IsZero() || !end.After(start) {
		end = start.Add(dur)
	}
	start, end = start.UTC(), end.UTC()
	ev.StartTime, ev.EndTime = &start, &end
}
