// Package table is a virtualised, filterable, sortable table for large,
// page-by-page loaded lists. View renders only the visible window; filtering
// scans a lower-case haystack, one arena built once a filter is first needed
// (hay.go); the rows are put in order only as far as the window reaches
// (positions.go): a sort change selects the rows up to the window and sorts
// those, and a new page's rows are each compared with the last of them. A
// one-shot load takes the screen's list of rows (Rows, built as the screen
// reads an answer) as it is, and adds little else.
package table

import (
	"iter"
	"time"

	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/ui"
)

// Column describes one column. Width is the minimum; Flex is the column's
// share of the spare width (0: none). Style, if set, styles a cell by its
// text (status words, say); it is not applied to the selected row.
type Column struct {
	Title string
	Width int
	Flex  int
	Style func(cell string) lipgloss.Style
}

// Row is one record; ID is stable across pages and updates. A screen adds
// its rows to a Rows list; the table gives them back as Rows (Selected,
// SetWhere's and Count's predicates) whose cells are the table's own: read
// them, do not change them. Group is the
// title of the row's group, used once the table is grouped (SetGrouped).
// Cells past the table's columns are not drawn, but the filter searches
// them: words a row should be found by without showing them (a code, the
// group's title).
type Row struct {
	ID    string
	Cells []string
	Group string
}

// Model is the table. Keep it as a value field in a screen and call the
// pointer methods on that field.
type Model struct {
	theme *ui.Theme
	cols  []Column
	// Keys are this table's bindings; change them per instance if needed.
	Keys KeyMap

	rows Rows   // arrival order; a removed row keeps its slot (rows.go)
	hay  hay    // per row: the lower-case text the filter scans (hay.go)
	dead []bool // per row, up to the last removal: removed (isDead)

	byID map[string]int // ID -> index in rows, once indexed (see ids.go)
	// indexed: byID is up to date; unchecked: a load whose IDs were not
	// checked for repeats yet (ids.go)
	indexed, unchecked bool
	live               int

	sortCol  int       // -1: arrival order
	desc     bool      // reversed
	keys     keyStore  // per row, for sortCol; empty when unsorted
	folded   []string  // per row up to the last whose key text is not ASCII: that text lower-cased (sortKey)
	order    positions // live rows in display order
	filtered positions // while a filter applies: the rows of order it keeps

	grouped bool    // rows ordered by group, a title line before each
	groupOf []int32 // per row, while grouped: its group's rank
	groups  groups
	counted bool // group titles say how many of their rows are visible

	input     textinput.Model
	filtering bool           // input has focus
	notTyped  string         // a burst the filter did not take (ui.NotTypedMsg), until the next key
	query     string         // applied filter, lower-case
	needle    []byte         // query, for scanning the hay
	pinned    string         // the ID of the row kept first (Pin)
	where     func(Row) bool // a screen's own row filter; nil keeps all

	cursor, offset int  // positions in view: the window starts at row offset,
	topHead        bool // or at the title line before it (window.go)
	width, height  int
	widths         []int

	total   int
	loading bool
	empty   string
	failed  string // why the last load failed; "" when it did not

	originX, originY int              // top-left corner on the terminal (mouse.go)
	now              func() time.Time // times double clicks; nil: time.Now
	lastClick        clickRecord
}

// New builds an empty table.
func New(theme *ui.Theme, cols ...Column) Model {
	in := textinput.New()
	in.Prompt = "/ "
	in.Placeholder = "filter"
	in.SetStyles(theme.TextInputStyles())
	m := Model{
		theme:   theme,
		cols:    cols,
		Keys:    DefaultKeyMap(),
		sortCol: -1,
		input:   in,
		empty:   "nothing here yet",
	}
	m.layout()
	return m
}

// SetSize sets the outer size, header and footer included.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = max(0, w), max(0, h)
	m.input.SetWidth(max(1, m.width-4))
	m.layout()
	m.clampOffset()
}

// SetColumns replaces the columns (a screen that shows more at wide sizes,
// say), keeping the rows, the filter and the cursor; a sort on a column
// that is gone is dropped.
func (m *Model) SetColumns(cols ...Column) {
	m.cols = cols
	m.layout()
	if m.sortCol >= len(cols) {
		m.SetSort(-1, m.desc)
	}
}

// SetTotal records the server's total count, shown as "N of TOTAL loaded".
func (m *Model) SetTotal(n int) { m.total = n }

// SetLoading shows a loading mark in the footer; a new load forgets the
// last one's failure.
func (m *Model) SetLoading(b bool) {
	m.loading = b
	if b {
		m.failed = ""
	}
}

// LoadFailed ends a load that failed, and why: an empty table then says
// so, and why, in full, so a failed list never looks like an empty one.
func (m *Model) LoadFailed(why string) { m.loading, m.failed = false, why }

// Failed is why the last load failed, or "".
func (m Model) Failed() string { return m.failed }

// SetEmptyText is shown when no rows are loaded.
func (m *Model) SetEmptyText(s string) { m.empty = s }

// Len is the number of loaded rows.
func (m Model) Len() int { return m.live }

// VisibleLen is the number of rows that pass the filter.
func (m Model) VisibleLen() int { return m.visible().len() }

// FilterText is the filter as typed ("" when none).
func (m Model) FilterText() string { return m.input.Value() }

// Filtering reports whether the filter input has focus; a screen should then
// report CapturingInput so the shell passes every key on.
func (m Model) Filtering() bool { return m.filtering }

// Cursor is the selected position among the visible rows.
func (m Model) Cursor() int { return m.cursor }

// Selected returns the row under the cursor.
func (m Model) Selected() (Row, bool) {
	if m.cursor < 0 || m.cursor >= m.visible().len() {
		return Row{}, false
	}
	return m.rows.row(m.rowAt(m.cursor)), true
}

// Shown yields the rows shown, in the order shown (filtered and sorted as
// on screen), for a screen that acts on what its table shows (an export).
// It puts every shown row in order first, once.
func (m *Model) Shown() iter.Seq[Row] {
	q, c := m.visible(), m.comparer()
	q.settle(q.len(), c)
	return func(yield func(Row) bool) {
		for p := range q.len() {
			if !yield(m.rows.row(m.rowAt(p))) {
				return
			}
		}
	}
}

// NearEnd reports whether the cursor is within one screenful of the last
// visible row: time to fetch the next page (if there is one and no fetch is
// running).
func (m Model) NearEnd() bool {
	return m.visible().len()-1-m.cursor < max(1, m.bodyHeight())
}

// SortColumn returns the sort column (-1: none) and whether it is reversed.
func (m Model) SortColumn() (int, bool) { return m.sortCol, m.desc }

// SetSort sorts by column col (-1: arrival order), reversed if desc.
func (m *Model) SetSort(col int, desc bool) {
	if col < -1 || col >= len(m.cols) {
		col = -1
	}
	m.resort(func() { m.sortCol, m.desc = col, desc })
}

// SetFilter applies a filter as if typed.
func (m *Model) SetFilter(s string) {
	m.input.SetValue(s)
	m.input.CursorEnd()
	m.applyFilter(s)
}
