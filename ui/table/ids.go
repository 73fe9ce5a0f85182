package table

import (
	"hash/maphash"
	"math/bits"
)

// The ID index (byID) is built on the first lookup, not on load: on a
// one-shot load of 100k rows it would take a third of the time, and most
// listings are only read. A load that is sorted, grouped or filtered checks
// that no ID comes twice (distinctIDs, a fraction of the index's cost); a
// load in arrival order, which costs nothing else, leaves even that to the
// first lookup or the first sort or filter (unchecked).

// lookup finds the row with this ID, building the index if needed.
func (m *Model) lookup(id string) (int, bool) {
	if !m.indexed {
		m.index()
	}
	i, ok := m.byID[id]
	return i, ok
}

// index builds byID. Rows of an unchecked load that share an ID are folded
// into one: the first one's place with the last one's content, as a page
// that repeats a loaded row replaces it.
func (m *Model) index() {
	var keep mark
	if m.unchecked {
		keep = m.mark()
	}
	if m.byID == nil || len(m.byID) < m.live {
		m.byID = make(map[string]int, m.live)
	} else {
		clear(m.byID)
	}
	folded := false
	for i := range m.rows.Len() {
		if m.isDead(i) {
			continue
		}
		id := m.rows.id(i)
		if j, twice := m.byID[id]; twice {
			m.rows.set(j, m.rows.row(i))
			m.derive(j)
			m.kill(i)
			folded = true
			continue
		}
		m.byID[id] = i
	}
	m.indexed, m.unchecked = true, false
	if folded {
		m.reorder()
		m.restore(keep)
	}
}

// settleIDs folds rows sharing an ID in an unchecked load, before a sort,
// filter or grouping reads every row anyway.
func (m *Model) settleIDs() {
	if m.unchecked && !distinctIDs(&m.rows) {
		m.index()
	}
	m.unchecked = false
}

// unindex marks the index stale after the rows were replaced wholesale.
func (m *Model) unindex() { m.indexed = false }

// find locates a remembered row: at its old index when it is still there,
// else through the index, else (rather than build the index for one lookup)
// by a scan. A removed row keeps its ID: the scan passes over it.
func (m *Model) find(k mark) (int, bool) {
	if k.row < m.rows.Len() && !m.isDead(k.row) && m.rows.id(k.row) == k.id {
		return k.row, true
	}
	if m.indexed {
		i, ok := m.byID[k.id]
		return i, ok
	}
	for i := range m.rows.Len() {
		if !m.isDead(i) && m.rows.id(i) == k.id {
			return i, true
		}
	}
	return -1, false
}

// distinctIDs reports whether no ID comes twice. Each ID's hash sets a bit
// in a bitset with at least eight bits a row, which stays in cache; only the
// few IDs whose bit is hit twice are compared exactly.
func distinctIDs(rows *Rows) bool {
	n := rows.Len()
	if n < 2 {
		return true
	}
	size := uint64(1) << max(6, bits.Len(uint(n))+3)
	seen, twice := make([]uint64, size/64), make([]uint64, size/64)
	seed := maphash.MakeSeed()
	hits := 0
	for i := range n {
		h := maphash.String(seed, rows.id(i)) & (size - 1)
		w, b := h/64, uint64(1)<<(h%64)
		if seen[w]&b != 0 {
			twice[w] |= b
			hits++
		}
		seen[w] |= b
	}
	if hits == 0 {
		return true
	}
	suspects := make(map[string]bool, 2*hits)
	for i := range n {
		id := rows.id(i)
		h := maphash.String(seed, id) & (size - 1)
		if twice[h/64]&(uint64(1)<<(h%64)) == 0 {
			continue
		}
		if suspects[id] {
			return false
		}
		suspects[id] = true
	}
	return true
}
