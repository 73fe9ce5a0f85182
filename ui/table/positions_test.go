package table

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// streamModel is what a table must show, kept the obvious way: the rows by
// slot (a removed row keeps its slot, empty), the groups' ranks in the order
// the table meets their titles, the sort and the filters.
type streamModel struct {
	slots   []Row
	slot    map[string]int // ID -> slot, while the row is there
	rank    map[string]int
	next    int // the next new ID
	grouped bool
	sortCol int
	desc    bool
	query   string
	where   func(Row) bool
}

func newStreamModel() *streamModel {
	return &streamModel{slot: map[string]int{}, rank: map[string]int{}, sortCol: -1}
}

func (s *streamModel) meet(group string) {
	if _, ok := s.rank[group]; s.grouped && !ok {
		s.rank[group] = len(s.rank)
	}
}

func (s *streamModel) add(rows []Row) {
	for _, r := range rows {
		if k, ok := s.slot[r.ID]; ok {
			s.slots[k] = r
		} else {
			s.slot[r.ID] = len(s.slots)
			s.slots = append(s.slots, r)
		}
		s.meet(r.Group)
	}
}

func (s *streamModel) remove(id string) {
	s.slots[s.slot[id]] = Row{}
	delete(s.slot, id)
}

func (s *streamModel) live() []Row {
	return slices.DeleteFunc(slices.Clone(s.slots), func(r Row) bool { return r.ID == "" })
}

func (s *streamModel) setGrouped(on bool) {
	s.grouped, s.rank = on, map[string]int{}
	for _, r := range s.live() {
		s.meet(r.Group)
	}
}

// want is the visible rows' IDs: a plain stable sort of the live rows that
// pass the filters, by group rank when grouped.
func (s *streamModel) want() []string {
	rows := s.live()
	if s.where != nil {
		rows = slices.DeleteFunc(rows, func(r Row) bool { return !s.where(r) })
	}
	ids := reference(rows, s.sortCol, s.desc, s.query)
	if s.grouped {
		group := map[string]string{}
		for _, r := range rows {
			group[r.ID] = r.Group
		}
		slices.SortStableFunc(ids, func(a, b string) int { return cmp.Compare(s.rank[group[a]], s.rank[group[b]]) })
	}
	return ids
}

// newRows makes n rows, new ones and, when again, some seen before (maybe
// removed since).
func (s *streamModel) newRows(r *rand.Rand, n int, again bool) []Row {
	rows := make([]Row, n)
	for k := range rows {
		if again && s.next > 0 && r.IntN(10) == 0 {
			rows[k] = streamRow(r, fmt.Sprintf("s%d", r.IntN(s.next)))
			continue
		}
		rows[k] = streamRow(r, fmt.Sprintf("s%d", s.next))
		s.next++
	}
	return rows
}

// streamRow is a row whose cells tie often: few names, statuses and seat
// counts, some of them not ASCII. Some rows have no seats cell, some a
// hidden cell past the columns, so that rows (and a row's updates) differ
// in their count of cells.
func streamRow(r *rand.Rand, id string) Row {
	names := []string{"Expo", "expo", "Gala Summit", "Workshop Summit Lisbon", "Workshop Summit Lima", "Émile Forum", "émile forum", "Zoë", " Expo "}
	groups := []string{"Voicemail", "Calls", "", "Recording"}
	cells := []string{
		fmt.Sprintf("%s %d", names[r.IntN(len(names))], r.IntN(30)),
		statuses[r.IntN(len(statuses))],
		cities[r.IntN(len(cities))],
		commas(r.IntN(3) * 999),
	}
	switch r.IntN(8) {
	case 0:
		cells = cells[:3]
	case 1:
		cells = append(cells, "quokka "+id)
	}
	return Row{ID: id, Cells: cells, Group: groups[r.IntN(len(groups))]}
}

// A streamOp changes the table and the model alike, and says what it did.
type streamOp struct {
	weight int
	do     func(r *rand.Rand, m *Model, s *streamModel, page int) string
}

var streamOps = []streamOp{
	{8, func(r *rand.Rand, m *Model, s *streamModel, page int) string {
		// Not in the first load, which shows repeated IDs until it reads them (ids.go).
		rows := s.newRows(r, 1+r.IntN(page), m.Len() > 0)
		m.AppendRows(rowsOf(rows))
		s.add(rows)
		return fmt.Sprintf("append %d", len(rows))
	}},
	{2, func(r *rand.Rand, m *Model, s *streamModel, _ int) string {
		live := s.live()
		if len(live) == 0 {
			return "no update"
		}
		row := streamRow(r, live[r.IntN(len(live))].ID)
		if !m.UpdateRow(row) {
			return "update of a known row refused: " + row.ID
		}
		s.add([]Row{row})
		return "update " + row.ID
	}},
	{2, func(r *rand.Rand, m *Model, s *streamModel, _ int) string {
		live := s.live()
		if len(live) == 0 {
			return "no removal"
		}
		id := live[r.IntN(len(live))].ID
		if !m.RemoveRow(id) {
			return "removal of a known row refused: " + id
		}
		s.remove(id)
		return "remove " + id
	}},
	{1, func(r *rand.Rand, m *Model, s *streamModel, _ int) string {
		s.query = []string{"", "", "e", "summit", "lisbon", "émile", "zz", "quokka"}[r.IntN(8)]
		m.SetFilter(s.query)
		return "filter " + s.query
	}},
	{1, func(r *rand.Rand, m *Model, s *streamModel, _ int) string {
		if s.where = nil; r.IntN(2) == 0 {
			s.where = func(row Row) bool { return row.Cells[1] != "DRAFT" }
		}
		m.SetWhere(s.where)
		return fmt.Sprint("where ", s.where != nil)
	}},
	{1, func(r *rand.Rand, m *Model, s *streamModel, _ int) string {
		s.sortCol, s.desc = r.IntN(5)-1, r.IntN(2) == 0
		m.SetSort(s.sortCol, s.desc)
		return fmt.Sprint("sort ", s.sortCol, s.desc)
	}},
	{1, func(r *rand.Rand, m *Model, s *streamModel, _ int) string {
		s.setGrouped(!s.grouped)
		m.SetGrouped(s.grouped)
		return fmt.Sprint("grouped ", s.grouped)
	}},
	{1, func(r *rand.Rand, m *Model, s *streamModel, page int) string {
		rows := s.newRows(r, r.IntN(4*page), false)
		m.SetRows(rowsOf(rows))
		s.slots, s.slot = nil, map[string]int{}
		s.setGrouped(s.grouped)
		s.add(rows)
		return fmt.Sprintf("set %d", len(rows))
	}},
	{6, func(r *rand.Rand, m *Model, _ *streamModel, _ int) string {
		k := []string{"down", "up", "pgdown", "pgup", "end", "home", "down", "down"}[r.IntN(8)]
		*m = press(*m, k)
		return k
	}},
}

// pickStreamOp picks an op by weight.
func pickStreamOp(r *rand.Rand) streamOp {
	total := 0
	for _, op := range streamOps {
		total += op.weight
	}
	n := r.IntN(total)
	for _, op := range streamOps {
		if n -= op.weight; n < 0 {
			return op
		}
	}
	panic("weights")
}

// TestStreamMatchesStableSort streams random pages into a table while
// rows are updated and removed, the rows are replaced, the filters, sort
// and grouping change and the cursor moves, and checks after every step
// that the table shows a plain stable sort of its rows, that the window it
// draws is in order already (so drawing reads no rows out of order), and
// that any position reads the same row.
func TestStreamMatchesStableSort(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 99))
			page := []int{1, 3, 40, 120}[seed%4]
			m, s := newTable(80, 8+int(seed%3)*10, nil), newStreamModel()
			for step := range 400 {
				did := pickStreamOp(r).do(r, &m, s, page)
				if strings.Contains(did, "refused") {
					t.Fatalf("step %d: %s", step, did)
				}
				_ = m.View()
				checkStream(t, m, s, r, fmt.Sprintf("step %d (%s)", step, did))
			}
		})
	}
}

// checkStream checks the table against the rows it must show.
func checkStream(t *testing.T, m Model, s *streamModel, r *rand.Rand, at string) {
	t.Helper()
	want := s.want()
	if got := visibleIDs(m); !slices.Equal(got, want) {
		t.Fatalf("%s: rows differ from a stable sort:\n got %v\nwant %v", at, got, want)
	}
	sel, ok := m.Selected()
	if ok != (len(want) > 0) || ok && sel.ID != want[m.Cursor()] {
		t.Fatalf("%s: selected %q (%v) at %d, want %v", at, sel.ID, ok, m.Cursor(), want)
	}
	if ok && !sameRow(sel, s.slots[s.slot[sel.ID]]) {
		t.Fatalf("%s: selected %+v, want %+v", at, sel, s.slots[s.slot[sel.ID]])
	}
	c := m.comparer()
	for _, q := range []*positions{&m.order, &m.filtered} {
		if why := q.broken(c); why != "" {
			t.Fatalf("%s: the order or the filtered rows: %s", at, why)
		}
	}
	q := m.visible()
	for p := m.offset; p < min(q.len(), m.offset+m.bodyHeight()+1); p++ {
		if _, ok := q.settled(p); !ok {
			t.Fatalf("%s: position %d of the window (%d..) is not in order yet", at, p, m.offset)
		}
	}
	for range 3 {
		if len(want) == 0 {
			break
		}
		p := r.IntN(len(want))
		if got := m.rows.id(q.at(p, m.comparer())); got != want[p] {
			t.Fatalf("%s: at(%d) = %s, want %s", at, p, got, want[p])
		}
	}
}

// broken says how q breaks what positions promise, or "": list in order,
// each row of list before each of rest, rest in order when it says so.
func (q *positions) broken(c cmpFunc) string {
	switch {
	case !slices.IsSortedFunc(q.list, c):
		return "list out of order"
	case q.restInOrder && !slices.IsSortedFunc(q.rest, c):
		return "rest out of order"
	case len(q.list) > 0 && len(q.rest) > 0 && c(q.list[len(q.list)-1], slices.MinFunc(q.rest, c)) > 0:
		return "a row of rest before the last of list"
	}
	return ""
}

func TestSelectLeastPutsTheLeastFirst(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{1, 2, 3, 10, 100, 5000} {
		for _, shape := range []string{"random", "ascending", "descending", "organ"} {
			s := make([]int, n)
			for i := range s {
				switch shape {
				case "random":
					s[i] = r.IntN(1 << 30)
				case "ascending":
					s[i] = i
				case "descending":
					s[i] = n - i
				case "organ":
					s[i] = min(i, n-i)*2 + i%2
				}
			}
			for _, k := range []int{0, 1, n / 3, n - 1, n} {
				got := slices.Clone(s)
				selectLeast(got, k, cmp.Compare[int])
				want := slices.Sorted(slices.Values(s))
				first := slices.Sorted(slices.Values(got[:k]))
				if !slices.Equal(first, want[:k]) || !slices.Equal(slices.Sorted(slices.Values(got)), want) {
					t.Fatalf("%s n=%d k=%d: first %v..., want %v...", shape, n, k, first[:min(k, 5)], want[:min(k, 5)])
				}
			}
		}
	}
}

// A page whose rows come after the window is not put in order: the list in
// order stays about the window's size however many rows stream in.
func TestStreamOrdersOnlyWhatTheWindowReaches(t *testing.T) {
	m := newTable(80, 12, nil)
	m.SetSort(0, false)
	for first := 0; first < 20_000; first += 300 {
		m.AppendRows(rowsOf(genRows(first, 300, uint64(first))))
		_ = m.View()
	}
	// The cursor stays on its row, which rows that sort before it push down.
	if n, reach := len(m.order.list), max(m.offset, m.cursor)+m.bodyHeight()+1; n > 4*reach || n > 1000 {
		t.Fatalf("%d of 20,000 rows in order for a window reaching %d", n, reach)
	}
	m = press(m, "end")
	assertIDs(t, visibleIDs(m), reference(genStream(20_000, 300), 0, false, ""))
	if ids := visibleIDs(m); m.Cursor() != len(ids)-1 || m.rows.id(m.rowAt(m.Cursor())) != ids[len(ids)-1] {
		t.Fatalf("end: the cursor is not on the last row")
	}
}

// genStream is the rows TestStreamOrdersOnlyWhatTheWindowReaches streams.
func genStream(n, page int) []Row {
	var rows []Row
	for first := 0; first < n; first += page {
		rows = append(rows, genRows(first, page, uint64(first))...)
	}
	return rows
}
