package table

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/ui"
)

// Update handles navigation, filter and sort keys, the mouse wheel and
// clicks (mouse.go).
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.NotTypedMsg:
		if m.filtering {
			m.notTyped = msg.Text // the footer says it, in place of the counts
		}
		return m, nil
	case tea.KeyPressMsg:
		m.notTyped = ""
		if m.filtering {
			return m.updateFilter(msg)
		}
		k := m.Keys
		switch {
		case key.Matches(msg, k.Up):
			m.move(-1)
		case key.Matches(msg, k.Down):
			m.move(1)
		case key.Matches(msg, k.PageUp):
			m.move(-m.bodyHeight())
		case key.Matches(msg, k.PageDown):
			m.move(m.bodyHeight())
		case key.Matches(msg, k.Home):
			m.move(-m.visible().len())
		case key.Matches(msg, k.End):
			m.move(m.visible().len())
		case key.Matches(msg, k.Filter):
			m.filtering = true
			m.hay.cover(&m.rows) // now, not on the first keystroke
			m.input.CursorEnd()
			m.clampOffset() // the input line takes a body row
			return m, m.input.Focus()
		case key.Matches(msg, k.ClearFilter):
			m.SetFilter("")
		case key.Matches(msg, k.Sort):
			m.cycleSort()
		case key.Matches(msg, k.Reverse):
			m.SetSort(m.sortCol, !m.desc)
		}
	case tea.BackgroundColorMsg: // the App rebuilt the theme in place
		m.input.SetStyles(m.theme.TextInputStyles())
	case tea.MouseWheelMsg:
		return m.wheel(msg), nil
	case tea.MouseClickMsg:
		return m.click(msg)
	default:
		if m.filtering { // paste, cursor messages
			before := m.input.Value()
			var cmd tea.Cmd
			m.input, cmd = m.input.Update(msg)
			if m.input.Value() != before {
				m.applyFilter(m.input.Value())
			}
			return m, cmd
		}
	}
	return m, nil
}

// updateFilter: keys go to the input, except enter (keep), esc (clear) and
// the arrow keys, which still move through the matches.
func (m Model) updateFilter(msg tea.KeyPressMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.Keys.AcceptFilter):
		m.filtering = false
		m.input.Blur()
		m.clampOffset()
		return m, nil
	case key.Matches(msg, m.Keys.ClearFilter):
		m.filtering = false
		m.input.Blur()
		m.SetFilter("")
		return m, nil
	}
	switch msg.String() {
	case "up":
		m.move(-1)
		return m, nil
	case "down":
		m.move(1)
		return m, nil
	case "pgup":
		m.move(-m.bodyHeight())
		return m, nil
	case "pgdown":
		m.move(m.bodyHeight())
		return m, nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	m.applyFilter(m.input.Value())
	return m, cmd
}
