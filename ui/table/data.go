package table

import (
	"cmp"
	"encoding/binary"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// sortKey is a cell prepared once for comparison: numbers compare as numbers
// ("1,234" after "999"), everything else case-insensitively. pre is the
// text's first eight bytes as a number, which orders most pairs without
// reading the text itself (a cache miss each, in a sort or a merge).
type sortKey struct {
	str   string
	pre   uint64
	num   float64
	isNum bool
}

func makeKey(cell string) sortKey {
	s := strings.TrimSpace(cell)
	if s != "" && (s[0] == '-' || s[0] == '+' || s[0] == '.' || (s[0] >= '0' && s[0] <= '9')) {
		if f, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64); err == nil {
			return sortKey{num: f, isNum: true}
		}
	}
	s = strings.ToLower(s)
	var pre [8]byte
	copy(pre[:], s)
	return sortKey{str: s, pre: binary.BigEndian.Uint64(pre[:])}
}

func compareKeys(a, b *sortKey) int {
	switch {
	case a.isNum && b.isNum:
		return cmp.Compare(a.num, b.num)
	case a.isNum:
		return -1
	case b.isNum:
		return 1
	case a.pre != b.pre: // as the texts compare: a shorter one is padded with zeros
		return cmp.Compare(a.pre, b.pre)
	}
	return strings.Compare(a.str, b.str)
}

// compare orders two row indices for display: by group when grouped, then
// by the sort; ties keep arrival order, so the result is a total order and
// the sort is stable.
func (m *Model) compare(i, j int) int {
	if m.grouped {
		if c := cmp.Compare(m.groupOf[i], m.groupOf[j]); c != 0 {
			return c
		}
	}
	if m.sortCol < 0 {
		if m.desc {
			return cmp.Compare(j, i)
		}
		return cmp.Compare(i, j)
	}
	c := compareKeys(&m.keys[i], &m.keys[j])
	if m.desc {
		c = -c
	}
	if c == 0 {
		return cmp.Compare(i, j)
	}
	return c
}

func (m *Model) cell(i, col int) string {
	if c := m.rows[i].Cells; col < len(c) {
		return c[col]
	}
	return ""
}

// SetRows replaces every row, keeping the filter, the sort and (when the row
// is still there) the cursor's row. The table keeps rows as they are (it
// copies them only before it changes one), so the caller must not change
// them afterwards.
func (m *Model) SetRows(rows []Row) {
	keep := m.mark()
	if m.shared {
		m.rows, m.shared = nil, false // the caller's array: never written
	}
	m.rows, m.dead, m.keys = m.rows[:0], m.dead[:0], m.keys[:0]
	m.hay.reset()
	m.order.reset()
	m.filtered.reset()
	m.unindex()
	m.unchecked = false
	m.live = 0
	m.groupOf = m.groupOf[:0]
	m.groups.reset()
	m.cursor, m.offset, m.topHead = 0, 0, false
	m.appendRows(rows)
	m.restore(keep)
}

// AppendRows adds a page. The filter and sort are applied to the new rows
// only, which are merged into place; the cursor stays on its row. A row whose
// ID is already loaded replaces it instead.
func (m *Model) AppendRows(rows []Row) {
	keep := m.mark()
	m.appendRows(rows)
	m.restore(keep)
}

func (m *Model) appendRows(rows []Row) {
	if len(m.rows) == 0 && m.adopt(rows) {
		return
	}
	m.own()
	first := len(m.rows)
	m.rows = slices.Grow(m.rows, len(rows))
	if m.sortCol >= 0 {
		m.keys = slices.Grow(m.keys, len(rows))
	}
	if m.grouped {
		m.groupOf = slices.Grow(m.groupOf, len(rows))
	}
	for _, r := range rows {
		if i, ok := m.lookup(r.ID); ok {
			if i < first {
				m.replace(i, r)
			} else { // twice in this batch: not placed yet, overwrite
				m.rows[i] = r
				m.derive(i)
			}
			continue
		}
		m.byID[r.ID] = len(m.rows)
		m.rows = append(m.rows, r)
		m.derive(len(m.rows) - 1)
		m.live++
	}
	m.place(first)
}

// adopt takes a whole load into an empty table as it is, when no ID comes
// twice in it. A load in arrival order with no filter is adopted without
// that check, which would be most of its cost: rows sharing an ID are
// folded into one when the table first needs the IDs (settleIDs).
func (m *Model) adopt(rows []Row) bool {
	plain := m.sortCol < 0 && !m.desc && !m.grouped && m.query == "" && m.where == nil
	if !plain && !distinctIDs(rows) {
		return false
	}
	m.rows, m.shared = rows[:len(rows):len(rows)], true // an append copies
	m.live = len(rows)
	m.unindex()
	m.unchecked = plain && len(rows) > 1
	if m.sortCol >= 0 || m.grouped {
		m.keys = slices.Grow(m.keys, len(rows))
		m.groupOf = slices.Grow(m.groupOf, len(rows))
		for i := range m.rows {
			m.derive(i)
		}
	}
	m.place(0)
	return true
}

// own makes the rows the table's own before it changes one.
func (m *Model) own() {
	if m.shared {
		m.rows, m.shared = slices.Clone(m.rows), false
	}
}

// isDead reports whether row i was removed.
func (m *Model) isDead(i int) bool { return i < len(m.dead) && m.dead[i] }

// kill marks row i removed, growing the removal marks on first use.
func (m *Model) kill(i int) {
	if len(m.dead) <= i {
		m.dead = append(m.dead, make([]bool, len(m.rows)-len(m.dead))...)
	}
	m.dead[i] = true
	m.rows[i] = Row{}
	m.hay.drop(i)
	m.live--
}

// derive computes what the table keeps about row i besides the row: its
// filter text (once the hay covers it), its sort key and its group. i may be
// the newest row.
func (m *Model) derive(i int) {
	m.hay.set(i, m.rows[i].Cells)
	if m.sortCol >= 0 {
		m.keys = setAt(m.keys, i, makeKey(m.cell(i, m.sortCol)))
	}
	if m.grouped {
		m.groupOf = setAt(m.groupOf, i, m.groups.rankOf(m.rows[i].Group))
	}
}

// setAt sets s[i], appending when i is just past the end.
func setAt[T any](s []T, i int, v T) []T {
	if i == len(s) {
		return append(s, v)
	}
	s[i] = v
	return s
}

// arrival reports whether the order is the rows' arrival order.
func (m *Model) arrival() bool { return m.sortCol < 0 && !m.desc && !m.grouped }

// place puts the rows from first on into the order and, when they pass the
// filter, into the view.
func (m *Model) place(first int) {
	n := len(m.rows) - first
	if m.order.len() == 0 { // a one-shot load: the new rows are the whole order
		m.reorder()
		return
	}
	added := m.sortRows(appendRange(make([]int, 0, n), first, len(m.rows)))
	if m.order.ident && m.order.n == first && m.follows(added) {
		m.order.toRange(len(m.rows)) // still every row, in arrival order
	} else {
		m.order.set(m.merge(m.order.ints(), added))
	}
	if m.filters() {
		m.filtered.set(m.merge(m.filtered.list, m.appendMatching(added[:0], added)))
	}
}

// follows reports whether added, rows from the order's end on, come in
// arrival order after every row in it.
func (m *Model) follows(added []int) bool {
	for k, i := range added {
		if i != m.order.n+k {
			return false
		}
	}
	return len(added) == 0 || m.order.n == 0 || m.compare(m.order.n-1, added[0]) < 0
}

// appendRange appends from, from+1, ..., to-1.
func appendRange(s []int, from, to int) []int {
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// sortRows puts row indices, given in ascending order, into display order.
// Arrival order needs no sort, and rows that come already in order (a
// listing sorted by the server, or by group) are only checked.
func (m *Model) sortRows(s []int) []int {
	switch {
	case m.sortCol < 0 && !m.grouped:
		if m.desc {
			slices.Reverse(s)
		}
	case slices.IsSortedFunc(s, m.compare):
	case !m.grouped && m.sortCol >= 0 && m.allText(s):
		// A sort by a text column (a name, a status), the usual one, with
		// the general order's branches taken once here.
		keys, sign := m.keys, 1
		if m.desc {
			sign = -1
		}
		slices.SortFunc(s, func(i, j int) int {
			a, b := &keys[i], &keys[j]
			if a.pre != b.pre {
				return sign * cmp.Compare(a.pre, b.pre)
			}
			if c := strings.Compare(a.str, b.str); c != 0 {
				return sign * c
			}
			return cmp.Compare(i, j)
		})
	default:
		slices.SortFunc(s, m.compare)
	}
	return s
}

// allText reports whether the sort keys of rows s are all text.
func (m *Model) allText(s []int) bool {
	for _, i := range s {
		if m.keys[i].isNum {
			return false
		}
	}
	return true
}

// merge merges sorted b into sorted a in place, from the back. Each row of
// b finds its place by a binary search and the rows of a after it move in
// one copy, so a page costs its length times log n compares and one pass of
// copying, however the pages interleave.
func (m *Model) merge(a, b []int) []int {
	n := len(a)
	a = slices.Grow(a, len(b))[:n+len(b)]
	hi, end := n, len(a) // a[:hi] not moved yet; a[end:] final
	for j := len(b) - 1; j >= 0; j-- {
		x := b[j]
		k := sort.Search(hi, func(k int) bool { return m.compare(a[k], x) > 0 })
		copy(a[end-(hi-k):end], a[k:hi])
		end -= hi - k
		hi = k
		end--
		a[end] = x
	}
	return a
}

// UpdateRow replaces the row with r.ID, moving it if the sort or filter
// says so. It reports false (and changes nothing) for an unknown ID.
func (m *Model) UpdateRow(r Row) bool {
	i, ok := m.lookup(r.ID)
	if !ok {
		return false
	}
	keep := m.mark()
	m.replace(i, r)
	m.restore(keep)
	return true
}

func (m *Model) replace(i int, r Row) {
	m.own()
	if m.sortCol < 0 && !m.grouped { // arrival order: the row keeps its place
		m.rows[i] = r
		m.derive(i)
		if m.filters() {
			p, ok := m.positionOf(&m.filtered, i), m.matches(i)
			switch {
			case p >= 0 && !ok:
				m.filtered.set(slices.Delete(m.filtered.list, p, p+1))
			case p < 0 && ok:
				m.filtered.set(m.insertSorted(m.filtered.list, i))
			}
		}
		return
	}
	m.order.set(m.remove(m.order.ints(), i))
	m.filtered.set(m.remove(m.filtered.list, i))
	m.rows[i] = r
	m.derive(i)
	m.order.set(m.insertSorted(m.order.list, i))
	if m.filters() && m.matches(i) {
		m.filtered.set(m.insertSorted(m.filtered.list, i))
	}
}

// RemoveRow drops the row with this ID; its slot stays so indices hold.
func (m *Model) RemoveRow(id string) bool {
	i, ok := m.lookup(id)
	if !ok {
		return false
	}
	keep := m.mark()
	if sel, ok := m.Selected(); ok && sel.ID == id {
		keep.id = "" // stay at the same position: the next row
	}
	delete(m.byID, id)
	m.own()
	m.order.set(m.remove(m.order.ints(), i))
	m.filtered.set(m.remove(m.filtered.list, i))
	m.kill(i)
	m.restore(keep)
	return true
}

// positionOf is the position of row i in q, or -1. A list is always in display
// order, a total order, so a binary search finds it.
func (m *Model) positionOf(q *positions, i int) int {
	if q.ident {
		return q.index(i)
	}
	if k, ok := slices.BinarySearchFunc(q.list, i, m.compare); ok {
		return k
	}
	return -1
}

// remove drops row i from s, a list in display order.
func (m *Model) remove(s []int, i int) []int {
	if k, ok := slices.BinarySearchFunc(s, i, m.compare); ok {
		return slices.Delete(s, k, k+1)
	}
	return s
}

func (m *Model) insertSorted(s []int, i int) []int {
	k, _ := slices.BinarySearchFunc(s, i, m.compare)
	return slices.Insert(s, k, i)
}

// resort rebuilds the order after a sort change, then the filter.
func (m *Model) resort() {
	keep := m.mark()
	m.keys = m.keys[:0]
	if m.sortCol >= 0 {
		m.keys = slices.Grow(m.keys, len(m.rows))
		for i := range m.rows {
			m.keys = append(m.keys, makeKey(m.cell(i, m.sortCol)))
		}
	}
	m.settleIDs()
	m.reorder()
	m.restore(keep)
}

// reorder builds the order of every live row, then the filter. In arrival
// order, or when the rows come sorted, the order is the range of the rows.
func (m *Model) reorder() {
	if m.live == len(m.rows) && (m.arrival() || m.inOrder()) {
		m.order.toRange(len(m.rows))
	} else {
		s := slices.Grow(m.order.spare(), m.live)
		for i := range m.rows {
			if !m.isDead(i) {
				s = append(s, i)
			}
		}
		m.order.set(m.sortRows(s))
	}
	m.refilter()
}

// inOrder reports whether the rows, in arrival order, are in display order.
func (m *Model) inOrder() bool {
	for i := 1; i < len(m.rows); i++ {
		if m.compare(i-1, i) > 0 {
			return false
		}
	}
	return true
}

// cycleSort moves the sort to the next column: none, 1, 2, ..., none.
func (m *Model) cycleSort() {
	next := m.sortCol + 1
	if next >= len(m.cols) {
		next = -1
	}
	m.sortCol = next
	m.resort()
}

// mark remembers the cursor's row and its line on screen.
type mark struct {
	id     string
	row    int // index in rows, a hint for finding id
	cursor int
	line   int
}

func (m *Model) mark() mark {
	k := mark{cursor: m.cursor, line: m.lineOf(m.cursor, m.bodyHeight())}
	if r, ok := m.Selected(); ok {
		k.id, k.row = r.ID, m.visible().at(m.cursor)
	}
	return k
}

// restore puts the cursor back on the remembered row (or the same position
// when that row is gone) on the same screen line.
func (m *Model) restore(k mark) {
	m.cursor = k.cursor
	if k.id != "" {
		if i, ok := m.find(k); ok {
			if p := m.positionOf(m.visible(), i); p >= 0 {
				m.cursor = p
			}
		}
	}
	m.cursor = max(0, min(m.cursor, m.visible().len()-1))
	m.offset, m.topHead = m.topFor(m.cursor, k.line)
	m.clampOffset()
}
