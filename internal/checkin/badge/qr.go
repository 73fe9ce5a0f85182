package badge

import (
	"fmt"

	qrcode "github.com/yeqown/go-qrcode/v2"
)

// maxCodeBytes bounds what a badge's QR code holds: a ticket's link is
// under a few hundred bytes; version 40 holds about 2,300 at level M.
const maxCodeBytes = 1024

// Matrix is a QR code's modules, true where dark, rows top to bottom.
type Matrix [][]bool

// Encode makes the QR code of text (error correction level M, which
// survives a scuffed badge).
func Encode(text string) (Matrix, error) {
	if text == "" {
		return nil, fmt.Errorf("qr code: nothing to encode")
	}
	if len(text) > maxCodeBytes {
		return nil, fmt.Errorf("qr code: %d bytes is more than a badge's code holds (%d)", len(text), maxCodeBytes)
	}
	q, err := qrcode.NewWith(text, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium))
	if err != nil {
		return nil, fmt.Errorf("qr code: %w", err)
	}
	var c capture
	if err := q.Save(&c); err != nil {
		return nil, fmt.Errorf("qr code: %w", err)
	}
	return c.m, nil
}

// capture is a qrcode.Writer that keeps the matrix.
type capture struct{ m Matrix }

func (c *capture) Write(mat qrcode.Matrix) error { c.m = mat.Bitmap(); return nil }
func (c *capture) Close() error                  { return nil }
