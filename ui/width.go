package ui

import (
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Width is ansi.StringWidth with a fast path for what frames are mostly
// made of, printable ASCII, CSI sequences (colours) and narrow punctuation
// and box drawing, whose width is their count of runes; anything else goes to ansi.StringWidth, whose
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
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !narrow(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size - 1
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// narrow says r is one column whatever follows it: the frames' punctuation
// and box drawing. A rune that may join the one before it (a combining mark,
// a joiner, a variation selector) is never narrow, so it goes the slow way.
func narrow(r rune) bool {
	switch {
	case r >= 0xa1 && r <= 0xff && r != 0xad: // Latin-1, not the soft hyphen
		return true
	case r >= 0x2010 && r <= 0x2027: // dashes, quotes, bullets, "…"
		return true
	case r >= 0x2190 && r <= 0x21ff: // arrows
		return true
	case r >= 0x2500 && r <= 0x257f: // box drawing
		return true
	}
	return false
}

// Truncate is ansi.Truncate, at the cost of Width when s fits.
func Truncate(s string, w int, tail string) string {
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, tail)
}
