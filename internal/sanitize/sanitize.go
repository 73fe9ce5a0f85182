// Package sanitize makes untrusted text safe for a terminal. Text from the
// network, an imported file or a config file can carry escape sequences that
// set the clipboard or the window title, colours, hyperlinks, C1 controls,
// bidi overrides that reorder what the reader sees, and line breaks that
// break a one-line layout. Every such string passes through here before any
// terminal sees it: the CLI's output and every console view.
//
// One rule set serves all entry points:
//   - escape sequences (CSI, OSC, DCS, SOS, PM, APC and two-byte ESC forms,
//     in their 7-bit and C1 forms) are removed and marked with one U+FFFD;
//   - any other C0 control, DEL and C1 control is shown as U+FFFD;
//   - bidi embedding, override and isolate controls (U+202A-U+202E,
//     U+2066-U+2069) are shown as U+FFFD, so text cannot reorder itself;
//   - invalid UTF-8 becomes U+FFFD;
//   - Line shows a line break as "⏎" and a tab as a space; Text keeps line
//     breaks (CR LF and lone CR become LF) and expands tabs to spaces.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Placeholder marks what was removed or could not be shown.
const Placeholder = "\uFFFD"

// LineBreak marks a line break inside one-line text.
const LineBreak = "⏎"

// tabSpaces replaces a tab in multi-line text; a terminal's own tab stops
// would not line up with the layout around the text.
const tabSpaces = "    "

// mode says what the surrounding layout can take.
type mode int

const (
	oneLine   mode = iota // a table cell, a title, a status line
	multiLine             // a detail pane, a message body
	stream                // a whole output stream: tabs are the caller's own
)

// Line returns s safe to print on one line of a terminal.
func Line(s string) string { return clean(s, oneLine) }

// Text returns s safe to print in a terminal, keeping its line breaks.
func Text(s string) string { return clean(s, multiLine) }

// Lines sanitises each string of ss with Line, in place, and returns ss.
func Lines(ss []string) []string {
	for i, s := range ss {
		ss[i] = Line(s)
	}
	return ss
}

// clean is the one implementation behind Line and Text.
func clean(s string, m mode) string {
	if isPlain(s) {
		return s // the common case: printable ASCII, no allocation
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
			i++
		case c == '\n' || c == '\r':
			if c == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++ // CR LF is one break
			}
			b.WriteString(lineBreak(m))
			i++
		case c == '\t':
			switch m {
			case oneLine:
				b.WriteByte(' ')
			case multiLine:
				b.WriteString(tabSpaces)
			default:
				b.WriteByte('\t')
			}
			i++
		case c == 0x1b:
			i += escapeLen(s, i)
			b.WriteString(Placeholder)
		case c < 0x80: // other C0 controls and DEL
			b.WriteString(Placeholder)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size <= 1:
				b.WriteString(Placeholder)
			case isC1(r):
				if n := c1StringLen(s, i+size, r); n > 0 {
					size += n
				}
				b.WriteString(Placeholder)
			case isBidiControl(r):
				b.WriteString(Placeholder)
			case r == '\u2028' || r == '\u2029': // line and paragraph separators
				b.WriteString(lineBreak(m))
			default:
				b.WriteString(s[i : i+size])
			}
			i += size
		}
	}
	return b.String()
}

func lineBreak(m mode) string {
	if m == oneLine {
		return LineBreak
	}
	return "\n"
}

// isPlain reports whether s is printable ASCII only.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// isBidiControl reports the embedding, override and isolate controls that
// can make text display in an order other than the one it is read in.
func isBidiControl(r rune) bool {
	return (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069')
}

// escapeLen returns the length of the escape sequence starting with the ESC
// at s[i]. An unterminated string sequence counts as the lone ESC, so the
// text after it stays visible (and harmless, its introducer being gone).
func escapeLen(s string, i int) int {
	j := i + 1
	if j >= len(s) {
		return 1
	}
	switch s[j] {
	case '[': // CSI: parameters, intermediates, one final byte
		return 2 + csiLen(s, j+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: a string to its terminator
		if n := stringLen(s, j+1); n >= 0 {
			return 2 + n
		}
		return 1
	}
	// nF / Fp / Fe / Fs forms: intermediates 0x20-0x2F, then one final byte.
	k := j
	for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
		k++
	}
	if k < len(s) && s[k] >= 0x30 && s[k] <= 0x7e {
		return k + 1 - i
	}
	return 1
}

// csiLen is the length of a CSI sequence's body starting at s[j] (after
// "ESC [" or the C1 CSI): it stops at the final byte, or before the first
// byte that cannot belong to the sequence.
func csiLen(s string, j int) int {
	k := j
	for k < len(s) && s[k] >= 0x20 && s[k] <= 0x3f {
		k++
	}
	if k < len(s) && s[k] >= 0x40 && s[k] <= 0x7e {
		k++
	}
	return k - j
}

// stringLen is the length of a control string's body and terminator (BEL,
// ESC \ or the C1 ST) starting at s[j], or -1 when it has none.
func stringLen(s string, j int) int {
	for k := j; k < len(s); k++ {
		switch {
		case s[k] == 0x07:
			return k + 1 - j
		case s[k] == 0x1b && k+1 < len(s) && s[k+1] == '\\':
			return k + 2 - j
		case s[k] == 0xc2 && k+1 < len(s) && s[k+1] == 0x9c: // U+009C ST
			return k + 2 - j
		}
	}
	return -1
}

// c1StringLen is the length of what follows a C1 introducer at s[j] that
// belongs to its sequence (CSI body, or a terminated control string), else 0.
func c1StringLen(s string, j int, r rune) int {
	switch r {
	case 0x9b: // CSI
		return csiLen(s, j)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // OSC, DCS, SOS, PM, APC
		return max(stringLen(s, j), 0)
	}
	return 0
}

// CSVCell returns s safe for a CSV file that a spreadsheet may open: the
// sanitiser's rules (line breaks and tabs kept, since CSV quotes them), and
// a cell that a spreadsheet would run as a formula (starting with =, +, -,
// @, a tab or a line break) is prefixed with an apostrophe. A plain number, such as
// -12.5, is data and stays as it is.
func CSVCell(s string) string {
	s = clean(s, stream)
	if s == "" || !strings.ContainsRune("=+-@\t\r\n", rune(s[0])) || isNumber(s) {
		return s
	}
	return "'" + s
}

// CSVRow applies CSVCell to every cell of row, in place, and returns it.
func CSVRow(row []string) []string {
	for i, c := range row {
		row[i] = CSVCell(c)
	}
	return row
}

// isNumber reports a plain decimal number: an optional sign, digits, and at
// most one decimal point.
func isNumber(s string) bool {
	if s[0] == '-' || s[0] == '+' {
		s = s[1:]
	}
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			return false
		}
	}
	return digits > 0
}

// Field sanitises one field of an answer for the console: multi-line text
// keeps its line breaks, everything else is one line. It fits
// api.WithStringFilter.
func Field(s string, multiline bool) string {
	if multiline {
		return Text(s)
	}
	return Line(s)
}
