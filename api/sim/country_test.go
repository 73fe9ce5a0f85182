package sim

import (
	"testing"

	"golang.org/x/text/language"
)

// TestSimCountryCodesMatchXText holds the simulator's table to the region
// registry of golang.org/x/text.
func TestSimCountryCodesMatchXText(t *testing.T) {
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			s := string([]rune{a, b})
			r, err := language.ParseRegion(s)
			want := err == nil && r.IsCountry() && r.Canonicalize().String() == s
			if isCountryCode(s) != want {
				t.Errorf("%s: table says %v, x/text %v", s, isCountryCode(s), want)
			}
		}
	}
}
