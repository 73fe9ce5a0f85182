package badge

import (
	"fmt"

	"github.com/evdesk/evdesk/internal/qrcode"
)

// maxCodeBytes bounds what a badge's QR code holds: a ticket's link is
// under a few hundred bytes; version 40 holds about 2,300 at level M.
const maxCodeBytes = 1024

// Matrix is a QR code's modules, true where dark, rows top to bottom.
type Matrix = qrcode.Matrix

// Encode makes the QR code of text (error correction level M, which
// survives a scuffed badge).
func Encode(text string) (Matrix, error) {
	if len(text) > maxCodeBytes {
		return nil, fmt.Errorf("qr code: %d bytes is more than a badge's code holds (%d)", len(text), maxCodeBytes)
	}
	return qrcode.Encode(text, qrcode.Medium)
}
