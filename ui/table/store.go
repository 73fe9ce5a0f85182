package table

// store holds the rows' contents compactly, without a Row per row: every
// row's cells in one array, row after row, located by a span; the IDs
// beside them (an ID equal to one of its row's cells is held as that cell,
// so the caller's copy can go); and the groups as an index into their
// titles, held only once some row has one. A load copies the rows in, so
// the caller's []Row and cell slices are not kept.
//
// The cells array is only appended to: a row handed out (Selected, a
// where-function) keeps its cells as they were. A replaced or removed row
// leaves its old cells behind as junk until the junk outweighs the rest.
type store struct {
	cells []string
	spans []cellSpan // per row
	ids   []string   // per row
	junk  int        // cells no span points at

	groupAt []int32          // per row, its title's index; nil: every Group is ""
	titles  []string         // distinct group titles; titles[0] is ""
	titleAt map[string]int32 // index of each title
}

// cellSpan locates one row's cells in the store.
type cellSpan struct{ off, n uint32 }

// reset empties the store. The cells array is not reused (rows handed out
// may still read it); the per-row arrays are.
func (s *store) reset() {
	s.cells, s.spans, s.ids, s.junk = nil, s.spans[:0], s.ids[:0], 0
	s.groupAt = nil
	s.titles = s.titles[:0]
	clear(s.titleAt)
}

func (s *store) len() int { return len(s.spans) }

// grow makes room for rows, sized once for a whole load.
func (s *store) grow(rows []Row) {
	n := 0
	for _, r := range rows {
		n += len(r.Cells)
	}
	s.cells = grow(s.cells, n)
	s.spans = grow(s.spans, len(rows))
	s.ids = grow(s.ids, len(rows))
}

// load appends a whole load, in one pass with no per-row calls: its cost
// is reading the rows and writing their cells once.
func (s *store) load(rows []Row) {
	s.grow(rows)
	first := len(s.spans)
	off := len(s.cells)
	s.cells = s.cells[:cap(s.cells)]
	s.spans = s.spans[:first+len(rows)]
	s.ids = s.ids[:first+len(rows)]
	spans, ids := s.spans[first:], s.ids[first:]
	grouped := s.groupAt != nil
	for i := range rows {
		r := &rows[i]
		k := copy(s.cells[off:], r.Cells)
		spans[i] = cellSpan{uint32(off), uint32(k)}
		ids[i] = r.ID
		off += k
		grouped = grouped || r.Group != ""
	}
	s.cells = s.cells[:off]
	if grouped {
		for i := range rows {
			s.setGroup(first+i, rows[i].Group)
		}
	}
}

// add appends a row and returns its index.
func (s *store) add(r Row) int {
	i := len(s.spans)
	s.spans = append(s.spans, s.write(r.Cells))
	s.ids = append(s.ids, idOf(r))
	s.setGroup(i, r.Group)
	return i
}

// set replaces row i.
func (s *store) set(i int, r Row) {
	s.junk += int(s.spans[i].n)
	s.spans[i] = s.write(r.Cells)
	s.ids[i] = idOf(r)
	s.setGroup(i, r.Group)
	s.compactIfWorth()
}

// drop forgets row i's contents; its index stays.
func (s *store) drop(i int) {
	s.junk += int(s.spans[i].n)
	s.spans[i], s.ids[i] = cellSpan{}, ""
	s.setGroup(i, "")
	s.compactIfWorth()
}

func (s *store) write(cells []string) cellSpan {
	off := len(s.cells)
	s.cells = append(s.cells, cells...)
	return cellSpan{uint32(off), uint32(len(cells))}
}

// idOf is r's ID, as the cell it equals when there is one.
func idOf(r Row) string {
	for _, c := range r.Cells {
		if len(c) == len(r.ID) && c == r.ID {
			return c
		}
	}
	return r.ID
}

// compactIfWorth copies the live cells into a new array once the junk
// outweighs them (and is worth a copy).
func (s *store) compactIfWorth() {
	if s.junk <= compactAt/16 || s.junk <= len(s.cells)/2 {
		return
	}
	cells := make([]string, 0, len(s.cells)-s.junk)
	for i, sp := range s.spans {
		s.spans[i].off = uint32(len(cells))
		cells = append(cells, s.cells[sp.off:sp.off+sp.n]...)
	}
	s.cells, s.junk = cells, 0
}

// cellsOf is row i's cells; the caller must not change them.
func (s *store) cellsOf(i int) []string {
	sp := s.spans[i]
	return s.cells[sp.off : sp.off+sp.n : sp.off+sp.n]
}

// group is row i's group title.
func (s *store) group(i int) string {
	if s.groupAt == nil {
		return ""
	}
	return s.titles[s.groupAt[i]]
}

func (s *store) setGroup(i int, title string) {
	if s.groupAt == nil {
		if title == "" {
			return
		}
		s.groupAt = make([]int32, len(s.spans), cap(s.spans))
		s.titles = append(s.titles[:0], "")
		if s.titleAt == nil {
			s.titleAt = map[string]int32{}
		}
		s.titleAt[""] = 0
	}
	k, ok := s.titleAt[title]
	if !ok {
		k = int32(len(s.titles))
		s.titles = append(s.titles, title)
		s.titleAt[title] = k
	}
	s.groupAt = setAt(s.groupAt, i, k)
}

// row is row i as a Row.
func (s *store) row(i int) Row {
	return Row{ID: s.ids[i], Cells: s.cellsOf(i), Group: s.group(i)}
}
