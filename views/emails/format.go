package emails

import (
	"fmt"
	"strings"
	"time"
	"unicode"
)

// localTime is a sortable local time for table cells.
func localTime(t *time.Time, loc *time.Location) string {
	if t == nil {
		return "-"
	}
	return t.In(loc).Format("2006-01-02 15:04")
}

// fullTime is a time in words with its zone, for sentences.
func fullTime(t *time.Time, loc *time.Location) string {
	if t == nil {
		return "-"
	}
	return t.In(loc).Format("Mon 2 Jan 2006 15:04 MST")
}

// relative puts the distance from now in words: "in 3 days", "2 hours ago".
func relative(t *time.Time, now time.Time) string {
	if t == nil {
		return "-"
	}
	d := t.Sub(now)
	future := d > 0
	if d < 0 {
		d = -d
	}
	var n int
	var unit string
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		n, unit = int(d/time.Minute), "minute"
	case d < 48*time.Hour:
		n, unit = int(d/time.Hour), "hour"
	case d < 60*24*time.Hour:
		n, unit = int(d/(24*time.Hour)), "day"
	case d < 2*365*24*time.Hour:
		n, unit = int(d/(30*24*time.Hour)), "month"
	default:
		n, unit = int(d/(365*24*time.Hour)), "year"
	}
	if n != 1 {
		unit += "s"
	}
	if future {
		return fmt.Sprintf("in %d %s", n, unit)
	}
	return fmt.Sprintf("%d %s ago", n, unit)
}

// slug makes a file-name part from a title: "Reminder: 1 day before" gives
// "reminder-1-day-before".
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) && r < unicode.MaxASCII || unicode.IsDigit(r) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimRight(b.String(), "-")
	if len(out) > 40 {
		out = strings.TrimRight(out[:40], "-")
	}
	if out == "" {
		return "email"
	}
	return out
}
