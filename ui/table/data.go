package table

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// sortKey is a cell prepared once for comparison: numbers compare as numbers
// ("1,234" after "999"), everything else case-insensitively.
type sortKey struct {
	str   string
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
	return sortKey{str: strings.ToLower(s)}
}

func compareKeys(a, b sortKey) int {
	switch {
	case a.isNum && b.isNum:
		return cmp.Compare(a.num, b.num)
	case a.isNum:
		return -1
	case b.isNum:
		return 1
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
	c := compareKeys(m.keys[i], m.keys[j])
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
// is still there) the cursor's row.
func (m *Model) SetRows(rows []Row) {
	keep := m.mark()
	m.rows, m.dead, m.keys = m.rows[:0], m.dead[:0], m.keys[:0]
	m.hay.reset()
	m.order, m.view = m.order[:0], m.view[:0]
	m.unindex()
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
	first := len(m.rows)
	m.rows = slices.Grow(m.rows, len(rows))
	m.dead = slices.Grow(m.dead, len(rows))
	if m.sortCol >= 0 {
		m.keys = slices.Grow(m.keys, len(rows))
	}
	if m.grouped {
		m.groupOf = slices.Grow(m.groupOf, len(rows))
	}
	if first == 0 && distinctIDs(rows) { // a one-shot load: nothing to replace
		m.rows = append(m.rows, rows...)
		m.dead = m.dead[:len(rows)]
		clear(m.dead)
		for i := range m.rows {
			m.derive(i)
		}
		m.live = len(rows)
		m.unindex()
		m.place(first)
		return
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
		m.dead = append(m.dead, false)
		m.derive(len(m.rows) - 1)
		m.live++
	}
	m.place(first)
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

// place puts the rows from first on into the order and, when they pass the
// filter, into the view.
func (m *Model) place(first int) {
	n := len(m.rows) - first
	if len(m.order) == 0 { // a one-shot load: the new rows are the whole order
		m.order = m.sortRows(appendRange(slices.Grow(m.order, n), first, len(m.rows)))
		m.refilter()
		return
	}
	added := m.sortRows(appendRange(make([]int, 0, n), first, len(m.rows)))
	m.order = m.merge(m.order, added)
	m.view = m.merge(m.view, m.appendMatching(added[:0], added))
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
			if c := strings.Compare(keys[i].str, keys[j].str); c != 0 {
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

// merge merges sorted b into sorted a in place, from the back, so the common
// case (a page that sorts after everything) only copies b.
func (m *Model) merge(a, b []int) []int {
	n := len(a)
	a = slices.Grow(a, len(b))[:n+len(b)]
	i, j := n-1, len(b)-1
	for k := len(a) - 1; j >= 0; k-- {
		if i >= 0 && m.compare(a[i], b[j]) > 0 {
			a[k] = a[i]
			i--
		} else {
			a[k] = b[j]
			j--
		}
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
	m.order = removeInt(m.order, i)
	m.view = removeInt(m.view, i)
	m.rows[i] = r
	m.derive(i)
	m.order = m.insertSorted(m.order, i)
	if m.matches(i) {
		m.view = m.insertSorted(m.view, i)
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
	m.order = removeInt(m.order, i)
	m.view = removeInt(m.view, i)
	m.rows[i], m.dead[i] = Row{}, true
	m.hay.drop(i)
	m.live--
	m.restore(keep)
	return true
}

func removeInt(s []int, v int) []int {
	if k := slices.Index(s, v); k >= 0 {
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
	m.order = slices.Grow(m.order[:0], m.live)
	for i := range m.rows {
		if !m.dead[i] {
			m.order = append(m.order, i)
		}
	}
	m.sortRows(m.order)
	m.refilter()
	m.restore(keep)
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
		k.id, k.row = r.ID, m.view[m.cursor]
	}
	return k
}

// restore puts the cursor back on the remembered row (or the same position
// when that row is gone) on the same screen line.
func (m *Model) restore(k mark) {
	m.cursor = k.cursor
	if k.id != "" {
		if i, ok := m.find(k); ok {
			if p := slices.Index(m.view, i); p >= 0 {
				m.cursor = p
			}
		}
	}
	m.cursor = max(0, min(m.cursor, len(m.view)-1))
	m.offset, m.topHead = m.topFor(m.cursor, k.line)
	m.clampOffset()
}
