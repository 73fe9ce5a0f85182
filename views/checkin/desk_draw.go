package checkin

import (
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/ui"
)

// drawCache keeps what the desk's frames draw again and again unchanged
// (the result box, the recent-scan lines, the title), keyed on everything
// each is drawn from, so a frame redraws only what changed; and draws the
// result box's frame by hand, which lipgloss's general border and
// alignment code made the dearest part of a frame.
type drawCache struct {
	box        memo[boxKey, boxDrawn]
	badge      memo[badgeKey, string]
	details    memo[detailsKey, []string]
	edges      boxEdges
	recentHead memo[headKey, string]
	title      memo[titleKey, string]
	empty      memo[emptyInputKey, string]
	conn       memo[connKey, string]
	counters   memo[countersKey, string]
	roster     memo[rosterKey, string]
	paints     *paints
	frame      []byte // the buffer frames are written in (frame)
}

// memo keeps the last thing drawn and what it was drawn from (its key): a
// frame that asks with the same key gets it back without drawing.
type memo[K comparable, V any] struct {
	key K
	val V
	set bool
}

func (m *memo[K, V]) get(k K, draw func() V) V {
	if !m.set || m.key != k {
		m.key, m.val, m.set = k, draw(), true
	}
	return m.val
}

// connKey is everything the connection line is drawn from.
type connKey struct {
	paints                      *paints
	r                           role
	word, detail, roster, retry string
	pending, w                  int
}

// rosterKey is what the roster's words on the connection line are made
// from: a Roster is never changed in place (a new one replaces it).
type rosterKey struct {
	roster *roster.Roster
	local  *time.Location
}

// countersKey is everything the counters line is drawn from; reg is the
// registrants' count, -1 while unknown, -2 when it could not be had.
type countersKey struct {
	paints                                         *paints
	today, all, reg, pending, rejected, already, w int
}

// emptyInputKey is everything the empty scan input is drawn from (its
// cursor does not blink: Theme.TextInputStyles), which is the input after
// every Enter. The input always has the focus and its width follows w
// (SetSize): neither is read from it, as each of textinput's getters
// copies its model, 8 KB.
type emptyInputKey struct {
	theme               *ui.Theme
	prompt, placeholder string
	w                   int
}

// boxKey is everything a result box is drawn from.
type boxKey struct {
	v                        verdict
	email, scan, door, after string
	w, h                     int
	noColor                  bool
}

// boxEdges are a box's border rows and sides for one role and width, and
// a row of padding between the sides.
type boxEdges struct {
	role                            role
	w                               int
	top, bottom, left, right, blank string
}

// boxDrawn is a drawn result box: its body lines (each w-4 wide) to frame
// in its edges with top and bottom rows of padding, as lipgloss's Border,
// Padding(top, 1, bottom, 1) and Width(w) do; or below 8 columns, the
// whole box as lipgloss draws it (narrow).
type boxDrawn struct {
	narrow      string
	edges       boxEdges
	top, bottom int
	body        []string
}

// write adds the box's rows to f, straight into the frame: a box drawn as
// a string of its own was copied again and split.
func (b *boxDrawn) write(f *frame) {
	e := &b.edges
	f.line(e.top)
	for range b.top {
		f.line(e.blank)
	}
	for _, l := range b.body {
		f.lineOf(e.left, " ", l, " ", e.right)
	}
	for range b.bottom {
		f.line(e.blank)
	}
	f.line(e.bottom)
}

// headKey is what the recent scans' heading is drawn from.
type headKey struct {
	paints *paints
	w      int
}

// badgeKey is what the result box's word mark line is drawn from.
type badgeKey struct {
	paints     *paints
	role       role
	mark, word string
	inner      int
}

// detailsKey is what the result box's detail lines are drawn from.
type detailsKey struct {
	paints        *paints
	role          role
	detail, after string
	inner, rows   int
}

// recentKey is everything a line of the recent scans is drawn from.
type recentKey struct {
	paints                  *paints
	when, word, email, note string
	noted                   bool // a note, even an empty one
	role                    role
	w                       int
}

// recentDrawn is an entry's line of the recent scans and what it was
// drawn from: the entry keeps it, so a frame redraws only lines that
// changed, and finds the others without hashing.
type recentDrawn struct {
	key  recentKey
	line string
}

// titleKey is everything the title line is drawn from.
type titleKey struct {
	theme                *ui.Theme
	event, session, desk string
	kiosk, locked, bell  bool
	w                    int
}

// center centres s in w columns as lipgloss's Width(w).Align(Center)
// does (the odd column on the right), for a line that fits.
func center(s string, w int) string {
	sw := ui.Width(s)
	if sw > w || strings.ContainsAny(s, "\n\t\r") {
		return lipgloss.NewStyle().Width(w).Align(lipgloss.Center).Render(s)
	}
	left := (w - sw) / 2
	var b strings.Builder
	b.Grow(len(s) + w - sw)
	ui.WriteSpaces(&b, left)
	b.WriteString(s)
	ui.WriteSpaces(&b, w-sw-left)
	return b.String()
}

// edgesFor returns the box's border pieces for role r at width w.
func (c *drawCache) edgesFor(t *ui.Theme, r role, w int) *boxEdges {
	if e := &c.edges; e.top != "" && e.role == r && e.w == w {
		return e
	}
	b := border(r)
	paint := func(s string) string { return s }
	if !t.NoColor {
		st := lipgloss.NewStyle().Foreground(text(t, r).GetForeground())
		paint = func(s string) string { return st.Render(s) }
	}
	left, right := paint(b.Left), paint(b.Right)
	c.edges = boxEdges{role: r, w: w,
		top:    paint(b.TopLeft + strings.Repeat(b.Top, w-2) + b.TopRight),
		bottom: paint(b.BottomLeft + strings.Repeat(b.Bottom, w-2) + b.BottomRight),
		left:   left, right: right, blank: left + strings.Repeat(" ", w-2) + right}
	return &c.edges
}

// paint is a style's escape sequences around one line of text, taken from
// lipgloss once: its Render walks all of a style's properties for every
// text, which made the desk's few words of colour a good part of a frame.
type paint struct {
	pre, post string
	st        lipgloss.Style
}

func paintOf(st lipgloss.Style) paint {
	s := st.Render("x")
	i := strings.IndexByte(s, 'x') // escape sequences hold no 'x'
	return paint{pre: s[:i], post: s[i+1:], st: st}
}

// on styles s as the style's Render does.
func (p paint) on(s string) string {
	if s == "" || strings.ContainsAny(s, "\n\t\r") {
		return p.st.Render(s)
	}
	return p.pre + s + p.post
}

// write writes s styled into b, as on does.
func (p paint) write(b *strings.Builder, s string) {
	if s == "" || strings.ContainsAny(s, "\n\t\r") {
		b.WriteString(p.st.Render(s))
		return
	}
	b.WriteString(p.pre)
	b.WriteString(s)
	b.WriteString(p.post)
}

// writePadded writes s padded with spaces to n runes, styled, as
// write(b, padRight(s, n)) does, without making the padded string.
func (p paint) writePadded(b *strings.Builder, s string, n int) {
	if s == "" || strings.ContainsAny(s, "\n\t\r") {
		p.write(b, padRight(s, n))
		return
	}
	b.WriteString(p.pre)
	b.WriteString(s)
	ui.WriteSpaces(b, n-utf8.RuneCountInString(s))
	b.WriteString(p.post)
}

// len is the bytes the paint adds around a text.
func (p paint) len() int { return len(p.pre) + len(p.post) }

// paints are the desk's styles, as paints, for one theme.
type paints struct {
	theme                             *ui.Theme
	muted, bold, title, header, error paint
	text, badge                       [roleInfo + 1]paint
}

// paints returns the theme's paints, taken at the first frame.
func (d *Desk) paints() *paints {
	t := d.Ctx.Theme
	if p := d.draw.paints; p != nil && p.theme == t {
		return p
	}
	p := &paints{theme: t, muted: paintOf(t.Muted), bold: paintOf(lipgloss.NewStyle().Bold(true)),
		title: paintOf(t.Title), header: paintOf(t.Header), error: paintOf(t.Error)}
	for r := roleOK; r <= roleInfo; r++ {
		p.text[r], p.badge[r] = paintOf(text(t, r)), paintOf(badge(t, r))
	}
	d.draw.paints = p
	return p
}
