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

func newBoard(ctx *ui.Context, d views.Env, eventID, sessionID string) board {
	return board{ctx: ctx, deps: d, eventID: eventID, sessionID: sessionID}
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

// view draws the board in w x h.
func (b *board) view(w, h int) string {
	t := b.ctx.Theme
	st := b.stats
	head := t.Title.Render("ARRIVALS BOARD")
	if b.venue != nil && b.venue.State == "meshed" {
		head += t.Muted.Render("  live from the venue")
	} else if !st.Synced.IsZero() {
		head += t.Muted.Render("  synced " + ui.ClockAt(st.Synced, b.deps.Now(), b.deps.Local))
	} else {
		head += t.Muted.Render("  not synced yet")
	}
	lines := []string{head, b.progress(w)}
	left := append(b.chart(min(w, 72)), "")
	left = append(left, b.latest()...)
	right := b.desks()
	if b.venue != nil {
		right = append(append(right, ""), b.venueLines(h)...)
	}
	if b.sessionID == "" {
		right = append(append(right, ""), b.sessionLines(max(4, h-len(right)-5))...)
	}
	if w >= 100 {
		lw := min(72, w-34)
		col := lipgloss.NewStyle().Width(lw).Render(ui.Fit(strings.Join(left, "\n"), lw, len(left)))
		lines = append(lines, "", lipgloss.JoinHorizontal(lipgloss.Top, col, "  ", strings.Join(right, "\n")))
	} else {
		// One column: the desks' counts first, so a short terminal (the
		// desk's own, at 80x24) still shows who is doing what.
		lines = append(lines, b.deskLine(w))
		if b.venue != nil {
			lines = append(lines, b.venueLine(w))
		}
		lines = append(append(lines, ""), left...)
		if b.sessionID == "" {
			lines = append(lines, "")
			// What does not fit is counted ("... and 9 more") on the last line.
			lines = append(lines, b.sessionLines(max(2, h-len(lines)-1))...)
		}
	}
	return ui.Fit(strings.Join(lines, "\n"), w, h)
}

// progress is "Checked in 4,212 of 20,000 (21%)" with a bar.
func (b *board) progress(w int) string {
	t, st := b.ctx.Theme, b.stats
	text := "Checked in " + lipgloss.NewStyle().Bold(true).Render(ui.Thousands(st.CheckedIn))
	if st.Registered <= 0 {
		return text + t.Muted.Render(" (registered: not known yet)")
	}
	pct := min(100, st.CheckedIn*100/st.Registered)
	text += " of " + ui.Thousands(st.Registered) + fmt.Sprintf(" (%d%%)", pct)
	n := max(10, min(40, w-ansi.StringWidth(text)-4))
	fill := n * pct / 100
	return text + "  [" + t.Success.Render(strings.Repeat("#", fill)) + strings.Repeat(".", n-fill) + "]"
}

// chartHeight is the bars' height in rows.
const chartHeight = 5

// chart draws the arrivals per five minutes as bars, one column a bucket,
// the newest on the right, with the busiest count and the time axis.
func (b *board) chart(w int) []string {
	t, st := b.ctx.Theme, b.stats
	title := t.Header.Render("Arrivals per 5 minutes")
	if st.Untimed > 0 {
		title += t.Muted.Render(fmt.Sprintf(" (%s found on the first look, not timed)", ui.Thousands(st.Untimed)))
	}
	buckets := st.Buckets
	cols := max(10, w-8)
	if len(buckets) > cols {
		buckets = buckets[len(buckets)-cols:]
	}
	if len(buckets) == 0 {
		return []string{title, t.Muted.Render("  no timed arrivals yet")}
	}
	top := 1
	for _, bk := range buckets {
		top = max(top, bk.Count)
	}
	out := []string{title}
	for row := chartHeight; row >= 1; row-- {
		label := "      "
		if row == chartHeight {
			label = fmt.Sprintf("%5d ", top)
		}
		var sb strings.Builder
		for _, bk := range buckets {
			// Eighths of a row, so small counts still show.
			eighths := bk.Count * chartHeight * 8 / top
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
	out = append(out, t.Muted.Render("      +"+strings.Repeat("-", len(buckets))), t.Muted.Render("       "+axis))
	return out
}

// barCell is one cell of a bar holding n eighths (none below 1, full from 8).
func barCell(n int) string {
	const eighths = " ▁▂▃▄▅▆▇█"
	r := []rune(eighths)
	return string(r[max(0, min(8, n))])
}

func (b *board) latest() []string {
	t, st := b.ctx.Theme, b.stats
	out := []string{t.Header.Render("Latest arrivals")}
	if len(st.Latest) == 0 {
		return append(out, t.Muted.Render("  none yet"))
	}
	for _, ar := range st.Latest {
		out = append(out, ar.At.In(b.deps.Local).Format("15:04:05")+"  "+
			fmt.Sprintf("%-32s", ansi.Truncate(sanitize.Line(ar.Email), 32, "…"))+"  "+t.Muted.Render(sanitize.Line(ui.OrDash(ar.Desk))))
	}
	return out
}

func (b *board) desks() []string {
	t, st := b.ctx.Theme, b.stats
	out := []string{t.Header.Render("Check-ins by desk")}
	if len(st.PerDesk) == 0 {
		return append(out, t.Muted.Render("  none yet"))
	}
	for _, dc := range st.PerDesk {
		out = append(out, fmt.Sprintf("  %-20s %7s", ansi.Truncate(sanitize.Line(ui.OrDash(dc.Desk)), 20, "…"), ui.Thousands(dc.Count)))
	}
	return out
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

func (b *board) sessionLines(room int) []string {
	t := b.ctx.Theme
	out := []string{t.Header.Render("Check-ins by session")}
	switch {
	case b.sessErr != nil && len(b.sessions) == 0:
		return append(out, t.Error.Render("  "+ui.OneLine(b.sessErr.Error())))
	case b.sessions == nil:
		return append(out, t.Muted.Render("  counting..."))
	case len(b.sessions) == 0:
		return append(out, t.Muted.Render("  the event has no sessions"))
	}
	for i, s := range b.sessions {
		if len(out) >= room {
			out = append(out, t.Muted.Render(fmt.Sprintf("  ... and %d more", len(b.sessions)-i)))
			break
		}
		out = append(out, fmt.Sprintf("  %-20s %7s", ansi.Truncate(sanitize.Line(ui.OrDash(s.Name)), 20, "…"), ui.Thousands(s.CheckedIn)))
	}
	return out
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
func (b *board) venueLines(h int) []string {
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
		line := fmt.Sprintf("  %-14s %7s ", ansi.Truncate(sanitize.Line(ui.OrDash(dk.Name)), 14, "…"), ui.Thousands(dk.Scans)) +
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
const venueSilent = 10 * time.Second

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
	default:
		state = t.Warning.Render("JOINING")
	}
	first := state + " · no upstream desk yet"
	if in.Upstream != "" {
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

// venueLine is the venue on one line, for a narrow board.
func (b *board) venueLine(w int) string {
	in := b.venue
	s := b.ctx.Theme.Header.Render("Venue: ") + strings.Join(b.venueHealth(), " · ") + fmt.Sprintf(" · %d desks", len(in.Desks))
	if len(in.Twice) > 0 {
		s += b.ctx.Theme.Warning.Render(fmt.Sprintf(" · %d admitted twice", len(in.Twice)))
	}
	return ansi.Truncate(s, w, "…")
}
