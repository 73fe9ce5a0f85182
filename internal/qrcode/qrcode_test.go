package qrcode

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"
)

// A code drawn as a PNG reads back with a QR reader (gozxing), at both
// levels, with the quiet border a reader needs.
func TestAPNGReadsBack(t *testing.T) {
	for _, c := range []struct {
		text  string
		level Level
	}{
		{"https://events.vendor.example/qr?t=UASe4Eg74boZ", Medium},
		{"EVDESK-VENUE1:" + strings.Repeat("ABCDEFGH234567", 120), Low},
	} {
		m, err := Encode(c.text, c.level)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WritePNG(&b, m, 3); err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatal(err)
		}
		if w := img.Bounds().Dx(); w != (len(m)+2*quiet)*3 {
			t.Fatalf("%d pixels wide for %d modules", w, len(m))
		}
		bmp, err := gozxing.NewBinaryBitmapFromImage(img)
		if err != nil {
			t.Fatal(err)
		}
		// PURE_BARCODE: the image is the code alone (the reader's search
		// for finder patterns misplaces a dense code's now and then).
		res, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
		if err != nil || res.GetText() != c.text {
			t.Fatalf("%.30q read back as %v, %v", c.text, res, err)
		}
	}
}

func TestNothingToEncodeOrDrawIsRefused(t *testing.T) {
	if _, err := Encode("", Low); err == nil {
		t.Fatal("an empty code was made")
	}
	if err := WritePNG(&bytes.Buffer{}, nil, 3); err == nil {
		t.Fatal("an empty matrix was drawn")
	}
	if _, err := Encode(strings.Repeat("x", 5000), Low); err == nil {
		t.Fatal("5000 bytes were encoded: more than a code holds")
	}
}
