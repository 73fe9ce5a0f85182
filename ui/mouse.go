package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// contentTop is the row where screens start: under the tabs and the
// breadcrumb.
const contentTop = 2

// onMouse handles the mouse: a click on a tab switches section; anything
// over the content goes to the focused screen in its own coordinates (its
// top-left is 0,0). The mouse is ignored while a panel or dialog of the
// shell is open.
func (a *App) onMouse(msg tea.MouseMsg) tea.Cmd {
	if a.tooSmall() || len(a.overlays) > 0 {
		return nil
	}
	m := msg.Mouse()
	if m.Y == 0 {
		if c, ok := msg.(tea.MouseClickMsg); ok && c.Button == tea.MouseLeft {
			if i, ok := a.tabAt(m.X); ok && i != a.active {
				return a.switchTo(i)
			}
		}
		return nil
	}
	_, ch := a.contentSize()
	if m.Y < contentTop || m.Y >= contentTop+ch {
		return nil
	}
	return a.updateTop(moveMouse(msg, 0, -contentTop))
}

// tabAt is the section whose tab label covers column x (the tabs as drawn
// unscrolled, which is how they are drawn whenever they fit).
func (a *App) tabAt(x int) (int, bool) {
	col := 0
	for i, s := range a.sections {
		w := ansi.StringWidth(s.Name) + 2 // " Name " or "[Name]"
		col++                             // the space before each label
		if x >= col && x < col+w {
			return i, true
		}
		col += w
	}
	return 0, false
}

// moveMouse shifts a mouse message by dx, dy.
func moveMouse(msg tea.MouseMsg, dx, dy int) tea.MouseMsg {
	m := msg.Mouse()
	m.X, m.Y = m.X+dx, m.Y+dy
	switch msg.(type) {
	case tea.MouseClickMsg:
		return tea.MouseClickMsg(m)
	case tea.MouseReleaseMsg:
		return tea.MouseReleaseMsg(m)
	case tea.MouseWheelMsg:
		return tea.MouseWheelMsg(m)
	}
	return tea.MouseMotionMsg(m)
}
