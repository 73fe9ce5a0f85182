package ui

import (
	"time"

	"github.com/evdesk/evdesk/internal/words"
)

// Count writes a number and its noun: "1 link", "12,300 recipients".
func Count(n int, noun string) string { return words.Count(n, noun) }

// Thousands writes 1234567 as "1,234,567".
func Thousands(n int) string { return words.Thousands(n) }

// AppendThousands appends n as Thousands writes it.
func AppendThousands(dst []byte, n int) []byte { return words.AppendThousands(dst, n) }

// Percent writes n as a share of total: "<1%", "21%", ">99%", "100%".
func Percent(n, total int) string { return words.Percent(n, total) }

// OrDash is s, or "-" when s is blank, so an empty cell reads as empty.
func OrDash(s string) string { return words.OrDash(s) }

// EnumLabel is the readable name of an API value (matched without regard
// to case), "-" for none, or the value itself when it has no name.
func EnumLabel(names map[string]string, v string) string { return words.Label(names, v) }

// ClockAt writes a moment as a time of day when it falls on now's day in
// loc, and with its date when it does not (see words.ClockAt).
func ClockAt(t, now time.Time, loc *time.Location) string { return words.ClockAt(t, now, loc) }

// ZoneTime writes a session's start in its own zone (fallback where the
// zone is empty or unknown), with the zone's abbreviation.
func ZoneTime(t time.Time, zone string, fallback *time.Location) string {
	return words.ZoneTime(t, zone, fallback)
}
