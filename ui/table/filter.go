package table

import "strings"

// matches reports whether row i passes the applied filter.
func (m *Model) matches(i int) bool {
	return (m.where == nil || m.where(m.rows[i])) && (m.query == "" || strings.Contains(m.hay[i], m.query))
}

// SetWhere keeps only the rows where keep holds, on top of the typed
// filter; nil keeps every row. Unlike SetRows it rebuilds nothing, so a
// screen's own filters (a status, a reason) stay within a frame at 100k
// rows. Rows added later are held to it too.
func (m *Model) SetWhere(keep func(Row) bool) {
	mark := m.mark()
	m.where = keep
	m.refilter()
	m.restore(mark)
}

// applyFilter sets the filter from typed text. A filter that only grows the
// previous one narrows the current matches instead of rescanning every row.
func (m *Model) applyFilter(raw string) {
	q := strings.ToLower(raw)
	if q == m.query {
		return
	}
	keep := m.mark()
	keep.cursor = 0 // when the selected row no longer matches: the first match
	narrowing := m.query != "" && strings.Contains(q, m.query)
	m.query = q
	if narrowing {
		kept := m.view[:0] // in place: writes never pass reads
		for _, i := range m.view {
			if strings.Contains(m.hay[i], q) {
				kept = append(kept, i)
			}
		}
		m.view = kept
	} else {
		m.refilter()
	}
	m.restore(keep)
}

// refilter rebuilds the visible rows from the full order, reusing the slice.
func (m *Model) refilter() {
	m.view = m.view[:0]
	if m.query == "" && m.where == nil {
		m.view = append(m.view, m.order...)
		return
	}
	for _, i := range m.order {
		if m.matches(i) {
			m.view = append(m.view, i)
		}
	}
}
