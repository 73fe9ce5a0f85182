package table

import "iter"

// The window is the part of the body on screen. Without groups each body
// line is a row and the window starts at row offset. With groups a title line
// comes before each group's first visible row, so the window starts either at
// row offset or (topHead) at the title line before it. Every function here
// walks at most a window's worth of lines, whatever the row count.

// lines yields the window's lines from its top: the visible row position of
// each, and whether the line is the title before that row.
func (m *Model) lines() iter.Seq2[int, bool] {
	return func(yield func(int, bool) bool) {
		for p := m.offset; p < m.visible().len(); p++ {
			if (p != m.offset || m.topHead) && m.opensGroup(p) && !yield(p, true) {
				return
			}
			if !yield(p, false) {
				return
			}
		}
	}
}

// lineOf is the body line of visible row p counted from the window's top:
// -1 when p is above the window, at most limit when it is below.
func (m *Model) lineOf(p, limit int) int {
	if p < m.offset {
		return -1
	}
	n := 0
	for q, title := range m.lines() {
		if (q == p && !title) || n >= limit {
			break
		}
		n++
	}
	return n
}

// lineAt is what body line n shows: a visible row position and whether the
// line is that row's group title; ok is false past the last line.
func (m *Model) lineAt(n int) (p int, title, ok bool) {
	if n < 0 {
		return 0, false, false
	}
	for q, t := range m.lines() {
		if n == 0 {
			return q, t, true
		}
		n--
	}
	return 0, false, false
}

// topFor is the window top that puts visible row p on body line n, or as
// low as the start of the list allows.
func (m *Model) topFor(p, n int) (offset int, head bool) {
	offset = p
	for ; n > 0; n-- {
		switch {
		case !head && m.opensGroup(offset):
			head = true
		case offset > 0:
			offset, head = offset-1, false
		default:
			return offset, head
		}
	}
	return offset, head
}

// topKey orders window tops: a row's title line comes just before the row.
func topKey(offset int, head bool) int {
	if head {
		return 2*offset - 1
	}
	return 2 * offset
}

func (m *Model) move(d int) {
	m.cursor = max(0, min(m.cursor+d, m.visible().len()-1))
	m.clampOffset()
}

// clampOffset scrolls just enough to keep the cursor in the window, with its
// group's title when the cursor is on a group's first row and there is room,
// and leaves no blank lines below the last row while rows are above the top.
func (m *Model) clampOffset() {
	m.settle() // the window ends at most a screen below the cursor
	if m.visible().len() == 0 {
		m.offset, m.topHead = 0, false
		return
	}
	h := max(1, m.bodyHeight())
	above := 0 // lines the cursor row needs above it: its title
	if h > 1 && m.opensGroup(m.cursor) {
		above = 1
	}
	if o, hd := m.topFor(m.cursor, above); topKey(m.offset, m.topHead) > topKey(o, hd) {
		m.offset, m.topHead = o, hd
	}
	if m.lineOf(m.cursor, h) >= h {
		m.offset, m.topHead = m.topFor(m.cursor, h-1)
	}
	if o, hd := m.topFor(m.visible().len()-1, h-1); topKey(m.offset, m.topHead) > topKey(o, hd) {
		m.offset, m.topHead = o, hd
	}
	m.topHead = m.topHead && m.opensGroup(m.offset)
}
