package table

import "slices"

// positions is a list of row indices in display order. A table loaded in
// arrival order shows row p at position p, so its order (and, with no
// filter, its view) is every index below n: held as that range (ident)
// rather than as n ints, which a load would otherwise have to write and keep.
// Anything that reorders or drops rows writes the ints out first (ints).
type positions struct {
	list  []int
	ident bool
	n     int
}

// toRange makes the list the range 0, 1, ..., n-1, keeping its array for
// reuse.
func (q *positions) toRange(n int) { q.ident, q.n = true, n }

func (q *positions) len() int {
	if q.ident {
		return q.n
	}
	return len(q.list)
}

func (q *positions) at(p int) int {
	if q.ident {
		return p
	}
	return q.list[p]
}

// index is the position of row i, or -1.
func (q *positions) index(i int) int {
	if q.ident {
		if i >= 0 && i < q.n {
			return i
		}
		return -1
	}
	return slices.Index(q.list, i)
}

// ints writes a range out as ints, so it can be reordered, and returns them.
func (q *positions) ints() []int {
	if q.ident {
		q.list = appendRange(slices.Grow(q.list[:0], q.n), 0, q.n)
		q.ident, q.n = false, 0
	}
	return q.list
}

// set replaces the list, keeping its array for reuse.
func (q *positions) set(s []int) { q.list, q.ident, q.n = s, false, 0 }

// reset empties the list, keeping its array for reuse.
func (q *positions) reset() { q.set(q.list[:0]) }

// spare is the list's array emptied, for building a new list in (a range
// keeps the array of its last list).
func (q *positions) spare() []int { return q.list[:0] }
