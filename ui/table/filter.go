package table

import (
	"bytes"
	"strings"
)

// matches reports whether row i passes the applied filter.
func (m *Model) matches(i int) bool {
	if m.where != nil && !m.where(m.rows.row(i)) {
		return false
	}
	return m.matchesQuery(i)
}

// matchesQuery reports whether row i passes the typed filter.
func (m *Model) matchesQuery(i int) bool {
	if m.query == "" {
		return true
	}
	if !m.hay.covers(i) {
		m.hay.cover(&m.rows)
	}
	return bytes.Contains(m.hay.of(i), m.needle)
}

// Count is how many loaded rows pass the typed filter and keep (nil keeps
// all), whatever SetWhere holds: the figures a screen shows beside its own
// filters ("2 On 34 3 Off 11"). It reads every row; call it when the rows
// or the filter change, not from View.
func (m *Model) Count(keep func(Row) bool) int {
	n := 0
	for i := range m.order.all() {
		if (keep == nil || keep(m.rows.row(i))) && m.matchesQuery(i) {
			n++
		}
	}
	return n
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
	q := fold(raw)
	if q == m.query {
		return
	}
	keep := m.mark()
	keep.cursor = 0 // when the selected row no longer matches: the first match
	narrowing := m.query != "" && strings.Contains(q, m.query)
	m.query, m.needle = q, []byte(q)
	if narrowing {
		m.hay.cover(&m.rows) // done already, as the previous query needed it
		m.filtered.keep(func(i int) bool { return bytes.Contains(m.hay.of(i), m.needle) })
	} else {
		m.refilter()
	}
	m.restore(keep)
}

// filters reports whether a filter applies: only then are the visible rows
// a list of their own (filtered) rather than the order itself.
func (m *Model) filters() bool { return m.query != "" || m.where != nil }

// visible is the rows shown, in order: the order, or the rows of it that
// pass the filter.
func (m *Model) visible() *positions {
	if m.filters() {
		return &m.filtered
	}
	return &m.order
}

// refilter rebuilds the visible rows from the full order, reusing the slice.
func (m *Model) refilter() {
	if !m.filters() {
		m.filtered.reset()
		return
	}
	m.settleIDs()
	m.filtered.keepFrom(&m.order, m.matches)
}

// appendMatching appends the rows of src that pass the filter; dst may be
// src[:0], as writes never pass reads.
func (m *Model) appendMatching(dst, src []int) []int {
	if m.query == "" && m.where == nil {
		return append(dst, src...)
	}
	for _, i := range src {
		if m.matches(i) {
			dst = append(dst, i)
		}
	}
	return dst
}
