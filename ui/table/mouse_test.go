package table

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// The table sits at (4, 3) on the terminal in these tests; its body starts
// one line lower, under the column header.
const originX, originY = 4, 3

func mouseTable(h int, rows []Row, grouped bool) (Model, *time.Time) {
	m := New(testTheme, testColumns()...)
	m.SetSize(80, h)
	m.SetGrouped(grouped)
	m.SetRows(rowsOf(rows))
	m.SetOrigin(originX, originY)
	now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	m.SetClock(func() time.Time { return now })
	return m, &now
}

func wheel(m Model, b tea.MouseButton, x, y int) Model {
	m, _ = m.Update(tea.MouseWheelMsg{X: x, Y: y, Button: b})
	return m
}

// clickBody clicks body line n (0: the first line under the column header).
func clickBody(m Model, n int) (Model, tea.Cmd) {
	return m.Update(tea.MouseClickMsg{X: originX + 10, Y: originY + 1 + n, Button: tea.MouseLeft})
}

func activated(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	if cmd == nil {
		return ""
	}
	msg, ok := cmd().(ActivatedMsg)
	if !ok {
		t.Fatalf("command gave %T, want ActivatedMsg", cmd())
	}
	return msg.ID
}

func TestWheelScrollsWindowAndCursorTogether(t *testing.T) {
	rows := genRows(0, 50, 21)
	m, _ := mouseTable(12, rows, false) // 10 body lines
	m = press(m, "j", "j")
	m = wheel(m, tea.MouseWheelDown, originX+5, originY+4)
	if m.Cursor() != 5 || m.offset != 3 {
		t.Fatalf("wheel down: cursor %d offset %d, want 5 and 3", m.Cursor(), m.offset)
	}
	for range 20 {
		m = wheel(m, tea.MouseWheelDown, originX+5, originY+4)
	}
	if m.Cursor() != 49 || m.offset != 40 {
		t.Fatalf("wheel to the end: cursor %d offset %d, want the last row, 49 and 40", m.Cursor(), m.offset)
	}
	m = wheel(m, tea.MouseWheelUp, originX+5, originY+4)
	if m.Cursor() != 46 || m.offset != 37 {
		t.Fatalf("wheel up: cursor %d offset %d, want 46 and 37", m.Cursor(), m.offset)
	}
	for range 20 {
		m = wheel(m, tea.MouseWheelUp, originX+5, originY+4)
	}
	if m.Cursor() != 0 || m.offset != 0 {
		t.Fatalf("wheel to the top: cursor %d offset %d", m.Cursor(), m.offset)
	}
	for _, at := range [][2]int{{originX - 1, originY + 4}, {originX + 80, originY + 4}, {originX + 5, originY - 1}, {originX + 5, originY + 12}} {
		if got := wheel(m, tea.MouseWheelDown, at[0], at[1]); got.Cursor() != 0 {
			t.Fatalf("wheel at %v, outside the table, moved the cursor to %d", at, got.Cursor())
		}
	}
}

func TestWheelKeepsCursorLineWithGroups(t *testing.T) {
	rows := genRows(0, 60, 22)
	for i := range rows {
		rows[i].Group = []string{"Voicemail", "Calls", "Recording"}[i/20]
	}
	m, _ := mouseTable(12, rows, true)
	m = press(m, "j", "j", "j", "j")
	line := m.lineOf(m.Cursor(), m.bodyHeight())
	for range 4 {
		before := m.Cursor()
		m = wheel(m, tea.MouseWheelDown, originX, originY+2)
		if m.Cursor() != before+3 || m.lineOf(m.Cursor(), m.bodyHeight()) != line {
			t.Fatalf("wheel: cursor %d on line %d, want %d on line %d", m.Cursor(), m.lineOf(m.Cursor(), m.bodyHeight()), before+3, line)
		}
		checkWindow(t, m, "after wheel")
	}
}

func TestClickSelectsAndClickOnSelectedActivates(t *testing.T) {
	rows := genRows(0, 50, 23)
	m, now := mouseTable(12, rows, false)
	m = press(m, "pgdown") // cursor 10, window from row 1
	top := m.offset
	m, cmd := clickBody(m, 4)
	if m.Cursor() != top+4 || cmd != nil {
		t.Fatalf("click on line 4: cursor %d (want %d), cmd %v", m.Cursor(), top+4, cmd != nil)
	}
	*now = now.Add(2 * time.Second) // not a double click: the row is selected
	m, cmd = clickBody(m, 4)
	if got := activated(t, cmd); got != rows[top+4].ID {
		t.Fatalf("click on the selected row activated %q, want %q", got, rows[top+4].ID)
	}
	if m.offset != top {
		t.Fatalf("clicks scrolled the window from %d to %d", top, m.offset)
	}
	// Rows go on past the window: the footer line is still not a row.
	if got, cmd := clickBody(m, 10); got.Cursor() != m.Cursor() || cmd != nil {
		t.Fatalf("click on the footer: cursor %d -> %d", m.Cursor(), got.Cursor())
	}
}

func TestDoubleClickActivatesOnce(t *testing.T) {
	rows := genRows(0, 50, 24)
	m, now := mouseTable(12, rows, false)
	m, cmd := clickBody(m, 2) // selects
	*now = now.Add(300 * time.Millisecond)
	m, cmd2 := clickBody(m, 2) // second click: opens
	if cmd != nil || activated(t, cmd2) != rows[2].ID {
		t.Fatalf("double click: first cmd %v, second activated %q", cmd != nil, activated(t, cmd2))
	}
	// A double click on the row already selected opens it once.
	*now = now.Add(time.Second)
	m, cmd = clickBody(m, 2)
	*now = now.Add(200 * time.Millisecond)
	m, cmd2 = clickBody(m, 2)
	if activated(t, cmd) != rows[2].ID || cmd2 != nil {
		t.Fatalf("double click on the selected row: first %q, second cmd %v", activated(t, cmd), cmd2 != nil)
	}
	// Two clicks on the same row within the time count as a double click
	// even if the keyboard moved the cursor in between.
	*now = now.Add(time.Second)
	m, _ = clickBody(m, 5)
	m = press(m, "down")
	*now = now.Add(100 * time.Millisecond)
	m, cmd = clickBody(m, 5)
	if activated(t, cmd) != rows[5].ID || m.Cursor() != 5 {
		t.Fatalf("double click after a key: activated %q, cursor %d", activated(t, cmd), m.Cursor())
	}
	// Slower than the double-click time on a row not selected: selects only.
	*now = now.Add(time.Second)
	m, _ = clickBody(m, 7)
	m = press(m, "up")
	*now = now.Add(500 * time.Millisecond)
	m, cmd = clickBody(m, 7)
	if cmd != nil || m.Cursor() != 7 {
		t.Fatalf("slow second click on a row not selected: cmd %v cursor %d", cmd != nil, m.Cursor())
	}
}

func TestClicksOffRowsDoNothing(t *testing.T) {
	rows := settingsRows()
	m, _ := mouseTable(16, rows, true) // with the filter open: 13 body lines, 11 used
	m = press(m, "j")                  // vm-pin; line 0 is the Voicemail title
	m = press(m, "/")
	for _, tc := range []struct {
		name string
		msg  tea.MouseClickMsg
	}{
		{"group title", tea.MouseClickMsg{X: originX + 3, Y: originY + 1, Button: tea.MouseLeft}},
		{"column header", tea.MouseClickMsg{X: originX + 3, Y: originY, Button: tea.MouseLeft}},
		{"past the last row", tea.MouseClickMsg{X: originX + 3, Y: originY + 1 + 12, Button: tea.MouseLeft}},
		{"filter line", tea.MouseClickMsg{X: originX + 3, Y: originY + 14, Button: tea.MouseLeft}},
		{"footer", tea.MouseClickMsg{X: originX + 3, Y: originY + 15, Button: tea.MouseLeft}},
		{"left of the table", tea.MouseClickMsg{X: originX - 1, Y: originY + 3, Button: tea.MouseLeft}},
		{"right button on a row", tea.MouseClickMsg{X: originX + 3, Y: originY + 3, Button: tea.MouseRight}},
	} {
		got, cmd := m.Update(tc.msg)
		if got.Cursor() != m.Cursor() || cmd != nil {
			t.Fatalf("%s: cursor %d -> %d, cmd %v", tc.name, m.Cursor(), got.Cursor(), cmd != nil)
		}
	}
	// The same table: a click on a row under a title selects it, while the
	// filter input keeps its focus.
	got, _ := m.Update(tea.MouseClickMsg{X: originX + 3, Y: originY + 1 + 5, Button: tea.MouseLeft})
	if sel, _ := got.Selected(); sel.ID != "call-fwd" || !got.Filtering() {
		t.Fatalf("click on line 5 selected %s (filtering %v), want call-fwd", sel.ID, got.Filtering())
	}
}
