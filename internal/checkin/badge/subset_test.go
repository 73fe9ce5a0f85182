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
	for _, c := range []struct {
		text string
		cut  bool
	}{
		{"山田 太郎株式会社サンプル", true},
		{"\u66f4\uf901", false},
	} {
		b := cjkFont([]rune(c.text))
		if cut := len(b) < len(cjkTTF)/100; cut != c.cut {
			t.Errorf("%q: %d bytes of the font's %d (cut %v, want %v)", c.text, len(b), len(cjkTTF), cut, c.cut)
		}
		f, err := font.ParseSFNT(b, 0)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		for _, r := range c.text {
			if f.GlyphIndex(r) == 0 {
				t.Errorf("%q: the font lacks %q", c.text, r)
			}
		}
	}
}
