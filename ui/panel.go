package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
)

// panel is the state of a modal box of text lines that scrolls when taller
// than the screen (the ? help, the recent errors): where it is scrolled to.
type panel struct {
	offset int
}

// panelChrome is the box's own lines: border, title and the blank line
// under it, the blank line and the footer at the bottom.
const panelChrome = 6

// keyColumns lays key groups out as columns of "key  what it does", side by
// side while they fit in width and wrapped under each other when not, so
// the help never runs off the screen.
func keyColumns(th *Theme, groups [][]key.Binding, width int) []string {
	var cols [][]string
	for _, g := range groups {
		keyW := 0
		for _, b := range g {
			if b.Enabled() && b.Help().Key != "" {
				keyW = max(keyW, ansi.StringWidth(b.Help().Key))
			}
		}
		var col []string
		for _, b := range g {
			h := b.Help()
			if !b.Enabled() || h.Key == "" {
				continue
			}
			line := th.Key.Render(h.Key) + strings.Repeat(" ", keyW-ansi.StringWidth(h.Key)+2) + th.Muted.Render(h.Desc)
			col = append(col, ansi.Truncate(line, width, "…"))
		}
		if len(col) > 0 {
			cols = append(cols, col)
		}
	}
	const gap = 4
	var out, row []string
	rowW := 0
	flush := func() {
		if len(row) > 0 {
			out = append(out, row...)
			out = append(out, "")
		}
		row, rowW = nil, 0
	}
	for _, col := range cols {
		colW := 0
		for _, l := range col {
			colW = max(colW, ansi.StringWidth(l))
		}
		if len(row) > 0 && rowW+gap+colW > width {
			flush()
		}
		if len(row) == 0 {
			row = append(row, col...)
			rowW = colW
			continue
		}
		// Join col to the right of the lines already in this row.
		for len(row) < len(col) {
			row = append(row, "")
		}
		for i := range row {
			cell := ""
			if i < len(col) {
				cell = col[i]
			}
			row[i] = row[i] + strings.Repeat(" ", rowW+gap-ansi.StringWidth(row[i])) + cell
		}
		rowW += gap + colW
	}
	flush()
	if len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// view draws lines under title in a box of at most w x h cells, from the
// panel's scroll position.
func (p panel) view(th *Theme, title string, lines []string, footer string, w, h int) string {
	inner := max(3, h-panelChrome)
	from := max(0, min(p.offset, len(lines)-inner))
	shown := lines[from:min(len(lines), from+inner)]
	if len(lines) > inner {
		footer = "↑/↓ scroll · " + footer
	}
	body := append([]string{th.Title.Render(title), ""}, shown...)
	body = append(body, "", th.Muted.Render(footer))
	for i, l := range body {
		body[i] = ansi.Truncate(l, max(10, w-4), "…")
	}
	return th.Border.Padding(0, 1).Render(strings.Join(body, "\n"))
}

// scroll moves the window by d lines over total lines shown h high.
func (p *panel) scroll(d, total, h int) {
	p.offset = max(0, min(p.offset+d, total-max(3, h-panelChrome)))
}
