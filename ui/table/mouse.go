package table

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Mouse. Messages carry terminal coordinates; SetOrigin tells the table where
// its top-left corner is (the screen that draws it knows), and only events
// over the table act:
//   - the wheel scrolls the window by wheelRows rows and moves the cursor
//     with it, so the cursor keeps its line on screen (and goes on to the
//     first or last row where the window cannot scroll further);
//   - a left click on a row selects it; a left click on the selected row, or
//     the second click of a double click (on the same row within
//     doubleClick), activates the row: Update returns a command producing
//     ActivatedMsg, which a screen treats like Enter. One double click on the
//     selected row activates it once. Clicks on titles, the column header,
//     the filter line, the footer or past the last row do nothing.

const (
	wheelRows   = 3
	doubleClick = 400 * time.Millisecond
)

// ActivatedMsg asks the screen to open the row with ID, as Enter would.
type ActivatedMsg struct{ ID string }

// clickRecord is the previous left click on a row.
type clickRecord struct {
	id        string
	at        time.Time
	activated bool // it opened the row
}

// SetOrigin sets where the table's top-left corner is, in the coordinates of
// the mouse messages it is given (0, 0 until set).
func (m *Model) SetOrigin(x, y int) { m.originX, m.originY = x, y }

// SetClock sets the clock that times double clicks (time.Now until set);
// mouse messages carry no time.
func (m *Model) SetClock(now func() time.Time) { m.now = now }

// over reports whether a mouse event falls on the table, and on which of its
// lines (0: the column header).
func (m Model) over(ev tea.Mouse) (line int, ok bool) {
	x, y := ev.X-m.originX, ev.Y-m.originY
	return y, x >= 0 && x < m.width && y >= 0 && y < m.height
}

func (m Model) wheel(msg tea.MouseWheelMsg) Model {
	if _, ok := m.over(msg.Mouse()); !ok {
		return m
	}
	switch msg.Button {
	case tea.MouseWheelUp:
		m.scroll(-wheelRows)
	case tea.MouseWheelDown:
		m.scroll(wheelRows)
	}
	return m
}

// scroll moves the cursor by d rows and the window with it.
func (m *Model) scroll(d int) {
	k := m.mark()
	k.id, k.cursor = "", m.cursor+d
	m.restore(k)
}

func (m Model) click(msg tea.MouseClickMsg) (Model, tea.Cmd) {
	line, ok := m.over(msg.Mouse())
	if !ok || msg.Button != tea.MouseLeft || line < 1 || line > m.bodyHeight() {
		return m, nil
	}
	p, title, ok := m.lineAt(line - 1)
	if !ok || title {
		return m, nil
	}
	id := m.rows.id(m.rowAt(p))
	now := time.Now()
	if m.now != nil {
		now = m.now()
	}
	prev := m.lastClick
	double := prev.id == id && !now.Before(prev.at) && now.Sub(prev.at) <= doubleClick
	m.lastClick = clickRecord{id: id, at: now}
	switch {
	case double && prev.activated: // the rest of a double click that opened it
		m.lastClick.activated = true
		return m, nil
	case double || p == m.cursor:
		m.cursor = p
		m.clampOffset()
		m.lastClick.activated = true
		return m, func() tea.Msg { return ActivatedMsg{ID: id} }
	}
	m.cursor = p
	m.clampOffset()
	return m, nil
}
