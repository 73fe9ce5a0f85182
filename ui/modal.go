package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Modal draws box centred over base, an area of w x h cells, and returns the
// composed w x h block. The base stays visible around the box.
func Modal(base, box string, w, h int) string {
	base = Fit(base, w, h)
	bw, bh := lipgloss.Size(box)
	x, y := max(0, (w-bw)/2), max(0, (h-bh)/2)
	c := lipgloss.NewCompositor(
		lipgloss.NewLayer(base),
		lipgloss.NewLayer(box).X(x).Y(y).Z(1),
	)
	return Fit(c.Render(), w, h)
}

// Fit clips or pads s to exactly h lines of at most w cells, never wrapping,
// so a screen that renders too much cannot push the status bar off.
func Fit(s string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(len(s) + h*(w+1)) // frames are drawn often: one allocation
	rest, more := s, true
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		l := ""
		if more {
			l, rest, more = strings.Cut(rest, "\n")
		}
		lw := Width(l)
		if lw > w {
			l, lw = ansi.Truncate(l, w, "…"), w // a cut line says so
		}
		b.WriteString(l)
		WriteSpaces(&b, w-lw)
	}
	return b.String()
}

const spaces = "                                                                "

// AppendSpaces appends n spaces to dst.
func AppendSpaces(dst []byte, n int) []byte {
	for n > 0 {
		k := min(n, len(spaces))
		dst = append(dst, spaces[:k]...)
		n -= k
	}
	return dst
}

// WriteSpaces writes n spaces without making a string of them.
func WriteSpaces(b *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
}
