package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Drawing parameters.
const (
	fontSize = 16 // pixels
	margin   = 12 // pixels of background around the terminal
)

// DejaVu Sans Mono (Debian's fonts-dejavu-core) draws symbols Go Mono lacks.
const (
	dejaVuRegular = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
	dejaVuBold    = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
)

// face is a font at the drawing size and the font itself, to ask whether
// it has a glyph.
type face struct {
	font *sfnt.Font
	face font.Face
}

func (f *face) has(r rune) bool {
	if f == nil {
		return false
	}
	var buf sfnt.Buffer
	i, err := f.font.GlyphIndex(&buf, r)
	return err == nil && i != 0
}

// rasterizer draws terminal cells with Go Mono: regular, bold, italic and
// bold italic; DejaVu Sans Mono for other symbols when installed; box
// drawing and block elements as shapes, so lines join across cells.
type rasterizer struct {
	mono     [4]*face // index: bold | italic<<1
	fallback [2]*face // regular, bold; nil when not installed
	cellW    int
	cellH    int
	ascent   int
}

func newRasterizer() (*rasterizer, error) {
	r := &rasterizer{}
	for i, data := range [][]byte{gomono.TTF, gomonobold.TTF, gomonoitalic.TTF, gomonobolditalic.TTF} {
		f, err := loadFace(data)
		if err != nil {
			return nil, fmt.Errorf("go mono: %w", err)
		}
		r.mono[i] = f
	}
	for i, path := range []string{dejaVuRegular, dejaVuBold} {
		if data, err := os.ReadFile(path); err == nil {
			if f, err := loadFace(data); err == nil {
				r.fallback[i] = f
			}
		}
	}
	m := r.mono[0].face.Metrics()
	adv, _ := r.mono[0].face.GlyphAdvance('M')
	r.cellW = adv.Ceil()
	r.ascent = m.Ascent.Ceil()
	r.cellH = (m.Ascent + m.Descent).Ceil() + 2
	return r, nil
}

func loadFace(data []byte) (*face, error) {
	f, err := opentype.Parse(data)
	if err != nil {
		return nil, err
	}
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: fontSize, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	return &face{font: f, face: fc}, nil
}

// png draws the cells and encodes the picture.
func (r *rasterizer) png(g [][]cell) ([]byte, error) {
	if len(g) == 0 || len(g[0]) == 0 {
		return nil, fmt.Errorf("empty screen")
	}
	w, h := len(g[0]), len(g)
	img := image.NewRGBA(image.Rect(0, 0, w*r.cellW+2*margin, h*r.cellH+2*margin))
	draw.Draw(img, img.Bounds(), image.NewUniform(termBg), image.Point{}, draw.Src)
	for y, row := range g {
		for x, c := range row {
			if c.width == 0 && c.text == "" {
				continue // covered by the wide character before it
			}
			r.drawCell(img, margin+x*r.cellW, margin+y*r.cellH, c)
		}
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func rgba(c color.Color, def color.RGBA) color.RGBA {
	if c == nil {
		return def
	}
	cr, cg, cb, _ := c.RGBA()
	return color.RGBA{uint8(cr >> 8), uint8(cg >> 8), uint8(cb >> 8), 0xFF}
}

func blend(a, b color.RGBA, t float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-t) + float64(y)*t)) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xFF}
}

func (r *rasterizer) drawCell(img *image.RGBA, px, py int, c cell) {
	st := c.style
	fg, bg := rgba(st.Fg, termFg), rgba(st.Bg, termBg)
	if st.Attrs&uv.AttrReverse != 0 {
		fg, bg = bg, fg
	}
	if st.Attrs&uv.AttrFaint != 0 {
		fg = blend(fg, bg, 0.45)
	}
	cw := r.cellW * max(1, c.width)
	rect := image.Rect(px, py, px+cw, py+r.cellH)
	draw.Draw(img, rect, image.NewUniform(bg), image.Point{}, draw.Src)
	ru, _ := utf8.DecodeRuneInString(c.text)
	switch {
	case c.text == "" || c.text == " " || st.Attrs&uv.AttrConceal != 0:
	case drawBox(img, rect, ru, fg, r.cellW):
	case drawBlock(img, rect, ru, fg, bg):
	default:
		r.drawText(img, px, py, c.text, ru, fg, st.Attrs)
	}
	if st.Underline != uv.UnderlineNone {
		y := py + r.ascent + 2
		draw.Draw(img, image.Rect(px, y, px+cw, y+1), image.NewUniform(rgba(st.UnderlineColor, fg)), image.Point{}, draw.Src)
	}
	if st.Attrs&uv.AttrStrikethrough != 0 {
		y := py + r.cellH/2
		draw.Draw(img, image.Rect(px, y, px+cw, y+1), image.NewUniform(fg), image.Point{}, draw.Src)
	}
}

func (r *rasterizer) drawText(img *image.RGBA, px, py int, text string, ru rune, fg color.RGBA, attrs uint8) {
	bold := attrs&uv.AttrBold != 0
	idx := 0
	if bold {
		idx |= 1
	}
	if attrs&uv.AttrItalic != 0 {
		idx |= 2
	}
	f := r.mono[idx]
	if !f.has(ru) {
		fb := r.fallback[0]
		if bold && r.fallback[1] != nil {
			fb = r.fallback[1]
		}
		if !fb.has(ru) {
			// No font has it: a hollow box marks the spot.
			box := image.Rect(px+2, py+3, px+r.cellW-2, py+r.cellH-3)
			strokeRect(img, box, fg)
			return
		}
		f = fb
	}
	d := font.Drawer{Dst: img, Src: image.NewUniform(fg), Face: f.face,
		Dot: fixed.P(px, py+r.ascent+1)}
	d.DrawString(text)
}

func strokeRect(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	u := image.NewUniform(c)
	for _, e := range []image.Rectangle{
		image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+1), image.Rect(r.Min.X, r.Max.Y-1, r.Max.X, r.Max.Y),
		image.Rect(r.Min.X, r.Min.Y, r.Min.X+1, r.Max.Y), image.Rect(r.Max.X-1, r.Min.Y, r.Max.X, r.Max.Y),
	} {
		draw.Draw(img, e, u, image.Point{}, draw.Src)
	}
}
