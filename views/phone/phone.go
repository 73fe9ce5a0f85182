// Package phone is the phone policy screen: the account's phone settings
// grouped by theme, each with its on/off state and lock, a detail pane that
// explains the setting and its extra fields in words, filters and search,
// the raw JSON of any setting, and a comparison with a saved snapshot.
package phone

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/phonepolicy"
	"github.com/evdesk/evdesk/snapshot"
	"github.com/evdesk/evdesk/ui"
)

// filter is one of the numbered views of the list.
type filter int

const (
	filterAll filter = iota
	filterOn
	filterOff
	filterLocked
	filterChanged // only once a snapshot is loaded
)

var filterNames = []string{"All", "On", "Off", "Locked", "Changed"}

// item is one setting as the list shows it.
type item struct {
	key    string
	title  string
	group  int
	common api.PhoneSettingCommon
	known  bool   // common fields could be read
	hay    string // lower-case title, key and theme, for search
}

func (it item) on() bool     { return it.known && it.common.On() }
func (it item) locked() bool { return it.known && it.common.IsLocked() }

// Messages.
type (
	loadedMsg struct {
		settings *api.PhoneSettings
		err      error
	}
	snapshotMsg struct {
		path string
		snap *snapshot.Snapshot
		err  error
	}
	savedMsg struct {
		path string
		n    int
		err  error
	}
)

type keyMap struct {
	Up, Down, PageUp, PageDown, Home, End  key.Binding
	Open, Raw, Refresh, Search, Diff, Save key.Binding
	Filters                                [5]key.Binding
}

func newKeys() keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	k := keyMap{
		Up:       b("up/k", "up", "up", "k"),
		Down:     b("down/j", "down", "down", "j"),
		PageUp:   b("pgup", "page up", "pgup", "ctrl+b"),
		PageDown: b("pgdn", "page down", "pgdown", "ctrl+f"),
		Home:     b("g/home", "first", "home", "g"),
		End:      b("G/end", "last", "end", "G"),
		Open:     b("enter", "details", "enter"),
		Raw:      b("J", "raw JSON", "J"),
		Refresh:  b("r", "refresh", "r"),
		Search:   b("/", "search", "/"),
		Diff:     b("D", "compare with snapshot", "D"),
		Save:     b("w", "save snapshot", "w"),
	}
	for i, name := range filterNames {
		n := fmt.Sprint(i + 1)
		k.Filters[i] = b(n, strings.ToLower(name), n)
	}
	k.Filters[filterChanged].SetEnabled(false)
	return k
}

// Screen lists the account's phone settings.
type Screen struct {
	ctx    *ui.Context
	client *api.Client
	now    func() time.Time
	keys   keyMap

	loader   ui.Task // the settings
	reading  ui.Task // a snapshot file to compare with
	writing  ui.Task // a snapshot being saved
	loading  bool
	err      error
	settings *api.PhoneSettings
	items    []item // by theme, then in the spec's order
	view     []int  // items passing the filter and the search

	filter    filter
	search    textinput.Model
	searching bool
	query     string // applied search, lower case

	cursor int // position in view
	offset int // first list line shown

	snap     *snapshot.Snapshot
	snapPath string
	changes  []snapshot.Change
	changed  map[string]int // setting key -> number of changes

	dialog ui.Dialog

	width, height int
}

// New builds the phone settings screen; it loads the settings on Init.
func New(ctx *ui.Context, client *api.Client) ui.Screen {
	return newScreen(ctx, client, time.Now)
}

func newScreen(ctx *ui.Context, client *api.Client, now func() time.Time) *Screen {
	in := textinput.New()
	in.Prompt = "/ "
	in.Placeholder = "search settings"
	in.SetStyles(ctx.Theme.TextInputStyles())
	return &Screen{ctx: ctx, client: client, now: now, keys: newKeys(), search: in}
}

func (s *Screen) Title() string { return "Phone settings" }

func (s *Screen) Init() tea.Cmd { return s.load() }

func (s *Screen) load() tea.Cmd {
	s.loading = true
	s.reading.Stop() // a snapshot read for the old settings no longer applies
	client := s.client
	return s.loader.Run(func(ctx context.Context) tea.Msg {
		st, err := client.Phone.AccountSettings(ctx, api.PhoneSettingsOptions{})
		return loadedMsg{settings: st, err: err}
	})
}

// Close cancels the load in flight.
func (s *Screen) Close() { s.loader.Stop() }

func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case loadedMsg:
		return s, s.onLoaded(msg)
	case snapshotMsg:
		return s, s.onSnapshot(msg)
	case savedMsg:
		if msg.err != nil {
			return s, ui.Toast(ui.ToastError, "Saving the snapshot failed: "+msg.err.Error())
		}
		return s, ui.Toast(ui.ToastSuccess, fmt.Sprintf("Saved %d settings to %s", msg.n, msg.path))
	case tea.BackgroundColorMsg: // the App rebuilt the theme in place
		s.search.SetStyles(s.ctx.Theme.TextInputStyles())
	}
	if cmd, handled := s.dialog.Update(msg); handled {
		return s, cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if s.searching { // paste into the search
			return s, s.updateSearch(msg)
		}
		return s, nil
	}
	if s.searching {
		return s, s.onSearchKey(k)
	}
	return s, s.onKey(k)
}

func (s *Screen) onLoaded(m loadedMsg) tea.Cmd {
	s.loading = false
	if m.err != nil {
		s.err = m.err
		var apiErr *api.Error
		if errors.As(m.err, &apiErr) && apiErr.Status == 403 {
			return nil // the page explains it; no toast on top
		}
		return ui.Toast(ui.ToastError, "Loading phone settings failed: "+m.err.Error())
	}
	s.err = nil
	s.settings = m.settings
	keep := s.selectedKey()
	s.items = s.items[:0]
	for g := range groupNames {
		for _, k := range m.settings.Keys() {
			if phonepolicy.GroupIndex(k) != g {
				continue
			}
			c, ok := m.settings.Common(k)
			title := phonepolicy.Title(k)
			s.items = append(s.items, item{key: k, title: title, group: g, common: c, known: ok,
				hay: strings.ToLower(title + "\x00" + k + "\x00" + groupNames[g])})
		}
	}
	if s.snap != nil {
		_ = s.compare() // the snapshot parsed when it was loaded
	}
	s.refilter(keep)
	return nil
}

// selectedKey is the key under the cursor, or "".
func (s *Screen) selectedKey() string {
	if it, ok := s.selected(); ok {
		return it.key
	}
	return ""
}

func (s *Screen) selected() (item, bool) {
	if s.cursor < 0 || s.cursor >= len(s.view) {
		return item{}, false
	}
	return s.items[s.view[s.cursor]], true
}

func (s *Screen) matches(it item) bool {
	switch s.filter {
	case filterOn:
		if !it.on() {
			return false
		}
	case filterOff:
		if it.on() {
			return false
		}
	case filterLocked:
		if !it.locked() {
			return false
		}
	case filterChanged:
		if s.changed[it.key] == 0 {
			return false
		}
	}
	return s.query == "" || strings.Contains(it.hay, s.query)
}

// refilter rebuilds the visible list, keeping the cursor on key if it is
// still visible.
func (s *Screen) refilter(key string) {
	s.view = s.view[:0]
	s.cursor = 0
	for i, it := range s.items {
		if s.matches(it) {
			if it.key == key {
				s.cursor = len(s.view)
			}
			s.view = append(s.view, i)
		}
	}
	s.clamp()
}

func (s *Screen) count(f filter) int {
	saved := s.filter
	s.filter = f
	n := 0
	for _, it := range s.items {
		if s.matches(it) {
			n++
		}
	}
	s.filter = saved
	return n
}

func (s *Screen) onKey(k tea.KeyPressMsg) tea.Cmd {
	km := s.keys
	switch {
	case key.Matches(k, km.Refresh):
		return s.load()
	case key.Matches(k, km.Search):
		if s.settings == nil {
			return nil
		}
		s.searching = true
		s.search.CursorEnd()
		s.clamp()
		return s.search.Focus()
	case key.Matches(k, km.Diff):
		if s.settings == nil {
			return ui.Toast(ui.ToastInfo, "Compare: the settings have not loaded yet")
		}
		return s.openPathForm("diff")
	case key.Matches(k, km.Save):
		if s.settings == nil {
			return ui.Toast(ui.ToastInfo, "Save: the settings have not loaded yet")
		}
		return s.openPathForm("save")
	case k.String() == "esc":
		if s.query != "" {
			s.setQuery("")
		}
		return nil
	}
	if it, ok := s.selected(); ok {
		switch {
		case key.Matches(k, km.Open):
			return ui.Push(newDetail(s.ctx, s.settings, it.key, false, s.changesOf(it.key)))
		case key.Matches(k, km.Raw):
			return ui.Push(newDetail(s.ctx, s.settings, it.key, true, s.changesOf(it.key)))
		}
	}
	for i, b := range km.Filters {
		if key.Matches(k, b) {
			keep := s.selectedKey()
			s.filter = filter(i)
			s.refilter(keep)
			return nil
		}
	}
	switch {
	case key.Matches(k, km.Up):
		s.move(-1)
	case key.Matches(k, km.Down):
		s.move(1)
	case key.Matches(k, km.PageUp):
		s.move(-s.rowsHeight())
	case key.Matches(k, km.PageDown):
		s.move(s.rowsHeight())
	case key.Matches(k, km.Home):
		s.move(-len(s.view))
	case key.Matches(k, km.End):
		s.move(len(s.view))
	}
	return nil
}

func (s *Screen) onSearchKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "enter":
		s.searching = false
		s.search.Blur()
		s.clamp()
		return nil
	case "esc":
		s.searching = false
		s.search.Blur()
		s.setQuery("")
		return nil
	case "up":
		s.move(-1)
		return nil
	case "down":
		s.move(1)
		return nil
	}
	return s.updateSearch(k)
}

func (s *Screen) updateSearch(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.search, cmd = s.search.Update(msg)
	if q := strings.ToLower(strings.TrimSpace(s.search.Value())); q != s.query {
		s.query = q
		s.refilter(s.selectedKey())
	}
	return cmd
}

func (s *Screen) setQuery(q string) {
	s.search.SetValue(q)
	s.query = strings.ToLower(q)
	s.refilter(s.selectedKey())
}

func (s *Screen) move(d int) {
	s.cursor = max(0, min(s.cursor+d, len(s.view)-1))
	s.clamp()
}

// changesOf lists the changes since the snapshot of one setting.
func (s *Screen) changesOf(key string) []snapshot.Change {
	var out []snapshot.Change
	for _, c := range s.changes {
		if c.Setting() == key {
			out = append(out, c)
		}
	}
	return out
}

// CapturingInput is true while the search or a form has the keyboard.
func (s *Screen) CapturingInput() bool { return s.searching || s.dialog.Open() }

// CapturingBack is true while esc clears a search or closes a form.
func (s *Screen) CapturingBack() bool { return s.CapturingInput() || s.query != "" }

func (s *Screen) ShortHelp() []key.Binding {
	switch {
	case s.dialog.Open():
		return nil
	case s.searching:
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep search")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear")),
		}
	}
	if s.settings == nil {
		return []key.Binding{s.keys.Refresh}
	}
	return []key.Binding{s.keys.Open, s.keys.Raw, s.keys.Search, s.keys.Filters[1], s.keys.Diff, s.keys.Refresh}
}

func (s *Screen) FullHelp() [][]key.Binding {
	km := s.keys
	if s.settings == nil {
		return [][]key.Binding{{km.Refresh}}
	}
	return [][]key.Binding{
		{km.Up, km.Down, km.PageUp, km.PageDown, km.Home, km.End},
		{km.Open, km.Raw, km.Search, km.Refresh},
		km.Filters[:],
		{km.Diff, km.Save},
	}
}

// SetSize lays the screen out again.
func (s *Screen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.search.SetWidth(max(1, s.listWidth()-4))
	s.dialog.SetSize(w, h)
	s.clamp()
}

// sideBySide: the detail pane sits right of the list on wide terminals and
// below it on narrow ones.
func (s *Screen) sideBySide() bool { return s.width >= 100 }

func (s *Screen) listWidth() int {
	if s.sideBySide() {
		return min(58, max(52, s.width*48/100))
	}
	return s.width
}

// bodyHeight is the room below the filter line.
func (s *Screen) bodyHeight() int { return max(1, s.height-2) }

func (s *Screen) listHeight() int {
	if s.sideBySide() {
		return s.bodyHeight()
	}
	return max(4, s.bodyHeight()*3/5)
}

// rowsHeight is the room for list lines: the list less its footer and, while
// searching, the input line.
func (s *Screen) rowsHeight() int {
	h := s.listHeight() - 1
	if s.searching {
		h--
	}
	return max(1, h)
}

// line is one line of the list: a theme header or a setting.
type line struct {
	header bool
	group  int
	pos    int // position in view, for settings
}

func (s *Screen) lines() []line {
	out := make([]line, 0, len(s.view)+len(groupNames))
	last := -1
	for p, i := range s.view {
		if g := s.items[i].group; g != last {
			out = append(out, line{header: true, group: g})
			last = g
		}
		out = append(out, line{pos: p})
	}
	return out
}

// clamp scrolls just enough to keep the cursor's line (and its theme
// header, when it fits) in view.
func (s *Screen) clamp() {
	ls := s.lines()
	h := s.rowsHeight()
	at := 0
	for i, l := range ls {
		if !l.header && l.pos == s.cursor {
			at = i
			break
		}
	}
	top := at
	if at > 0 && ls[at-1].header {
		top = at - 1
	}
	if top < s.offset {
		s.offset = top
	}
	if at >= s.offset+h {
		s.offset = at - h + 1
	}
	s.offset = max(0, min(s.offset, len(ls)-h))
}

func (s *Screen) View() string {
	if s.width <= 0 || s.height <= 0 {
		return ""
	}
	if s.settings == nil {
		return s.statusPage()
	}
	return s.dialog.View(ui.Fit(s.filterLine(), s.width, 1)+"\n\n"+s.body(), s.width, s.height)
}

func (s *Screen) filterLine() string {
	th := s.ctx.Theme
	var tabs []string
	for i, name := range filterNames {
		f := filter(i)
		if f == filterChanged && s.snap == nil {
			continue
		}
		label := fmt.Sprintf("%d %s %d", i+1, name, s.count(f))
		if f == s.filter {
			tabs = append(tabs, th.TabActive.Render(label))
		} else {
			tabs = append(tabs, th.TabInactive.Render(label))
		}
	}
	head := strings.Join(tabs, " ")
	switch {
	case s.loading:
		head += th.Muted.Render("  refreshing...")
	case s.err != nil:
		head += th.Error.Render("  ERROR: refresh failed, r to retry")
	case s.snap != nil:
		head += th.Muted.Render(fmt.Sprintf("  * %s since %s", ui.Count(len(s.changes), "change"), snapLabel(s.snapPath, s.snap)))
	}
	return head
}

// snapLabel names a snapshot by its file name and time.
func snapLabel(path string, sn *snapshot.Snapshot) string {
	label := filepath.Base(path)
	if !sn.SavedAt.IsZero() {
		label += " (" + sn.SavedAt.UTC().Format("2006-01-02 15:04") + " UTC)"
	}
	return label
}

func (s *Screen) body() string {
	list := s.listView()
	if s.sideBySide() {
		lw := s.listWidth()
		dw := max(10, s.width-lw-3)
		sep := strings.TrimSuffix(strings.Repeat(s.ctx.Theme.Muted.Render(" │ ")+"\n", s.bodyHeight()), "\n")
		detail := ui.Fit(s.detailPane(dw), dw, s.bodyHeight())
		return lipgloss.JoinHorizontal(lipgloss.Top, ui.Fit(list, lw, s.bodyHeight()), sep, detail)
	}
	dh := s.bodyHeight() - s.listHeight() - 1
	rule := s.ctx.Theme.Muted.Render(strings.Repeat("─", s.width))
	return list + "\n" + rule + "\n" + ui.Fit(s.detailPane(s.width), s.width, max(1, dh))
}

func (s *Screen) listView() string {
	th := s.ctx.Theme
	lw := s.listWidth()
	ls := s.lines()
	h := s.rowsHeight()
	off := max(0, min(s.offset, len(ls)-h))
	var b strings.Builder
	n := 0
	if len(ls) == 0 {
		msg := "No settings match."
		if s.query != "" {
			msg = fmt.Sprintf("No settings match %q.", s.search.Value())
		}
		b.WriteString(th.Muted.Render("  " + msg))
		n++
	}
	for i := off; i < len(ls) && n < h; i++ {
		if n > 0 {
			b.WriteByte('\n')
		}
		l := ls[i]
		if l.header {
			count := 0
			for _, vi := range s.view {
				if s.items[vi].group == l.group {
					count++
				}
			}
			b.WriteString(th.Header.Render(ansi.Truncate(fmt.Sprintf("%s (%d)", groupNames[l.group], count), lw, "…")))
		} else {
			b.WriteString(s.row(s.items[s.view[l.pos]], l.pos == s.cursor, lw))
		}
		n++
	}
	for ; n < h; n++ {
		b.WriteByte('\n')
	}
	if s.searching {
		b.WriteString("\n" + s.search.View())
	}
	b.WriteString("\n" + th.Muted.Render(ansi.Truncate(s.footer(), lw, "…")))
	return b.String()
}

const (
	stateWidth = 3
	lockWidth  = 15
)

// row renders a setting: cursor, change mark, title, ON/OFF and lock.
func (s *Screen) row(it item, selected bool, width int) string {
	th := s.ctx.Theme
	titleW := max(8, width-(2+1+1+1+stateWidth+2+lockWidth))
	mark := " "
	if s.changed[it.key] > 0 {
		mark = "*"
	}
	state := "OFF"
	if it.on() {
		state = "ON"
	}
	if !it.known {
		state = "?"
	}
	lock := lockBadge(it.common)
	title := fitCell(it.title, titleW)
	if selected {
		text := "> " + mark + " " + title + " " + fitCell(state, stateWidth) + "  " + fitCell(lock, lockWidth)
		return th.Selected.Render(fitCell(text, width))
	}
	stateStyle := th.Muted
	if it.on() {
		stateStyle = th.Success
	}
	text := "  " + th.Warning.Render(mark) + " " + title + " " + stateStyle.Render(fitCell(state, stateWidth)) + "  " +
		th.Warning.Render(fitCell(lock, lockWidth))
	return text
}

func (s *Screen) footer() string {
	left := "no settings"
	if len(s.view) > 0 {
		left = fmt.Sprintf("setting %d of %d", s.cursor+1, len(s.view))
	}
	if s.query != "" {
		left += fmt.Sprintf("  search: %s (%d)", s.search.Value(), len(s.view))
	}
	return left
}

// detailPane explains the selected setting in words.
func (s *Screen) detailPane(width int) string {
	it, ok := s.selected()
	if !ok {
		return s.ctx.Theme.Muted.Render("Select a setting to see what it does.")
	}
	lines := explain(s.ctx.Theme, s.settings, it.key, s.changesOf(it.key), width)
	lines = append(lines, "", s.ctx.Theme.Muted.Render("enter all details · J raw JSON"))
	return strings.Join(lines, "\n")
}

// explain renders a setting's header, purpose, fields in words and lock,
// wrapped to width.
func explain(th *ui.Theme, st *api.PhoneSettings, key string, changes []snapshot.Change, width int) []string {
	c, known := st.Common(key)
	var out []string
	out = append(out, wrap(th.Title, phonepolicy.Title(key), width)...)
	out = append(out, th.Muted.Render(ansi.Truncate(key+" · "+phonepolicy.Group(key), width, "…")))
	state := th.Muted.Render("OFF")
	switch {
	case !known:
		state = th.Warning.Render("STATE UNKNOWN")
	case c.On():
		state = th.Success.Render("ON")
	}
	if b := lockBadge(c); b != "" {
		state += "  " + th.WarningBadge.Render(" "+strings.ToUpper(b)+" ")
	}
	out = append(out, state, "")
	out = append(out, wrap(lipgloss.NewStyle(), phonepolicy.About(key), width)...)
	if words := phonepolicy.Describe(st, key); len(words) > 0 {
		out = append(out, "")
		for _, w := range words {
			out = append(out, wrap(lipgloss.NewStyle(), w, width)...)
		}
	}
	if known {
		out = append(out, "")
		out = append(out, wrap(th.Muted, lockText(c), width)...)
	}
	if len(changes) > 0 {
		out = append(out, "", th.Header.Render("* Changed since the snapshot"))
		for _, ch := range changes {
			out = append(out, wrap(th.Warning, "- "+ch.String(), width)...)
		}
	}
	return out
}

// wrap word-wraps text to width; a "- " item keeps a hanging indent.
func wrap(style lipgloss.Style, text string, width int) []string {
	width = max(10, width)
	prefix, rest := "", text
	if strings.HasPrefix(text, "- ") {
		prefix, rest = "- ", text[2:]
	}
	body := lipgloss.NewStyle().Width(width - len(prefix)).Render(rest)
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		p := strings.Repeat(" ", len(prefix))
		if i == 0 {
			p = prefix
		}
		lines[i] = style.Render(p + strings.TrimRight(l, " "))
	}
	return lines
}

// fitCell pads or truncates to exactly w cells.
func fitCell(s string, w int) string {
	if sw := ansi.StringWidth(s); sw > w {
		s = ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}
