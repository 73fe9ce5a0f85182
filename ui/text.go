package ui

import (
	"time"

	"github.com/evdesk/evdesk/internal/words"
)

// Count writes a number and its noun: "1 link", "12,300 recipients".
func Count(n int, noun string) string { return words.Count(n, noun) }

// Thousands writes 1234567 as "1,234,567".
func Thousands(n int) string { return words.Thousands(n) }

// OrDash is s, or "-" when s is blank, so an empty cell reads as empty.
func OrDash(s string) string { return words.OrDash(s) }

// EnumLabel is the readable name of an API value (matched without regard
// to case), "-" for none, or the value itself when it has no name.
func EnumLabel(names map[string]string, v string) string { return words.Label(names, v) }

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
