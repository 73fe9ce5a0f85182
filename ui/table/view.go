package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
)

const gutter = 2 // "> " marks the cursor row, so selection shows without colour

// bodyHeight is the number of row lines: the height less header, footer and,
// while typing a filter, the input line.
func (m Model) bodyHeight() int {
	h := m.height - 2
	if m.filtering {
		h--
	}
	return max(0, h)
}

// layout gives each column its minimum width, then shares the spare width by
// Flex; when even the minimums do not fit, it shrinks the widest columns.
func (m *Model) layout() {
	n := len(m.cols)
	m.widths = make([]int, n)
	if n == 0 {
		return
	}
	sum, flex := 0, 0
	for i, c := range m.cols {
		w := c.Width
		if w <= 0 {
			w = max(1, ansi.StringWidth(c.Title))
		}
		m.widths[i] = w
		sum += w
		flex += max(0, c.Flex)
	}
	if m.width == 0 {
		return // not sized yet
	}
	avail := m.width - gutter - (n - 1)
	if spare := avail - sum; spare > 0 && flex > 0 {
		last, given := 0, 0
		for i, c := range m.cols {
			if c.Flex > 0 {
				add := spare * c.Flex / flex
				m.widths[i] += add
				given += add
				last = i
			}
		}
		m.widths[last] += spare - given
	}
	for sum > avail && sum > n {
		widest := 0
		for i, w := range m.widths {
			if w > m.widths[widest] {
				widest = i
			}
		}
		if m.widths[widest] <= 1 {
			break
		}
		m.widths[widest]--
		sum--
	}
}

// View renders the header, the visible window of rows, the filter input when
// open and the footer. Its cost depends on the window, not on the row count.
func (m Model) View() string {
	t := m.theme
	var b strings.Builder
	b.Grow((m.width + 16) * (m.height + 1))

	b.WriteString(t.Header.Render(pad(m.headerLine(), m.width)))
	body := m.bodyHeight()
	lines := 0
	if m.visible().len() == 0 && body > 0 {
		if why := m.failure(); why != nil {
			for _, l := range why[:min(len(why), body)] {
				b.WriteString("\n")
				b.WriteString(t.Error.Render(pad(strings.Repeat(" ", gutter)+l, m.width)))
				lines++
			}
		} else {
			b.WriteString("\n")
			b.WriteString(t.Muted.Render(pad(strings.Repeat(" ", gutter)+m.emptyText(), m.width)))
			lines++
		}
	}
	styled := make(map[styledCell]string, 8)
	for p, title := range m.lines() {
		if lines == body {
			break
		}
		b.WriteString("\n")
		if title {
			m.writeTitle(&b, p)
		} else {
			m.writeRow(&b, m.rowAt(p), p == m.cursor, styled)
		}
		lines++
	}
	for ; lines < body; lines++ {
		b.WriteString("\n")
	}
	if m.filtering {
		b.WriteString("\n")
		b.WriteString(m.input.View())
	}
	b.WriteString("\n")
	if m.filtering && m.notTyped != "" {
		note := fmt.Sprintf("! NOT TYPED: %d characters came at once, too fast for typing: %q; type them",
			len([]rune(m.notTyped)), sanitize.Line(m.notTyped))
		b.WriteString(t.Error.Render(fitCell(note, m.width)))
		return b.String()
	}
	b.WriteString(t.Muted.Render(m.footer()))
	return b.String()
}

func (m Model) headerLine() string {
	var b strings.Builder
	b.WriteString(spaces(gutter))
	for c, col := range m.cols {
		if c > 0 {
			b.WriteByte(' ')
		}
		w := m.widths[c]
		if c == m.sortCol {
			arrow := " ^"
			if m.desc {
				arrow = " v"
			}
			title := col.Title
			if ansi.StringWidth(title) > w-2 {
				title = ansi.Truncate(title, max(0, w-2), "…")
			}
			b.WriteString(fitCell(title+arrow, w))
			continue
		}
		b.WriteString(fitCell(col.Title, w))
	}
	return b.String()
}

// styledCell keys a frame's memo of styled cells: a column's few status
// words are styled once a frame, not once a row.
type styledCell struct {
	col  int
	cell string
}

func (m Model) writeRow(b *strings.Builder, i int, selected bool, styled map[styledCell]string) {
	t := m.theme
	if selected {
		var line strings.Builder
		line.WriteString("> ")
		for c := range m.cols {
			if c > 0 {
				line.WriteByte(' ')
			}
			line.WriteString(fitCell(m.rows.cell(i, c), m.widths[c]))
		}
		b.WriteString(t.Selected.Render(pad(line.String(), m.width)))
		return
	}
	b.WriteString("  ")
	for c, col := range m.cols {
		if c > 0 {
			b.WriteByte(' ')
		}
		cell := m.rows.cell(i, c)
		if col.Style == nil {
			b.WriteString(fitCell(cell, m.widths[c]))
			continue
		}
		k := styledCell{c, cell}
		s, ok := styled[k]
		if !ok {
			s = col.Style(cell).Render(fitCell(cell, m.widths[c]))
			styled[k] = s
		}
		b.WriteString(s)
	}
}

// writeTitle draws the group title before visible row p; the rule marks
// read without colour. It is not padded: measuring a full-width line of
// box-drawing characters costs more than the rest of the frame.
func (m Model) writeTitle(b *strings.Builder, p int) {
	text := "── " + sanitize.Line(m.titleText(p)) + " ──"
	b.WriteString(m.theme.Header.Render(fitCell(text, min(m.width, ansi.StringWidth(text)))))
}

// failure is the failed load's lines, wrapped to the width, or nil when
// the last load did not fail (or a new one is under way).
func (m Model) failure() []string {
	if m.failed == "" || m.loading || m.query != "" {
		return nil
	}
	return ui.WrapWords("LOAD FAILED: "+sanitize.Line(m.failed)+" (r tries again)", max(10, m.width-gutter))
}

func (m Model) emptyText() string {
	switch {
	case m.query != "" && m.live > 0:
		return "no rows match \"" + m.input.Value() + "\""
	case m.loading:
		return "loading..."
	}
	return m.empty
}

// footer: "row X of Y", the filter and its matches, loaded of total, loading.
func (m Model) footer() string {
	left := "no rows"
	if m.failed != "" && m.live == 0 {
		left = "load failed"
	}
	if m.visible().len() > 0 {
		left = "row " + commas(m.cursor+1) + " of " + commas(m.visible().len())
	}
	if m.sortCol < 0 && m.desc {
		left += " (newest first)"
	}
	if m.query != "" {
		matches := " matches)"
		if m.visible().len() == 1 {
			matches = " match)"
		}
		left += "  filter: " + m.input.Value() + " (" + commas(m.visible().len()) + matches
	}
	right := commas(m.live) + " loaded"
	if m.total > 0 {
		right = commas(m.live) + " of " + commas(m.total) + " loaded"
	}
	if m.loading {
		right += ", loading..."
	}
	gap := m.width - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 2 {
		return fitCell(left+"  "+right, m.width)
	}
	return left + spaces(gap) + right
}

// fitCell pads or truncates s to exactly w cells, with an ellipsis when cut.
// The cell passes the sanitiser first, so a cell can neither break the layout
// nor reach the terminal with an escape sequence.
func fitCell(s string, w int) string {
	if w <= 0 {
		return ""
	}
	s = sanitize.Line(s)
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		if len(s) > w {
			return s[:w-1] + "…"
		}
		return s + spaces(w-len(s))
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	return s + spaces(w-sw)
}

// pad right-pads s to w cells (it never cuts).
func pad(s string, w int) string {
	return s + spaces(w-ansi.StringWidth(s))
}

var blanks = strings.Repeat(" ", 512)

func spaces(n int) string {
	if n <= 0 {
		return ""
	}
	if n <= len(blanks) {
		return blanks[:n]
	}
	return strings.Repeat(" ", n)
}

// commas formats 1234567 as "1,234,567".
func commas(n int) string {
	s := strconv.Itoa(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}
