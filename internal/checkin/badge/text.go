package badge

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/go-text/typesetting/bidi"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
)

// The badge's fonts, by the names the PDF knows them.
const (
	fontSans     = "sans"
	fontSansBold = "sansb"
	fontCJK      = "cjk"
)

// maxFieldRunes bounds a field: a badge holds a name, not a book.
const maxFieldRunes = 120

// clean makes text from outside safe to lay out: control and format
// characters (bidi overrides, zero-width tricks) are dropped, except the
// joiners Arabic and Indic text need; runs of space become one space; the
// text is bounded.
func clean(s string) string {
	var b strings.Builder
	n := 0
	space := false
	for _, r := range s {
		switch {
		case r == '\u200c' || r == '\u200d':
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == unicode.ReplacementChar,
			unicode.Is(unicode.Co, r), unicode.Is(unicode.Cs, r):
			continue
		}
		if n == maxFieldRunes {
			break
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
			n++
		}
		space = false
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// segment is a piece of a line in one font, its characters in the order
// they are drawn (left to right on the page).
type segment struct {
	font string
	text string
}

// isCJK reports whether r is drawn with the CJK font.
func isCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo) ||
		(r >= 0x3000 && r <= 0x303f) || // CJK punctuation
		(r >= 0xff00 && r <= 0xffef) // full and half width forms
}

// visual lays out a line: the bidi algorithm splits it into runs of one
// direction, the runs are put in the order they are drawn, right-to-left
// runs are reversed (Arabic is shaped first, into the presentation forms
// the font draws), and the result is split by font.
func visual(s string, bold bool) []segment {
	text := []rune(s)
	if len(text) == 0 {
		return nil
	}
	var p bidi.Paragraph
	runs := p.Segment(text, bidi.Neutral)
	type run struct {
		start, end int
		level      int
	}
	rs := make([]run, runs.NumRuns())
	for i := range rs {
		r := runs.Run(i)
		rs[i] = run{r.Start, r.End, int(r.Level)}
	}
	// Rule L2: from the highest level to the lowest odd one, reverse
	// every sequence of runs at that level or above.
	top, lowOdd := 0, 1<<30
	for _, r := range rs {
		top = max(top, r.level)
		if r.level%2 == 1 {
			lowOdd = min(lowOdd, r.level)
		}
	}
	for lvl := top; lvl >= lowOdd; lvl-- {
		for i := 0; i < len(rs); {
			if rs[i].level < lvl {
				i++
				continue
			}
			j := i
			for j < len(rs) && rs[j].level >= lvl {
				j++
			}
			slices.Reverse(rs[i:j])
			i = j
		}
	}
	var out []rune
	for _, r := range rs {
		part := text[r.start:r.end]
		if r.level%2 == 0 {
			out = append(out, part...)
			continue
		}
		out = append(out, rightToLeft(text, r.start, r.end, bold)...)
	}
	return byFont(out, bold)
}

// rightToLeft returns text[start:end], a right-to-left run, in drawing
// order: shaped when it holds Arabic, else reversed with its brackets
// mirrored.
func rightToLeft(text []rune, start, end int, bold bool) []rune {
	if slices.ContainsFunc(text[start:end], func(r rune) bool { return unicode.Is(unicode.Arabic, r) }) {
		if shaped, ok := shapeArabic(text, start, end, bold); ok {
			return shaped
		}
	}
	out := slices.Clone(text[start:end])
	slices.Reverse(out)
	for i, r := range out {
		if m, ok := mirror[r]; ok {
			out[i] = m
		}
	}
	return out
}

var mirror = map[rune]rune{'(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<', '«': '»', '»': '«'}

// byFont splits drawn text into segments of one font.
func byFont(text []rune, bold bool) []segment {
	latin := fontSans
	if bold {
		latin = fontSansBold
	}
	var out []segment
	start := 0
	fonts := make([]string, len(text))
	for i, r := range text {
		switch {
		case isCJK(r):
			fonts[i] = fontCJK
		case r == ' ' && i > 0:
			fonts[i] = fonts[i-1] // a space stays with the words before it
		default:
			fonts[i] = latin
		}
	}
	fontOf := func(i int) string { return fonts[i] }
	for i := 1; i <= len(text); i++ {
		if i == len(text) || fontOf(i) != fontOf(start) {
			out = append(out, segment{font: fontOf(start), text: string(text[start:i])})
			start = i
		}
	}
	return out
}

// shaper is a font prepared for shaping: the face, and the characters
// that name its glyphs, so shaped glyphs go back to text the PDF font
// draws with those glyphs (the Arabic presentation forms). A face caches
// as it shapes: one shaping at a time.
type shaper struct {
	mu    sync.Mutex
	face  *font.Face
	chars map[font.GID]rune
	hb    shaping.HarfbuzzShaper
}

var (
	shapers    [2]*shaper // regular, bold
	shaperOnce [2]sync.Once
)

func shaperFor(bold bool) *shaper {
	i := 0
	if bold {
		i = 1
	}
	shaperOnce[i].Do(func() {
		face, err := font.ParseTTF(bytes.NewReader(fontBytes(bold)))
		if err != nil {
			return
		}
		s := &shaper{face: face, chars: map[font.GID]rune{}}
		// The presentation forms first, so a glyph that is also a base
		// letter's goes back to its form as drawn.
		for _, span := range [][2]rune{{0xfb50, 0xfdff}, {0xfe70, 0xfeff}, {0x0600, 0x06ff}} {
			for r := span[0]; r <= span[1]; r++ {
				if g, ok := face.NominalGlyph(r); ok {
					if _, dup := s.chars[g]; !dup {
						s.chars[g] = r
					}
				}
			}
		}
		shapers[i] = s
	})
	return shapers[i]
}

// shapeArabic shapes an Arabic right-to-left run; ok is false when a
// glyph has no character to stand for it (the run is then reversed as it
// is, which still reads, unjoined).
func shapeArabic(text []rune, start, end int, bold bool) ([]rune, bool) {
	s := shaperFor(bold)
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.hb.Shape(shaping.Input{Text: text, RunStart: start, RunEnd: end, Direction: di.DirectionRTL,
		Face: s.face, Size: fixed.I(12), Script: language.Arabic, Language: language.NewLanguage("ar")})
	drawn := make([]rune, 0, len(out.Glyphs))
	for _, g := range out.Glyphs {
		if r, ok := s.chars[g.GlyphID]; ok {
			drawn = append(drawn, r)
			continue
		}
		// A glyph outside the Arabic block (a space, a digit) is its
		// own character, when it stands for one.
		if g.RunesCount() != 1 || g.TextIndex() < start || g.TextIndex() >= end {
			return nil, false
		}
		drawn = append(drawn, text[g.TextIndex()])
	}
	return drawn, true
}
