package ui

import "testing"

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
