package words

import "testing"

func TestWords(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Count(1, "rule"), "1 rule"},
		{Count(0, "rule"), "0 rules"},
		{Count(12300, "recipient"), "12,300 recipients"},
		{Thousands(-1000), "-1,000"},
		{Thousands(999), "999"},
		{OrDash(" \t"), "-"},
		{OrDash("x"), "x"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
