package badge

import (
	"bytes"
	"sync"
	"testing"

	"github.com/tdewolff/font"
)

// The CJK font goes into a badge cut to the badge's characters, each of
// which it still draws; two characters of one glyph (a compatibility
// ideograph and its unified twin), which a cut font could map only one
// of, get the full font.
func TestTheCJKFontIsCutToTheBadge(t *testing.T) {
	if n := len(drawsEach(t, "山田 太郎株式会社サンプル")); n >= len(cjkTTF())/100 {
		t.Errorf("the font for a name is %d bytes of the full %d", n, len(cjkTTF()))
	}
	if n := len(drawsEach(t, "\u66f4\uf901")); n != len(cjkTTF()) {
		t.Errorf("two characters of one glyph: %d bytes, not the full font", n)
	}
}

// drawsEach is the CJK font for text, once checked to map each of its
// characters to a glyph.
func drawsEach(t *testing.T, text string) []byte {
	t.Helper()
	b := cutFont(fontCJK, cjkTTF(), []rune(text))
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

// Cuts of one font may run at once (the desk's print queue, a CLI run),
// and leave the parsed font as it was: a cut made again is the same.
func TestCutsLeaveTheFontAsParsed(t *testing.T) {
	first := cutFont(fontCJK, cjkTTF(), []rune("山田"))
	var wg sync.WaitGroup
	for _, text := range []string{"株式会社", "サンプル", "太郎", "東京"} {
		wg.Go(func() {
			if b := cutFont(fontCJK, cjkTTF(), []rune(text)); len(b) == len(cjkTTF()) {
				t.Errorf("%q: not cut", text)
			}
		})
	}
	wg.Wait()
	if again := cutFont(fontCJK, cjkTTF(), []rune("山田")); !bytes.Equal(first, again) {
		t.Fatal("the same characters cut from the font again give another font")
	}
}
