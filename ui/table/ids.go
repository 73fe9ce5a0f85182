package table

import (
	"hash/maphash"
	"math/bits"
	"slices"
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
	for i, r := range m.rows {
		if m.isDead(i) {
			continue
		}
		if j, twice := m.byID[r.ID]; twice {
			m.own()
			m.rows[j] = r
			m.derive(j)
			m.kill(i)
			folded = true
			continue
		}
		m.byID[r.ID] = i
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
	if m.unchecked && !distinctIDs(m.rows) {
		m.index()
	}
	m.unchecked = false
}

// unindex marks the index stale after the rows were replaced wholesale.
func (m *Model) unindex() { m.indexed = false }

// find locates a remembered row: at its old index when it is still there,
// else through the index, else (rather than build the index for one lookup)
// by a scan.
func (m *Model) find(k mark) (int, bool) {
	if k.row < len(m.rows) && !m.isDead(k.row) && m.rows[k.row].ID == k.id {
		return k.row, true
	}
	if m.indexed {
		i, ok := m.byID[k.id]
		return i, ok
	}
	i := slices.IndexFunc(m.rows, func(r Row) bool { return r.ID == k.id })
	return i, i >= 0 && !m.isDead(i)
}

// distinctIDs reports whether no ID comes twice. Each ID's hash sets a bit
// in a bitset with at least eight bits a row, which stays in cache; only the
// few IDs whose bit is hit twice are compared exactly.
func distinctIDs(rows []Row) bool {
	if len(rows) < 2 {
		return true
	}
	size := uint64(1) << max(6, bits.Len(uint(len(rows)))+3)
	seen, twice := make([]uint64, size/64), make([]uint64, size/64)
	seed := maphash.MakeSeed()
	hits := 0
	for _, r := range rows {
		h := maphash.String(seed, r.ID) & (size - 1)
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
	for _, r := range rows {
		h := maphash.String(seed, r.ID) & (size - 1)
		if twice[h/64]&(uint64(1)<<(h%64)) == 0 {
			continue
		}
		if suspects[r.ID] {
			return false
		}
		suspects[r.ID] = true
	}
	return true
}
