package table

import (
	"runtime"
	"strconv"
	"testing"
	"time"

	btable "charm.land/bubbles/v2/table"

	"github.com/evdesk/evdesk/ui/uitest"
)

// These benchmarks measure this table against bubbles' table in the same run,
// so the figures can be read as ratios to that anchor (the targets
// are ratios):
//
//	go test ./ui/table -run '^$' -bench 'VsBubbles|Stream' -benchmem
//
// Load: one SetRows of n rows into a fresh table at 120x40, as a screen does
// with a whole answer, and the first frame drawn (bubbles' table draws its
// rows in SetRows, this one in View). Each side's rows are built untimed,
// as a screen builds them from an answer: bubbles' as []table.Row, ours as
// a Rows list (NewRows with the count, then Add), from the same cells. Both
// tables keep the rows they are given. held-B is the heap in use after a
// collection with the loaded table alive and the caller's rows let go, as
// a screen lets go of the rows it built once it has handed them over: what
// the table holds, the cells' texts and the rows' lists included.

func bubblesRows(rows []Row) []btable.Row {
	out := make([]btable.Row, len(rows))
	for i, r := range rows {
		out[i] = btable.Row(r.Cells)
	}
	return out
}

func bubblesTable() btable.Model {
	cols := testColumns()
	bcols := make([]btable.Column, len(cols))
	for i, c := range cols {
		bcols[i] = btable.Column{Title: c.Title, Width: max(c.Width, 12)}
	}
	return btable.New(btable.WithColumns(bcols), btable.WithWidth(120), btable.WithHeight(40), btable.WithFocused(true))
}

// heldHeap reports the bytes in use after a collection.
func heldHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func BenchmarkLoadVsBubbles(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		name := strconv.Itoa(n/1000) + "k"
		b.Run("evdesk/"+name, func(b *testing.B) {
			benchLoad(b, func() func() {
				rows := rowsOf(genRows(0, n, 99))
				return func() {
					m := newTable(120, 40, nil)
					m.SetRows(rows)
					rows = nil
					_ = m.View()
					keepAlive(&m)
				}
			})
		})
		b.Run("bubbles/"+name, func(b *testing.B) {
			benchLoad(b, func() func() {
				rows := bubblesRows(genRows(0, n, 99))
				return func() {
					m := bubblesTable()
					m.SetRows(rows)
					rows = nil
					_ = m.View()
					keepAlive(&m)
				}
			})
		})
	}
}

// BenchmarkBuildVsBubbles builds 100k rows from cells already read, as a
// screen does from an answer, untimed on both sides of
// BenchmarkLoadVsBubbles: ours with NewRows and Add, bubbles' as a
// []table.Row with a slice of cells a row (and no ID).
func BenchmarkBuildVsBubbles(b *testing.B) {
	const n = 100_000
	src := genRows(0, n, 99)
	b.Run("evdesk/100k", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rows := NewRows(n)
			for _, r := range src {
				rows.Add(Row{ID: r.ID, Cells: []string{r.Cells[0], r.Cells[1], r.Cells[2], r.Cells[3]}})
			}
			keepAlive(rows)
		}
	})
	b.Run("bubbles/100k", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rows := make([]btable.Row, n)
			for i, r := range src {
				rows[i] = btable.Row{r.Cells[0], r.Cells[1], r.Cells[2], r.Cells[3]}
			}
			keepAlive(rows)
		}
	})
}

// kept holds the last loaded table, so a collection cannot free it before
// its heap is measured.
var kept any

func keepAlive(m any) { kept = m }

// benchLoad times load (made by prepare, with its rows) and reports the CPU
// time a load takes (cpu-ns/op), the heap held by the loaded table, its
// cells included (held-B), and that heap less the caller's rows before the
// load (table-B; below zero when the table holds less than the rows did).
func benchLoad(b *testing.B, prepare func() (load func())) {
	var cpu int64
	var held, table float64
	for b.Loop() {
		b.StopTimer()
		kept = nil
		base := heldHeap()
		load := prepare()
		rowsOnly := heldHeap()
		c := cpuTime()
		b.StartTimer()
		load()
		b.StopTimer()
		cpu += cpuTime() - c
		after := heldHeap()
		held, table = float64(after)-float64(base), float64(after)-float64(rowsOnly)
		runtime.KeepAlive(load)
		b.StartTimer()
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(held, "held-B")
	b.ReportMetric(table, "table-B")
}

// BenchmarkStream100k feeds 100k rows in pages of 300, as a listing streams
// in, drawing a frame after each page: in arrival order and sorted by the
// name column (the target: sorted within 1.3x of unsorted). "ratio"
// streams both alternately, eight times each an op, and reports sorted's
// CPU time over unsorted's, so a busy machine slows both sides alike. The
// table takes each page's list, so the lists are built anew, untimed,
// before each stream.
func BenchmarkStream100k(b *testing.B) {
	const n, page = 100_000, 300
	var pages [][]Row
	for first := 0; first < n; first += page {
		pages = append(pages, genRows(first, min(page, n-first), uint64(first)))
	}
	for _, sorted := range []bool{false, true} {
		b.Run(map[bool]string{false: "unsorted", true: "sorted"}[sorted], func(b *testing.B) {
			b.ReportAllocs()
			var spent int64
			for b.Loop() {
				b.StopTimer()
				lists := listsOf(pages)
				c := cpuTime()
				b.StartTimer()
				stream(lists, sorted)
				spent += cpuTime() - c
			}
			b.ReportMetric(float64(spent)/float64(b.N), "cpu-ns/op")
		})
	}
	b.Run("ratio", func(b *testing.B) {
		var spent [2]int64 // CPU time unsorted, sorted
		for b.Loop() {
			for n := range 16 { // a few collections fall in each side, whatever -benchtime
				side := n % 2 // each first in turn: the collector's work left over from one falls on the other alike
				lists := listsOf(pages)
				c := cpuTime()
				stream(lists, side == 1)
				spent[side] += cpuTime() - c
			}
		}
		b.ReportMetric(float64(spent[1])/float64(spent[0]), "ratio")
	})
}

// listsOf is each page as a list for the table.
func listsOf(pages [][]Row) []*Rows {
	lists := make([]*Rows, len(pages))
	for p, rows := range pages {
		lists[p] = rowsOf(rows)
	}
	return lists
}

// stream feeds the pages into a new table, drawing a frame after each.
func stream(pages []*Rows, sorted bool) {
	m := newTable(120, 40, nil)
	if sorted {
		m.SetSort(0, false)
	}
	for _, p := range pages {
		m.AppendRows(p)
		_ = m.View()
	}
}

// BenchmarkKeyToFrameVsBubbles presses a key on a loaded table of 100k rows
// and draws the frame after it, on this table and on bubbles' in turn, 16
// keys each an op, and reports each side's wall time a key and how many
// times bubbles' takes ours ("times-ahead"; the issue asks to keep the lead
// it measured, about 90x to 100x). "down" moves the cursor a row, "pgdown"
// a page, which redraws every row of the window.
func BenchmarkKeyToFrameVsBubbles(b *testing.B) {
	const n, keys = 100_000, 16
	for _, name := range []string{"down", "pgdown"} {
		b.Run(name, func(b *testing.B) {
			ours := newTable(120, 40, genRows(0, n, 99))
			theirs := bubblesTable()
			theirs.SetRows(bubblesRows(genRows(0, n, 99)))
			press := uitest.Key(name)
			var spent [2]time.Duration // ours, bubbles'
			for b.Loop() {
				start := time.Now()
				for range keys {
					if ours.Cursor() >= n-40 {
						ours.cursor, ours.offset = 0, 0
					}
					ours, _ = ours.Update(press)
					_ = ours.View()
				}
				mid := time.Now()
				for range keys {
					if theirs.Cursor() >= n-40 {
						theirs.GotoTop()
					}
					theirs, _ = theirs.Update(press)
					_ = theirs.View()
				}
				spent[0], spent[1] = spent[0]+mid.Sub(start), spent[1]+time.Since(mid)
			}
			b.ReportMetric(float64(spent[0].Nanoseconds())/float64(keys*b.N), "evdesk-ns/key")
			b.ReportMetric(float64(spent[1].Nanoseconds())/float64(keys*b.N), "bubbles-ns/key")
			b.ReportMetric(float64(spent[1])/float64(spent[0]), "times-ahead")
		})
	}
}
