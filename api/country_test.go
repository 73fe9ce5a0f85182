package api

import (
	"testing"

	"golang.org/x/text/language"
)

// TestCountryCodesMatchXText holds the table to golang.org/x/text's region
// registry (a test-only dependency): every two-letter code gets the same
// verdict, and a former code names the same current one.
func TestCountryCodesMatchXText(t *testing.T) {
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			s := string([]rune{a, b})
			r, err := language.ParseRegion(s)
			country := err == nil && r.IsCountry()
			current := country && r.Canonicalize().String() == s
			if IsCountryCode(s) != current {
				t.Errorf("%s: table says %v, x/text %v", s, IsCountryCode(s), current)
			}
			if former, ok := formerCodes[s]; ok != (country && !current) || (ok && former != r.Canonicalize().String()) {
				t.Errorf("%s: former code %q (%v), x/text %v %s", s, former, ok, country && !current, r.Canonicalize())
			}
		}
	}
}
