package table

import (
	"fmt"
	"testing"

	"github.com/evdesk/evdesk/ui/uitest"
)

// Run: go test ./ui/table -run '^$' -bench . -benchmem

func bench100k(b *testing.B) Model {
	b.Helper()
	return newTable(120, 40, genRows(0, 100_000, 99))
}

// BenchmarkView100k renders a 100k-row table, moving the cursor each time.
func BenchmarkView100k(b *testing.B) {
	m := bench100k(b)
	down := uitest.Key("down")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m.cursor == m.VisibleLen()-1 {
			m.cursor, m.offset = 0, 0
		}
		m, _ = m.Update(down)
		_ = m.View()
	}
}

// BenchmarkView100kGrouped is BenchmarkView100k with a group title every
// seven rows, so a frame draws about five titles; "counted" titles say how
// many rows their group shows.
func BenchmarkView100kGrouped(b *testing.B) {
	for _, counted := range []bool{false, true} {
		b.Run(map[bool]string{false: "plain", true: "counted"}[counted], func(b *testing.B) {
			rows := genRows(0, 100_000, 99)
			for i := range rows {
				rows[i].Group = fmt.Sprintf("Group %d", i/7)
			}
			m := New(testTheme, testColumns()...)
			m.SetSize(120, 40)
			m.SetGrouped(true)
			m.SetGroupCounts(counted)
			m.SetRows(rowsOf(rows))
			down := uitest.Key("down")
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if m.cursor == m.VisibleLen()-1 {
					m.cursor, m.offset = 0, 0
				}
				m, _ = m.Update(down)
				_ = m.View()
			}
		})
	}
}

// BenchmarkFilter100k types one more character into the filter: "narrow"
// refines the previous matches (the common case), "full" rescans all rows
// (a deleted or changed character).
func BenchmarkFilter100k(b *testing.B) {
	b.Run("narrow", func(b *testing.B) {
		m := press(bench100k(b), "/", "e")
		key := uitest.Key("x")
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			m.SetFilter("e")
			b.StartTimer()
			m, _ = m.Update(key) // "ex": matches Expo
		}
	})
	b.Run("full", func(b *testing.B) {
		m := press(bench100k(b), "/", "e", "x")
		back := uitest.Key("backspace")
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			m.SetFilter("ex")
			b.StartTimer()
			m, _ = m.Update(back) // "e": widens, so every row is scanned
		}
	})
}

// BenchmarkFilterOpen100k opens the filter on a freshly loaded 100k-row
// table: the filter text is built then, once per load, not during SetRows.
func BenchmarkFilterOpen100k(b *testing.B) {
	rows := genRows(0, 100_000, 99)
	slash := uitest.Key("/")
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		m := newTable(120, 40, rows) // the rows' list built anew: the table takes it
		b.StartTimer()
		if m, _ = m.Update(slash); !m.Filtering() {
			b.Fatal("/ did not open the filter")
		}
	}
}

// BenchmarkAppend100k loads 100k rows as 100 pages of 1,000 into a table
// that is sorted and filtered, as a listing streams in.
func BenchmarkAppend100k(b *testing.B) {
	pages := make([][]Row, 100)
	for p := range pages {
		pages[p] = genRows(p*1000, 1000, uint64(p))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		lists := listsOf(pages) // the table takes each page's list
		b.StartTimer()
		m := newTable(120, 40, nil)
		m.SetSort(0, false)
		m.SetFilter("summit")
		for _, p := range lists {
			m.AppendRows(p)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pages)), "ns/page")
}

// BenchmarkSetRows100k loads 100k rows in one call, as a screen does with a
// whole answer: "fresh" into a new table, "refresh" over 100k loaded rows,
// "sorted" into a table sorted by a column, "filtered" into a table with a
// filter kept (so the filter text is built during the load).
func BenchmarkSetRows100k(b *testing.B) {
	rows := genRows(0, 100_000, 99)
	list := rowsOf(rows)
	run := func(b *testing.B, prepare func() Model) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			// The table takes the list: each load is given a copy of its
			// header, sharing its arrays, which neither changes here.
			m, load := prepare(), *list
			b.StartTimer()
			m.SetRows(&load)
		}
	}
	b.Run("fresh", func(b *testing.B) {
		run(b, func() Model { return newTable(120, 40, nil) })
	})
	b.Run("refresh", func(b *testing.B) {
		loaded := newTable(120, 40, rows)
		run(b, func() Model { return loaded })
	})
	b.Run("sorted", func(b *testing.B) {
		run(b, func() Model {
			m := newTable(120, 40, nil)
			m.SetSort(0, false)
			return m
		})
	})
	b.Run("filtered", func(b *testing.B) {
		run(b, func() Model {
			m := newTable(120, 40, nil)
			m.SetFilter("summit")
			return m
		})
	})
}
