// Package phone is the phone policy screen: the account's phone settings
// grouped by theme, each with its on/off state and lock, a detail pane that
// explains the setting and its extra fields in words, quick filters and
// search, the raw JSON of any setting, a comparison with a saved snapshot,
// a check against a baseline, and another account's policy side by side.
package phone

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/phone/policy"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

// filter is one of the numbered views of the list.
type filter int

const (
	filterAll filter = iota
	filterOn
	filterOff
	filterLocked
	filterChanged   // only once a snapshot is loaded
	filterFailing   // only once a baseline is loaded
	filterDifferent // only once another profile is beside this one
	nFilters
)

var filterNames = [nFilters]string{"All", "On", "Off", "Locked", "Changed", "Failing", "Different"}

// item is one setting as the list shows it.
type item struct {
	key    string
	title  string
	group  int
	common api.PhoneSettingCommon
	known  bool // common fields could be read
	absent bool // only the other account has it
}

func (it item) on() bool     { return it.known && it.common.On() }
func (it item) off() bool    { return !it.absent && !it.on() }
func (it item) locked() bool { return it.known && it.common.IsLocked() }

// state is the item's ON/OFF word ("?" when its fields could not be read,
// "-" when this account lacks it).
func (it item) state() string {
	switch {
	case it.absent:
		return "-"
	case !it.known:
		return "?"
	case it.on():
		return "ON"
	}
	return "OFF"
}

// stateAndLock is the state with "locked" after it, for a narrow column.
func (it item) stateAndLock() string {
	if it.locked() {
		return it.state() + " locked"
	}
	return it.state()
}

// itemOf reads setting k of st.
func itemOf(st *api.PhoneSettings, k string) item {
	if st == nil || !st.Has(k) {
		return item{key: k, title: policy.Title(k), group: policy.GroupIndex(k), absent: true}
	}
	c, ok := st.Common(k)
	return item{key: k, title: policy.Title(k), group: policy.GroupIndex(k), common: c, known: ok}
}

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

// Deps is what the screen needs from the program.
type Deps struct {
	Client *api.Client
	// Now stamps saved snapshots (default time.Now).
	Now func() time.Time
	// Baseline is the profile's baseline file (phone_baseline): the
	// settings are checked against it from the start. "" for none.
	Baseline string
	// OpenProfile builds a client for another profile's account, to show
	// its policy beside this one; nil when the program cannot.
	OpenProfile func(name string) (*api.Client, error)
	// OtherProfile is the profile the comparison form offers first.
	OtherProfile string
	// Changelog links deprecated fields to their change log entry; nil
	// when there is no change log.
	Changelog ChangelogLookup
}

// Screen lists the account's phone settings.
type Screen struct {
	ctx  *ui.Context
	deps Deps

	loader      ui.Task // the settings
	reading     ui.Task // a snapshot file to compare with
	writing     ui.Task // a snapshot being saved
	baseReading ui.Task // a baseline file
	otherLoader ui.Task // the other account's settings
	loading     bool
	// otherLoading: the other account's settings are on their way.
	otherLoading bool
	err          error
	settings     *api.PhoneSettings
	items        map[string]item // by setting key

	table  table.Model
	filter filter
	counts [nFilters]int // rows each filter shows, with the typed search

	snap     *snapshot.Snapshot
	snapPath string
	changes  []snapshot.Change
	changed  map[string]int // setting key -> number of changes

	audit audit // a baseline, another account

	dialog ui.Dialog

	width, height int
}

// New builds the phone settings screen; it loads the settings on Init.
func New(ctx *ui.Context, deps Deps) ui.Screen { return newScreen(ctx, deps) }

func newScreen(ctx *ui.Context, deps Deps) *Screen {
	if deps.Now == nil {
		deps.Now = time.Now
	}
	t := table.New(ctx.Theme)
	t.Keys = table.KeysFrom(ctx.Keys)
	t.SetOrigin(0, 1) // under the filter line
	t.SetGrouped(true)
	t.SetGroupCounts(true)
	s := &Screen{ctx: ctx, deps: deps, table: t}
	s.setColumns(1)
	return s
}

func (s *Screen) Title() string { return "Phone settings" }

// Init loads the settings, and the profile's baseline if it names one.
func (s *Screen) Init() tea.Cmd {
	if s.deps.Baseline == "" {
		return s.load()
	}
	return tea.Batch(s.load(), s.loadBaseline(s.deps.Baseline, false))
}

// load reads the settings again, and the other account's beside them.
func (s *Screen) load() tea.Cmd {
	s.loading = true
	s.reading.Stop() // a snapshot read for the old settings no longer applies
	client := s.deps.Client
	cmd := s.loader.Run(func(ctx context.Context) tea.Msg {
		st, err := client.Phone.AccountSettings(ctx, api.PhoneSettingsOptions{})
		return loadedMsg{settings: st, err: err}
	})
	if a := s.audit; a.otherClient != nil {
		return tea.Batch(cmd, s.loadOther(a.otherName, a.otherClient))
	}
	return cmd
}

// Close cancels the loads in flight.
func (s *Screen) Close() {
	s.loader.Stop()
	s.otherLoader.Stop()
	s.baseReading.Stop()
}

func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case loadedMsg:
		return s, s.onLoaded(msg)
	case snapshotMsg:
		return s, s.onSnapshot(msg)
	case baselineMsg:
		return s, s.onBaseline(msg)
	case otherMsg:
		return s, s.onOther(msg)
	case savedMsg:
		if msg.err != nil {
			return s, ui.Fail("Saving the snapshot", msg.err)
		}
		return s, ui.Toast(ui.ToastSuccess, fmt.Sprintf("Saved %d settings to %s", msg.n, msg.path))
	case table.ActivatedMsg: // a double click is Enter on the row
		return s, s.openDetail(false)
	}
	if cmd, handled := s.dialog.Update(msg); handled {
		return s, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && !s.table.Filtering() {
		if cmd, handled := s.actions().Dispatch(k, &s.dialog, s.ctx); handled {
			return s, cmd
		}
	}
	if s.settings == nil { // nothing to move over or search yet
		return s, nil
	}
	query := s.table.FilterText()
	var cmd tea.Cmd
	s.table, cmd = s.table.Update(msg)
	if s.table.FilterText() != query {
		s.recount()
	}
	return s, cmd
}

// actions are what the list lets the user do.
func (s *Screen) actions() ui.Actions {
	k := s.ctx.Keys
	loaded := func() string {
		if s.settings == nil {
			return "The phone settings have not loaded yet"
		}
		return ""
	}
	selected := func() string {
		if why := loaded(); why != "" {
			return why
		}
		if _, ok := s.selected(); !ok {
			return "No setting selected"
		}
		return ""
	}
	return ui.Actions{
		{Key: k.Open, Help: "details", Why: selected, Run: func() tea.Cmd { return s.openDetail(false) }},
		{Key: k.Raw, Help: "raw JSON", Why: selected, Run: func() tea.Cmd { return s.openDetail(true) }},
		{Key: ui.Numbers(k.Views, int(nFilters), "quick filters"), Why: loaded, RunKey: s.showFilter},
		{Key: k.Baseline, Why: loaded, Run: s.openBaselineForm},
		{Key: k.Compare, Run: s.openCompareForm, Why: func() string {
			switch {
			case s.deps.OpenProfile == nil:
				return "Comparing with another profile is not available here"
			case s.otherLoading:
				return "Wait: the other profile's settings are still loading"
			}
			return loaded()
		}},
		{Key: k.Diff, Help: "compare with snapshot", Why: loaded, Run: func() tea.Cmd { return s.openPathForm("diff") }},
		{Key: k.Save, Help: "save snapshot", Why: loaded, Run: func() tea.Cmd { return s.openPathForm("save") }, Minor: true},
		{Key: k.Refresh, Run: s.load, Minor: true},
	}
}

func (s *Screen) onLoaded(m loadedMsg) tea.Cmd {
	s.loading = false
	if m.err != nil {
		s.err = m.err
		var apiErr *api.Error
		if errors.As(m.err, &apiErr) && apiErr.Status == 403 {
			return nil // the page explains it; no toast on top
		}
		return ui.Fail("Loading phone settings", m.err)
	}
	s.err = nil
	s.settings = m.settings
	if s.snap != nil {
		_ = s.compare() // the snapshot parsed when it was loaded
	}
	var cmds []tea.Cmd
	if s.audit.base != nil {
		if err := s.check(); err != nil {
			cmds = append(cmds, ui.Fail("Checking the baseline", err))
		}
	}
	if name := s.audit.otherName; s.audit.other != nil {
		if err := s.diff(); err != nil {
			cmds = append(cmds, ui.Fail("Comparing with profile "+name, err))
		}
	}
	s.refresh()
	return tea.Batch(cmds...)
}

// keys lists the settings to show: this account's in the answer's order,
// then those only the other account has.
func (s *Screen) keys() []string {
	keys := s.settings.Keys()
	if o := s.audit.other; o != nil {
		for _, k := range o.Keys() {
			if !s.settings.Has(k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// refresh rebuilds the rows from the settings and what is known about them
// (marks), then the filter and its figures.
func (s *Screen) refresh() {
	if s.settings == nil {
		return
	}
	keys := s.keys()
	s.items = make(map[string]item, len(keys))
	markW := 1
	for _, k := range keys {
		s.items[k] = itemOf(s.settings, k)
		markW = max(markW, len(s.mark(k)))
	}
	rows := make([]table.Row, 0, len(keys))
	for g, name := range groupNames { // themes in order, settings in the answer's order
		for _, k := range keys {
			if it := s.items[k]; it.group == g {
				rows = append(rows, s.row(it, name))
			}
		}
	}
	s.setColumns(markW)
	s.layout()
	s.table.SetRows(rows)
	s.table.SetWhere(s.keep(s.filter))
	s.recount()
}

// row is one setting's line: its marks, title, state and lock (or, side by
// side, this account's state and the other's), then (not drawn, but
// searched) its key and theme.
func (s *Screen) row(it item, theme string) table.Row {
	cells := []string{s.mark(it.key), it.title, it.state(), lockBadge(it.common), it.key, theme}
	if s.twoColumns() {
		cells[2], cells[3] = it.stateAndLock(), itemOf(s.audit.other, it.key).stateAndLock()
	}
	return table.Row{ID: it.key, Group: theme, Cells: cells}
}

// mark flags a setting in the list in words: FAIL it breaks the baseline,
// DIFF it differs from the other account, * it changed since the snapshot,
// DEPR it carries fields the provider deprecated.
func (s *Screen) mark(key string) string {
	var marks []string
	if s.audit.failing[key] > 0 {
		marks = append(marks, "FAIL")
	}
	if s.audit.differs[key] > 0 {
		marks = append(marks, "DIFF")
	}
	if s.changed[key] > 0 {
		marks = append(marks, "*")
	}
	if s.settings != nil && len(s.settings.DeprecatedFields(key)) > 0 {
		marks = append(marks, "DEPR")
	}
	return strings.Join(marks, " ")
}

// twoColumns: another account is loaded and the list is wide enough to
// show its state beside this one's.
func (s *Screen) twoColumns() bool { return s.audit.other != nil && s.sideBySide() }

// Widths of the state columns.
const (
	stateWidth = 5  // "State", "OFF"
	lockWidth  = 15 // "locked: account"
	sideWidth  = 10 // "OFF locked", side by side
)

// setColumns fits the columns to the marks in use (markW wide) and to
// whether two accounts are side by side.
func (s *Screen) setColumns(markW int) {
	th := s.ctx.Theme
	warn := func(string) lipgloss.Style { return th.Warning }
	state := func(c string) lipgloss.Style {
		if strings.HasPrefix(c, "ON") {
			return th.Success
		}
		return th.Muted
	}
	cols := []table.Column{
		{Title: "", Width: markW, Style: warn},
		{Title: "Setting", Width: 12, Flex: 1},
		{Title: "State", Width: stateWidth, Style: state},
		{Title: "Lock", Width: lockWidth, Style: warn},
	}
	if s.twoColumns() {
		cols[2] = table.Column{Title: s.thisName(), Width: sideWidth, Style: state}
		cols[3] = table.Column{Title: s.audit.otherName, Width: sideWidth, Style: state}
	}
	s.table.SetColumns(cols...)
}

// keep is filter f as a row predicate (nil: every row).
func (s *Screen) keep(f filter) func(table.Row) bool {
	test := map[filter]func(item) bool{
		filterOn:        item.on,
		filterOff:       item.off,
		filterLocked:    item.locked,
		filterChanged:   func(it item) bool { return s.changed[it.key] > 0 },
		filterFailing:   func(it item) bool { return s.audit.failing[it.key] > 0 },
		filterDifferent: func(it item) bool { return s.audit.differs[it.key] > 0 },
	}[f]
	if test == nil {
		return nil
	}
	return func(r table.Row) bool { return test(s.items[r.ID]) }
}

// recount works out how many settings each filter shows with the search.
func (s *Screen) recount() {
	for f := range nFilters {
		s.counts[f] = s.table.Count(s.keep(f))
	}
}

// available says why filter f cannot be used now ("" when it can).
func (s *Screen) available(f filter) string {
	switch {
	case f == filterChanged && s.snap == nil:
		return "5 shows the settings changed since a snapshot: press D to load one"
	case f == filterFailing && s.audit.base == nil:
		return "6 shows the settings that fail a baseline: press B to load one"
	case f == filterDifferent && s.audit.other == nil:
		return "7 shows the settings that differ from another profile's: press C to choose one"
	}
	return ""
}

// showFilter switches to the filter of number key k.
func (s *Screen) showFilter(k tea.KeyPressMsg) tea.Cmd {
	f := filter(k.Code - '1')
	if f < 0 || f >= nFilters {
		return nil
	}
	if why := s.available(f); why != "" {
		return ui.Toast(ui.ToastInfo, why)
	}
	s.filter = f
	s.table.SetWhere(s.keep(f))
	return nil
}

func (s *Screen) selected() (item, bool) {
	r, ok := s.table.Selected()
	if !ok {
		return item{}, false
	}
	return s.items[r.ID], true
}

// openDetail shows the selected setting in full, in words or raw.
func (s *Screen) openDetail(raw bool) tea.Cmd {
	it, ok := s.selected()
	if !ok {
		return nil
	}
	return ui.Push(newDetail(s.ctx, s.settings, it.key, raw, s.notesOf(it.key)))
}

// CapturingInput is true while the search or a form has the keyboard.
func (s *Screen) CapturingInput() bool { return s.table.Filtering() || s.dialog.Open() }

// CapturingBack is true while esc clears a search or closes a form.
func (s *Screen) CapturingBack() bool { return s.CapturingInput() || s.table.FilterText() != "" }

func (s *Screen) ShortHelp() []key.Binding {
	switch {
	case s.dialog.Open():
		return s.dialog.ShortHelp()
	case s.settings == nil:
		return []key.Binding{s.ctx.Keys.Refresh}
	case s.table.Filtering():
		return nil // the filter line says how it works
	}
	short := s.actions().ShortHelp()
	return append([]key.Binding{short[0], s.table.Keys.Filter}, short[1:]...)
}

func (s *Screen) FullHelp() [][]key.Binding {
	if s.settings == nil {
		return [][]key.Binding{{s.ctx.Keys.Refresh}}
	}
	return [][]key.Binding{s.actions().FullHelp(), s.table.Keys.Navigation()}
}

// SetSize lays the screen out again.
func (s *Screen) SetSize(w, h int) {
	wasTwo := s.twoColumns()
	s.width, s.height = w, h
	s.dialog.SetSize(w, h)
	s.layout()
	if s.twoColumns() != wasTwo {
		s.refresh() // the rows' cells follow the columns
	}
}

// layout sizes the table for the columns it shows: wider when two
// accounts are side by side.
func (s *Screen) layout() { s.table.SetSize(s.listWidth(), s.listHeight()) }

// sideBySide: the detail pane sits right of the list on wide terminals and
// below it on narrow ones.
func (s *Screen) sideBySide() bool { return s.width >= 100 }

func (s *Screen) listWidth() int {
	switch {
	case s.twoColumns(): // room for both accounts' states
		return min(72, s.width*58/100)
	case s.sideBySide():
		return min(58, max(52, s.width*48/100))
	}
	return s.width
}

// bodyHeight is the room below the filter line.
func (s *Screen) bodyHeight() int { return max(1, s.height-1) }

// listHeight is the table's height, its header and footer included.
func (s *Screen) listHeight() int {
	if s.sideBySide() {
		return s.bodyHeight()
	}
	return max(5, s.bodyHeight()*3/5)
}

func (s *Screen) View() string {
	if s.width <= 0 || s.height <= 0 {
		return ""
	}
	if s.settings == nil {
		return s.statusPage()
	}
	return s.dialog.View(ui.Fit(s.filterLine(), s.width, 1)+"\n"+s.body(), s.width, s.height)
}

func (s *Screen) filterLine() string {
	th := s.ctx.Theme
	var tabs []string
	for i, name := range filterNames {
		f := filter(i)
		if s.available(f) != "" {
			continue
		}
		label := fmt.Sprintf("%d %s %d", i+1, name, s.counts[f])
		if f == s.filter {
			tabs = append(tabs, th.TabActive.Render(label))
		} else {
			tabs = append(tabs, th.TabInactive.Render(label))
		}
	}
	head := strings.Join(tabs, " ")
	switch {
	case s.loading, s.otherLoading:
		head += th.Muted.Render("  refreshing...")
	case s.err != nil:
		head += th.Error.Render("  ERROR: refresh failed, r to retry")
	}
	a := s.audit
	if a.base != nil {
		verdict, style := "PASS", th.Success
		if n := a.failed(); n > 0 {
			verdict, style = fmt.Sprintf("FAIL %d of %d", n, len(a.results)), th.Error
		}
		head += "  " + style.Render(verdict) + th.Muted.Render(" "+filepath.Base(a.basePath))
	}
	if a.other != nil {
		head += th.Muted.Render(fmt.Sprintf("  DIFF %d from %s", len(a.differs), a.otherName))
	}
	if s.snap != nil {
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
	list := s.table.View()
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

// detailPane explains the selected setting in words.
func (s *Screen) detailPane(width int) string {
	it, ok := s.selected()
	if !ok {
		return s.ctx.Theme.Muted.Render("Select a setting to see what it does.")
	}
	lines := explain(s.ctx.Theme, s.settings, it.key, s.notesOf(it.key), width)
	lines = append(lines, "", s.ctx.Theme.Muted.Render("enter all details · J raw JSON"))
	return strings.Join(lines, "\n")
}

// explain renders a setting's header, purpose, fields in words and lock,
// and what the notes say of it, wrapped to width.
func explain(th *ui.Theme, st *api.PhoneSettings, key string, n notes, width int) []string {
	c, known := st.Common(key)
	var out []string
	out = append(out, wrap(th.Title, policy.Title(key), width)...)
	out = append(out, th.Muted.Render(ansi.Truncate(key+" · "+policy.Group(key), width, "…")))
	state := th.Muted.Render("OFF")
	switch {
	case !st.Has(key):
		state = th.Warning.Render("NOT ON THIS ACCOUNT")
	case !known:
		state = th.Warning.Render("STATE UNKNOWN")
	case c.On():
		state = th.Success.Render("ON")
	}
	if b := lockBadge(c); b != "" {
		state += "  " + th.WarningBadge.Render(" "+strings.ToUpper(b)+" ")
	}
	out = append(out, state)
	if n.other != "" {
		out = append(out, th.Muted.Render(ansi.Truncate("In "+n.other+": "+n.otherState, width, "…")))
	}
	// What the audits say comes first: it is why the user is looking.
	out = append(out, n.lines(th, key, width)...)
	out = append(out, "")
	out = append(out, wrap(lipgloss.NewStyle(), policy.About(key), width)...)
	if words := policy.Describe(st, key); len(words) > 0 {
		out = append(out, "")
		for _, w := range words {
			out = append(out, wrap(lipgloss.NewStyle(), w, width)...)
		}
	}
	if dep := st.DeprecatedFields(key); len(dep) > 0 {
		out = append(out, "")
		out = append(out, wrap(th.Warning, deprecatedText(key, dep), width)...)
	}
	if known {
		out = append(out, "")
		out = append(out, wrap(th.Muted, lockText(c), width)...)
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

// deprecatedText says which deprecated fields a setting carries and what
// replaces them, in one paragraph: "the same fields of A and B" when every
// field's replacements are its namesakes under the same objects.
func deprecatedText(key string, fields []string) string {
	var parents []string
	same := true
	var each []string
	for _, f := range fields {
		d, _ := api.PhoneDeprecation(key + "." + f)
		var ps []string
		for _, p := range d.Instead {
			rel := fieldOf(p, key)
			parent, leaf := path.Split(strings.ReplaceAll(rel, ".", "/"))
			if leaf != f {
				same = false
			}
			ps = append(ps, strings.ReplaceAll(strings.TrimSuffix(parent, "/"), "/", "."))
		}
		if parents == nil {
			parents = ps
		} else if !slices.Equal(parents, ps) {
			same = false
		}
		each = append(each, f+" ("+replacementOf(key+"."+f, key)+")")
	}
	text := "DEPRECATED fields: "
	if same && len(parents) > 0 {
		text += strings.Join(fields, ", ") + ". The provider will remove them: use the same fields of " + strings.Join(parents, " and ")
	} else {
		text += strings.Join(each, "; ") + ". The provider will remove them"
	}
	return text + "; a baseline on them will then fail as absent."
}
