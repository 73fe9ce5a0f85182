package checkin

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/timer"
	"github.com/evdesk/evdesk/views"
)

// boardLatest is how many of the latest arrivals a board lists.
const boardLatest = 8

// sessionsEvery is how often an event's board counts each session's
// check-ins again (one small request per session).
const sessionsEvery = 30 * time.Second

// board is the arrivals board: checked in against registered, arrivals per
// five minutes as a chart, check-ins per desk, the latest arrivals and, for
// a whole event, each session's check-ins. The desk shows it in place of
// its result box (F4); `evdesk desk --board` shows it alone (Board).
type board struct {
	ctx                *ui.Context
	deps               views.Env
	eventID, sessionID string
	// eventName is left out of the sessions' names that repeat it
	// ("Pottery (weekly): Tue 17 Nov" is "Tue 17 Nov" on its board).
	eventName string

	stats roster.Stats
	have  bool
	// venue is the desk's venue (evdesk desk --venue); nil for a desk
	// that works alone.
	venue *venue.Info

	sessions []roster.SessionCount
	sessTask ui.Task
	sessErr  error
}

type (
	// boardMsg carries the sessions' counts.
	boardMsg struct {
		sessions []roster.SessionCount
		err      error
	}
	// boardTickMsg asks for the sessions' counts again.
	boardTickMsg struct{}
)

func newBoard(ctx *ui.Context, d views.Env, eventID, eventName, sessionID string) board {
	return board{ctx: ctx, deps: d, eventID: eventID, eventName: eventName, sessionID: sessionID}
}

// show takes new figures.
func (b *board) show(st roster.Stats) { b.stats, b.have = st, true }

// showDesk takes a desk's figures, and its venue's.
func (b *board) showDesk(v *venue.Desk) {
	b.show(v.Stats(boardLatest))
	b.venue = nil
	if vn := v.Venue(); vn != nil {
		in := vn.Info()
		b.venue = &in
	}
}

// loadSessions counts each session's check-ins (an event's board only),
// then asks again after sessionsEvery.
func (b *board) loadSessions() tea.Cmd {
	if b.sessionID != "" {
		return nil
	}
	c, ev := b.deps.Client, b.eventID
	return tea.Batch(b.sessTask.Run(func(ctx context.Context) tea.Msg {
		ss, err := roster.SessionCounts(ctx, c, ev)
		return boardMsg{sessions: ss, err: err}
	}), timer.After(sessionsEvery, func(time.Time) tea.Msg { return boardTickMsg{} }))
}

func (b *board) update(m boardMsg) tea.Cmd {
	b.sessErr = m.err
	if m.sessions != nil || m.err == nil {
		b.sessions = m.sessions
	}
	return nil
}

func (b *board) stop() { b.sessTask.Stop() }

// view draws the board in w x h. Wide (100 columns and more), the chart
// and the latest arrivals are on the left and the desks, the venue and the
// sessions on the right, each as wide as it needs. Narrower, the desks and
// the venue take a line each, the chart and the latest arrivals sit side
// by side, and the sessions follow in columns; a short board gives the
// chart fewer rows, then none, before it drops a section, so the desk's
// own board at 80x24 still shows desks, latest arrivals and sessions.
func (b *board) view(w, h int) string {
	lines := []string{b.heading(), b.progress(w)}
	if w >= wideBoard {
		lines = append(lines, "")
		lines = append(lines, b.wide(w, h-len(lines))...)
	} else {
		lines = append(lines, b.deskLine(w))
		if b.venue != nil {
			lines = append(lines, b.venueLine(w))
		}
		lines = append(lines, b.narrow(w, h-len(lines))...)
	}
	return ui.Fit(strings.Join(lines, "\n"), w, h)
}

// wideBoard is the width from which the board has two full columns.
const wideBoard = 100

func (b *board) heading() string {
	t, st := b.ctx.Theme, b.stats
	head := t.Title.Render("ARRIVALS BOARD")
	switch {
	case b.venue != nil && b.venue.State == "meshed":
		return head + t.Muted.Render("  live from the venue")
	case !st.Synced.IsZero():
		return head + t.Muted.Render("  synced "+ui.ClockAt(st.Synced, b.deps.Now(), b.deps.Local))
	}
	return head + t.Muted.Render("  not synced yet")
}

// wide is the two columns of a wide board, in h rows.
func (b *board) wide(w, h int) []string {
	lw := b.leftWidth(w)
	rw := w - lw - 2
	// The left column: the chart, as tall as leaves the latest arrivals
	// their rows, then the latest arrivals.
	latestRows := min(len(b.stats.Latest), boardLatest, max(1, h-chartLines(1)-2))
	left := append(b.chart(lw, chartRows(h-latestRows-2)), "")
	left = append(left, b.latest(lw, latestRows)...)
	right := b.desks(rw)
	if b.venue != nil {
		right = append(append(right, ""), b.venueLines(rw)...)
	}
	if b.sessionID == "" {
		right = append(append(right, ""), b.sessionLines(rw, max(2, h-len(right)-1), 1)...)
	}
	col := lipgloss.NewStyle().Width(lw).Render(ui.Fit(strings.Join(left, "\n"), lw, len(left)))
	return strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, col, "  ", strings.Join(right, "\n")), "\n")
}

// leftWidth is the wide board's left column: what the chart and the latest
// arrivals need, up to 72 columns, leaving the right at least 40.
func (b *board) leftWidth(w int) int {
	need := chartIndent + 1 + len(b.stats.Buckets)
	for _, ar := range b.stats.Latest {
		need = max(need, latestWidth(ar))
	}
	return max(46, min(need, 72, w-42))
}

// narrow is a narrow board's chart, latest arrivals and sessions, in h rows.
func (b *board) narrow(w, h int) []string {
	// The sessions take up to two fifths of the rows, in columns of
	// sessionCol; the chart and the latest arrivals have the rest.
	var sessions []string
	cols := max(1, w/sessionCol)
	need := 1 + max(1, (len(b.sessions)+cols-1)/cols)
	if b.sessionID == "" {
		sessions = append([]string{""}, b.sessionLines(w, min(need, max(2, h*2/5)), cols)...)
	}
	room := h - len(sessions) - 1
	if room < 2 {
		return append([]string{""}, sessions...)
	}
	var block []string
	if w >= 72 {
		// Side by side: the chart (as many rows as fit, as wide as its
		// buckets, up to half the width) and the latest.
		lw := max(30, min(w/2, chartIndent+2+len(b.stats.Buckets)))
		chart := b.chart(lw-1, chartRows(room))
		latest := b.latest(w-lw-1, min(room, 1+len(b.stats.Latest), 1+boardLatest)-1)
		if chartRows(room) == 0 {
			chart = nil
			latest = b.latest(w, min(room, 1+len(b.stats.Latest), 1+boardLatest)-1)
			block = latest
		} else {
			col := lipgloss.NewStyle().Width(lw).Render(ui.Fit(strings.Join(chart, "\n"), lw, len(chart)))
			block = strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, col, " ", strings.Join(latest, "\n")), "\n")
		}
	} else {
		// One column: the latest, then the chart when there is room.
		block = b.latest(w, min(room, 1+len(b.stats.Latest), 1+boardLatest)-1)
		if r := chartRows(room - len(block) - 1); r > 0 {
			block = append(append(block, ""), b.chart(w, r)...)
		}
	}
	if left := h - 1 - len(block) - 1; b.sessionID == "" && left > len(sessions)-1 {
		// The chart and the latest took less than their share: the
		// sessions have the rest.
		sessions = append([]string{""}, b.sessionLines(w, min(need, left), cols)...)
	}
	return append(append([]string{""}, block...), sessions...)
}

// The chart's shape: its label column, and the lines around its bars
// (title, axis, times).
const (
	chartIndent = 6
	chartExtra  = 3
)

// chartLines is the height of a chart of rows bars.
func chartLines(rows int) int { return rows + chartExtra }

// chartRows is how many rows of bars fit in h lines (0: no chart).
func chartRows(h int) int {
	if h < chartLines(1) {
		return 0
	}
	return min(chartHeight, h-chartExtra)
}

// progress is "Checked in 4,212 of 20,000 (21%)" with a bar.
func (b *board) progress(w int) string {
	t, st := b.ctx.Theme, b.stats
	text := "Checked in " + lipgloss.NewStyle().Bold(true).Render(ui.Thousands(st.CheckedIn))
	if st.Registered <= 0 {
		return text + t.Muted.Render(" (registered: not known yet)")
	}
	pct := min(100, st.CheckedIn*100/st.Registered) // the bar fills only when all are in
	text += " of " + ui.Thousands(st.Registered) + " (" + ui.Percent(st.CheckedIn, st.Registered) + ")"
	n := max(10, min(40, w-ansi.StringWidth(text)-4))
	fill := n * pct / 100
	return text + "  [" + t.Success.Render(strings.Repeat("#", fill)) + strings.Repeat(".", n-fill) + "]"
}

// chartHeight is the bars' height in rows, when there is room.
const chartHeight = 5

// chart draws the arrivals per five minutes as bars in w columns and rows
// rows, one column a bucket, the newest on the right, with the busiest
// count and the time axis.
func (b *board) chart(w, rows int) []string {
	t, st := b.ctx.Theme, b.stats
	title := t.Header.Render("Arrivals per 5 minutes")
	if st.Untimed > 0 {
		title += t.Muted.Render(fmt.Sprintf(" (%s found on the first look, not timed)", ui.Thousands(st.Untimed)))
	}
	title = ansi.Truncate(title, w, "…")
	buckets := st.Buckets
	cols := max(10, w-chartIndent-1)
	if len(buckets) > cols {
		buckets = buckets[len(buckets)-cols:]
	}
	if len(buckets) == 0 {
		return []string{title, t.Muted.Render("  no timed arrivals yet")}
	}
	rows = max(1, rows)
	top := 1
	for _, bk := range buckets {
		top = max(top, bk.Count)
	}
	out := []string{title}
	for row := rows; row >= 1; row-- {
		label := strings.Repeat(" ", chartIndent)
		if row == rows {
			label = fmt.Sprintf("%5d ", top)
		}
		var sb strings.Builder
		for _, bk := range buckets {
			// Eighths of a row, so small counts still show.
			eighths := bk.Count * rows * 8 / top
			if bk.Count > 0 && eighths == 0 {
				eighths = 1
			}
			sb.WriteString(barCell(eighths - (row-1)*8))
		}
		out = append(out, t.Muted.Render(label+"|")+t.Info.Render(sb.String()))
	}
	first := buckets[0].Start.In(b.deps.Local).Format("15:04")
	last := buckets[len(buckets)-1].Start.In(b.deps.Local).Format("15:04")
	axis := first
	if len(buckets) > 1 {
		axis += strings.Repeat(" ", max(1, len(buckets)-len(first)-len(last))) + last
	}
	out = append(out, t.Muted.Render(strings.Repeat(" ", chartIndent)+"+"+strings.Repeat("-", len(buckets))),
		t.Muted.Render(strings.Repeat(" ", chartIndent+1)+axis))
	return out
}

// barCell is one cell of a bar holding n eighths (none below 1, full from 8).
func barCell(n int) string {
	const eighths = " ▁▂▃▄▅▆▇█"
	r := []rune(eighths)
	return string(r[max(0, min(8, n))])
}

// latest lists up to rows of the latest arrivals in w columns: the time,
// the person and the desk, the person's address cut first.
func (b *board) latest(w, rows int) []string {
	t, st := b.ctx.Theme, b.stats
	out := []string{t.Header.Render("Latest arrivals")}
	if len(st.Latest) == 0 {
		return append(out, t.Muted.Render("  none yet"))
	}
	for _, ar := range st.Latest[:min(len(st.Latest), max(1, rows))] {
		desk := ansi.Truncate(sanitize.Line(ui.OrDash(ar.Desk)), 16, "…")
		room := max(8, min(32, w-10-2-ansi.StringWidth(desk)))
		out = append(out, ansi.Truncate(ar.At.In(b.deps.Local).Format("15:04:05")+"  "+
			fmt.Sprintf("%-*s", room, ansi.Truncate(sanitize.Line(ar.Email), room, "…"))+"  "+t.Muted.Render(desk), w, "…"))
	}
	return out
}

// latestWidth is the width a line of the latest arrivals takes whole.
func latestWidth(ar roster.Arrival) int {
	return 10 + 32 + 2 + min(16, ansi.StringWidth(sanitize.Line(ui.OrDash(ar.Desk))))
}

// desks lists each desk's check-ins in w columns.
func (b *board) desks(w int) []string {
	t, st := b.ctx.Theme, b.stats
	out := []string{t.Header.Render("Check-ins by desk")}
	if len(st.PerDesk) == 0 {
		return append(out, t.Muted.Render("  none yet"))
	}
	names := make([]string, len(st.PerDesk))
	for i, dc := range st.PerDesk {
		names[i] = sanitize.Line(ui.OrDash(dc.Desk))
	}
	nw := nameWidth(names, w)
	for i, dc := range st.PerDesk {
		out = append(out, countLine(names[i], dc.Count, nw))
	}
	return out
}

// nameWidth is the width of a column of names and counts in w columns:
// the longest name's, or what is left beside the counts.
func nameWidth(names []string, w int) int {
	longest := 0
	for _, n := range names {
		longest = max(longest, ansi.StringWidth(n))
	}
	return max(8, min(longest, w-2-1-7))
}

// countLine is "  name    1,204", the name in nw columns (cut to fit).
func countLine(name string, n, nw int) string {
	return fmt.Sprintf("  %-*s %7s", nw, ansi.Truncate(name, nw, "…"), ui.Thousands(n))
}

// deskLine is the desks' counts on one line, for a narrow board:
// "Desks: Door A 1,204 · Door B 980".
func (b *board) deskLine(w int) string {
	t, st := b.ctx.Theme, b.stats
	if len(st.PerDesk) == 0 {
		return t.Muted.Render("Desks: none yet")
	}
	parts := make([]string, len(st.PerDesk))
	for i, dc := range st.PerDesk {
		parts[i] = sanitize.Line(ui.OrDash(dc.Desk)) + " " + ui.Thousands(dc.Count)
	}
	return ansi.Truncate(t.Header.Render("Desks: ")+strings.Join(parts, " · "), w, "…")
}

// sessionCol is the width of a column of sessions on a narrow board.
const sessionCol = 38

// sessionLines lists each session's check-ins in room lines of w columns,
// in cols columns; what does not fit is counted ("... and 9 more").
func (b *board) sessionLines(w, room, cols int) []string {
	t := b.ctx.Theme
	out := []string{t.Header.Render("Check-ins by session")}
	switch {
	case b.sessErr != nil && len(b.sessions) == 0:
		return append(out, t.Error.Render(ansi.Truncate("  "+ui.OneLine(b.sessErr.Error()), w, "…")))
	case b.sessions == nil:
		return append(out, t.Muted.Render("  counting..."))
	case len(b.sessions) == 0:
		return append(out, t.Muted.Render("  the event has no sessions"))
	}
	cols = max(1, cols)
	cw := w / cols
	fit := max(1, room-1) * cols
	names := make([]string, len(b.sessions))
	for i, s := range b.sessions {
		names[i] = b.sessionName(s.Name)
	}
	nw := nameWidth(names[:min(len(names), fit)], cw)
	cells := make([]string, 0, len(b.sessions))
	for i, s := range b.sessions {
		if i == fit-1 && len(b.sessions) > fit {
			cells = append(cells, t.Muted.Render(fmt.Sprintf("  ... and %d more", len(b.sessions)-i)))
			break
		}
		cells = append(cells, countLine(names[i], s.CheckedIn, nw))
	}
	// Down the first column, then the next.
	rows := (len(cells) + cols - 1) / cols
	for r := range rows {
		var line strings.Builder
		for c := range cols {
			i := c*rows + r
			if i >= len(cells) {
				break
			}
			cell := cells[i]
			if c < cols-1 {
				cell += strings.Repeat(" ", max(0, cw-ansi.StringWidth(cell)))
			}
			line.WriteString(cell)
		}
		out = append(out, line.String())
	}
	return out
}

// sessionName is a session's name without the event's name it repeats.
func (b *board) sessionName(name string) string {
	name = sanitize.Line(ui.OrDash(name))
	if b.eventName == "" || !strings.HasPrefix(name, b.eventName) {
		return name
	}
	if rest := strings.TrimLeft(name[len(b.eventName):], " :-–—·|"); rest != "" {
		return rest
	}
	return name
}

// toggleBoard shows or hides the board in place of the result box.
func (d *Desk) toggleBoard() tea.Cmd {
	d.showBoard = !d.showBoard
	if !d.showBoard {
		d.board.stop()
		return nil
	}
	if d.v != nil {
		d.board.showDesk(d.v)
	}
	return d.board.loadSessions()
}

// venueLines are the venue's desks, who sends upstream and the mesh's
// health, for the board's right column.
func (b *board) venueLines(w int) []string {
	t, in := b.ctx.Theme, b.venue
	out := []string{t.Header.Render("Venue " + ansi.Truncate(sanitize.Line(in.Name), 24, "…"))}
	for _, part := range b.venueHealth() {
		out = append(out, "  "+part)
	}
	now := b.deps.Now()
	for _, dk := range in.Desks {
		role := ""
		switch {
		case now.Sub(dk.Seen) > venueSilent:
			role = t.Error.Render("silent")
		case dk.Upstream:
			role = t.Success.Render("upstream")
		case dk.Alone:
			role = t.Warning.Render("alone")
		}
		nw := max(8, min(24, w-2-1-7-1-8-12))
		line := fmt.Sprintf("  %-*s %7s ", nw, ansi.Truncate(sanitize.Line(ui.OrDash(dk.Name)), nw, "…"), ui.Thousands(dk.Scans)) +
			role + strings.Repeat(" ", max(0, 8-ansi.StringWidth(role)))
		if dk.Pending > 0 {
			line += t.Muted.Render(fmt.Sprintf(" %s waiting", ui.Thousands(dk.Pending)))
		}
		out = append(out, line)
	}
	if len(in.Twice) > 0 {
		out = append(out, t.Warning.Render(fmt.Sprintf("Admitted twice during a split: %d", len(in.Twice))))
		for i, tw := range in.Twice {
			if i == 3 {
				out = append(out, t.Muted.Render(fmt.Sprintf("  ... and %d more", len(in.Twice)-i)))
				break
			}
			out = append(out, "  "+ansi.Truncate(sanitize.Line(tw.Email), 24, "…")+t.Muted.Render(
				" "+sanitize.Line(tw.First)+", again "+sanitize.Line(tw.Again)+" "+tw.At.In(b.deps.Local).Format("15:04")))
		}
	}
	if in.Err != "" && in.State != "meshed" {
		out = append(out, t.Muted.Render("  "+ansi.Truncate(ui.OneLine(in.Err), 40, "…")))
	}
	return out
}

// venueSilent is how long a desk may go unheard before the board says so.
const venueSilent = venue.SilentAfter

// venueHealth is the mesh in a few words, in two parts: "MESHED ·
// upstream Door B" and "3 copies · 12 to send".
func (b *board) venueHealth() []string {
	t, in := b.ctx.Theme, b.venue
	var state string
	switch in.State {
	case "meshed":
		state = t.Success.Render("MESHED")
	case "alone":
		state = t.Error.Render("CUT OFF: working alone")
	case "cutoff":
		state = t.Error.Render("CUT OFF: no desk heard")
	default:
		state = t.Warning.Render("JOINING")
	}
	first := state + " · no upstream desk yet"
	switch {
	case in.State == "cutoff":
		first = state
	case in.Upstream != "":
		first = state + " · upstream " + ansi.Truncate(sanitize.Line(in.Upstream), 20, "…")
	}
	second := ui.Thousands(in.Queue) + " to send"
	switch {
	case in.Replicas == 1:
		second = "1 copy · " + second
	case in.Replicas > 1:
		second = fmt.Sprintf("%d copies · %s", in.Replicas, second)
	}
	return []string{first, second}
}

// venuePresent counts the venue's desks heard from lately; a silent one
// is listed, but not counted as present.
func (b *board) venuePresent() int {
	n, now := 0, b.deps.Now()
	for _, dk := range b.venue.Desks {
		if now.Sub(dk.Seen) <= venueSilent {
			n++
		}
	}
	return n
}

// venueLine is the venue on one line, for a narrow board.
func (b *board) venueLine(w int) string {
	in := b.venue
	s := b.ctx.Theme.Header.Render("Venue: ") + strings.Join(b.venueHealth(), " · ") + fmt.Sprintf(" · %d desks", b.venuePresent())
	if len(in.Twice) > 0 {
		s += b.ctx.Theme.Warning.Render(fmt.Sprintf(" · %d admitted twice", len(in.Twice)))
	}
	return ansi.Truncate(s, w, "…")
}
