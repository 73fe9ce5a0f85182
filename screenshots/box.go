package main

import (
	"image"
	"image/color"
	"image/draw"
	"math"
)

// Line weights of a box-drawing arm.
const (
	none = iota
	light
	heavy
	double
)

// arms are a box-drawing character's arms: up, right, down, left.
type arms struct {
	up, right, down, left int
	rounded, dashed       bool
}

var boxChars = map[rune]arms{
	'─': {right: light, left: light}, '│': {up: light, down: light},
	'┌': {right: light, down: light}, '┐': {left: light, down: light},
	'└': {up: light, right: light}, '┘': {up: light, left: light},
	'├': {up: light, down: light, right: light}, '┤': {up: light, down: light, left: light},
	'┬': {left: light, right: light, down: light}, '┴': {left: light, right: light, up: light},
	'┼': {up: light, right: light, down: light, left: light},
	'━': {right: heavy, left: heavy}, '┃': {up: heavy, down: heavy},
	'┏': {right: heavy, down: heavy}, '┓': {left: heavy, down: heavy},
	'┗': {up: heavy, right: heavy}, '┛': {up: heavy, left: heavy},
	'┣': {up: heavy, down: heavy, right: heavy}, '┫': {up: heavy, down: heavy, left: heavy},
	'┳': {left: heavy, right: heavy, down: heavy}, '┻': {left: heavy, right: heavy, up: heavy},
	'╋': {up: heavy, right: heavy, down: heavy, left: heavy},
	'═': {right: double, left: double}, '║': {up: double, down: double},
	'╔': {right: double, down: double}, '╗': {left: double, down: double},
	'╚': {up: double, right: double}, '╝': {up: double, left: double},
	'╠': {up: double, down: double, right: double}, '╣': {up: double, down: double, left: double},
	'╦': {left: double, right: double, down: double}, '╩': {left: double, right: double, up: double},
	'╬': {up: double, right: double, down: double, left: double},
	'╭': {right: light, down: light, rounded: true}, '╮': {left: light, down: light, rounded: true},
	'╯': {up: light, left: light, rounded: true}, '╰': {up: light, right: light, rounded: true},
	'┄': {right: light, left: light, dashed: true}, '┈': {right: light, left: light, dashed: true},
	'╌': {right: light, left: light, dashed: true}, '┆': {up: light, down: light, dashed: true},
	'┊': {up: light, down: light, dashed: true}, '╎': {up: light, down: light, dashed: true},
	'┅': {right: heavy, left: heavy, dashed: true}, '┉': {right: heavy, left: heavy, dashed: true},
	'╍': {right: heavy, left: heavy, dashed: true}, '┇': {up: heavy, down: heavy, dashed: true},
	'┋': {up: heavy, down: heavy, dashed: true}, '╏': {up: heavy, down: heavy, dashed: true},
	'╴': {left: light}, '╵': {up: light}, '╶': {right: light}, '╷': {down: light},
	'╸': {left: heavy}, '╹': {up: heavy}, '╺': {right: heavy}, '╻': {down: heavy},
}

// drawBox draws a box-drawing character as lines that reach the cell's
// edges, so borders join without gaps; false when r is not one it knows.
func drawBox(img *image.RGBA, cell image.Rectangle, r rune, fg color.RGBA, cellW int) bool {
	a, ok := boxChars[r]
	if !ok {
		return false
	}
	u := image.NewUniform(fg)
	t := max(1, int(math.Round(float64(cellW)/10)))
	cx := cell.Min.X + cell.Dx()/2
	cy := cell.Min.Y + cell.Dy()/2
	fill := func(x0, y0, x1, y1 int) {
		draw.Draw(img, image.Rect(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)).Intersect(cell), u, image.Point{}, draw.Src)
	}
	// line draws an arm from the centre (or, with skip > 0, from skip
	// pixels out) to the edge in direction dx, dy. Arms overlap across the
	// centre, so they join.
	line := func(weight, dx, dy, skip int) {
		if weight == none {
			return
		}
		w := t
		if weight == heavy {
			w = 2*t + 1
		}
		offsets := []int{0}
		ext := 0
		if weight == double {
			offsets = []int{-(t + 1), t + 1}
			ext = t + 1
		}
		for _, off := range offsets {
			if dy == 0 { // horizontal, at height y
				y := cy - w/2 + off
				lo, hi := cx-w/2-ext, cx-w/2+w+ext
				from, to := lo, cell.Max.X
				if dx < 0 {
					from, to = hi, cell.Min.X
				}
				if skip > 0 {
					from = cx + dx*skip
				}
				if a.dashed {
					dash(fill, from, to, y, w, true)
				} else {
					fill(from, y, to, y+w)
				}
				continue
			}
			x := cx - w/2 + off // vertical, at column x
			lo, hi := cy-w/2-ext, cy-w/2+w+ext
			from, to := lo, cell.Max.Y
			if dy < 0 {
				from, to = hi, cell.Min.Y
			}
			if skip > 0 {
				from = cy + dy*skip
			}
			if a.dashed {
				dash(fill, from, to, x, w, false)
			} else {
				fill(x, from, x+w, to)
			}
		}
	}
	if a.rounded {
		rad := min(cell.Dx(), cell.Dy()) / 2
		hx, vy := 1, 1
		if a.left != none {
			hx = -1
		}
		if a.up != none {
			vy = -1
		}
		line(light, hx, 0, rad)
		line(light, 0, vy, rad)
		ox, oy := float64(cx+hx*rad), float64(cy+vy*rad)
		for i := 0; i <= 64; i++ {
			th := float64(i) / 64 * math.Pi / 2
			x := int(math.Round(ox - float64(hx*rad)*math.Cos(th)))
			y := int(math.Round(oy - float64(vy*rad)*math.Sin(th)))
			fill(x-t/2, y-t/2, x-t/2+t, y-t/2+t)
		}
		return true
	}
	line(a.right, 1, 0, 0)
	line(a.left, -1, 0, 0)
	line(a.down, 0, 1, 0)
	line(a.up, 0, -1, 0)
	return true
}

// dash draws a dashed segment from a to b at position pos (across) with
// thickness w.
func dash(fill func(x0, y0, x1, y1 int), a, b, pos, w int, horizontal bool) {
	lo, hi := min(a, b), max(a, b)
	for p := lo; p < hi; p += 4 {
		e := min(p+2, hi)
		if horizontal {
			fill(p, pos, e, pos+w)
		} else {
			fill(pos, p, pos+w, e)
		}
	}
}

// drawBlock draws block elements (full, halves, eighths, shades); false
// for other runes.
func drawBlock(img *image.RGBA, cell image.Rectangle, r rune, fg, bg color.RGBA) bool {
	w, h := cell.Dx(), cell.Dy()
	x0, y0 := cell.Min.X, cell.Min.Y
	var rect image.Rectangle
	c := fg
	switch {
	case r == '█':
		rect = cell
	case r == '▀':
		rect = image.Rect(x0, y0, x0+w, y0+h/2)
	case r == '▐':
		rect = image.Rect(x0+w/2, y0, x0+w, y0+h)
	case r == '▔':
		rect = image.Rect(x0, y0, x0+w, y0+max(1, h/8))
	case r == '▕':
		rect = image.Rect(x0+w-max(1, w/8), y0, x0+w, y0+h)
	case r >= '▁' && r <= '▇': // lower eighths, ▄ among them
		n := int(r-'▁') + 1
		rect = image.Rect(x0, y0+h-h*n/8, x0+w, y0+h)
	case r >= '▉' && r <= '▏': // left eighths, ▌ among them
		n := 8 - int(r-'▉') - 1
		rect = image.Rect(x0, y0, x0+max(1, w*n/8), y0+h)
	case r >= '░' && r <= '▓':
		rect = cell
		c = blend(bg, fg, float64(int(r-'░')+1)/4)
	default:
		return false
	}
	draw.Draw(img, rect, image.NewUniform(c), image.Point{}, draw.Src)
	return true
}
