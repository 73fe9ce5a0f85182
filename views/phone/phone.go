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
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/phone/snapshot"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
	"github.com/evdesk/evdesk/views"
)

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

// Screen lists the account's phone settings.
type Screen struct {
	ui.ScreenBase
	env views.Env

	loader      ui.Task // the settings
	otherLoader ui.Task // the other account's settings
	reading     ui.Task // a snapshot file to compare with
	baseReading ui.Task // a baseline file
	writing     ui.Task // a snapshot being saved
	err         error
	settings    *api.PhoneSettings
	items       map[string]item // by setting key

	table  table.Model
	filter filter
	counts [nFilters]int // rows each filter shows, with the typed search

	snap     *snapshot.Snapshot
	snapPath string
	changes  []snapshot.Change
	changed  map[string]int // setting key -> number of changes

	audit audit // a baseline, another account
}

// New builds the phone settings screen; it loads the settings on Init.
func New(ctx *ui.Context, env views.Env) ui.Screen { return newScreen(ctx, env) }

func newScreen(ctx *ui.Context, env views.Env) *Screen {
	env = env.WithDefaults()
	t := table.New(ctx.Theme)
	t.Keys = table.KeysFrom(ctx.Keys)
	t.SetOrigin(0, 1) // under the filter line
	t.SetGrouped(true)
	t.SetGroupCounts(true)
	s := &Screen{env: env, table: t}
	s.ScreenBase = ui.NewScreenBase(ctx, ui.ScreenConfig{Actions: s.actions, List: &s.table, Refresh: s.load,
		Nav: t.Keys.Navigation(), Body: s.onList, Waiting: func() bool { return s.settings == nil }})
	s.setColumns(1)
	return s
}

func (s *Screen) Title() string { return "Phone settings" }

// Init loads the settings, and the profile's baseline if it names one.
func (s *Screen) Init() tea.Cmd {
	if s.env.Baseline == "" {
		return s.load()
	}
	return tea.Batch(s.load(), s.loadBaseline(s.env.Baseline, false))
}

// load reads the settings again, and the other account's beside them.
func (s *Screen) load() tea.Cmd {
	s.reading.Stop() // a snapshot read for the old settings no longer applies
	client := s.env.Client
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
	return s, s.ScreenBase.Update(msg)
}

// onList moves over and searches the list, once there is one; the filters'
// figures follow the search.
func (s *Screen) onList(msg tea.Msg) tea.Cmd {
	if s.settings == nil {
		return nil
	}
	query := s.table.FilterText()
	var cmd tea.Cmd
	s.table, cmd = s.table.Update(msg)
	if s.table.FilterText() != query {
		s.recount()
	}
	return cmd
}

// actions are what the list lets the user do.
func (s *Screen) actions() ui.Actions {
	k := s.Ctx.Keys
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
		{Key: s.table.Keys.Filter, Why: loaded, RunKey: func(k tea.KeyPressMsg) tea.Cmd { return s.onList(k) }}, // the search, second
		{Key: k.Raw, Help: "raw JSON", Why: selected, Run: func() tea.Cmd { return s.openDetail(true) }},
		{Key: s.filterKeys(k.Views), Why: loaded, RunKey: s.showFilter},
		{Key: k.Baseline, Why: loaded, Run: s.openBaselineForm},
		{Key: k.Compare, Run: s.openCompareForm, Why: func() string {
			switch {
			case s.env.OpenProfile == nil:
				return "Comparing with another profile is not available here"
			case s.otherLoader.Running():
				return "Wait: the other profile's settings are still loading"
			}
			return loaded()
		}},
		{Key: k.Diff, Help: "compare with snapshot", Why: loaded, Run: func() tea.Cmd { return s.openPathForm("diff") }},
		{Key: k.Save, Help: "save snapshot", Why: loaded, Run: func() tea.Cmd { return s.openPathForm("save") }, Minor: true},
	}
}

// loadOp names loading the settings, for its failure and its success.
const loadOp = "Loading phone settings"

func (s *Screen) onLoaded(m loadedMsg) tea.Cmd {
	if m.err != nil {
		s.err = m.err
		var apiErr *api.Error
		if errors.As(m.err, &apiErr) && apiErr.Status == 403 {
			return nil // the page explains it; no toast on top
		}
		return ui.Fail(loadOp, m.err)
	}
	s.err = nil
	s.settings = m.settings
	if s.snap != nil {
		_ = s.compare() // the snapshot parsed when it was loaded
	}
	cmds := []tea.Cmd{ui.Succeeded(loadOp)} // a failed load's error leaves the status bar
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
	rows := table.NewRows(len(keys))
	for g, name := range groupNames { // themes in order, settings in the answer's order
		for _, k := range keys {
			if it := s.items[k]; it.group == g {
				rows.Add(s.row(it, name))
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
	th := s.Ctx.Theme
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
	return ui.Push(newDetail(s.Ctx, s.settings, it.key, raw, s.notesOf(it.key)))
}

// SetSize lays the screen out again.
func (s *Screen) SetSize(w, h int) {
	wasTwo := s.twoColumns()
	s.ScreenBase.SetSize(w, h)
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
func (s *Screen) sideBySide() bool { return s.Width() >= 100 }

func (s *Screen) listWidth() int {
	switch {
	case s.twoColumns(): // room for both accounts' states
		return min(72, s.Width()*58/100)
	case s.sideBySide():
		return min(58, max(52, s.Width()*48/100))
	}
	return s.Width()
}

// bodyHeight is the room below the filter line.
func (s *Screen) bodyHeight() int { return max(1, s.Height()-1) }

// listHeight is the table's height, its header and footer included.
func (s *Screen) listHeight() int {
	if s.sideBySide() {
		return s.bodyHeight()
	}
	return max(5, s.bodyHeight()*3/5)
}

func (s *Screen) View() string {
	if s.Width() <= 0 || s.Height() <= 0 {
		return ""
	}
	if s.settings == nil {
		return s.statusPage()
	}
	return s.Frame(ui.Fit(s.filterLine(), s.Width(), 1) + "\n" + s.body())
}

func (s *Screen) filterLine() string {
	th := s.Ctx.Theme
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
	case s.loader.Running(), s.otherLoader.Running():
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
		dw := max(10, s.Width()-lw-3)
		sep := strings.TrimSuffix(strings.Repeat(s.Ctx.Theme.Muted.Render(" │ ")+"\n", s.bodyHeight()), "\n")
		detail := ui.Fit(s.detailPane(dw), dw, s.bodyHeight())
		return lipgloss.JoinHorizontal(lipgloss.Top, ui.Fit(list, lw, s.bodyHeight()), sep, detail)
	}
	dh := s.bodyHeight() - s.listHeight() - 1
	rule := s.Ctx.Theme.Muted.Render(strings.Repeat("─", s.Width()))
	return list + "\n" + rule + "\n" + ui.Fit(s.detailPane(s.Width()), s.Width(), max(1, dh))
}

// detailPane explains the selected setting in words.
func (s *Screen) detailPane(width int) string {
	it, ok := s.selected()
	if !ok {
		return s.Ctx.Theme.Muted.Render("Select a setting to see what it does.")
	}
	lines := explain(s.Ctx.Theme, s.settings, it.key, s.notesOf(it.key), width)
	lines = append(lines, "", s.Ctx.Theme.Muted.Render("enter all details · J raw JSON"))
	return strings.Join(lines, "\n")
}
