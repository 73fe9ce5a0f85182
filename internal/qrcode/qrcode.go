// Package qrcode makes QR codes (with yeqown/go-qrcode) as module matrices,
// for a badge's drawing, and as PNG images, for a code to print or show.
package qrcode

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"

	qr "github.com/yeqown/go-qrcode/v2"
)

// Matrix is a QR code's modules, true where dark, rows top to bottom.
type Matrix [][]bool

// Level is how much of a code may be damaged and still read.
type Level int

// The levels a caller picks from: Medium for what gets scuffed (a badge),
// Low for the most a code can hold (a screen or a clean sheet).
const (
	Low Level = iota
	Medium
)

// Encode makes the QR code of text. A text of capital letters, digits and
// " $%*+-./:" is held in the denser alphanumeric mode.
func Encode(text string, level Level) (Matrix, error) {
	if text == "" {
		return nil, errors.New("qr code: nothing to encode")
	}
	ecc := qr.ErrorCorrectionLow
	if level == Medium {
		ecc = qr.ErrorCorrectionMedium
	}
	q, err := qr.NewWith(text, qr.WithErrorCorrectionLevel(ecc))
	if err != nil {
		return nil, fmt.Errorf("qr code: %w", err)
	}
	var c capture
	if err := q.Save(&c); err != nil {
		return nil, fmt.Errorf("qr code: %w", err)
	}
	return c.m, nil
}

// capture is a qr.Writer that keeps the matrix.
type capture struct{ m Matrix }

func (c *capture) Write(mat qr.Matrix) error { c.m = mat.Bitmap(); return nil }
func (c *capture) Close() error              { return nil }

// quiet is the light border a reader needs around a code, in modules.
const quiet = 4

// WritePNG draws m as a black and white PNG, scale pixels a module, with
// the quiet border around it.
func WritePNG(w io.Writer, m Matrix, scale int) error {
	if len(m) == 0 || scale < 1 {
		return errors.New("qr code: nothing to draw")
	}
	return png.Encode(w, Image(m, scale))
}

// Image draws m in black and white, scale pixels a module, with the quiet
// border around it.
func Image(m Matrix, scale int) *image.Gray {
	side := (len(m) + 2*quiet) * scale
	img := image.NewGray(image.Rect(0, 0, side, side))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for y, row := range m {
		for x, dark := range row {
			if !dark {
				continue
			}
			for dy := range scale {
				for dx := range scale {
					img.SetGray((x+quiet)*scale+dx, (y+quiet)*scale+dy, color.Gray{})
				}
			}
		}
	}
	return img
}
