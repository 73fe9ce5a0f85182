package table

import (
	"encoding/binary"
	"slices"
	"unicode/utf8"
)

// span locates one row's filter text in the hay arena.
type span struct{ off, end uint32 }

// hay holds the rows' filter text (a row's cells, lower-cased and without
// accents as fold makes them, joined by NUL
// so a query cannot span two cells) in one arena: one allocation instead of
// two per row. It covers a prefix of the rows and is extended only when a
// filter needs it (cover), so a load without a filter does not build it. A
// replaced or removed row leaves its old bytes behind as junk until the junk
// outweighs the live text.
type hay struct {
	buf   []byte
	spans []span // per covered row
	junk  int    // bytes no span points at
}

// compactAt is the junk below which compacting is not worth a copy.
const compactAt = 64 << 10

func (h *hay) reset() {
	h.buf, h.spans, h.junk = h.buf[:0], h.spans[:0], 0
}

// cover builds the text of every row not covered yet.
func (h *hay) cover(rows *Rows) {
	first, n := len(h.spans), rows.Len()
	size := 0
	for i := first; i < n; i++ {
		for _, c := range rows.of(i) {
			size += len(c) + 1
		}
	}
	h.buf = slices.Grow(h.buf, size) // sized once for the lot
	h.spans = slices.Grow(h.spans, n-first)
	for i := first; i < n; i++ {
		h.spans = append(h.spans, h.write(rows.of(i)))
	}
}

// covers reports whether row i has its text.
func (h *hay) covers(i int) bool { return i < len(h.spans) }

// of is row i's text.
func (h *hay) of(i int) []byte {
	s := h.spans[i]
	return h.buf[s.off:s.end]
}

// set rewrites row i's text if it is covered.
func (h *hay) set(i int, cells []string) {
	if h.covers(i) {
		h.drop(i)
		h.spans[i] = h.write(cells)
	}
}

// drop forgets row i's text if it is covered.
func (h *hay) drop(i int) {
	if !h.covers(i) {
		return
	}
	s := h.spans[i]
	h.junk += int(s.end - s.off)
	h.spans[i] = span{}
	if h.junk > compactAt && h.junk > len(h.buf)/2 {
		h.compact()
	}
}

// compact copies the live text into a new arena.
func (h *hay) compact() {
	buf := make([]byte, 0, len(h.buf)-h.junk)
	for i, s := range h.spans {
		off := len(buf)
		buf = append(buf, h.buf[s.off:s.end]...)
		h.spans[i] = span{uint32(off), uint32(len(buf))}
	}
	h.buf, h.junk = buf, 0
}

func (h *hay) write(cells []string) span {
	n := max(0, len(cells)-1) // separators
	for _, c := range cells {
		n += len(c)
	}
	off := len(h.buf)
	h.buf = slices.Grow(h.buf, n)[:off+n] // a no-op within cover
	b := h.buf[off:]
	k := 0
	for c, cell := range cells {
		if c > 0 {
			b[k] = 0
			k++
		}
		k += copy(b[k:], cell)
	}
	if !lowerASCII(b) { // some cell is not ASCII: folded by Unicode's rules
		h.buf = h.buf[:off]
		for c, cell := range cells {
			if c > 0 {
				h.buf = append(h.buf, 0)
			}
			h.buf = append(h.buf, fold(cell)...)
		}
	}
	return span{uint32(off), uint32(len(h.buf))}
}

// lowerASCII lower-cases b in place, eight bytes at a time, and reports
// true; it reports false, leaving b partly lowered, when b is not all ASCII.
func lowerASCII(b []byte) bool {
	const high = 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if w&high != 0 {
			return false
		}
		// Per byte, with no carry as every byte is below 0x80: the top bit
		// of w+0x3f is set from 'A' on, that of w+0x25 from past 'Z' on.
		upper := (w + 0x3f3f3f3f3f3f3f3f) &^ (w + 0x2525252525252525) & high
		binary.LittleEndian.PutUint64(b[i:], w|upper>>2) // 0x80>>2: the case bit
	}
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c >= utf8.RuneSelf:
			return false
		case 'A' <= c && c <= 'Z':
			b[i] = c + ('a' - 'A')
		}
	}
	return true
}
