package badge

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
)

// Badge is what one badge shows.
type Badge struct {
	// Name is the person's name; the caller falls back to the email's
	// local part when there is none (see NameOrLocal).
	Name string
	// Company is their company or role at it, when known.
	Company string
	// Event is the event's name.
	Event string
	// Role is the ticket's role (ATTENDEE, SPEAKER), shown in words.
	Role string
	// Code is what the QR code holds: the ticket's qr_code_url, or its id.
	Code string
}

// NameOrLocal is name, or the local part of email when name is blank.
func NameOrLocal(name, email string) string {
	if strings.TrimSpace(name) != "" {
		return name
	}
	local, _, _ := strings.Cut(email, "@")
	return local
}

// value is the text a box shows for a badge.
func (b Badge) value(t Text) string {
	switch t.Field {
	case "":
		return t.Fixed
	case "name":
		return b.Name
	case "company":
		return b.Company
	case "event":
		return b.Event
	case "role":
		return roleWords(b.Role)
	case "code":
		return b.Code
	}
	return ""
}

// roleWords is a ticket role as a badge says it: "SPEAKER" is "Speaker".
func roleWords(role string) string {
	role = strings.ToLower(strings.ReplaceAll(strings.TrimSpace(role), "_", " "))
	if role == "" {
		return ""
	}
	return strings.ToUpper(role[:1]) + role[1:]
}

// Line is one text box as drawn: where, how large, and its segments in
// drawing order (for tests: what a badge says, right-to-left included).
type Line struct {
	Field  string
	XMM    float64
	BaseMM float64
	SizePt float64
	Parts  []Part
}

// Part is a run of one font.
type Part struct{ Font, Text string }

// String is the line as drawn, fonts named: "sansb:Ana Costa".
func (l Line) String() string {
	var parts []string
	for _, p := range l.Parts {
		parts = append(parts, p.Font+":"+p.Text)
	}
	return fmt.Sprintf("%-7s %5.1fpt x=%5.1f y=%5.1f  %s", l.Field, l.SizePt, l.XMM, l.BaseMM, strings.Join(parts, " | "))
}

const ptToMM = 25.4 / 72

// ErrNoBadges: Render was given none.
var ErrNoBadges = errors.New("badge: no badges to render")

// fixedDate stamps every PDF, so a badge renders the same bytes each time.
var fixedDate = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// newDoc starts a PDF of the layout's page size with the fonts the badges
// need, each cut to the characters it may draw (subset.go), and the CJK
// font only when some badge has CJK text.
func (l *Layout) newDoc(badges []Badge) *fpdf.Fpdf {
	pdf := fpdf.NewCustom(&fpdf.InitType{OrientationStr: "P", UnitStr: "mm",
		Size: fpdf.SizeType{Wd: l.WidthMM, Ht: l.HeightMM}})
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetMargins(0, 0, 0)
	pdf.SetCreationDate(fixedDate)
	pdf.SetModificationDate(fixedDate)
	pdf.SetCreator("evdesk", true)
	sans := l.sansRunes(badges)
	pdf.AddUTF8FontFromBytes(fontSans, "", cutFont(fontSans, sansTTF(), sans))
	pdf.AddUTF8FontFromBytes(fontSansBold, "", cutFont(fontSansBold, sansBoldTTF(), sans))
	if cjk := l.cjkRunes(badges); len(cjk) > 0 {
		pdf.AddUTF8FontFromBytes(fontCJK, "", cutFont(fontCJK, cjkTTF(), cjk))
	}
	return pdf
}

// Render writes one PDF with a page per badge.
func (l *Layout) Render(w io.Writer, badges ...Badge) error {
	if len(badges) == 0 {
		return ErrNoBadges
	}
	pdf := l.newDoc(badges)
	for i, b := range badges {
		pdf.AddPage()
		for _, line := range l.lines(pdf, b) {
			for _, p := range line.drawn {
				pdf.SetFont(p.font, "", line.SizePt)
				pdf.Text(p.x, line.BaseMM, p.text)
			}
		}
		if l.QR != nil && strings.TrimSpace(b.Code) != "" {
			m, err := Encode(strings.TrimSpace(b.Code))
			if err != nil {
				return fmt.Errorf("badge %d: %w", i+1, err)
			}
			drawQR(pdf, m, l.QR)
		}
		if err := pdf.Error(); err != nil {
			return fmt.Errorf("badge %d: %w", i+1, err)
		}
	}
	return pdf.Output(w)
}

// Lines lays out one badge without drawing it (for tests and previews).
func (l *Layout) Lines(b Badge) ([]Line, error) {
	pdf := l.newDoc([]Badge{b})
	pdf.AddPage()
	var out []Line
	for _, ln := range l.lines(pdf, b) {
		out = append(out, ln.Line)
	}
	return out, pdf.Error()
}

// placed is a line with each part's x.
type placed struct {
	Line
	drawn []drawnPart
}

type drawnPart struct {
	font, text string
	x          float64
}

// lines fits each text box: the largest size at which the line fits its
// box, down to the box's smallest; past that the line is cut (at its
// logical end, so a right-to-left name loses its last letters, as it
// should) and ends in an ellipsis.
func (l *Layout) lines(pdf *fpdf.Fpdf, b Badge) []placed {
	var out []placed
	for _, t := range l.Text {
		text := clean(b.value(t))
		if text == "" {
			continue
		}
		size, segs := fit(pdf, t, text)
		width := widthOf(pdf, segs, size)
		x := t.XMM
		switch t.Align {
		case "center":
			x += (t.WMM - width) / 2
		case "right":
			x += t.WMM - width
		}
		capHeight := 0.72 * size * ptToMM
		p := placed{Line: Line{Field: fieldName(t), XMM: x, BaseMM: t.YMM + (t.HMM+capHeight)/2, SizePt: size}}
		for _, s := range segs {
			p.Parts = append(p.Parts, Part{Font: s.font, Text: s.text})
			p.drawn = append(p.drawn, drawnPart{font: s.font, text: s.text, x: x})
			pdf.SetFont(s.font, "", size)
			x += pdf.GetStringWidth(s.text)
		}
		out = append(out, p)
	}
	return out
}

func fieldName(t Text) string {
	if t.Field == "" {
		return "fixed"
	}
	return t.Field
}

// fit finds the size and the text that fit box t.
func fit(pdf *fpdf.Fpdf, t Text, text string) (float64, []segment) {
	minSize := t.MinSizePt
	if minSize <= 0 {
		minSize = t.SizePt
	}
	fits := func(segs []segment, size float64) bool {
		return widthOf(pdf, segs, size) <= t.WMM && size*ptToMM*0.9 <= t.HMM
	}
	segs := visual(text, t.Bold)
	for size := t.SizePt; size >= minSize; size -= 0.5 {
		if fits(segs, size) {
			return size, segs
		}
	}
	// Too long even at the smallest size: keep as much as fits.
	runes := []rune(text)
	lo, hi := 0, len(runes) // runes[:lo]+"…" fits; runes[:hi]+"…" does not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if fits(visual(strings.TrimSpace(string(runes[:mid]))+"…", t.Bold), minSize) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return minSize, visual(strings.TrimSpace(string(runes[:lo]))+"…", t.Bold)
}

func widthOf(pdf *fpdf.Fpdf, segs []segment, size float64) float64 {
	w := 0.0
	for _, s := range segs {
		pdf.SetFont(s.font, "", size)
		w += pdf.GetStringWidth(s.text)
	}
	return w
}

// drawQR draws the code's dark modules as filled rectangles (a row's run
// of dark modules as one), inside a quiet zone of four modules.
func drawQR(pdf *fpdf.Fpdf, m Matrix, q *QR) {
	n := len(m)
	if n == 0 {
		return
	}
	mod := q.SizeMM / float64(n+8)
	x0, y0 := q.XMM+4*mod, q.YMM+4*mod
	pdf.SetFillColor(0, 0, 0)
	for y, row := range m {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			end := x
			for end < len(row) && row[end] {
				end++
			}
			pdf.Rect(x0+float64(x)*mod, y0+float64(y)*mod, float64(end-x)*mod, mod, "F")
			x = end
		}
	}
}
