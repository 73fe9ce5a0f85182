package emails

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
)

// bar is one line of a chart: a word, its count and whether it is the
// active filter.
type bar struct {
	label  string
	word   string // for the theme's status colour
	n      int
	active bool
}

// chartLabelWidth fits the longest label ("Missed schedule").
const chartLabelWidth = 15

// renderChart draws a titled bar chart in width columns: per line a mark
// for the active filter, the word, the count, the bar and the share. The
// numbers and words carry the meaning; colour only repeats it.
func renderChart(th *ui.Theme, title string, bars []bar, width int) []string {
	total := 0
	for _, b := range bars {
		total += b.n
	}
	out := []string{ui.Fit(th.Header.Render(title), width, 1)}
	barW := max(width-2-chartLabelWidth-1-7-1-1-4, 4)
	for _, b := range bars {
		mark := "  "
		if b.active {
			mark = "> "
		}
		fill := 0
		if total > 0 {
			fill = int(float64(b.n)/float64(total)*float64(barW) + 0.5)
			if b.n > 0 && fill == 0 {
				fill = 1
			}
		}
		style := th.Status(b.word)
		if b.word == api.SendMissedSchedule {
			style = th.Warning
		}
		line := mark + fmt.Sprintf("%-*s %7s ", chartLabelWidth, b.label, ui.Thousands(b.n)) +
			style.Render(strings.Repeat("█", fill)) + th.Muted.Render(strings.Repeat("·", barW-fill)) +
			" " + share(b.n, total)
		if b.active {
			line = th.Key.Render(mark) + line[len(mark):]
		}
		out = append(out, ui.Fit(line, width, 1))
	}
	return out
}

// share is n as a percentage of total, right-aligned in four columns.
func share(n, total int) string { return fmt.Sprintf("%4s", ui.Percent(n, total)) }

// chart renders the recipients by status and the failed ones by reason,
// side by side when there is room, else one above the other.
func (s *SendStatusScreen) chart(lines int) string {
	th := s.Ctx.Theme
	progress := ""
	if s.loading && s.total > 0 {
		progress = fmt.Sprintf(" (%s of %s loaded)", ui.Thousands(len(s.recs)), ui.Thousands(s.total))
	}
	var byStatus []bar
	for i, e := range api.SendStatuses {
		byStatus = append(byStatus, bar{label: e.Label, word: e.Value, n: s.statusN[i+1], active: s.statusFilter == uint8(i+1)})
	}
	if n := s.statusN[0]; n > 0 {
		byStatus = append(byStatus, bar{label: "Other", n: n})
	}
	var byReason []bar
	for i, e := range api.FailureReasons {
		byReason = append(byReason, bar{label: e.Label, word: api.SendFailed, n: s.reasonN[i+1], active: s.reasonFilter == uint8(i+1)})
	}
	if n := s.reasonN[otherReason]; n > 0 {
		byReason = append(byReason, bar{label: "Other", word: api.SendFailed, n: n})
	}
	status := renderChart(th, "Recipients by status"+progress, byStatus, s.Width())
	if s.Width() < chartWide && lines < len(status)+len(byReason)+1 {
		return ui.Fit(strings.Join(status, "\n"), s.Width(), lines) // no room for the reasons
	}
	if s.Width() >= chartWide {
		colW := (s.Width() - 2) / 2
		left := renderChart(th, "Recipients by status"+progress, byStatus, colW)
		right := renderChart(th, "Failed, by reason", byReason, s.Width()-2-colW)
		rows := make([]string, max(len(left), len(right)))
		for i := range rows {
			l, r := "", ""
			if i < len(left) {
				l = left[i]
			}
			if i < len(right) {
				r = right[i]
			}
			rows[i] = lipgloss.NewStyle().Width(colW+2).Render(l) + r
		}
		return ui.Fit(strings.Join(rows, "\n"), s.Width(), lines)
	}
	all := append(status, renderChart(th, "Failed, by reason", byReason, s.Width())...)
	return ui.Fit(strings.Join(all, "\n"), s.Width(), lines)
}
