package checkin

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
)

// boxHeight is the height of the result box, borders included: roomier
// when the terminal is tall.
func (d *Desk) boxHeight() int {
	if d.Height() >= 24 {
		return 7
	}
	// A ticket's line, the door's (a badge, a walk-in), and a detail too
	// long for one, need a row of their own.
	h := 5
	if e, ok := d.latest(); ok && d.card == nil {
		if scanText(e) != "" {
			h++
		}
		c := d.conn()
		if v := describe(&e, &c, d.deps.Local); ansi.StringWidth(ui.OneLine(v.detail)) > d.Width()-4 {
			h++
		}
		if line, _ := d.doorLine(e); line != "" {
			h++
		}
	}
	return min(h, 7)
}

// layout says which optional rows fit: the gaps between blocks go first
// when the terminal is short.
func (d *Desk) gaps() bool { return d.Height() >= 18 }

// headLines counts the rows above the result box (or the search).
func (d *Desk) headLines() int {
	n := 4 // title, connection, counters, input
	if d.gaps() {
		n += 2
	}
	return n
}

func (d *Desk) searchTableHeight() int {
	return max(3, d.Height()-d.headLines()-1)
}

// ViewIsExact says the frame is the desk's size, line by line, so the
// shell need not measure it (ui.ExactViewer): the desk draws every line as
// wide as itself (fitted), but not a dialog over it.
func (d *Desk) ViewIsExact() bool { return d.Width() >= 8 && d.Height() > 0 && !d.Dialog.Open() }

func (d *Desk) View() string {
	if d.Width() <= 0 || d.Height() <= 0 {
		return ""
	}
	return d.Frame(d.deskView())
}

func (d *Desk) deskView() string {
	w, h := d.Width(), d.Height()
	f := frame{b: d.draw.frame[:0], w: w, h: h}
	defer func() { d.draw.frame = f.b[:0] }()
	f.line(d.titleLine())
	f.line(d.connLine())
	f.line(d.countersLine())
	if d.gaps() {
		f.line("")
	}
	if d.kiosk != nil && d.kiosk.prompting {
		f.line(ui.Fit(d.kioskLine(), w, 1))
	} else {
		f.line(d.inputLine())
	}
	if d.gaps() {
		f.line("")
	}
	switch {
	case d.searching:
		return ui.Fit(string(f.b)+"\n"+d.searchHead()+"\n"+d.reg.table.View(), w, h)
	case d.showBoard:
		// The latest scan keeps one line; the board takes the rest.
		return ui.Fit(string(f.b)+"\n"+d.resultLine()+"\n"+d.board.view(w, max(1, h-d.headLines()-1)), w, h)
	case w < 8: // the result box is lipgloss's there (drawBox)
		return ui.Fit(string(f.b)+"\n"+d.box().narrow, w, h)
	}
	d.box().write(&f)
	rest := h - d.headLines() - d.boxHeight()
	if rest >= 3 && !d.kioskLocked() { // the public sees no earlier scans
		if d.gaps() {
			f.line("")
			rest--
		}
		d.writeRecent(&f, rest)
	}
	return f.String()
}

// frame puts a frame together from lines (and lines made of parts) that
// are each exactly w wide, or empty, as the desk draws them: it measures
// nothing, which was a good part of a frame's cost (TestDeskFrameLinesAreExact
// holds the desk to it). It writes into the desk's buffer, kept from frame
// to frame (drawCache.frame), and its string is one copy of the frame's
// size: a buffer grown for each frame took more (4 KB for 3.2), and every
// byte an Enter allocates costs it again while the collector marks.
type frame struct {
	b       []byte
	w, h, n int
}

// line adds one line; an empty one is drawn as spaces. Lines past the
// frame's height are dropped.
func (f *frame) line(l string) {
	if f.n == f.h {
		return
	}
	if f.n > 0 {
		f.b = append(f.b, '\n')
	}
	if l == "" {
		f.b = ui.AppendSpaces(f.b, f.w)
	} else {
		f.b = append(f.b, l...)
	}
	f.n++
}

// lineOf adds one line made of parts, written straight into the frame.
func (f *frame) lineOf(parts ...string) {
	if f.n == f.h {
		return
	}
	if f.n > 0 {
		f.b = append(f.b, '\n')
	}
	for _, p := range parts {
		f.b = append(f.b, p...)
	}
	f.n++
}

// String is the frame, padded with empty lines to its height.
func (f *frame) String() string {
	for f.n < f.h {
		f.line("")
	}
	return string(f.b)
}

// inputLine is the scan input, fitted to the line; the empty input is
// drawn once.
func (d *Desk) inputLine() string {
	if d.input.Value() != "" {
		return ui.Fit(d.input.View(), d.Width(), 1)
	}
	k := emptyInputKey{theme: d.Ctx.Theme, prompt: d.input.Prompt, placeholder: d.input.Placeholder, w: d.Width()}
	return d.draw.empty.get(k, func() string { return ui.Fit(d.input.View(), d.Width(), 1) })
}

func (d *Desk) titleLine() string {
	k := titleKey{theme: d.Ctx.Theme, event: d.eventName, session: d.sessionLabel(), desk: d.deps.Desk,
		kiosk: d.kiosk != nil, locked: d.kiosk != nil && d.kiosk.locked, bell: d.bell, w: d.Width()}
	return d.draw.title.get(k, d.drawTitle)
}

func (d *Desk) drawTitle() string {
	t, p := d.Ctx.Theme, d.paints()
	left := p.title.on("CHECK-IN DESK") + "  " + p.bold.on(d.eventName) +
		p.muted.on(" · "+d.sessionLabel())
	kiosk := ""
	switch {
	case d.kiosk != nil && d.kiosk.locked:
		kiosk = t.InfoBadge.Render(" KIOSK ")
	case d.kiosk != nil:
		kiosk = t.WarningBadge.Render(" KIOSK UNLOCKED ")
	}
	bell := "bell off"
	if d.bell {
		bell = "bell on"
	}
	name := p.muted.on("desk: ") + sanitize.Line(d.deps.Desk)
	// What fits, from the most to the least: the kiosk badge goes last.
	for _, right := range []string{
		join(kiosk, name+p.muted.on(" · "+bell)), join(kiosk, name), kiosk,
	} {
		if ansi.StringWidth(left)+ansi.StringWidth(right)+2 <= d.Width() {
			return spread(left, right, d.Width())
		}
	}
	return spread(ansi.Truncate(left, max(0, d.Width()-ansi.StringWidth(kiosk)-2), "…"), kiosk, d.Width())
}

// join puts the non-empty parts on one line, a space apart.
func join(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

func (d *Desk) conn() conn {
	reached := !d.health.LastOK.IsZero()
	var probeErr error
	if !reached {
		probeErr = d.health.LastErr
	}
	c := conn{known: d.haveStatus, st: d.st, pending: d.counts.Pending, reached: reached, probeErr: probeErr}
	if in := d.vinfo; in != nil && in.State == "meshed" {
		c.upstream = "the upstream desk"
		if in.Upstream != "" {
			c.upstream = sanitize.Line(in.Upstream)
		}
	}
	return c
}

// rosterText says where the roster stands, for the connection line.
func (d *Desk) rosterText() string {
	r := d.rost
	switch {
	case r.Loading && r.Roster == nil:
		return fmt.Sprintf("roster loading %s of %s", ui.Thousands(r.Loaded), ui.Thousands(r.Total))
	case r.Roster == nil && r.Refused:
		return "email only: ticket codes need the registrants scope"
	case r.Roster == nil && r.Err != nil:
		return "no roster yet (" + offlineReason(r.Err) + ")"
	case r.Roster == nil:
		return "no roster yet"
	}
	k := rosterKey{roster: r.Roster, local: d.deps.Local}
	return d.draw.roster.get(k, func() string {
		return "roster " + ui.Thousands(r.Roster.Len()) + ", updated " + r.Roster.Updated().In(d.deps.Local).Format("15:04")
	})
}

func (d *Desk) connLine() string {
	p := d.paints()
	if d.openErr != nil {
		return ui.Fit(p.badge[roleErr].on(" NO JOURNAL ")+" "+p.error.on(journalProblem(d.openErr)), d.Width(), 1)
	}
	k := connKey{paints: p, pending: d.counts.Pending + d.unsaved, roster: d.rosterText(), w: d.Width()}
	k.r, k.word, k.detail = d.connWords()
	k.retry = retryWords(d.conn(), d.deps.Now(), d.deps.Local)
	return d.draw.conn.get(k, k.draw)
}

// draw draws the connection line from what it says, into one buffer: it
// changes with every scan (the pending count).
func (k connKey) draw() string {
	p := k.paints
	var b strings.Builder
	b.Grow(k.w + p.badge[k.r].len() + p.bold.len() + 2*p.muted.len() + p.text[k.r].len() + 16) // its width, its paints, two "·"
	k.head(&b)
	// The detail (what is wrong, what to press) comes before the roster,
	// which is the first to go on a narrow terminal.
	if k.detail != "" {
		p.muted.write(&b, " · ")
		p.text[k.r].write(&b, k.detail)
	}
	roster := " · " + k.roster
	p.muted.write(&b, roster)
	// Too narrow for it all: the next try comes first, the reason after it
	// is what is cut.
	if k.retry != "" && ansi.StringWidth(b.String()) > k.w {
		b.Reset()
		k.head(&b)
		p.muted.write(&b, " · ")
		p.text[k.r].write(&b, k.retry+"; "+strings.Replace(k.detail, "; "+k.retry, "", 1))
		p.muted.write(&b, roster)
	}
	return fitLine(&b, k.w)
}

// head writes the connection's badge and the pending count.
func (k connKey) head(b *strings.Builder) {
	p := k.paints
	p.badge[k.r].write(b, " "+k.word+" ")
	b.WriteByte(' ')
	var digits [24]byte
	// bold.write, for a text known to be one line: no string made of it.
	b.WriteString(p.bold.pre)
	b.Write(strconv.AppendInt(digits[:0], int64(k.pending), 10))
	b.WriteString(" pending")
	b.WriteString(p.bold.post)
}

// StatusText puts the connection and the unsent count in the shell's status
// bar, so they stay in view whatever the desk shows.
func (d *Desk) StatusText() string {
	if d.openErr != nil {
		return "NO JOURNAL"
	}
	_, word, _ := d.connWords()
	return fmt.Sprintf("%s · %d pending", word, d.counts.Pending+d.unsaved)
}

// countersLine counts this desk's work today and all desks' check-ins
// (as last synced) against the registrants.
func (d *Desk) countersLine() string {
	k := countersKey{paints: d.paints(), today: len(d.today), all: d.allDesks, reg: -1,
		pending: d.counts.Pending + d.unsaved, rejected: d.counts.Rejected, already: d.counts.Already, w: d.Width()}
	switch {
	case d.rost.Roster != nil && d.rost.Roster.Len() > 0:
		// The people the roster lists, as the connection line counts
		// them: the server's total_records may count a person twice.
		k.reg = d.rost.Roster.Len()
	case d.rost.Total > 0:
		k.reg = d.rost.Total
	case d.rost.Err != nil || d.health.LastErr != nil:
		k.reg = -2
	}
	return d.draw.counters.get(k, k.draw)
}

// draw draws the counters line from what it counts, into one buffer: it
// changes with every scan. Its words and numbers are ASCII, so its width
// is counted as it is written, not measured.
func (k countersKey) draw() string {
	p := k.paints
	var b strings.Builder
	b.Grow(k.w + 5*(p.muted.len()+p.bold.len())) // its width and its paints
	var digits [32]byte
	width := 0
	item := func(label string, n int, of string) {
		if b.Len() > 0 {
			b.WriteString("  ")
			width += 2
		}
		b.WriteString(p.muted.pre) // p.muted.write, for a label known to be one line
		b.WriteString(label)
		b.WriteString(p.muted.post)
		b.WriteString(p.bold.pre)
		num := ui.AppendThousands(digits[:0], n)
		b.Write(num)
		b.WriteString(of)
		b.WriteString(p.bold.post)
		width += len(label) + len(num) + len(of)
	}
	of := " of ..."
	switch k.reg {
	case -1:
	case -2:
		of = " of ?"
	default:
		of = " of " + ui.Thousands(k.reg)
	}
	item("This desk today ", k.today, "")
	item("All desks ", k.all, of)
	item("Pending ", k.pending, "")
	item("Rejected ", k.rejected, "")
	item("Already ", k.already, "")
	if width > k.w {
		return ui.Fit(b.String(), k.w, 1)
	}
	ui.WriteSpaces(&b, k.w-width)
	return b.String()
}

// fitLine is the line b holds made exactly w wide: padded in place, or
// cut with "…" (ui.Fit) when wider.
func fitLine(b *strings.Builder, w int) string {
	s := b.String()
	lw := ui.Width(s)
	if lw > w || strings.ContainsAny(s, "\n\r") {
		return ui.Fit(s, w, 1)
	}
	ui.WriteSpaces(b, w-lw)
	return b.String()
}

// latest is this desk session's latest scan, if any (scans from before
// the desk opened stay in the list, never in the result box).
func (d *Desk) latest() (entry, bool) {
	if d.recent.len() == 0 || d.recent.at(0).earlier {
		return entry{}, false
	}
	return *d.recent.at(0), true
}

// personText is what the roster says of an entry: "Ana Costa · registered
// · speaker".
func personText(e entry) string {
	if e.person == nil {
		return ""
	}
	role := e.person.Role()
	if e.ticket != nil {
		role = "" // the scanned ticket's role is on the line below
	}
	var parts []string
	name := e.person.Name
	if e.person.Company != "" {
		name = strings.TrimSpace(name + " (" + e.person.Company + ")")
	}
	for _, s := range []string{name, words(e.person.Status), words(role)} {
		if s != "" {
			parts = append(parts, sanitize.Line(s))
		}
	}
	return strings.Join(parts, " · ")
}

// resultLine is the latest scan in one line (under the board).
func (d *Desk) resultLine() string {
	t := d.Ctx.Theme
	e, ok := d.latest()
	if !ok {
		return ui.Fit(t.Muted.Render("Latest scan: none yet"), d.Width(), 1)
	}
	c := d.conn()
	v := describe(&e, &c, d.deps.Local)
	line := badge(t, v.role).Render(" ["+v.mark+"] "+v.word+" ") + " " + sanitize.Line(e.email)
	for _, s := range []string{personText(e), scanText(e)} {
		if s != "" {
			line += t.Muted.Render(" · " + s)
		}
	}
	line += t.Muted.Render(" · ") + text(t, v.role).Render(ui.OneLine(v.detail))
	return ui.Fit(ansi.Truncate(line, d.Width(), "…"), d.Width(), 1)
}

// box is the result of the latest scan, large and framed: the word mark
// and the border style tell the outcome without colour.
func (d *Desk) box() *boxDrawn {
	t, p := d.Ctx.Theme, d.paints()
	w := d.Width()
	var v verdict
	email, scan := "", ""
	e, scanned := d.latest()
	scanned = scanned && !d.faded(e)
	switch {
	case d.card != nil:
		v = d.cardVerdict()
	case scanned:
		c := d.conn()
		v = describe(&e, &c, d.deps.Local)
		email = sanitize.Line(e.email)
		if e.refused() {
			email = e.headline
		}
		top := d.recent.at(0) // e is a copy: the list's entry keeps what is drawn of it
		sep, who := "", top.who()
		switch {
		case d.kioskLocked() && !e.refused():
			// The public sees who, not their address: a name picked from
			// the kiosk's search may be someone else's.
			email, who = kioskWho(e), ""
		case who != "":
			sep = " · "
		}
		scan = scanText(e)
		// One string made of its parts; the time is one line, as muted.on
		// takes it.
		if e.at.IsZero() {
			email += sep + who
		} else {
			email = strings.TrimSpace(email + sep + who + "   " + p.muted.pre + top.when(d.deps.Local) + p.muted.post)
		}
	case d.openErr != nil:
		v = verdict{mark: "XX", word: "DESK UNAVAILABLE", role: roleErr,
			detail: "Scans cannot be recorded: " + journalProblem(d.openErr)}
	default:
		v = verdict{mark: "--", word: "READY", role: roleInfo, detail: "Scan a ticket or badge, or type an email, then press Enter."}
	}
	h := d.boxHeight()
	// The detail takes the rows left, wrapped; the door's line (a badge's
	// print state, what a key does) gets a row of its own where there is
	// one, else it follows the detail.
	heads := 2 // the word mark, the email
	if scan != "" {
		heads++
	}
	rows := max(1, h-2-heads)
	var door, after string
	if scanned && d.card == nil {
		if line, r := d.doorLine(e); line != "" && rows >= 2 {
			rows--
			door = p.text[r].on(ui.OneLine(line))
		} else if line != "" {
			rows = 1
			after = p.muted.on(" · ") + p.text[r].on(ui.OneLine(line))
		}
	}
	key := boxKey{v: v, email: email, scan: scan, door: door, after: after, w: w, h: h, noColor: t.NoColor}
	m := &d.draw.box
	// The memo keeps one box: a new one is drawn over its rows' array.
	m.get(key, func() boxDrawn { return d.drawBox(p, key, rows, m.val.body[:0]) })
	return &m.val
}

// drawBox draws the result box from what it shows, its rows appended to
// body; the word mark's line and the detail's lines are kept apart, as
// the next scan's box often shares them.
func (d *Desk) drawBox(p *paints, k boxKey, rows int, body []string) boxDrawn {
	t, v, w := d.Ctx.Theme, k.v, k.w
	inner := max(1, w-4)
	body = append(body,
		d.draw.badge.get(badgeKey{paints: p, role: v.role, mark: v.mark, word: v.word, inner: inner}, func() string {
			return center(p.badge[v.role].on("  ["+v.mark+"] "+v.word+"  "), inner)
		}),
		center(ui.Truncate(p.bold.on(k.email), inner, "…"), inner))
	if k.scan != "" {
		body = append(body, center(ui.Truncate(p.muted.on(k.scan), inner, "…"), inner))
	}
	dk := detailsKey{paints: p, role: v.role, detail: v.detail, after: k.after, inner: inner, rows: rows}
	body = append(body, d.draw.details.get(dk, dk.draw)...)
	if k.door != "" {
		body = append(body, center(ui.Truncate(k.door, inner, "…"), inner))
	}
	spare := max(0, k.h-2-len(body))
	top, bottom := (spare+1)/2, spare-(spare+1)/2
	if w < 8 { // too narrow for the hand-drawn frame's sums
		st := lipgloss.NewStyle().Border(border(v.role)).Padding(top, 1, bottom, 1).Width(w)
		if !t.NoColor {
			st = st.BorderForeground(text(t, v.role).GetForeground())
		}
		return boxDrawn{narrow: st.Render(strings.Join(body, "\n")), body: body}
	}
	return boxDrawn{edges: *d.draw.edgesFor(t, v.role, w), top: top, bottom: bottom, body: body}
}

// draw wraps the detail in its rows, each centred in the box, what
// follows it (after) at the end of the last.
func (k detailsKey) draw() []string {
	p := k.paints
	details := wrapRows(ui.OneLine(k.detail), k.inner, k.rows)
	out := make([]string, len(details))
	for i, l := range details {
		l = p.text[k.role].on(l)
		if i == len(details)-1 {
			l += k.after
		}
		out[i] = center(ui.Truncate(l, k.inner, "…"), k.inner)
	}
	return out
}

// wrapRows wraps plain text to width w in at most n rows, the last cut
// with "…" when the text is longer.
func wrapRows(s string, w, n int) []string {
	if n <= 1 || ui.Width(s) <= w {
		return []string{ui.Truncate(s, w, "…")}
	}
	lines := strings.Split(ansi.Wrap(s, w, ""), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	if len(lines) > n {
		lines[n-1] = ansi.Truncate(strings.Join(lines[n-1:], " "), w, "…")
		lines = lines[:n]
	}
	return lines
}

// writeRecent lists the latest scans, newest first, in h rows of f.
func (d *Desk) writeRecent(f *frame, h int) {
	p := d.paints()
	w := d.Width()
	f.line(d.draw.recentHead.get(headKey{paints: p, w: w}, func() string {
		return ui.Fit(p.header.on("Recent scans")+p.muted.on(" (newest first)"), w, 1)
	}))
	if d.recent.len() == 0 {
		f.line(ui.Fit(p.muted.on("  none yet"), w, 1))
	}
	c := d.conn()
	for i := range min(d.recent.len(), max(0, h-1)) {
		e := d.recent.at(i)
		v := describe(e, &c, d.deps.Local)
		k := recentKey{paints: p, word: v.word, role: v.role, email: e.email, w: w, when: e.when(d.deps.Local)}
		switch {
		case e.refused() && e.headline != "":
			k.note = e.headline
		case e.kind == kindRejected || e.kind == kindAlready || e.kind == kindNotRecorded || e.refused():
			k.note, k.noted = e.msg, true
		}
		if e.drawn == nil || e.drawn.key != k {
			e.drawn = &recentDrawn{key: k, line: recentLine(p, k)}
		}
		f.line(e.drawn.line)
	}
}

// recentLine draws one line of the recent scans.
func recentLine(p *paints, k recentKey) string {
	emailW := max(16, min(32, k.w-8-2-19-2-24))
	em := sanitize.Line(k.email)
	if ui.Width(em) > emailW {
		em = ansi.Truncate(em, emailW, "…")
	}
	// One buffer, as wide as the line will be: a line is drawn for every
	// scan.
	var b strings.Builder
	b.Grow(k.w + p.text[k.role].len() + p.muted.len() + 16)
	b.WriteString(k.when)
	b.WriteString("  ")
	p.text[k.role].writePadded(&b, k.word, 19)
	b.WriteString("  ")
	b.WriteString(em)
	ui.WriteSpaces(&b, emailW-utf8.RuneCountInString(em)) // padRight, in place
	if k.note != "" || k.noted {
		b.WriteString("  ")
		p.muted.write(&b, ui.OneLine(k.note))
	}
	return fitLine(&b, k.w) // padded too: the frame measures no line
}

func (d *Desk) searchHead() string {
	t := d.Ctx.Theme
	head := t.Header.Render("Find a registrant") + t.Muted.Render(" on the roster: type part of the email or name above · ↑/↓ choose · enter checks in · esc closes")
	return ui.Fit(ansi.Truncate(head, d.Width(), "…"), d.Width(), 1)
}

// padRight pads s with spaces to n runes, as fmt's %-*s does.
func padRight(s string, n int) string {
	if pad := n - utf8.RuneCountInString(s); pad > 0 {
		return s + strings.Repeat(" ", pad)
	}
	return s
}

// spread puts left and right on one line of width w.
func spread(left, right string, w int) string {
	gap := w - ansi.StringWidth(left) - ansi.StringWidth(right)
	if gap < 2 {
		return ui.Fit(left, w, 1)
	}
	return left + strings.Repeat(" ", gap) + right
}

// journalProblem says why the journal did not open, and what to do.
func journalProblem(err error) string {
	if errors.Is(err, scanqueue.ErrLocked) {
		return "another evdesk desk or import has this journal open; close it, then open this desk again"
	}
	return ui.OneLine(err.Error())
}
