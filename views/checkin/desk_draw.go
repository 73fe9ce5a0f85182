package checkin

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/ui"
)

// drawCache keeps what the desk's frames draw again and again unchanged
// (the result box, the recent-scan lines, the title), keyed on everything
// each is drawn from, so a frame redraws only what changed; and draws the
// result box's frame by hand, which lipgloss's general border and
// alignment code made the dearest part of a frame.
type drawCache struct {
	box    boxKey
	boxOut string
	edges  boxEdges
	recent map[recentKey]string
	title  titleKey
	titled string
	empty  emptyInputKey
	emptyd string
	conn   connKey
	connd  string
	paints *paints
}

// connKey is everything the connection line is drawn from.
type connKey struct {
	paints                      *paints
	r                           role
	word, detail, roster, retry string
	pending, w                  int
}

// emptyInputKey is everything the empty scan input is drawn from (its
// cursor does not blink: Theme.TextInputStyles), which is the input after
// every Enter.
type emptyInputKey struct {
	theme               *ui.Theme
	prompt, placeholder string
	focused             bool
	inputWidth, w       int
}

// boxKey is everything a result box is drawn from.
type boxKey struct {
	v                        verdict
	email, scan, door, after string
	w, h                     int
	noColor                  bool
}

// boxEdges are a box's border rows and sides for one role and width.
type boxEdges struct {
	role                     role
	w                        int
	top, bottom, left, right string
}

// recentKey is everything a line of the recent scans is drawn from.
type recentKey struct {
	when, word, email, note string
	noted                   bool // a note, even an empty one
	role                    role
	w                       int
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
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-sw-left)
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
	c.edges = boxEdges{role: r, w: w,
		top:    paint(b.TopLeft + strings.Repeat(b.Top, w-2) + b.TopRight),
		bottom: paint(b.BottomLeft + strings.Repeat(b.Bottom, w-2) + b.BottomRight),
		left:   paint(b.Left), right: paint(b.Right)}
	return &c.edges
}

// frameBox frames body lines (each already w-4 columns wide) in a border
// of role r, w columns wide, with top and bottom rows of padding, as
// lipgloss's Border, Padding(top, 1, bottom, 1) and Width(w) do.
func (c *drawCache) frameBox(t *ui.Theme, r role, w, top, bottom int, body []string) string {
	e := c.edgesFor(t, r, w)
	blank := e.left + strings.Repeat(" ", w-2) + e.right
	var b strings.Builder
	b.WriteString(e.top)
	for range top {
		b.WriteString("\n" + blank)
	}
	for _, l := range body {
		b.WriteString("\n" + e.left + " " + l + " " + e.right)
	}
	for range bottom {
		b.WriteString("\n" + blank)
	}
	b.WriteString("\n" + e.bottom)
	return b.String()
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
