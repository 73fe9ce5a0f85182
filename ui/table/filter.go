package table

import "strings"

// matches reports whether row i passes the applied filter.
func (m *Model) matches(i int) bool {
	return m.query == "" || strings.Contains(m.hay[i], m.query)
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
	if m.query == "" {
		m.view = append(m.view, m.order...)
		return
	}
	for _, i := range m.order {
		if strings.Contains(m.hay[i], m.query) {
			m.view = append(m.view, i)
		}
	}
}
