// Package badge makes a person's badge: a page or label with their name
// (large), their company, the event, the ticket's role and the ticket's QR
// code. The layout is data (a small TOML file: four sizes are built in);
// one renderer draws every layout with go-pdf/fpdf, fonts embedded (Latin,
// Greek, Cyrillic, Hebrew and Arabic from DejaVu Sans; Chinese, Japanese and
// Korean from Droid Sans Fallback), right-to-left text reordered and Arabic
// shaped (go-text/typesetting), and the QR code from yeqown/go-qrcode.
// Printing is elsewhere (package printing): a badge is only a PDF.
package badge

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evdesk/evdesk/config"
)

// Layout is where a badge's parts go on its page, in millimetres and
// points.
type Layout struct {
	Name     string  `toml:"name"`
	WidthMM  float64 `toml:"width_mm"`
	HeightMM float64 `toml:"height_mm"`
	Text     []Text  `toml:"text"`
	QR       *QR     `toml:"qr"`
}

// Text is one line of text in a box: a field of the badge, or fixed words.
type Text struct {
	// Field is one of Fields; Fixed is printed as it is instead.
	Field string  `toml:"field"`
	Fixed string  `toml:"fixed"`
	XMM   float64 `toml:"x_mm"`
	YMM   float64 `toml:"y_mm"`
	WMM   float64 `toml:"width_mm"`
	HMM   float64 `toml:"height_mm"`
	// SizePt is the largest size; a line too wide for the box shrinks to
	// MinSizePt, then is cut with an ellipsis.
	SizePt    float64 `toml:"size_pt"`
	MinSizePt float64 `toml:"min_size_pt"`
	Bold      bool    `toml:"bold"`
	// Align is left, center or right (for right-to-left text, left and
	// right keep their meaning on the page).
	Align string `toml:"align"`
}

// QR is the square of the ticket's code.
type QR struct {
	XMM    float64 `toml:"x_mm"`
	YMM    float64 `toml:"y_mm"`
	SizeMM float64 `toml:"size_mm"`
}

// Fields are the badge's fields a text box can show.
var Fields = []string{"name", "company", "event", "role", "code"}

// aligns are the values of Text.Align.
var aligns = []string{"left", "center", "right"}

//go:embed layouts/*.toml
var builtin embed.FS

// Builtin names the layouts that come with evdesk.
var Builtin = []string{"4x3", "4x6", "a6", "62mm"}

// DefaultLayout is the layout used when the profile names none.
const DefaultLayout = "4x3"

// maxLayoutBytes bounds a layout file: a layout is a few dozen lines.
const maxLayoutBytes = 64 << 10

// LoadLayout returns a built-in layout by name ("4x3", "4x6", "a6",
// "62mm"; "" is the default), or reads a layout file when name is a path
// (it holds a / or ends in .toml).
func LoadLayout(name string) (*Layout, error) {
	if name == "" {
		name = DefaultLayout
	}
	if slices.Contains(Builtin, name) {
		b, err := builtin.ReadFile("layouts/" + name + ".toml")
		if err != nil {
			return nil, err
		}
		return ParseLayout(b, name)
	}
	if !strings.ContainsRune(name, filepath.Separator) && !strings.Contains(name, "/") && !strings.HasSuffix(name, ".toml") {
		return nil, fmt.Errorf("badge layout %q: not a built-in layout (%s) nor a .toml file", name, strings.Join(Builtin, ", "))
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("badge layout: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxLayoutBytes+1))
	if err != nil {
		return nil, fmt.Errorf("badge layout %s: %w", name, err)
	}
	if len(b) > maxLayoutBytes {
		return nil, fmt.Errorf("badge layout %s: larger than %d KiB; a layout is a few dozen lines", name, maxLayoutBytes>>10)
	}
	return ParseLayout(b, name)
}

// layoutLimits bound a layout file: a few dozen lines.
var layoutLimits = config.TOMLLimits{What: "badge layout", MaxBytes: maxLayoutBytes, MaxEntries: 1000}

// ParseLayout reads a layout from TOML; source names it in errors.
func ParseLayout(b []byte, source string) (*Layout, error) {
	var l Layout
	// The guard every TOML file of evdesk passes: size and shape first.
	md, err := config.DecodeTOML(source, b, layoutLimits, &l)
	if err != nil {
		return nil, fmt.Errorf("badge layout %w", err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("badge layout %s: unknown key %s (keys: name, width_mm, height_mm, [[text]] field/fixed/x_mm/y_mm/width_mm/height_mm/size_pt/min_size_pt/bold/align, [qr] x_mm/y_mm/size_mm)",
			source, und[0])
	}
	if err := l.Validate(); err != nil {
		return nil, fmt.Errorf("badge layout %s: %w", source, err)
	}
	return &l, nil
}

// Limits of a layout: no label printer takes a page larger than A3, nor
// text larger than the page.
const (
	maxPageMM = 420
	maxSizePt = 200
)

// Validate checks that every part has a size and lies on the page.
func (l *Layout) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if l.WidthMM <= 0 || l.HeightMM <= 0 || l.WidthMM > maxPageMM || l.HeightMM > maxPageMM {
		bad("width_mm and height_mm must be between 0 and %d (got %g x %g)", maxPageMM, l.WidthMM, l.HeightMM)
	}
	inside := func(what string, x, y, w, h float64) {
		if x < 0 || y < 0 || w <= 0 || h <= 0 || x+w > l.WidthMM+0.01 || y+h > l.HeightMM+0.01 {
			bad("%s: the box (%g, %g) %g x %g mm does not lie on the %g x %g mm page", what, x, y, w, h, l.WidthMM, l.HeightMM)
		}
	}
	for i, t := range l.Text {
		what := fmt.Sprintf("text %d", i+1)
		switch {
		case t.Field == "" && t.Fixed == "":
			bad("%s: set field (one of %s) or fixed", what, strings.Join(Fields, ", "))
		case t.Field != "" && t.Fixed != "":
			bad("%s: set field or fixed, not both", what)
		case t.Field != "" && !slices.Contains(Fields, t.Field):
			bad("%s: field %q is not one of %s", what, t.Field, strings.Join(Fields, ", "))
		}
		if t.Align != "" && !slices.Contains(aligns, t.Align) {
			bad("%s: align %q is not one of %s", what, t.Align, strings.Join(aligns, ", "))
		}
		if t.SizePt <= 0 || t.SizePt > maxSizePt || t.MinSizePt < 0 || t.MinSizePt > t.SizePt {
			bad("%s: size_pt must be between 0 and %d, and min_size_pt at most size_pt (got %g, %g)", what, maxSizePt, t.SizePt, t.MinSizePt)
		}
		inside(what, t.XMM, t.YMM, t.WMM, t.HMM)
	}
	if q := l.QR; q != nil {
		inside("qr", q.XMM, q.YMM, q.SizeMM, q.SizeMM)
	}
	return errors.Join(errs...)
}
