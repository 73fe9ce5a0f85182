package badge

import (
	"slices"

	"github.com/tdewolff/font"
)

// The CJK font is large (4 MB, some 30,000 glyphs), and fpdf reads every
// font it is given in full, for each document, then cuts it down to the
// glyphs used as it writes: most of a CJK badge's time went there. So the
// badge gives fpdf the CJK font already cut to the characters its badges
// draw (tdewolff/font subsets it). The full font is parsed for each cut
// (under a millisecond: its tables are read as needed), because Subset
// changes the font it cuts from: a parsed font is never shared.

// cjkFont is the CJK font holding the glyphs of runes (and .notdef), or
// the full font when it cannot be cut so that every one of them stays.
func cjkFont(runes []rune) []byte {
	full, err := font.ParseSFNT(cjkTTF, 0)
	if err != nil || len(runes) == 0 {
		return cjkTTF
	}
	runes = slices.Clone(runes)
	slices.Sort(runes)
	runes = slices.Compact(runes)
	ids := []uint16{0}
	for _, r := range runes {
		if id := full.GlyphIndex(r); id != 0 && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	sub, err := full.Subset(ids, font.SubsetOptions{Tables: font.KeepMinTables})
	if err != nil {
		return cjkTTF
	}
	// A glyph two characters share maps back to one of them only: such a
	// character would be lost, so the full font serves.
	for _, r := range runes {
		if full.GlyphIndex(r) != 0 && sub.GlyphIndex(r) == 0 {
			return cjkTTF
		}
	}
	return sub.Write()
}

// cjkRunes are the characters of badges drawn with the CJK font: the CJK
// ones, and the space, which stays with the words before it (byFont).
func (l *Layout) cjkRunes(badges []Badge) []rune {
	var out []rune
	for _, b := range badges {
		for _, t := range l.Text {
			for _, r := range clean(b.value(t)) {
				if isCJK(r) {
					out = append(out, r)
				}
			}
		}
	}
	if len(out) > 0 {
		out = append(out, ' ')
	}
	return out
}
