package table

import (
	"fmt"
	"slices"
	"testing"
)

// raggedRows have fewer and more cells than the first row (and than the
// table's columns), groups from the third row on, and an empty ID.
func raggedRows() []Row {
	return []Row{
		{ID: "a", Cells: []string{"Ann", "PUBLISHED", "Lima", "1"}},
		{ID: "b", Cells: []string{"Bob", "DRAFT"}},
		{ID: "c", Cells: []string{"Cai", "past", "Osaka", "3", "hidden quokka"}, Group: "Calls"},
		{ID: "", Cells: nil, Group: "Voicemail"},
		{ID: "e", Cells: []string{"Eve", "past", "Lima", "5"}},
		{ID: "f", Cells: []string{"Fay", "DRAFT", "Lima", "6"}, Group: "Calls"},
	}
}

func TestRowsKeepEveryRowAsAdded(t *testing.T) {
	var in []Row // over several blocks
	for k := range 3*blockRows/len(raggedRows()) + 1 {
		for _, r := range raggedRows() {
			r.ID += fmt.Sprint(k)
			in = append(in, r)
		}
	}
	list := rowsOf(in)
	if list.Len() != len(in) {
		t.Fatalf("Len = %d, want %d", list.Len(), len(in))
	}
	for i, want := range in {
		if got := list.row(i); !sameRow(got, want) {
			t.Errorf("row %d = %+v, want %+v", i, got, want)
		}
	}
}

// TestRowsAddAllocatesNothingPerRow: a list made for its rows holds them
// without an allocation a row; the cells' slice literal stays on the stack.
func TestRowsAddAllocatesNothingPerRow(t *testing.T) {
	const n = 1000
	list := NewRows(n + 1)
	id, name, group := "r000001", "Gala Summit", "Calls"
	if allocs := testing.AllocsPerRun(n, func() {
		list.Add(Row{ID: id, Cells: []string{name, "PUBLISHED", "Lima", "1,234"}, Group: group})
	}); allocs != 0 {
		t.Fatalf("Add allocates %.1f times a row, want 0", allocs)
	}
}

func TestSelectedReadsRaggedRowsAndGroups(t *testing.T) {
	in := raggedRows()
	m := newTable(80, 12, in)
	for p, want := range in {
		m.cursor = p
		if got, _ := m.Selected(); !sameRow(got, want) {
			t.Errorf("row %d: Selected = %+v, want %+v", p, got, want)
		}
	}
	m.SetFilter("quokka") // a cell past the columns is searched
	assertIDs(t, visibleIDs(m), []string{"c"})
	m.SetFilter("")
	m.SetGrouped(true)
	assertIDs(t, visibleIDs(m), []string{"a", "b", "e", "c", "f", ""})
}

func TestUpdateAndRemoveChangeWhatSelectedReads(t *testing.T) {
	m := newTable(80, 12, raggedRows())
	longer := Row{ID: "a", Cells: []string{"Ann", "DRAFT", "Lima", "1", "hidden wombat"}, Group: "Recording"}
	shorter := Row{ID: "c", Cells: []string{"Cai"}}
	for _, r := range []Row{longer, shorter} {
		if !m.UpdateRow(r) {
			t.Fatalf("UpdateRow(%s) refused", r.ID)
		}
	}
	m.SetFilter("wombat")
	if got, _ := m.Selected(); !sameRow(got, longer) {
		t.Fatalf("after an update with more cells, Selected = %+v, want %+v", got, longer)
	}
	m.SetFilter("cai")
	if got, _ := m.Selected(); !sameRow(got, shorter) {
		t.Fatalf("after an update with fewer cells, Selected = %+v, want %+v", got, shorter)
	}
	m.SetFilter("")
	back := Row{ID: "c", Cells: []string{"Cai", "past", "Osaka", "3"}}
	m.UpdateRow(back)
	m.cursor = 2
	if got, _ := m.Selected(); !sameRow(got, back) {
		t.Fatalf("after an update back to the first row's count, Selected = %+v, want %+v", got, back)
	}

	if !m.RemoveRow("c") {
		t.Fatal("RemoveRow(c) refused")
	}
	if got, _ := m.Selected(); got.ID != "" { // the next row: the one with no ID
		t.Fatalf("after removing the selected row, Selected = %+v, want the next row", got)
	}
	if cells := m.rows.of(2); slices.ContainsFunc(cells, func(c string) bool { return c != "" }) || m.rows.group(2) != "" {
		t.Fatalf("a removed row keeps its texts: %q, group %q", cells, m.rows.group(2))
	}
	m.RemoveRow("a")
	if _, kept := m.rows.odd[0]; kept {
		t.Fatal("a removed row with more cells keeps them")
	}
	m.AppendRows(rowsOf([]Row{{ID: "c", Cells: []string{"Cai again"}}})) // a removed ID may come back
	m.SetFilter("again")
	if got, _ := m.Selected(); got.ID != "c" || got.Cells[0] != "Cai again" {
		t.Fatalf("a removed ID added again: Selected = %+v", got)
	}
}

func TestSelectedCellsCannotGrowIntoTheNextRow(t *testing.T) {
	m := newTable(80, 12, genRows(0, 3, 1))
	sel, _ := m.Selected()
	_ = append(sel.Cells, "overwritten")
	if got := m.rows.cell(1, 0); got == "overwritten" {
		t.Fatal("appending to Selected's cells wrote into the next row")
	}
}

// TestTheTableTakesTheList: SetRows and AppendRows leave the caller's list
// empty, so that adding to it afterwards cannot write into the table's.
func TestTheTableTakesTheList(t *testing.T) {
	m := New(testTheme, testColumns()...)
	m.SetSize(80, 12)
	for _, load := range []func(*Rows){m.SetRows, m.AppendRows, m.AppendRows} {
		list := rowsOf(genRows(m.Len(), 4, 1))
		load(list)
		if list.Len() != 0 {
			t.Fatalf("the list keeps %d rows after the table took it", list.Len())
		}
		list.Add(Row{ID: "late", Cells: []string{"Late", "DRAFT", "Lima", "1"}})
	}
	if m.Len() != 12 || m.rows.Len() != 12 {
		t.Fatalf("the table holds %d rows (%d slots), want 12", m.Len(), m.rows.Len())
	}
	for i := range 12 {
		if got := m.rows.id(i); got == "late" {
			t.Fatalf("row %d is the row added to a list the table took", i)
		}
	}
}
