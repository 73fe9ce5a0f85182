package badge

import (
	"slices"
	"sync"
	"unicode"

	"github.com/tdewolff/font"
)

// fpdf reads every font it is given in full, for each document, then cuts
// it down to the glyphs used as it writes. The CJK font is large (4 MB,
// some 30,000 glyphs): most of a CJK badge's time went there, and DejaVu's
// 6,000 glyphs cost every badge too. So a badge gives fpdf its fonts
// already cut to the characters it may draw (tdewolff/font subsets them;
// each font is parsed once per process).

// parsedFont is an embedded font, parsed once.
type parsedFont struct {
	once sync.Once
	sfnt *font.SFNT
}

var parsed = map[string]*parsedFont{fontSans: {}, fontSansBold: {}, fontCJK: {}}

// cutFont is the font ttf (the PDF's font name) holding the glyphs of
// runes (and .notdef), or ttf itself when it cannot be cut so that every
// one it draws stays.
func cutFont(name string, ttf []byte, runes []rune) []byte {
	p := parsed[name]
	p.once.Do(func() { p.sfnt, _ = font.ParseSFNT(ttf, 0) })
	full := p.sfnt
	if full == nil || len(runes) == 0 {
		return ttf
	}
	runes = slices.Clone(runes)
	slices.Sort(runes)
	runes = slices.Compact(runes)
	ids := []uint16{0}
	seen := map[uint16]bool{0: true}
	for _, r := range runes {
		if id := full.GlyphIndex(r); !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	sub, err := subset(full, ids)
	if err != nil {
		return ttf
	}
	// A glyph two characters share maps back to one of them only: such a
	// character would be lost, so the full font serves.
	for _, r := range runes {
		if full.GlyphIndex(r) != 0 && sub.GlyphIndex(r) == 0 {
			return ttf
		}
	}
	return sub.Write()
}

// subset cuts full down to glyph ids. Subset writes into the tables it
// copies over by pointer (maxp, head, hhea, OS/2: tdewolff/font at the
// pinned version), so it works on a copy of them: the parsed font stays
// as parsed, and cuts may run at once. Its cmap's lookups are safe for
// concurrent use.
func subset(full *font.SFNT, ids []uint16) (*font.SFNT, error) {
	c := *full
	c.Maxp, c.Head, c.Hhea, c.OS2 = clone(full.Maxp), clone(full.Head), clone(full.Hhea), clone(full.OS2)
	return c.Subset(ids, font.SubsetOptions{Tables: font.KeepMinTables})
}

// clone is a copy of *p, or nil.
func clone[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// cjkRunes are the characters of badges drawn with the CJK font: the CJK
// ones, and the space, which stays with the words before it (byFont).
func (l *Layout) cjkRunes(badges []Badge) []rune {
	var out []rune
	l.eachRune(badges, func(r rune) {
		if isCJK(r) {
			out = append(out, r)
		}
	})
	if len(out) > 0 {
		out = append(out, ' ')
	}
	return out
}

// sansRunes are the characters the DejaVu fonts may draw for badges: their
// own, the ellipsis of a line cut short, the mirrored brackets of a
// right-to-left run, and with Arabic the letters' presentation forms (a
// line cut short ends in another form than the whole name has).
func (l *Layout) sansRunes(badges []Badge) []rune {
	out := []rune{' ', '…'}
	arabic := false
	l.eachRune(badges, func(r rune) {
		if !isCJK(r) {
			out = append(out, r)
			arabic = arabic || unicode.Is(unicode.Arabic, r)
		}
	})
	for k, v := range mirror {
		out = append(out, k, v)
	}
	if arabic {
		for _, span := range [][2]rune{{0x0600, 0x06ff}, {0xfb50, 0xfdff}, {0xfe70, 0xfeff}} {
			for r := span[0]; r <= span[1]; r++ {
				out = append(out, r)
			}
		}
	}
	return out
}

// eachRune calls f with each character the badges' text boxes hold.
func (l *Layout) eachRune(badges []Badge, f func(rune)) {
	for _, b := range badges {
		for _, t := range l.Text {
			for _, r := range clean(b.value(t)) {
				f(r)
			}
		}
	}
}
