package table

import (
	"iter"
	"math/bits"
	"slices"
)

// positions is a list of row indices in display order, put in order only as
// far as it is read: its first rows in order (list), then the others in no
// order (rest), each after every row of list. A table shows a window near
// one position, and keeping every row in order costs a stream about
// n·log2(n) comparisons (whether pages are merged into one list or into
// runs), which is most of what a sorted stream costs over an unsorted one.
// Here a page costs a comparison a row with the last of list, and rest is
// put in order only as far as the window reaches (settle).
//
// A table loaded in arrival order shows row p at position p, so its order
// (and, with no filter, its view) is every index below n: held as that
// range (ident) rather than as n ints, which a load would otherwise have to
// write and keep. Anything that reorders or drops rows writes the ints out
// first (written).
//
// The order is that of a comparer the caller passes, which reads the
// table's keys as they are now (Model.comparer).
type positions struct {
	list []int // the first rows, in display order
	rest []int // the other rows, in no order; each comes after all of list
	// restInOrder: rest is in order too, being the tail that a list far
	// longer than the window gave back, with nothing added since
	restInOrder bool
	ident       bool
	n           int
}

// cmpFunc orders two row indices for display: a total order (ties are
// broken by arrival), so there is one order for a set of rows.
type cmpFunc = func(i, j int) int

// toRange makes the list the range 0, 1, ..., n-1, keeping its arrays for
// reuse.
func (q *positions) toRange(n int) {
	q.reset()
	q.ident, q.n = true, n
}

func (q *positions) len() int {
	if q.ident {
		return q.n
	}
	return len(q.list) + len(q.rest)
}

// settled is the row at position p, when that position is in order.
func (q *positions) settled(p int) (int, bool) {
	switch {
	case q.ident:
		return p, true
	case p < len(q.list):
		return q.list[p], true
	}
	return 0, false
}

// at is the row at position p. Past the rows in order it selects in a copy
// of rest, leaving the list as it is (View must not change the table): a
// pass over rest, which a table that settles its window first never takes.
func (q *positions) at(p int, c cmpFunc) int {
	if i, ok := q.settled(p); ok {
		return i
	}
	if q.restInOrder {
		return q.rest[p-len(q.list)]
	}
	least := slices.Clone(q.rest)
	k := p - len(q.list) + 1
	selectLeast(least, k, c)
	return slices.MaxFunc(least[:k], c)
}

// rank is the position of row i, or -1.
func (q *positions) rank(i int, c cmpFunc) int {
	if q.ident {
		if i >= 0 && i < q.n {
			return i
		}
		return -1
	}
	if k, ok := slices.BinarySearchFunc(q.list, i, c); ok {
		return k
	}
	if !slices.Contains(q.rest, i) {
		return -1
	}
	p := len(q.list)
	for _, j := range q.rest {
		if c(j, i) < 0 {
			p++
		}
	}
	return p
}

// all yields every row, in no particular order.
func (q *positions) all() iter.Seq[int] {
	return func(yield func(int) bool) {
		if q.ident {
			for i := range q.n {
				if !yield(i) {
					return
				}
			}
			return
		}
		for _, s := range [2][]int{q.list, q.rest} {
			for _, i := range s {
				if !yield(i) {
					return
				}
			}
		}
	}
}

// add adds rows, given in any order, and reorders rows in place: those
// that come before the last of list join it, in order; the others join
// rest.
func (q *positions) add(rows []int, c cmpFunc) {
	q.written()
	q.rest = grow(q.rest, len(rows))
	before := rows[:0] // in place: writes never pass reads
	for _, i := range rows {
		if len(q.list) > 0 && c(i, q.list[len(q.list)-1]) < 0 {
			before = append(before, i)
		} else {
			q.rest, q.restInOrder = append(q.rest, i), false
		}
	}
	if len(before) > 0 {
		slices.SortFunc(before, c)
		q.list = merge(q.list, before, c)
	}
}

// unordered makes the list the rows below n for which live holds, all in
// rest, for settle to put in order.
func (q *positions) unordered(n int, live func(i int) bool) {
	rest := slices.Grow(q.rest[:0], n)
	for i := range n {
		if live(i) {
			rest = append(rest, i)
		}
	}
	q.reset()
	q.rest = rest
}

// remove drops row i, if the list holds it.
func (q *positions) remove(i int, c cmpFunc) {
	q.written()
	if k, ok := slices.BinarySearchFunc(q.list, i, c); ok {
		q.list = slices.Delete(q.list, k, k+1)
	} else if k := slices.Index(q.rest, i); k >= 0 {
		q.rest = slices.Delete(q.rest, k, k+1)
	}
}

// keep drops the rows for which keep is false.
func (q *positions) keep(keep func(i int) bool) {
	q.written()
	drop := func(i int) bool { return !keep(i) }
	q.list = slices.DeleteFunc(q.list, drop)
	q.rest = slices.DeleteFunc(q.rest, drop)
}

// keepFrom makes the list the rows of src for which keep holds: those of
// src's list in order, those of its rest in rest.
func (q *positions) keepFrom(src *positions, keep func(i int) bool) {
	list, rest := q.list[:0], q.rest[:0]
	if src.ident {
		for i := range src.n {
			if keep(i) {
				list = append(list, i)
			}
		}
	} else {
		list, rest = appendKept(list, src.list, keep), appendKept(rest, src.rest, keep)
	}
	q.reset()
	q.list, q.rest, q.restInOrder = list, rest, src.restInOrder
}

// appendKept appends the rows of src for which keep holds.
func appendKept(dst, src []int, keep func(i int) bool) []int {
	for _, i := range src {
		if keep(i) {
			dst = append(dst, i)
		}
	}
	return dst
}

// settle puts in order at least the first need positions (all of them when
// there are fewer): twice that when it must order more, so that a window
// moving down orders rows a few times, not at every step; or else trims.
func (q *positions) settle(need int, c cmpFunc) {
	if len(q.list) < need && len(q.rest) > 0 && !q.ident {
		q.extend(min(2*need, q.len())-len(q.list), c)
	} else {
		q.trim(need)
	}
}

// trim gives the tail of a list far longer than need back to rest, so that
// new rows seldom come before its last one.
func (q *positions) trim(need int) {
	if len(q.list) <= 4*need {
		return
	}
	tail := q.list[2*need:]
	if q.restInOrder || len(q.rest) == 0 { // the tail comes before every row of rest
		q.rest, q.restInOrder = slices.Insert(q.rest, 0, tail...), true
	} else {
		q.rest = append(q.rest, tail...)
	}
	q.list = q.list[:2*need]
}

// extend moves the first k rows of rest, in order, to the end of list.
func (q *positions) extend(k int, c cmpFunc) {
	if !q.restInOrder {
		selectLeast(q.rest, k, c)
		slices.SortFunc(q.rest[:k], c)
	}
	q.list = append(q.list, q.rest[:k]...)
	q.rest = q.rest[:copy(q.rest, q.rest[k:])]
}

// selectLeast reorders s so that its k first rows, by c, come first, in no
// order: a quickselect, which sorts a part that does not shrink fast
// enough, so it costs O(len(s)) comparisons on average and O(n log n) at
// worst.
func selectLeast(s []int, k int, c cmpFunc) {
	lo, hi := 0, len(s) // s[:lo] come before s[lo:]; s[hi:] after s[:hi]
	for budget := 2 * bits.Len(uint(len(s))); lo < k && k < hi; budget-- {
		if budget == 0 {
			slices.SortFunc(s[lo:hi], c)
			return
		}
		if p := lo + partition(s[lo:hi], c); p < k {
			lo = p + 1
		} else {
			hi = p
		}
	}
}

// partition puts the rows of s that come before a pivot (the median of its
// first, middle and last rows) first, then the pivot, then the others, and
// returns the pivot's index.
func partition(s []int, c cmpFunc) int {
	last := len(s) - 1
	mid := last / 2
	if c(s[mid], s[0]) < 0 {
		s[mid], s[0] = s[0], s[mid]
	}
	if c(s[last], s[0]) < 0 {
		s[last], s[0] = s[0], s[last]
	}
	if c(s[mid], s[last]) < 0 { // s[0] is the least: the median goes last
		s[mid], s[last] = s[last], s[mid]
	}
	pivot, p := s[last], 0
	for j := range last {
		if c(s[j], pivot) < 0 {
			s[p], s[j] = s[j], s[p]
			p++
		}
	}
	s[p], s[last] = s[last], s[p]
	return p
}

// written writes a range out as ints, so it can be changed.
func (q *positions) written() {
	if q.ident {
		q.list = appendRange(slices.Grow(q.list[:0], q.n), 0, q.n)
		q.ident, q.n = false, 0
	}
}

// reset empties the list, keeping its arrays for reuse.
func (q *positions) reset() {
	q.list, q.rest, q.restInOrder, q.ident, q.n = q.list[:0], q.rest[:0], false, false, 0
}
