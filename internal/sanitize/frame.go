package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Frame filters a whole rendered console frame: the theme's colour
// sequences (SGR: ESC [ parameters m) and line breaks pass; every other
// escape sequence is removed, and other controls, C1 controls, bidi
// controls and invalid UTF-8 become U+FFFD. Screens sanitise server text
// where they show it, which also stops server colours and line breaks; this
// pass only guarantees that nothing else ever reaches the terminal.
func Frame(s string) string {
	i := frameClean(s)
	if i == len(s) {
		return s // the common case: nothing to filter
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == 0x1b:
			n := escapeLen(s, i)
			if isSGR(s[i : i+n]) {
				b.WriteString(s[i : i+n])
			}
			i += n
		case c == '\n' || (c >= 0x20 && c < 0x7f):
			b.WriteByte(c)
			i++
		case c == '\t':
			b.WriteByte(' ')
			i++
		case c < 0x80:
			b.WriteString(Placeholder)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size <= 1) || isC1(r) || isBidiControl(r) {
				b.WriteString(Placeholder)
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
		}
	}
	return b.String()
}

// frameClean returns how much of s needs no filtering.
func frameClean(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n' || (c >= 0x20 && c < 0x7f):
			i++
		case c == 0x1b:
			n := escapeLen(s, i)
			if !isSGR(s[i : i+n]) {
				return i
			}
			i += n
		case c < 0x80:
			return i
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if (r == utf8.RuneError && size <= 1) || isC1(r) || isBidiControl(r) {
				return i
			}
			i += size
		}
	}
	return len(s)
}

// isSGR reports whether seq is exactly one Select Graphic Rendition
// sequence: ESC [, digits with ; or : separators, m.
func isSGR(seq string) bool {
	if len(seq) < 3 || seq[1] != '[' || seq[len(seq)-1] != 'm' {
		return false
	}
	for i := 2; i < len(seq)-1; i++ {
		if c := seq[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}
