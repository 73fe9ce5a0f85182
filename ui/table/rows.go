package table

import (
	"slices"
	"strings"
	"unsafe"
)

// Rows is a list of rows for a table: a screen adds the rows of an answer
// as it reads them, then hands the list to SetRows or AppendRows. It holds
// the rows field by field rather than as Rows, so a row costs its cells and
// its ID's bytes: the cells in blocks of many rows, the IDs' bytes in one
// array, the groups only once a row has one. A []Row costs a row 56 bytes
// more, and two allocations (its cells' array and its ID).
//
// The zero value is an empty list.
type Rows struct {
	grid
	// ids holds the IDs one after the other. It is only ever appended to:
	// id hands out strings that point into it.
	ids    []byte
	idEnds []uint32 // per row: where its ID ends in ids
	groups []int32  // per row, once a row has a group: its title in titles
	titles []string // the group titles met, "" first
	// titleOf is a title's index in titles.
	titleOf map[string]int32
}

// NewRows makes an empty list with room for about n rows, so that adding
// them does not copy their IDs as the list grows, and a short list takes no
// more room than its rows.
func NewRows(n int) *Rows { return &Rows{idEnds: make([]uint32, 0, max(0, n))} }

// Len is the number of rows.
func (r *Rows) Len() int {
	if r == nil {
		return 0
	}
	return len(r.idEnds)
}

// Add adds a row after the others. It keeps neither row nor its cells'
// slice, only their strings: a slice literal passed here stays on the
// caller's stack.
func (r *Rows) Add(row Row) {
	i := len(r.idEnds)
	if i == 0 {
		r.start(row)
	}
	r.ids = append(r.ids, row.ID...)
	r.idEnds = append(r.idEnds, uint32(len(r.ids)))
	r.grid.add(i, row.Cells)
	if r.groups != nil {
		r.groups = append(r.groups, 0)
	}
	if row.Group != "" {
		r.setGroup(i, row.Group)
	}
}

// start sets the row width from the first row and, when NewRows gave a
// size, makes room for that many rows like it.
func (r *Rows) start(first Row) {
	r.stride = len(first.Cells)
	if n := cap(r.idEnds); n > 0 && r.ids == nil {
		r.blocks = [][]string{make([]string, 0, min(n, blockRows)*r.stride)}
		r.ids = make([]byte, 0, n*len(first.ID))
	}
}

// reserve makes room for the IDs of more, doubling: a table fed page by
// page copies them at every quarter of growth otherwise.
func (r *Rows) reserve(more *Rows) {
	r.idEnds = grow(r.idEnds, more.Len())
	r.ids = grow(r.ids, len(more.ids))
}

// id is row i's ID.
func (r *Rows) id(i int) string {
	start, end := uint32(0), r.idEnds[i]
	if i > 0 {
		start = r.idEnds[i-1]
	}
	if start == end {
		return ""
	}
	// As strings.Builder does: the bytes are never written again.
	return unsafe.String(&r.ids[start], end-start)
}

// group is row i's group title.
func (r *Rows) group(i int) string {
	if r.groups == nil {
		return ""
	}
	return r.titles[r.groups[i]]
}

// row is row i as a Row; its cells are the list's own, capped so that an
// append copies them.
func (r *Rows) row(i int) Row { return Row{ID: r.id(i), Cells: r.of(i), Group: r.group(i)} }

// set replaces row i's cells and group with row's; row has row i's ID.
func (r *Rows) set(i int, row Row) {
	r.grid.set(i, row.Cells)
	if row.Group != "" || r.groups != nil {
		r.setGroup(i, row.Group)
	}
}

// release forgets row i's cells and group, so that their texts can be
// collected; its ID stays, in the bytes of the others.
func (r *Rows) release(i int) {
	r.grid.release(i)
	if r.groups != nil {
		r.groups[i] = 0
	}
}

func (r *Rows) setGroup(i int, title string) {
	if r.groups == nil {
		r.groups = make([]int32, len(r.idEnds), cap(r.idEnds))
		r.titles, r.titleOf = []string{""}, map[string]int32{"": 0}
	}
	t, ok := r.titleOf[title]
	if !ok {
		// A copy: keeping the caller's string would make Add keep its row,
		// and so put the row's cells on the heap.
		kept := strings.Clone(title)
		t = int32(len(r.titles))
		r.titles = append(r.titles, kept)
		r.titleOf[kept] = t
	}
	r.groups[i] = t
}

// grid holds the rows' cells, stride cells a row, in blocks of blockRows
// rows: a list that grows row by row or page by page adds a block now and
// then and never copies its cells (copying them as one array doubled took
// about a quarter of a stream's page adding, write barriers included). The
// first block grows as needed, so that a short list stays small. A row with
// another count (a screen's hidden cells, an update) keeps a copy of its
// cells apart, in odd, its slot left empty.
type grid struct {
	blocks [][]string
	stride int // the first row's count
	odd    map[int][]string
}

// blockRows is how many rows' cells a block holds.
const blockRows = 1024

func (g *grid) add(i int, cells []string) {
	b := uint(i) / blockRows
	if b == uint(len(g.blocks)) {
		var block []string
		if b > 0 {
			block = make([]string, 0, blockRows*g.stride)
		}
		g.blocks = append(g.blocks, block)
	}
	block := &g.blocks[b]
	if len(cells) == g.stride {
		*block = append(*block, cells...)
		return
	}
	*block = append(*block, make([]string, g.stride)...)
	g.keepApart(i, cells)
}

func (g *grid) set(i int, cells []string) {
	slot := g.slot(i)
	if len(cells) == g.stride {
		copy(slot, cells)
		delete(g.odd, i)
		return
	}
	clear(slot)
	g.keepApart(i, cells)
}

func (g *grid) release(i int) {
	clear(g.slot(i))
	delete(g.odd, i)
}

func (g *grid) keepApart(i int, cells []string) {
	if g.odd == nil {
		g.odd = map[int][]string{}
	}
	g.odd[i] = slices.Clone(cells)
}

func (g *grid) slot(i int) []string {
	lo := int(uint(i)%blockRows) * g.stride
	return g.blocks[uint(i)/blockRows][lo : lo+g.stride : lo+g.stride]
}

// of is row i's cells.
func (g *grid) of(i int) []string {
	if len(g.odd) > 0 {
		if c, ok := g.odd[i]; ok {
			return c[:len(c):len(c)]
		}
	}
	return g.slot(i)
}

// cell is row i's cell in column col, "" past its cells.
func (g *grid) cell(i, col int) string {
	if c := g.of(i); col < len(c) {
		return c[col]
	}
	return ""
}
