package ui

import (
	"testing"
	"time"
)

func TestTextHelpers(t *testing.T) {
	names := map[string]string{"hybrid": "Hybrid"}
	for _, tc := range []struct{ got, want string }{
		{Count(1, "link"), "1 link"},
		{Count(0, "link"), "0 links"},
		{Count(12300, "recipient"), "12,300 recipients"},
		{Thousands(1234567), "1,234,567"},
		{Thousands(-1000), "-1,000"},
		{Thousands(999), "999"},
		{OrDash("  "), "-"},
		{OrDash("x"), "x"},
		{EnumLabel(names, ""), "-"},
		{EnumLabel(names, "HYBRID"), "Hybrid"},
		{EnumLabel(names, "NEW"), "NEW"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestClockAt(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{now.Add(90 * time.Second), "10:01:30"},
		{now.Add(20 * time.Hour), "Tue 24 Nov 06:00"},
		{now.Add(285 * 365 * 24 * time.Hour), "16 Sep 2311 10:00"},
	} {
		if got := ClockAt(tc.at, now, time.UTC); got != tc.want {
			t.Errorf("ClockAt(%v) = %q, want %q", tc.at, got, tc.want)
		}
	}
}
