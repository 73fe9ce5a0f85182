package sanitize

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// Writer passes everything written to it through the sanitiser before the
// underlying stream (a terminal, a pipe) sees it. Line breaks and tabs pass;
// escape sequences, controls and bidi overrides do not. It is the CLI's last
// line of defence: cells and messages are sanitised where they are built,
// and whatever a future print site forgets is still caught here.
type Writer struct {
	w    io.Writer
	tail []byte // an incomplete UTF-8 sequence held for the next Write
}

// NewWriter wraps w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write sanitises p and writes it. It reports len(p) on success, as callers
// count their own bytes, not the sanitised ones.
func (s *Writer) Write(p []byte) (int, error) {
	data := p
	if len(s.tail) > 0 {
		data = append(s.tail, p...)
		s.tail = nil
	}
	// Hold back a rune cut by the write boundary; it completes next time.
	if cut := incompleteTail(data); cut > 0 {
		s.tail = append([]byte(nil), data[len(data)-cut:]...)
		data = data[:len(data)-cut]
	}
	if _, err := io.WriteString(s.w, clean(string(data), stream)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a held-back incomplete rune as a placeholder.
func (s *Writer) Flush() error {
	if len(s.tail) == 0 {
		return nil
	}
	s.tail = nil
	_, err := io.WriteString(s.w, Placeholder)
	return err
}

// Unwrap returns the underlying stream (to ask whether it is a terminal).
func (s *Writer) Unwrap() io.Writer { return s.w }

// incompleteTail returns how many bytes at the end of b start a UTF-8
// sequence that is not complete yet (0 to 3).
func incompleteTail(b []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}

// JSON escapes, in encoded JSON, the characters a terminal could act on
// although JSON allows them raw: C1 controls and bidi controls become \u
// escapes, so the data stays exact and the terminal stays safe. (The
// encoder already escapes C0 controls, U+2028 and U+2029.)
func JSON(encoded []byte) []byte {
	if isPlain(string(encoded)) || !bytes.ContainsFunc(encoded, needsJSONEscape) {
		return encoded
	}
	var b bytes.Buffer
	b.Grow(len(encoded) + 16)
	for i := 0; i < len(encoded); {
		r, size := utf8.DecodeRune(encoded[i:])
		if needsJSONEscape(r) {
			const hex = "0123456789abcdef"
			b.WriteString(`\u`)
			b.WriteByte(hex[r>>12&0xf])
			b.WriteByte(hex[r>>8&0xf])
			b.WriteByte(hex[r>>4&0xf])
			b.WriteByte(hex[r&0xf])
		} else {
			b.Write(encoded[i : i+size])
		}
		i += size
	}
	return b.Bytes()
}

func needsJSONEscape(r rune) bool { return isC1(r) || isBidiControl(r) }
