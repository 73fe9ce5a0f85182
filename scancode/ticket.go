package scancode

// Bare ticket ids: the simulator draws each of 12 characters from
// [A-Za-z0-9] (the first 12 of makeID in api/sim); the provider's published
// examples are 7 digits and 20 mixed characters. Random draws mix cases and
// digits, words do not.
const (
	minTicketID = 6
	maxTicketID = 32
)

// isTicketID reports whether s, typed bare, reads as a ticket id: 6 to 32
// letters and digits, not shaped like a word (letters in one case, or one
// capital then lower case).
func isTicketID(s string) bool {
	if len(s) < minTicketID || len(s) > maxTicketID {
		return false
	}
	var upper, lower, digits int
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		case c >= '0' && c <= '9':
			digits++
		default:
			return false
		}
	}
	word := digits == 0 && (upper == 0 || lower == 0 || (upper == 1 && s[0] >= 'A' && s[0] <= 'Z'))
	return !word
}

func isAlnum(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}
