// Package words writes counts and empty values the same way on every screen
// and in every command, for packages that must not depend on the UI.
package words

import (
	"strconv"
	"strings"
	"time"
)

// Count writes a number and its noun, with thousands separators and a
// plural "s": "1 link", "12,300 recipients".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Thousands(n) + " " + noun + "s"
}

// Thousands writes 1234567 as "1,234,567".
func Thousands(n int) string {
	if n > -1000 && n < 1000 {
		return strconv.Itoa(n)
	}
	var buf [32]byte
	return string(AppendThousands(buf[:0], n))
}

// AppendThousands appends n as Thousands writes it, for a line drawn into
// one buffer.
func AppendThousands(dst []byte, n int) []byte {
	var buf [24]byte
	s := strconv.AppendInt(buf[:0], int64(n), 10)
	digits := s
	if s[0] == '-' {
		dst, digits = append(dst, '-'), s[1:]
	}
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, c)
	}
	return dst
}

// OrDash is s, or "-" when s is blank, so an empty cell reads as empty.
func OrDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// Label names an enumeration's value in words for people (names maps each
// value to its words; a value it lacks is shown as it is, "-" when empty).
func Label(names map[string]string, v string) string {
	if v == "" {
		return "-"
	}
	for k, n := range names {
		if strings.EqualFold(k, v) {
			return n
		}
	}
	return v
}

// ClockAt writes a moment as a time of day when it falls on now's day in
// loc, and with its date when it does not, so "next try 09:14:00" never
// hides that the next try is days away.
func ClockAt(t, now time.Time, loc *time.Location) string {
	t, now = t.In(loc), now.In(loc)
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	if t.Year() == now.Year() {
		return t.Format("Mon 2 Jan 15:04")
	}
	return t.Format("2 Jan 2006 15:04")
}

// ZoneTime writes a session's start in its own zone (an IANA name; where
// it is empty or unknown, in fallback) with the zone's abbreviation, so
// two screens that show the same session in different zones both say
// which: "Thu 26 Nov 18:00 PST".
func ZoneTime(t time.Time, zone string, fallback *time.Location) string {
	loc := fallback
	if l, err := time.LoadLocation(zone); err == nil && zone != "" {
		loc = l
	}
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format("Mon 02 Jan 15:04 MST")
}

// Percent writes n as a share of total, rounded, as every screen writes
// one: "<1%" for a small share that is not none, ">99%" for one that is
// not all, so that 0% and 100% mean none and all.
func Percent(n, total int) string {
	switch {
	case total <= 0 || n <= 0:
		return "0%"
	case n >= total:
		return "100%"
	case n*100 < total:
		return "<1%"
	case n*100 > 99*total:
		return ">99%"
	}
	return strconv.Itoa((n*200+total)/(2*total)) + "%" // half up
}
