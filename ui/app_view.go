package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// View renders the whole console in the alternate screen.
func (a *App) View() tea.View {
	// Screens sanitise what they show; the frame filter is the last line of
	// defence, so no escape sequence but the theme's own colours reaches
	// the terminal whatever a screen forgets.
	v := tea.NewView(sanitize.Frame(a.render()))
	v.AltScreen = true
	v.WindowTitle = "evdesk"
	if !a.ctx.NoMouse {
		v.MouseMode = tea.MouseModeCellMotion
	}
	return v
}

func (a *App) render() string {
	w, h := a.ctx.Width, a.ctx.Height
	if w <= 0 || h <= 0 {
		return "" // no size yet
	}
	if a.tooSmall() {
		return a.tooSmallView()
	}
	cw, ch := a.contentSize()
	content := ""
	top := a.Top()
	if top != nil {
		content = top.View()
	}
	if e, ok := top.(ExactViewer); !ok || !e.ViewIsExact() {
		content = Fit(content, cw, ch)
	}
	content = a.drawOverlays(content, cw, ch)
	return strings.Join([]string{
		a.tabsView(), a.breadcrumbView(), content, a.toastView(), a.statusView(),
	}, "\n")
}

func (a *App) tooSmallView() string {
	w, h := a.ctx.Width, a.ctx.Height
	msg := fmt.Sprintf("terminal too small: need %d x %d, have %d x %d", MinWidth, MinHeight, w, h)
	if q := a.question(); q != nil {
		yes, no := "y", "n"
		if q.c.Guarded() {
			yes, no = q.c.keys.Yes.Help().Key, q.c.keys.No.Help().Key
		}
		msg += "\n\n" + q.c.question + " " + yes + "/" + no
	}
	s := lipgloss.NewStyle().Width(w).Align(lipgloss.Center).Render(msg)
	return Fit(lipgloss.PlaceVertical(h, lipgloss.Center, s), w, h)
}

// tabsView shows the section names, scrolled so the active tab is visible.
// The active tab is bracketed as well as highlighted.
func (a *App) tabsView() string {
	return a.memo.tabs.get(strconv.Itoa(a.ctx.Width)+" "+strconv.Itoa(a.active), a.drawTabs)
}

func (a *App) drawTabs() string {
	t, w := a.ctx.Theme, a.ctx.Width
	labels := make([]string, len(a.sections))
	for i, s := range a.sections {
		if i == a.active {
			labels[i] = "[" + s.Name + "]"
		} else {
			labels[i] = " " + s.Name + " "
		}
	}
	width := func(from, to int) int { // cells for labels[from:to] with gaps
		n := 0
		for _, l := range labels[from:to] {
			n += ansi.StringWidth(l) + 1
		}
		return n
	}
	start := 0
	for start < a.active && width(start, a.active+1)+2 > w {
		start++
	}
	var b strings.Builder
	used := 0
	if start > 0 {
		b.WriteString(t.Muted.Render("<"))
		used++
	}
	for i := start; i < len(labels); i++ {
		lw := ansi.StringWidth(labels[i])
		if used+lw+2 > w && i > a.active {
			b.WriteString(t.Muted.Render(" >"))
			break
		}
		b.WriteByte(' ')
		if i == a.active {
			b.WriteString(t.TabActive.Render(labels[i]))
		} else {
			b.WriteString(t.TabInactive.Render(labels[i]))
		}
		used += lw + 1
	}
	return Fit(b.String(), w, 1)
}

// breadcrumbView shows the stack's titles, dropping the oldest when narrow.
func (a *App) breadcrumbView() string {
	st := a.stack()
	raw := make([]string, len(st))
	for i, s := range st {
		raw[i] = s.screen.Title()
	}
	return a.memo.crumbs.get(strconv.Itoa(a.ctx.Width)+"\x00"+strings.Join(raw, "\x00"), func() string { return a.drawCrumbs(raw) })
}

func (a *App) drawCrumbs(raw []string) string {
	t, w := a.ctx.Theme, a.ctx.Width
	titles := make([]string, len(raw))
	for i, r := range raw {
		titles[i] = sanitize.Line(r)
	}
	const sep = " > "
	from := 0
	for from < len(titles)-1 && ansi.StringWidth(" "+strings.Join(titles[from:], sep)) > w-4 {
		from++
	}
	var b strings.Builder
	b.WriteByte(' ')
	if from > 0 {
		b.WriteString(t.Breadcrumb.Render("…" + sep))
	}
	for i := from; i < len(titles); i++ {
		if i == len(titles)-1 {
			b.WriteString(t.Title.Render(titles[i]))
			break
		}
		b.WriteString(t.Breadcrumb.Render(titles[i] + sep))
	}
	return Fit(b.String(), w, 1)
}

// toastView shows the current toast, or the focused screen's short help.
func (a *App) toastView() string {
	t, w := a.ctx.Theme, a.ctx.Width
	if a.toast.id != 0 {
		badge, mark := t.ToastStyle(a.toast.level)
		text := sanitize.Line(a.toast.text)
		if a.toast.level == ToastError {
			text = t.Error.Render(text)
		}
		return Fit(ansi.Truncate(" "+badge.Render(" "+mark+" ")+" "+text, w, "…"), w, 1)
	}
	var bindings []key.Binding
	if top := a.Top(); top != nil {
		bindings = top.ShortHelp()
	}
	var k strings.Builder
	k.WriteString(strconv.Itoa(w))
	for _, b := range bindings {
		if b.Enabled() {
			k.WriteString("\x00" + b.Help().Key + "\x01" + b.Help().Desc)
		}
	}
	return a.memo.help.get(k.String(), func() string { return Fit(" "+a.help.ShortHelpView(bindings), w, 1) })
}

// lineMemo is a line of the shell drawn once per what it says (its key):
// the shell's lines, drawn with lipgloss on every frame, cost more than
// the desk's whole frame.
type lineMemo struct{ key, line string }

func (m *lineMemo) get(key string, draw func() string) string {
	if m.line == "" || m.key != key {
		m.key, m.line = key, draw()
	}
	return m.line
}

// lineMemos are the shell's lines drawn (App.memo); a new theme drops them.
type lineMemos struct{ tabs, crumbs, status, help lineMemo }

// statusView: profile or DEMO, account, spinner with the in-flight count,
// last error (truncated to the room left) and the help hint on the right.
func (a *App) statusView() string {
	return a.memo.status.get(a.statusKey(), a.drawStatus)
}

// statusKey is everything the status bar is drawn from.
func (a *App) statusKey() string {
	var k strings.Builder
	field := func(s string) { k.WriteString(s); k.WriteByte(0) }
	num := func(n int) { field(strconv.Itoa(n)) }
	flag := func(b bool) { field(strconv.FormatBool(b)) }
	num(a.ctx.Width)
	flag(a.ctx.Demo)
	field(a.ctx.Profile)
	flag(a.ctx.Insecure != "")
	flag(a.ctx.ReadOnly != "")
	field(a.ctx.Account)
	flag(a.locked() != "")
	if sr, ok := a.Top().(StatusReporter); ok {
		field(sr.StatusText())
	}
	num(a.ignored)
	if a.ignored != 0 {
		field(a.scanNoteText())
	}
	c, ok := a.Top().(InputCapturer)
	flag(ok && c.CapturingInput())
	field(a.lastErr)
	num(a.inFlight)
	if a.inFlight > 0 {
		num(a.spinFrame % len(spinFrames))
		field(a.ctx.Retries.Text())
	}
	if a.news != nil {
		field(a.news.Headline)
	}
	return k.String()
}

func (a *App) drawStatus() string {
	t, w := a.ctx.Theme, a.ctx.Width
	bar := t.StatusBar.Render
	var left []string
	switch {
	case a.ctx.Demo:
		left = append(left, t.DemoBadge.Render(" DEMO "))
	case a.ctx.Profile != "":
		left = append(left, t.Profile.Render(" "+sanitize.Line(a.ctx.Profile)+" "))
	}
	if a.ctx.Insecure != "" { // a word as well as a colour
		left = append(left, onBar(t, t.Error).Render(" INSECURE HTTP "))
	}
	if a.ctx.ReadOnly != "" {
		left = append(left, t.WarningBadge.Render(" READ-ONLY "))
	}
	// The account is staff's business: a locked kiosk faces the public.
	if a.ctx.Account != "" && a.ignored == 0 && a.locked() == "" { // the note needs the room
		left = append(left, bar(" "+sanitize.Line(a.ctx.Account)+" "))
	}
	if sr, ok := a.Top().(StatusReporter); ok {
		if text := sanitize.Line(sr.StatusText()); text != "" {
			left = append(left, onBar(t, t.Key).Render(" "+text+" "))
		}
	}
	if a.ignored != 0 { // before anything but who is signed in: cut only if it must be
		reserve := " " + a.ctx.Keys.Help.Help().Key + " help " // what the right side needs
		if a.news != nil {
			reserve += " " + a.ctx.Keys.News.Help().Key + " read "
		}
		if a.lastErr != "" {
			reserve += " E details "
		}
		room := w - ansi.StringWidth(strings.Join(left, "")) - ansi.StringWidth(reserve)
		note := " " + a.scanNoteText() + " "
		if ansi.StringWidth(note) > room {
			note = " " + a.shortScanNote() + " "
		}
		left = append(left, onBar(t, t.Error).Render(ansi.Truncate(note, max(0, room), "…")))
	}
	helpKey := a.ctx.Keys.Help.Help().Key
	if c, ok := a.Top().(InputCapturer); ok && c.CapturingInput() {
		helpKey = a.ctx.Keys.HelpAnywhere.Help().Key // ? would be typed
	}
	right := onBar(t, t.Key).Render(" "+helpKey) + bar(" help ")
	if a.lastErr != "" {
		right = onBar(t, t.Key).Render(" E") + bar(" details ") + right
	}
	if a.inFlight > 0 {
		frame := spinFrames[a.spinFrame%len(spinFrames)]
		if a.ctx.ReduceMotion {
			frame = "*" // still: the count says work is under way
		}
		spin := onBar(t, t.Info).Render(frame)
		busy := fmt.Sprintf(" %d in flight ", a.inFlight)
		if note := a.ctx.Retries.Text(); note != "" { // the tries, counted, cut before the keys are
			room := w - ansi.StringWidth(strings.Join(left, "")+right) - 2
			busy = ansi.Truncate(fmt.Sprintf(" %d in flight, %s", a.inFlight, sanitize.Line(note)), max(room-1, ansi.StringWidth(busy)-1), "…") + " "
		}
		left = append(left, bar(" ")+spin+bar(busy))
	}
	if a.news != nil {
		right = onBar(t, t.Key).Render(" "+a.ctx.Keys.News.Help().Key) + bar(" read ") + right
		used := ansi.StringWidth(strings.Join(left, "") + right)
		if room := w - used - 8; room > 12 {
			left = append(left, onBar(t, t.Warning).Render(" NEWS ")+bar(ansi.Truncate(OneLine(a.news.Headline), room, "…")+" "))
		} else if w-used >= 6 {
			left = append(left, onBar(t, t.Warning).Render(" NEWS "))
		}
	}
	used := ansi.StringWidth(strings.Join(left, "") + right)
	if a.lastErr != "" && w-used > 12 {
		room := w - used - 1
		msg := ansi.Truncate("error: "+OneLine(a.lastErr), room-1, "…")
		left = append(left, bar(" ")+onBar(t, t.Error).Render(msg))
	}
	l := strings.Join(left, "")
	gap := max(0, w-ansi.StringWidth(l)-ansi.StringWidth(right))
	return Fit(l+bar(strings.Repeat(" ", gap))+right, w, 1)
}

// helpLines are the full help: the focused screen's keys, then the
// shell's, in columns that fit the screen.
func (a *App) helpLines() []string {
	var groups [][]key.Binding
	if top := a.Top(); top != nil {
		groups = append(groups, top.FullHelp()...)
	}
	groups = append(groups, a.ShellKeys())
	cw, _ := a.contentSize()
	return keyColumns(a.ctx.Theme, groups, cw-6)
}

// ShellKeys are the shell's keys that act on the focused screen now, for
// its help: over a screen that takes typing (a form, a filter) only F1,
// ctrl+c and the desk key, at the desk F1 and ctrl+c, at a locked one
// (a kiosk) F1 only; elsewhere the section keys when there are sections
// to switch to, esc when there is a screen to go back to, and the news key
// while there is news.
func (a *App) ShellKeys() []key.Binding {
	k := a.ctx.Keys
	if a.locked() != "" { // ctrl+c only says the screen stays: it does not quit
		return []key.Binding{k.HelpAnywhere}
	}
	if c, ok := a.Top().(InputCapturer); ok && c.CapturingInput() {
		if a.takesScans() {
			return []key.Binding{k.HelpAnywhere, k.Interrupt}
		}
		return []key.Binding{k.HelpAnywhere, k.Interrupt, k.ToDesk}
	}
	var out []key.Binding
	if len(a.sections) > 1 {
		out = append(out, k.NextTab, k.PrevTab)
	}
	if b, ok := a.Top().(BackCapturer); len(a.stack()) > 1 && (!ok || !b.CapturingBack()) {
		out = append(out, k.Back)
	}
	out = append(out, k.Palette, k.Errors, k.Help, k.HelpAnywhere, k.Quit, k.Interrupt, k.ToDesk)
	if a.news != nil {
		out = append(out, k.News)
	}
	return out
}

// onBar gives a text style the status bar's background, so the bar has no holes.
func onBar(t *Theme, st lipgloss.Style) lipgloss.Style {
	return st.Background(t.StatusBar.GetBackground())
}

// OneLine is s sanitised, with runs of white space (line breaks too)
// folded: a message of any origin, fit for one line.
func OneLine(s string) string {
	return strings.Join(strings.Fields(sanitize.Text(s)), " ")
}
