package badge

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/go-pdf/fpdf"
)

// BenchmarkAnchorEmptyPDF is the anchor the badge figures are read
// against: fpdf writing one empty page with no fonts.
func BenchmarkAnchorEmptyPDF(b *testing.B) {
	for b.Loop() {
		pdf := fpdf.New("P", "mm", "A6", "")
		pdf.AddPage()
		if err := pdf.Output(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderBadge is one badge as the desk prints it (target: under
// 50 ms), per script.
func BenchmarkRenderBadge(b *testing.B) {
	l, err := LoadLayout("4x3")
	if err != nil {
		b.Fatal(err)
	}
	for _, who := range []string{"latin", "arabic", "cjk"} {
		b.Run(who, func(b *testing.B) {
			// The Arabic shaper's font is read once per process: a desk
			// pays it once, not per badge.
			if err := l.Render(io.Discard, people[who]); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				var buf bytes.Buffer
				if err := l.Render(&buf, people[who]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRender500 is `evdesk badge print --all` for 500 people (target:
// under 10 s).
func BenchmarkRender500(b *testing.B) {
	l, err := LoadLayout("4x3")
	if err != nil {
		b.Fatal(err)
	}
	all := make([]Badge, 500)
	for i := range all {
		all[i] = Badge{Name: fmt.Sprintf("Person Number %d", i), Company: "Contoso", Event: "Launch Week",
			Role: "ATTENDEE", Code: fmt.Sprintf("https://events.vendor.example/qr?t=T%011d", i)}
	}
	for b.Loop() {
		if err := l.Render(io.Discard, all...); err != nil {
			b.Fatal(err)
		}
	}
}
