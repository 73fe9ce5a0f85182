package api

import "time"

// maxOccurrenceSteps bounds the walk through a series (three years of
// daily occurrences): a schedule never makes the console spin.
const maxOccurrenceSteps = 3 * 366

// Location is the event's timezone, or UTC when it names none this system
// knows.
func (e *Event) Location() *time.Location {
	if loc, err := time.LoadLocation(e.Timezone); err == nil && e.Timezone != "" {
		return loc
	}
	return time.UTC
}

// NextStart is when an event is next on, for a list: a recurring series'
// next occurrence at or after now (walked in the event's own timezone),
// else its start (nil when it has none).
func (e *Event) NextStart(now time.Time) *time.Time {
	if e.Recurrence != nil && e.StartTime != nil {
		if next, ok := NextOccurrence(*e.StartTime, e.Recurrence, e.Location(), now); ok {
			return &next
		}
	}
	return e.StartTime
}

// NextOccurrence is the first start of a recurring series at or after now,
// walked from the series' first start in its own timezone (so "Sunday
// 09:00" stays 09:00 across daylight-saving changes). ok is false when the
// series has ended, or the event does not recur.
func NextOccurrence(start time.Time, r *Recurrence, loc *time.Location, now time.Time) (next time.Time, ok bool) {
	if r == nil || start.IsZero() {
		return time.Time{}, false
	}
	if loc == nil {
		loc = time.UTC
	}
	every := max(r.RepeatInterval, 1)
	first := start.In(loc)
	count := 0
	// within reports whether the n-th occurrence at t is part of the series.
	within := func(t time.Time) bool {
		count++
		if r.EndTimes > 0 && count > r.EndTimes {
			return false
		}
		return r.EndDateTime == nil || !t.After(*r.EndDateTime)
	}
	at := func(day time.Time) time.Time {
		return time.Date(day.Year(), day.Month(), day.Day(), first.Hour(), first.Minute(), first.Second(), 0, loc)
	}
	for step := 0; step < maxOccurrenceSteps; step++ {
		var candidates []time.Time
		switch r.Type {
		case RecurrenceDaily:
			candidates = []time.Time{at(first.AddDate(0, 0, step*every))}
		case RecurrenceWeekly:
			weekStart := first.AddDate(0, 0, -int(first.Weekday())+step*7*every) // that week's Sunday
			days := []int{int(first.Weekday()) + 1}
			if r.WeeklyDays != nil && len(r.WeeklyDays.Days) > 0 {
				days = r.WeeklyDays.Days
			}
			for wd := 1; wd <= 7; wd++ { // in week order, whatever the list's order
				for _, d := range days {
					if d == wd {
						candidates = append(candidates, at(weekStart.AddDate(0, 0, wd-1)))
					}
				}
			}
		case RecurrenceMonthly:
			month := time.Date(first.Year(), first.Month()+time.Month(step*every), 1, 0, 0, 0, 0, loc)
			candidates = monthDays(month, r, first)
		default:
			return time.Time{}, false
		}
		for _, c := range candidates {
			if c.Before(first) {
				continue
			}
			if !within(c) {
				return time.Time{}, false
			}
			if !c.Before(now) {
				return c, true
			}
		}
	}
	return time.Time{}, false
}

// monthDays are a monthly series' starts in the month starting at month:
// the listed days of the month (days the month lacks are skipped), or the
// n-th (or last) weekday, or the first start's day of the month.
func monthDays(month time.Time, r *Recurrence, first time.Time) []time.Time {
	loc := month.Location()
	at := func(day int) time.Time {
		return time.Date(month.Year(), month.Month(), day, first.Hour(), first.Minute(), first.Second(), 0, loc)
	}
	lastDay := month.AddDate(0, 1, -1).Day()
	switch {
	case r.MonthlyDays != nil && len(r.MonthlyDays.Days) > 0:
		var out []time.Time
		for d := 1; d <= lastDay; d++ {
			for _, want := range r.MonthlyDays.Days {
				if want == d {
					out = append(out, at(d))
				}
			}
		}
		return out
	case r.MonthlyWeek != 0 && r.MonthlyWeekDay >= 1 && r.MonthlyWeekDay <= 7:
		wd := time.Weekday(r.MonthlyWeekDay - 1)
		if r.MonthlyWeek < 0 { // the last such weekday
			d := lastDay
			for at(d).Weekday() != wd {
				d--
			}
			return []time.Time{at(d)}
		}
		d := 1
		for at(d).Weekday() != wd {
			d++
		}
		d += 7 * (r.MonthlyWeek - 1)
		if d > lastDay {
			return nil
		}
		return []time.Time{at(d)}
	}
	if first.Day() > lastDay {
		return nil
	}
	return []time.Time{at(first.Day())}
}
