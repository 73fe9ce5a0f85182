package table

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A load whose rows repeat an ID shows the ID once, in its first place with
// its last content: at once for a load that is sorted or filtered, and for a
// load in arrival order (which does no work per row) as soon as the table
// reads the IDs: a page, an update, a sort or a filter.
func TestSetRowsWithRepeatedIDsKeepsOneRowInTheFirstPlace(t *testing.T) {
	rows := genRows(0, 2000, 11)
	again := Row{ID: rows[10].ID, Cells: []string{"Second Version", "DRAFT", "Lima", "7"}}
	in := append(append([]Row{}, rows...), again)
	folded := func(t *testing.T, m Model, sortCol int) {
		t.Helper()
		if m.Len() != 2000 {
			t.Fatalf("Len = %d, want 2000: a repeated ID is one row", m.Len())
		}
		assertIDs(t, visibleIDs(m), reference(in, sortCol, false, ""))
	}
	for name, settle := range map[string]func(m *Model){
		"a page":   func(m *Model) { m.AppendRows(rowsOf(genRows(5000, 1, 3))); m.RemoveRow("r005000") },
		"a lookup": func(m *Model) { m.UpdateRow(Row{ID: "none"}) },
		"a filter": func(m *Model) { m.SetFilter("x"); m.SetFilter("") },
		"a sort":   func(m *Model) { m.SetSort(-1, false) },
	} {
		t.Run("arrival order, then "+name, func(t *testing.T) {
			m := newTable(80, 12, in)
			settle(&m)
			folded(t, m, -1)
			if got := m.rows.row(m.rowAt(10)).Cells[0]; got != "Second Version" {
				t.Fatalf("row 10 shows %q, want the later version", got)
			}
			m.SetFilter("second version")
			assertIDs(t, visibleIDs(m), []string{rows[10].ID})
		})
	}
	t.Run("sorted", func(t *testing.T) {
		m := New(testTheme, testColumns()...)
		m.SetSize(80, 12)
		m.SetSort(2, false)
		m.SetRows(rowsOf(in))
		folded(t, m, 2)
	})
	if in[10].Cells[0] == "Second Version" || in[len(in)-1].ID != rows[10].ID {
		t.Fatal("the table changed the caller's rows")
	}
}

func TestDistinctIDs(t *testing.T) {
	for _, n := range []int{0, 1, 2, 1000, 50_000} {
		rows := genRows(0, n, 1)
		if !distinctIDs(rowsOf(rows)) {
			t.Fatalf("%d distinct IDs reported as repeated", n)
		}
		if n < 2 {
			continue
		}
		for _, at := range [][2]int{{0, n - 1}, {n/2 - 1, n / 2}, {n - 2, n - 1}} {
			dup := append([]Row{}, rows...)
			dup[at[1]].ID = dup[at[0]].ID
			if distinctIDs(rowsOf(dup)) {
				t.Fatalf("n=%d: rows %d and %d share an ID, reported distinct", n, at[0], at[1])
			}
		}
	}
}

func TestLowerASCIIMatchesToLower(t *testing.T) {
	var all strings.Builder
	for c := 0; c < 128; c++ {
		all.WriteByte(byte(c))
	}
	s := all.String()
	for start := 0; start < len(s); start++ {
		for _, n := range []int{1, 7, 8, 9, 17, 40} {
			in := s[start:min(len(s), start+n)]
			b := []byte(in)
			if !lowerASCII(b) || string(b) != strings.ToLower(in) {
				t.Fatalf("lowerASCII(%q) = %q, want %q", in, b, strings.ToLower(in))
			}
		}
	}
	for _, in := range []string{"ÉCOLE", "abcdefgÉ", "abcdefghijklmnoÉ"} {
		if lowerASCII([]byte(in)) {
			t.Fatalf("lowerASCII(%q) claimed ASCII", in)
		}
	}
}

// TestSortKeysCompareAsLowerCasedText checks the keys' comparison, which
// lower-cases ASCII as it reads and Unicode text beforehand, against the
// obvious one, over texts that differ in case, past the 24 bytes the keys
// keep, in length, and outside ASCII.
func TestSortKeysCompareAsLowerCasedText(t *testing.T) {
	texts := []string{"", " ", "a", "A", "B", "ab", "aB", "Ab\x00", "ab\x00c",
		"Workshop Alpha 1", "workshop alpha 10", "WORKSHOP ALPHA 2", "Workshop Alpha 1x",
		"Workshop Alpha Zeta", "workshop alpha zeta!", "Workshop Alpha Zeta Omeg", "workshop alpha zeta omeg\x00",
		"Workshop Alpha Zeta Omega 1", "workshop alpha zeta omega 10", "WORKSHOP ALPHA ZETA OMEGA 2", "  Workshop Alpha Zeta Omega 11 ", "[x", "_x", "`x", "@x", "Zz", "zZ{",
		"École", "école", "ÉCOLE normale", "Ωmega", "ωMEGA", "straße", "STRASSE", "\xff", "a\xffB",
		"12", "9", "-3", "1,234", ".5", "+7", "nan", "1e3", " 8 "}
	for _, a := range texts {
		for _, b := range texts {
			ka, ta := makeKey(a)
			kb, tb := makeKey(b)
			texts := keyTexts{cells: rowsOf([]Row{{Cells: []string{a}}, {Cells: []string{b}}}).grid, folded: []string{ta, tb}}
			if got, want := texts.compare(0, 1, &ka, &kb), compareKeysOf(a, b); got != want {
				t.Errorf("compare(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// The filter finds text regardless of case and accents: "ecole" finds
// "ÉCOLE", "école" finds "Ecole".
func TestFilterFoldsCaseAndAccents(t *testing.T) {
	rows := []Row{
		{ID: "a", Cells: []string{"ÉCOLE NATIONALE", "PUBLISHED", "Zürich", "1"}},
		{ID: "b", Cells: []string{"Plain ASCII Name", "DRAFT", "ÅLESUND", "2"}},
		{ID: "c", Cells: []string{"Ecole", "DRAFT", "Oslo", "3"}},
	}
	m := newTable(80, 10, rows)
	for q, want := range map[string][]string{
		"école":     {"a", "c"},
		"ÉCOLE":     {"a", "c"},
		"ecole nat": {"a"},
		"zürich":    {"a"},
		"zurich":    {"a"},
		"ascii":     {"b"},
		"ålesund":   {"b"},
		"alesund":   {"b"},
		"draft":     {"b", "c"},
	} {
		m.SetFilter(q)
		assertIDs(t, visibleIDs(m), want)
	}
}

// The filter text is built only once a filter needs it; rows changed or
// removed before that, and rows added after, must all be found.
func TestFilterTextBuiltLateSeesEveryChange(t *testing.T) {
	rows := genRows(0, 300, 12)
	m := newTable(80, 12, rows)
	if len(m.hay.spans) != 0 {
		t.Fatalf("a load without a filter built the filter text for %d rows", len(m.hay.spans))
	}
	changed := Row{ID: rows[5].ID, Cells: []string{"Quokka Gathering", "DRAFT", "Perth", "1"}}
	m.UpdateRow(changed)
	m.RemoveRow(rows[6].ID)
	all := append(append([]Row{}, rows...), changed)
	all = append(all[:6], all[7:]...)
	m = press(m, "/")
	if len(m.hay.spans) != m.rows.Len() {
		t.Fatalf("opening the filter covered %d of %d rows", len(m.hay.spans), m.rows.Len())
	}
	m = typeText(m, "quokka")
	assertIDs(t, visibleIDs(m), []string{rows[5].ID})
	more := genRows(300, 200, 13)
	more = append(more, Row{ID: "late", Cells: []string{"Late Quokka", "DRAFT", "Perth", "2"}})
	m.AppendRows(rowsOf(more))
	all = append(all, more...)
	assertIDs(t, visibleIDs(m), reference(all, -1, false, "quokka"))
	m.SetFilter("summit")
	assertIDs(t, visibleIDs(m), reference(all, -1, false, "summit"))
}

// Rewriting rows leaves their old text behind; the arena is compacted once
// the junk outweighs the live text, and stays correct.
func TestFilterTextCompactsAfterManyUpdates(t *testing.T) {
	rows := genRows(0, 200, 14)
	m := newTable(80, 12, rows)
	m.SetFilter("e")
	live := len(m.hay.buf)
	long := strings.Repeat("x", 500)
	for round := range 50 {
		for _, r := range rows[:100] {
			m.UpdateRow(Row{ID: r.ID, Cells: []string{fmt.Sprintf("Round %d %s", round, long), "DRAFT", "Oslo", "1"}})
		}
	}
	if m.hay.junk > max(compactAt, len(m.hay.buf)/2) {
		t.Fatalf("junk %d of %d bytes: not compacted", m.hay.junk, len(m.hay.buf))
	}
	if len(m.hay.buf) > 4*(live+100*520) {
		t.Fatalf("arena grew to %d bytes for %d live", len(m.hay.buf), live+100*520)
	}
	m.SetFilter("round 49")
	if m.VisibleLen() != 100 {
		t.Fatalf("%d rows match the last round, want 100", m.VisibleLen())
	}
	m.SetFilter("round 48")
	if m.VisibleLen() != 0 {
		t.Fatalf("%d rows still match an old version", m.VisibleLen())
	}
}

// The ID index is built on the first lookup and must not outlive a reload.
func TestIDLookupAfterReload(t *testing.T) {
	first, second := genRows(0, 100, 15), genRows(1000, 100, 16)
	m := newTable(80, 12, first)
	if !m.UpdateRow(Row{ID: first[3].ID, Cells: []string{"x"}}) {
		t.Fatal("UpdateRow: loaded ID unknown")
	}
	m.SetRows(rowsOf(second))
	if m.UpdateRow(Row{ID: first[3].ID}) || m.RemoveRow(first[4].ID) {
		t.Fatal("an ID from before the reload was found")
	}
	if !m.RemoveRow(second[7].ID) || m.Len() != 99 {
		t.Fatalf("RemoveRow after reload: Len %d", m.Len())
	}
	m.AppendRows(rowsOf([]Row{second[0]})) // known: replaces, does not add
	if m.Len() != 99 {
		t.Fatalf("re-delivered row added a row: Len %d", m.Len())
	}
}

func TestSetRowsKeepsCursorOnItsRowWhenItMoves(t *testing.T) {
	rows := genRows(0, 500, 17)
	m := newTable(80, 12, rows)
	m = press(m, "pgdown", "j", "j")
	want, _ := m.Selected()
	line := m.Cursor() - m.offset
	m.SetRows(rowsOf(append(genRows(5000, 50, 18), rows...))) // 50 new rows come first
	if got, _ := m.Selected(); got.ID != want.ID {
		t.Fatalf("cursor on %s after reload, want %s", got.ID, want.ID)
	}
	if m.Cursor()-m.offset != line {
		t.Fatalf("selected row moved on screen from line %d to %d", line, m.Cursor()-m.offset)
	}
}

// FuzzOpsMatchReference drives the table through loads, pages, updates,
// removals, sorts and filters decoded from the input, and after each
// compares the visible rows with the slow reference: the arrival-order
// ranges, unchecked loads and in-place merges must never show anything a
// plain rebuild would not.
//
//	go test ./ui/table -run '^$' -fuzz FuzzOpsMatchReference -fuzztime 30s
func FuzzOpsMatchReference(f *testing.F) {
	f.Add([]byte{0, 5, 1, 3, 2, 1, 3, 2, 4, 1, 5, 0, 1, 4, 0, 2})
	f.Add([]byte{1, 9, 0, 7, 4, 2, 1, 6, 3, 3, 5, 1, 2, 2, 4, 0})
	f.Add([]byte{0, 12, 4, 1, 1, 3, 5, 2, 0, 4, 3, 5, 2, 1, 1, 2, 3})
	vocab := []string{"alpha", "Beta", "12", "9", "beta", "x"}
	f.Fuzz(func(t *testing.T, ops []byte) {
		m := newTable(60, 8, nil)
		var history []Row // what arrived since the last load, removals dropped
		sortCol, desc, query := -1, false, ""
		// raw: a load in arrival order, unfiltered, whose repeated IDs are
		// shown as loaded until the table next reads its IDs
		raw := false
		next := func() byte {
			if len(ops) == 0 {
				return 0
			}
			b := ops[0]
			ops = ops[1:]
			return b
		}
		row := func(b byte) Row {
			return Row{ID: fmt.Sprintf("r%d", b%16), Cells: []string{vocab[int(b)%len(vocab)], vocab[int(b/3)%len(vocab)], fmt.Sprint(b % 7)}}
		}
		batch := func() []Row {
			rows := make([]Row, next()%12)
			for i := range rows {
				rows[i] = row(next())
			}
			return rows
		}
		var trace []string
		for len(ops) > 0 {
			op := next() % 6
			trace = append(trace, fmt.Sprint(op))
			switch op {
			case 0:
				rows := batch()
				m.SetRows(rowsOf(rows))
				history = append([]Row{}, rows...)
				raw = sortCol < 0 && !desc && query == ""
			case 1:
				rows, fresh := batch(), m.rows.Len() == 0 // a first page is a load
				m.AppendRows(rowsOf(rows))
				history = append(history, rows...)
				raw = raw && len(rows) == 0 || fresh && sortCol < 0 && !desc && query == ""
			case 2:
				r := row(next())
				if m.UpdateRow(r) {
					history = append(history, r)
				}
				raw = false
			case 3:
				id := row(next()).ID
				if m.RemoveRow(id) {
					history = slices.DeleteFunc(history, func(r Row) bool { return r.ID == id })
				}
				raw = false
			case 4:
				b := next()
				sortCol, desc = int(b%4)-1, b&4 != 0
				m.SetSort(sortCol, desc)
				raw = false
			case 5:
				query = []string{"", "a", "beta", "1", "x"}[next()%5]
				m.SetFilter(query)
				raw = raw && query == ""
			}
			want := reference(history, sortCol, desc, query)
			if raw {
				want = want[:0]
				for _, r := range history {
					want = append(want, r.ID)
				}
			}
			if got := visibleIDs(m); !slices.Equal(got, want) {
				t.Fatalf("after ops %v: visible %v, want %v", trace, got, want)
			}
			if sel, ok := m.Selected(); ok != (len(want) > 0) || ok && !slices.Contains(want, sel.ID) {
				t.Fatalf("after ops %v: selected %q (%v, cursor %d) with rows %v", trace, sel.ID, ok, m.cursor, want)
			}
		}
	})
}

// Places and people sort as a reader expects, accented or not: "São Paulo"
// before "Sydney", beside "Sao Paulo" in arrival order; "Émile" beside
// "emile"; a letter with no plain base (Ø, Ω) after the Latin alphabet.
func TestSortIgnoresAccents(t *testing.T) {
	var rows []Row
	for _, name := range []string{"Zürich", "Sydney", "São Paulo", "Ωmega", "Sao Paulo", "Ålesund", "Øresund", "emile", "Émile", "Osaka"} {
		rows = append(rows, Row{ID: name, Cells: []string{name}})
	}
	m := newTable(80, 20, rows)
	m.SetSort(0, false)
	assertIDs(t, visibleIDs(m), []string{"Ålesund", "emile", "Émile", "Osaka", "São Paulo", "Sao Paulo", "Sydney", "Zürich", "Øresund", "Ωmega"})
}

// Shown yields every row shown, in the order shown, past the window too.
func TestShownIsEveryShownRowInOrder(t *testing.T) {
	rows := genRows(0, 5000, 3)
	m := newTable(120, 20, rows)
	m.SetSort(0, true)
	m.SetFilter("summit")
	var got []string
	for r := range m.Shown() {
		got = append(got, r.ID)
	}
	assertIDs(t, got, reference(rows, 0, true, "summit"))
}

// A pinned row stays first whatever the sort, both ways, and through pages
// and filters; the others sort as ever.
func TestAPinnedRowStaysFirst(t *testing.T) {
	rows := []Row{{ID: "all", Cells: []string{"Whole event", "2026-12-16 09:30"}}}
	for i, name := range []string{"Opening keynote", "Workshop", "Closing panel", "Breakfast"} {
		rows = append(rows, Row{ID: fmt.Sprint(i), Cells: []string{name, fmt.Sprintf("2026-12-16 %02d:00", 8+i)}})
	}
	m := newTable(80, 10, rows[:3])
	m.Pin("all")
	m.AppendRows(rowsOf(rows[3:]))
	for _, s := range []struct {
		col  int
		desc bool
		want []string
	}{
		{-1, false, []string{"all", "0", "1", "2", "3"}},
		{-1, true, []string{"all", "3", "2", "1", "0"}},
		{0, false, []string{"all", "3", "2", "0", "1"}},
		{0, true, []string{"all", "1", "0", "2", "3"}},
		{1, true, []string{"all", "3", "2", "1", "0"}},
	} {
		m.SetSort(s.col, s.desc)
		assertIDs(t, visibleIDs(m), s.want)
	}
	m.SetFilter("o") // the pinned row too must match to show
	assertIDs(t, visibleIDs(m), []string{"all", "2", "1", "0"})
	m.SetFilter("shop")
	assertIDs(t, visibleIDs(m), []string{"1"})
}
