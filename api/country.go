package api

import (
	"fmt"
	"strings"
)

// countryCodes are the current two-letter ISO 3166-1 codes (and the
// exceptionally reserved ones the registry counts as countries), as
// golang.org/x/text's region registry lists them; formerCodes maps the
// former and alternative ones to today's. A table here keeps x/text's
// language tables out of the binary for one check; TestCountryCodesMatchXText
// holds it to the registry.
const countryCodes = "AC AD AE AF AG AI AL AM AN AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR " +
	"BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CP CQ CR CS CU CV CW CX CY CZ DE DG DJ DK DM DO DZ EA EC " +
	"EE EG EH ER ES ET EZ FI FJ FK FM FO FQ FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR " +
	"HT HU IC ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU " +
	"LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NT NU " +
	"NZ OM PA PC PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO " +
	"SR SS ST SU SV SX SY SZ TA TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM UN US UY UZ VA VC VE VG VI " +
	"VN VU WF WS XK YE YT YU ZA ZM ZW"

var formerCodes = map[string]string{"BU": "MM", "CT": "KI", "DD": "DE", "DY": "BJ", "FX": "FR", "HV": "BF", "JT": "UM",
	"MI": "UM", "NH": "VU", "NQ": "AQ", "PU": "UM", "PZ": "PA", "RH": "ZW", "TP": "TL", "UK": "GB", "VD": "VN",
	"WK": "UM", "YD": "YE", "ZR": "CD"}

// IsCountryCode reports a current two-letter ISO 3166-1 code in capitals.
func IsCountryCode(s string) bool {
	if len(s) != 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' {
		return false
	}
	i := strings.Index(countryCodes, s)
	return i >= 0 && i%3 == 0
}

// CheckCountryCode reports why s is not a two-letter ISO 3166-1 country code
// in upper case ("US"), as blocked_countries takes them, or nil. A former
// or alternative code names the current one ("UK" is "GB").
func CheckCountryCode(s string) error {
	up := strings.ToUpper(strings.TrimSpace(s))
	if len(up) != 2 || up[0] < 'A' || up[0] > 'Z' || up[1] < 'A' || up[1] > 'Z' {
		return fmt.Errorf("%q is not a two-letter country code such as US", s)
	}
	if c, ok := formerCodes[up]; ok {
		return fmt.Errorf("%q is not a current ISO country code; use %q", s, c)
	}
	if !IsCountryCode(up) {
		return fmt.Errorf("%q is not an ISO country code", s)
	}
	if up != s {
		return fmt.Errorf("%q: write country codes in capitals, %q", s, up)
	}
	return nil
}
