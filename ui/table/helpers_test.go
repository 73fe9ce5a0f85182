package table

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"charm.land/lipgloss/v2"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
)

var testTheme = ui.NewTheme(true, true)

func testColumns() []Column {
	return []Column{
		{Title: "Name", Width: 12, Flex: 2},
		{Title: "Status", Width: 10, Style: func(s string) lipgloss.Style { return testTheme.Status(s) }},
		{Title: "City", Width: 8, Flex: 1},
		{Title: "Seats", Width: 6},
	}
}

var (
	statuses = []string{"PUBLISHED", "DRAFT", "cancelled", "past"}
	cities   = []string{"Berlin", "Lisbon", "Osaka", "Toronto", "Nairobi", "Lima"}
	words    = []string{"Summit", "Meetup", "Expo", "Gala", "Workshop", "Forum", "Retreat"}
)

// genRows makes n deterministic rows with IDs from first on.
func genRows(first, n int, seed uint64) []Row {
	r := rand.New(rand.NewPCG(seed, 7))
	rows := make([]Row, n)
	for i := range rows {
		id := first + i
		rows[i] = Row{
			ID: fmt.Sprintf("r%06d", id),
			Cells: []string{
				fmt.Sprintf("%s %s %d", words[r.IntN(len(words))], words[r.IntN(len(words))], id),
				statuses[r.IntN(len(statuses))],
				cities[r.IntN(len(cities))],
				commas(r.IntN(5000)),
			},
		}
	}
	return rows
}

func newTable(w, h int, rows []Row) Model {
	m := New(testTheme, testColumns()...)
	m.SetSize(w, h)
	m.SetRows(rowsOf(rows))
	return m
}

func press(m Model, keys ...string) Model {
	for _, k := range keys {
		m, _ = m.Update(uitest.Key(k))
	}
	return m
}

func typeText(m Model, s string) Model {
	for _, r := range s {
		m = press(m, string(r))
	}
	return m
}

// visibleIDs lists the rows in display order after the filter: the rows
// in order, then the rest sorted (on copies: the table stays as it is).
func visibleIDs(m Model) []string {
	q := m.visible()
	var order []int
	if q.ident {
		order = appendRange(nil, 0, q.n)
	} else {
		order = append(slices.Clone(q.list), slices.SortedFunc(slices.Values(q.rest), m.comparer())...)
	}
	ids := make([]string, len(order))
	for p, i := range order {
		ids[p] = m.rows.id(i)
	}
	return ids
}

// reference computes what the table must show, the slow obvious way.
func reference(rows []Row, sortCol int, desc bool, query string) []string {
	type rec struct {
		row Row
		seq int
	}
	var recs []rec
	at := map[string]int{}
	for _, r := range rows { // later versions replace, first arrival keeps its place
		if i, ok := at[r.ID]; ok {
			recs[i].row = r
			continue
		}
		at[r.ID] = len(recs)
		recs = append(recs, rec{r, len(recs)})
	}
	q := withoutAccents(strings.ToLower(query))
	var out []rec
	for _, r := range recs {
		if q == "" || strings.Contains(withoutAccents(strings.ToLower(strings.Join(r.row.Cells, "\x00"))), q) {
			out = append(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b rec) int {
		if sortCol < 0 {
			if desc {
				return b.seq - a.seq
			}
			return a.seq - b.seq
		}
		c := compareKeysOf(cellOf(a.row, sortCol), cellOf(b.row, sortCol))
		if desc {
			c = -c
		}
		return c
	})
	ids := make([]string, len(out))
	for i, r := range out {
		ids[i] = r.row.ID
	}
	return ids
}

func assertIDs(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		n := min(len(got), len(want), 8)
		t.Fatalf("rows differ: got %d rows %v..., want %d rows %v...", len(got), got[:n], len(want), want[:n])
	}
}

// compareKeysOf compares two cells the obvious way: numbers (commas
// allowed) as numbers and before text, text case-insensitively and
// without accents.
func compareKeysOf(a, b string) int {
	num := func(s string) (float64, bool) {
		s = strings.TrimSpace(s)
		if s == "" || !strings.ContainsAny(s[:1], "+-.0123456789") {
			return 0, false
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
		return f, err == nil
	}
	na, aNum := num(a)
	nb, bNum := num(b)
	switch {
	case aNum && bNum:
		return cmp.Compare(na, nb)
	case aNum:
		return -1
	case bNum:
		return 1
	}
	return strings.Compare(withoutAccents(strings.ToLower(strings.TrimSpace(a))), withoutAccents(strings.ToLower(strings.TrimSpace(b))))
}

// withoutAccents drops the combining marks of s once decomposed: "é" is
// "e" and a mark. Remembered, as the references sort thousands of rows
// at every step.
func withoutAccents(s string) string {
	if v, ok := unaccented.Load(s); ok {
		return v.(string)
	}
	out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn))), s)
	if err != nil {
		panic(err)
	}
	unaccented.Store(s, out)
	return out
}

var unaccented sync.Map

// rowsOf is rows as a list for the table.
func rowsOf(rows []Row) *Rows {
	list := NewRows(len(rows))
	for _, r := range rows {
		list.Add(r)
	}
	return list
}

// cellOf is a row's cell in column col, "" past its cells, as drawn.
func cellOf(r Row, col int) string {
	if col < len(r.Cells) {
		return r.Cells[col]
	}
	return ""
}

// sameRow reports whether two rows hold the same ID, cells and group.
func sameRow(a, b Row) bool {
	return a.ID == b.ID && a.Group == b.Group && slices.Equal(a.Cells, b.Cells)
}
