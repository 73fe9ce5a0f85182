package api

import (
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

// CheckCountryCode reports why s is not a two-letter ISO 3166-1 country code
// in upper case ("US"), as blocked_countries takes them, or nil. A former
// or alternative code names the current one ("UK" is "GB").
func CheckCountryCode(s string) error {
	up := strings.ToUpper(strings.TrimSpace(s))
	if len(up) != 2 || up[0] < 'A' || up[0] > 'Z' || up[1] < 'A' || up[1] > 'Z' {
		return fmt.Errorf("%q is not a two-letter country code such as US", s)
	}
	r, err := language.ParseRegion(up)
	if err != nil || !r.IsCountry() {
		return fmt.Errorf("%q is not an ISO country code", s)
	}
	if c := r.Canonicalize().String(); c != up {
		return fmt.Errorf("%q is not a current ISO country code; use %q", s, c)
	}
	if up != s {
		return fmt.Errorf("%q: write country codes in capitals, %q", s, up)
	}
	return nil
}
