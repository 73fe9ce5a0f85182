package badge

import (
	"testing"

	"github.com/tdewolff/font"
)

// The CJK font goes into a badge cut to the badge's characters, each of
// which it still draws; two characters of one glyph (a compatibility
// ideograph and its unified twin), which a cut font could map only one
// of, get the full font.
func TestTheCJKFontIsCutToTheBadge(t *testing.T) {
	if n := len(drawsEach(t, "山田 太郎株式会社サンプル")); n >= len(cjkTTF)/100 {
		t.Errorf("the font for a name is %d bytes of the full %d", n, len(cjkTTF))
	}
	if n := len(drawsEach(t, "\u66f4\uf901")); n != len(cjkTTF) {
		t.Errorf("two characters of one glyph: %d bytes, not the full font", n)
	}
}

// drawsEach is the CJK font for text, once checked to map each of its
// characters to a glyph.
func drawsEach(t *testing.T, text string) []byte {
	t.Helper()
	b := cjkFont([]rune(text))
	f, err := font.ParseSFNT(b, 0)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	for _, r := range text {
		if f.GlyphIndex(r) == 0 {
			t.Errorf("%q: the font lacks %q", text, r)
		}
	}
	return b
}
