package words

import (
	"testing"
	"time"
)

func TestWords(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Count(1, "rule"), "1 rule"},
		{Count(0, "rule"), "0 rules"},
		{Count(12300, "recipient"), "12,300 recipients"},
		{Thousands(-1000), "-1,000"},
		{Thousands(999), "999"},
		{Thousands(-999), "-999"},
		{Thousands(1000), "1,000"},
		{Thousands(20000), "20,000"},
		{Thousands(1234567), "1,234,567"},
		{Thousands(-9223372036854775808), "-9,223,372,036,854,775,808"},
		{string(AppendThousands([]byte("of "), 123456)), "of 123,456"},
		{OrDash(" \t"), "-"},
		{OrDash("x"), "x"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// A session's start is written in its own zone and says which; an empty or
// unknown zone falls back, still named.
func TestZoneTime(t *testing.T) {
	at := time.Date(2026, 11, 27, 2, 0, 0, 0, time.UTC)
	lisbon, err := time.LoadLocation("Europe/Lisbon")
	if err != nil {
		t.Skip("no zone database:", err)
	}
	for _, tc := range []struct {
		zone     string
		fallback *time.Location
		want     string
	}{
		{"America/Los_Angeles", time.UTC, "Thu 26 Nov 18:00 PST"},
		{"", lisbon, "Fri 27 Nov 02:00 WET"},
		{"Mars/Olympus", nil, "Fri 27 Nov 02:00 UTC"},
	} {
		if got := ZoneTime(at, tc.zone, tc.fallback); got != tc.want {
			t.Errorf("ZoneTime(%q): got %q, want %q", tc.zone, got, tc.want)
		}
	}
}

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		n, total int
		want     string
	}{
		{0, 0, "0%"}, {0, 813, "0%"}, {1, 813, "<1%"}, {16, 813, "2%"}, {4212, 20000, "21%"},
		{1, 2, "50%"}, {1, 3, "33%"}, {2, 3, "67%"}, {995, 1000, ">99%"}, {990, 1000, "99%"}, {813, 813, "100%"}, {900, 813, "100%"},
	} {
		if got := Percent(c.n, c.total); got != c.want {
			t.Errorf("Percent(%d, %d) = %q, want %q", c.n, c.total, got, c.want)
		}
	}
}
