package ui

import "github.com/charmbracelet/x/ansi"

// Width is ansi.StringWidth with a fast path for what frames are mostly
// made of, printable ASCII and CSI sequences (colours), whose width is the
// count of printable bytes; anything else goes to ansi.StringWidth, whose
// grapheme walk costs a frame several times more.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			// Parameters and intermediates, then a final byte.
			j := i + 2
			for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
				j++
			}
			if j >= len(s) || s[j] < 0x40 || s[j] > 0x7e {
				return ansi.StringWidth(s)
			}
			i = j
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// Truncate is ansi.Truncate, at the cost of Width when s fits.
func Truncate(s string, w int, tail string) string {
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, tail)
}
