package table

import (
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestFilterMatchesAnyCellIgnoringCase(t *testing.T) {
	rows := []Row{
		{ID: "a", Cells: []string{"Go Summit", "PUBLISHED", "Berlin", "10"}},
		{ID: "b", Cells: []string{"Rust Meetup", "draft", "Lisbon", "20"}},
		{ID: "c", Cells: []string{"Zig Expo", "cancelled", "BERLIN", "30"}},
	}
	m := newTable(80, 10, rows)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"berlin", []string{"a", "c"}},
		{"DRAFT", []string{"b"}},
		{"summit", []string{"a"}},
		{"nowhere", []string{}},
		{"", []string{"a", "b", "c"}},
		// The cell separator never matches, so a query cannot span two cells.
		{"summitpublished", []string{}},
	} {
		m.SetFilter(tc.query)
		assertIDs(t, visibleIDs(m), tc.want)
		if m.FilterText() != tc.query {
			t.Fatalf("FilterText = %q, want %q", m.FilterText(), tc.query)
		}
	}
}

func TestFilterTypedNarrowsAndWidensLikeAFullScan(t *testing.T) {
	rows := genRows(0, 3000, 1)
	m := newTable(80, 20, rows)
	m = press(m, "/")
	if !m.Filtering() {
		t.Fatal("/ should focus the filter")
	}
	typed := ""
	for _, r := range "summit 1" {
		m = typeText(m, string(r))
		typed += string(r)
		assertIDs(t, visibleIDs(m), reference(rows, -1, false, typed))
	}
	for range 3 {
		m = press(m, "backspace")
		typed = typed[:len(typed)-1]
		assertIDs(t, visibleIDs(m), reference(rows, -1, false, typed))
	}
	m = press(m, "enter")
	if m.Filtering() || m.FilterText() != typed {
		t.Fatalf("enter should keep %q and leave the input: filtering=%v text=%q", typed, m.Filtering(), m.FilterText())
	}
	// Keys move the cursor again once the filter is kept.
	before := m.Cursor()
	m = press(m, "j")
	if m.Cursor() != before+1 || m.FilterText() != typed {
		t.Fatalf("j after enter: cursor %d, filter %q", m.Cursor(), m.FilterText())
	}
	m = press(m, "/", "x", "esc")
	if m.Filtering() || m.FilterText() != "" || m.VisibleLen() != len(rows) {
		t.Fatalf("esc should clear the filter: filtering=%v text=%q visible=%d", m.Filtering(), m.FilterText(), m.VisibleLen())
	}
}

func TestFilterKeepsCursorRowWhenItStillMatches(t *testing.T) {
	rows := genRows(0, 200, 2)
	m := newTable(80, 12, rows)
	m = press(m, "down", "down", "down")
	sel, _ := m.Selected()
	city := strings.ToLower(sel.Cells[2])
	m.SetFilter(city)
	if got, _ := m.Selected(); got.ID != sel.ID {
		t.Fatalf("cursor moved to %s, want %s", got.ID, sel.ID)
	}
	m.SetFilter("no such thing at all")
	if _, ok := m.Selected(); ok || m.VisibleLen() != 0 {
		t.Fatal("nothing should be selected when nothing matches")
	}
}

func TestSortCyclesColumnsAndReverses(t *testing.T) {
	rows := genRows(0, 500, 3)
	m := newTable(80, 12, rows)
	for col := 0; col < 4; col++ {
		m = press(m, "s")
		if c, d := m.SortColumn(); c != col || d {
			t.Fatalf("after %d presses sort = %d desc=%v", col+1, c, d)
		}
		assertIDs(t, visibleIDs(m), reference(rows, col, false, ""))
		m = press(m, "S")
		assertIDs(t, visibleIDs(m), reference(rows, col, true, ""))
		m = press(m, "S")
	}
	m = press(m, "s")
	if c, _ := m.SortColumn(); c != -1 {
		t.Fatalf("sort should cycle back to none, got %d", c)
	}
	assertIDs(t, visibleIDs(m), reference(rows, -1, false, ""))
	m = press(m, "S") // no column: newest first
	assertIDs(t, visibleIDs(m), reference(rows, -1, true, ""))
}

func TestSortComparesNumbersAsNumbersAndIsStable(t *testing.T) {
	rows := []Row{
		{ID: "a", Cells: []string{"x", "", "", "1,200"}},
		{ID: "b", Cells: []string{"x", "", "", "90"}},
		{ID: "c", Cells: []string{"x", "", "", "n/a"}},
		{ID: "d", Cells: []string{"x", "", "", "90"}},
		{ID: "e", Cells: []string{"x", "", "", "-5"}},
	}
	m := newTable(80, 10, rows)
	m.SetSort(3, false)
	assertIDs(t, visibleIDs(m), []string{"e", "b", "d", "a", "c"})
	m.SetSort(3, true) // ties keep arrival order both ways
	assertIDs(t, visibleIDs(m), []string{"c", "a", "b", "d", "e"})
	m.SetSort(0, false) // all equal: arrival order
	assertIDs(t, visibleIDs(m), []string{"a", "b", "c", "d", "e"})
}

func TestAppendWhileFilteredAndSortedMatchesFullRebuild(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sortCol int
		desc    bool
		query   string
	}{
		{"unsorted", -1, false, ""},
		{"newest first", -1, true, "meetup"},
		{"by name", 0, false, "summit"},
		{"by seats desc", 3, true, "berlin"},
		{"by status", 1, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var all []Row
			m := newTable(80, 15, nil)
			m.SetSort(tc.sortCol, tc.desc)
			m.SetFilter(tc.query)
			for page := 0; page < 6; page++ {
				p := genRows(page*250, 250, uint64(page+10))
				if page == 3 { // the pager re-delivers a changed row
					p = append(p, Row{ID: "r000005", Cells: []string{"Renamed Summit", "PUBLISHED", "Berlin", "1"}})
				}
				all = append(all, p...)
				m.AppendRows(rowsOf(p))
				assertIDs(t, visibleIDs(m), reference(all, tc.sortCol, tc.desc, tc.query))
			}
			if m.Len() != 1500 {
				t.Fatalf("Len = %d, want 1500 (duplicates replace)", m.Len())
			}
		})
	}
}

func TestAppendKeepsCursorOnSameRow(t *testing.T) {
	m := newTable(80, 12, genRows(1000, 100, 4))
	m.SetSort(0, false)
	m = press(m, "down", "down", "down", "down", "down")
	want, _ := m.Selected()
	line := m.Cursor() - m.offset
	m.AppendRows(rowsOf(genRows(0, 1000, 5))) // many sort before the selected row
	got, _ := m.Selected()
	if got.ID != want.ID {
		t.Fatalf("selected %s after append, want %s", got.ID, want.ID)
	}
	if m.Cursor()-m.offset != line {
		t.Fatalf("selected row moved on screen from line %d to %d", line, m.Cursor()-m.offset)
	}
}

func TestUpdateRowResortsAndRefilters(t *testing.T) {
	rows := genRows(0, 50, 6)
	m := newTable(80, 12, rows)
	m.SetSort(3, false)
	m.SetFilter("berlin")
	changed := Row{ID: rows[7].ID, Cells: []string{"Moved", "DRAFT", "Berlin", "99999"}}
	if !m.UpdateRow(changed) {
		t.Fatal("UpdateRow: known ID reported unknown")
	}
	all := append(append([]Row{}, rows...), changed)
	assertIDs(t, visibleIDs(m), reference(all, 3, false, "berlin"))
	gone := Row{ID: rows[7].ID, Cells: []string{"Moved", "DRAFT", "Lima", "1"}}
	m.UpdateRow(gone)
	all = append(all, gone)
	assertIDs(t, visibleIDs(m), reference(all, 3, false, "berlin"))
	if m.UpdateRow(Row{ID: "nope"}) {
		t.Fatal("UpdateRow accepted an unknown ID")
	}
}

func TestRemoveRow(t *testing.T) {
	rows := genRows(0, 10, 7)
	m := newTable(80, 12, rows)
	m = press(m, "down", "down")
	if !m.RemoveRow(rows[2].ID) {
		t.Fatal("RemoveRow: known ID reported unknown")
	}
	if sel, _ := m.Selected(); sel.ID != rows[3].ID {
		t.Fatalf("after removing the selected row the cursor is on %s, want the next row %s", sel.ID, rows[3].ID)
	}
	m.RemoveRow(rows[0].ID)
	if sel, _ := m.Selected(); sel.ID != rows[3].ID {
		t.Fatalf("removing another row moved the cursor to %s", sel.ID)
	}
	if m.Len() != 8 || m.VisibleLen() != 8 {
		t.Fatalf("Len %d VisibleLen %d, want 8", m.Len(), m.VisibleLen())
	}
	m.AppendRows(rowsOf([]Row{rows[0]})) // a removed ID may come back
	if m.Len() != 9 {
		t.Fatalf("Len %d after re-adding, want 9", m.Len())
	}
}

func TestNavigationAndNearEnd(t *testing.T) {
	m := newTable(80, 12, genRows(0, 100, 8)) // 10 body rows
	if m.NearEnd() {
		t.Fatal("NearEnd at the top of 100 rows")
	}
	m = press(m, "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown")
	if m.Cursor() != 80 || m.NearEnd() {
		t.Fatalf("cursor %d NearEnd %v, want 80 false", m.Cursor(), m.NearEnd())
	}
	m = press(m, "pgdown")
	if !m.NearEnd() {
		t.Fatal("row 91 of 100 with 10 rows a screen should be near the end")
	}
	m = press(m, "G")
	if m.Cursor() != 99 || m.offset != 90 {
		t.Fatalf("G: cursor %d offset %d", m.Cursor(), m.offset)
	}
	m = press(m, "g")
	if m.Cursor() != 0 || m.offset != 0 {
		t.Fatalf("g: cursor %d offset %d", m.Cursor(), m.offset)
	}
	m = press(m, "k", "up")
	if m.Cursor() != 0 {
		t.Fatalf("up at the top moved to %d", m.Cursor())
	}
	empty := newTable(80, 12, nil)
	if !empty.NearEnd() {
		t.Fatal("an empty table should ask for more")
	}
	empty = press(empty, "down", "G", "pgdown")
	if _, ok := empty.Selected(); ok {
		t.Fatal("empty table has a selection")
	}
}

func TestLayoutSharesSpareWidthByFlex(t *testing.T) {
	m := newTable(80, 10, nil)
	// 80 - gutter 2 - 3 gaps = 75; minimums 36; spare 39 split 2:1.
	if got, want := m.widths, []int{12 + 26, 10, 8 + 13, 6}; !equal(got, want) {
		t.Fatalf("widths %v, want %v", got, want)
	}
	m.SetSize(30, 10) // 30-2-3 = 25 < 36: shrink the widest first
	sum := 0
	for _, w := range m.widths {
		sum += w
	}
	if sum != 25 {
		t.Fatalf("widths %v sum to %d, want 25", m.widths, sum)
	}
}

func TestCellsTruncateByDisplayWidthAndNeverWrap(t *testing.T) {
	rows := []Row{
		{ID: "1", Cells: []string{"東京国際フォーラム大ホール特別イベント・年次総会と展示会二〇二六", "PUBLISHED", "Tōkyō", "12"}},
		{ID: "2", Cells: []string{"A name with a\nnewline and \x1b[31mescapes, long enough to be cut at any of the widths", "draft", "Berlin", "3"}},
		{ID: "3", Cells: []string{"short"}}, // fewer cells than columns
	}
	for _, w := range []int{60, 80, 100} {
		m := newTable(w, 8, rows)
		view := m.View()
		lines := strings.Split(view, "\n")
		if len(lines) != 8 {
			t.Fatalf("width %d: %d lines, want 8", w, len(lines))
		}
		for i, l := range lines {
			if lw := lipgloss.Width(l); lw > w {
				t.Fatalf("width %d: line %d is %d cells: %q", w, i, lw, l)
			}
		}
		if !strings.Contains(view, "…") {
			t.Fatalf("width %d: long cell not truncated with an ellipsis", w)
		}
		if strings.Contains(view, "\x1b[31m") {
			t.Fatal("a cell's escape sequence reached the terminal")
		}
	}
	if got := fitCell("東京都", 5); got != "東京…" {
		t.Fatalf("fitCell wide = %q", got)
	}
	if got := fitCell("abcdef", 4); got != "abc…" {
		t.Fatalf("fitCell ascii = %q", got)
	}
	if got := fitCell("ab", 4); got != "ab  " {
		t.Fatalf("fitCell pad = %q", got)
	}
}

func TestCommas(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4500: "-4,500"} {
		if got := commas(n); got != want {
			t.Errorf("commas(%d) = %q, want %q", n, got, want)
		}
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSetWhereFiltersWithoutRebuildingAndHoldsForNewRows(t *testing.T) {
	row := func(id, kind, name string) Row { return Row{ID: id, Cells: []string{name, kind, "x", "y"}} }
	m := New(testTheme, testColumns()...)
	m.SetSize(80, 10)
	m.SetRows(rowsOf([]Row{row("1", "failed", "ann"), row("2", "delivered", "bob"), row("3", "failed", "cai")}))
	failed := func(r Row) bool { return r.Cells[1] == "failed" }
	m.SetWhere(failed)
	if m.VisibleLen() != 2 || m.Len() != 3 {
		t.Fatalf("where: %d visible of %d", m.VisibleLen(), m.Len())
	}
	m.SetFilter("cai") // the typed filter narrows within the rows kept
	if m.VisibleLen() != 1 {
		t.Fatalf("where + filter: %d visible", m.VisibleLen())
	}
	m.SetFilter("")
	m.AppendRows(rowsOf([]Row{row("4", "failed", "dee"), row("5", "delivered", "eve")}))
	if m.VisibleLen() != 3 {
		t.Fatalf("appended rows must meet the predicate: %d visible", m.VisibleLen())
	}
	m.SetWhere(nil)
	if m.VisibleLen() != 5 {
		t.Fatalf("nil keeps every row: %d visible", m.VisibleLen())
	}
}

func TestCountIgnoresWhereButNotTheTypedFilter(t *testing.T) {
	m := newTable(80, 10, settingsRows())
	draft := func(r Row) bool { return r.Cells[1] == "DRAFT" }
	m.SetWhere(draft)
	if n := m.Count(nil); n != 8 {
		t.Fatalf("Count(nil) = %d, want every row (8)", n)
	}
	if n := m.Count(draft); n != 3 {
		t.Fatalf("Count(draft) = %d, want 3", n)
	}
	m.SetFilter("berlin")
	if n, all := m.Count(draft), m.Count(nil); n != 0 || all != 3 {
		t.Fatalf("with the filter: Count(draft) = %d, Count(nil) = %d; want 0 and 3", n, all)
	}
}

func TestCellsPastTheColumnsAreSearchedNotDrawn(t *testing.T) {
	m := New(testTheme, Column{Title: "Name", Width: 12})
	m.SetSize(40, 6)
	m.SetRows(rowsOf([]Row{
		{ID: "a", Cells: []string{"Call park", "call_park"}},
		{ID: "b", Cells: []string{"Voicemail", "voicemail"}},
	}))
	if strings.Contains(m.View(), "call_park") {
		t.Fatalf("a hidden cell was drawn:\n%s", m.View())
	}
	m.SetFilter("call_")
	if ids := visibleIDs(m); !slices.Equal(ids, []string{"a"}) {
		t.Fatalf("filter on a hidden cell: %v", ids)
	}
}

func TestSetColumnsKeepsRowsCursorAndFilter(t *testing.T) {
	m := newTable(80, 10, genRows(0, 20, 1))
	m.SetSort(3, false)
	m = press(m, "j", "j")
	sel, _ := m.Selected()
	m.SetFilter("e")
	m.SetColumns(testColumns()[:2]...)
	if got, _ := m.Selected(); got.ID != sel.ID {
		t.Fatalf("cursor on %s, want %s", got.ID, sel.ID)
	}
	if col, _ := m.SortColumn(); col != -1 {
		t.Fatalf("sort on column %d, which is gone", col)
	}
	if m.FilterText() != "e" || strings.Contains(m.View(), "Seats") {
		t.Fatalf("filter %q, view:\n%s", m.FilterText(), m.View())
	}
}
