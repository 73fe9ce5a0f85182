package scancode

import "strings"

// Bare ticket ids: the simulator draws each of 12 characters from
// [A-Za-z0-9] (the first 12 of makeID in api/sim); the provider's published
// examples are 7 digits and 20 mixed characters. Random draws mix cases and
// digits and rarely leave a vowel every few letters; words do neither.
const (
	minTicketID = 6
	maxTicketID = 32
)

// isTicketID reports whether s, typed bare, reads as a ticket id: 6 to 32
// letters and digits, not shaped like a word.
func isTicketID(s string) bool {
	if len(s) < minTicketID || len(s) > maxTicketID {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) {
			return false
		}
	}
	return !isWordShaped(s)
}

// isWordShaped reports letters only, in one case or one capital then lower
// case ("hello", "ATTENDEE", "Registration"), with a vowel (or y) in every
// four letters. A random draw of letters in one case fails the last test
// four times in five (lfpqiseafwnb), which keeps it an id.
func isWordShaped(s string) bool {
	upper, lower, consonants := 0, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		default:
			return false
		}
		if strings.IndexByte("aeiouyAEIOUY", c) >= 0 {
			consonants = 0
		} else if consonants++; consonants == 4 {
			return false
		}
	}
	return upper == 0 || lower == 0 || upper == 1 && s[0] <= 'Z'
}

func isAlnum(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}
