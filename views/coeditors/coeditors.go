// Package coeditors is the co-editors screen of an event: who may edit which
// sections, adding people, changing their permissions and removing them.
package coeditors

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

// owners numbers screens, so a reply reaches only the screen that asked
// (messages are broadcast to every screen of the stack).
var owners atomic.Int64

// startMsg marks a change busy before its calls go out.
type startMsg struct {
	owner int64
	op    string
	list  []api.Coeditor
}

// changedMsg reports a change: the addresses sent and those refused.
type changedMsg struct {
	owner  int64
	op     string
	emails []string
	failed []api.BatchError
	err    error
}

type keyMap struct {
	Add, Edit, Remove, Refresh key.Binding
}

func newKeys() keyMap {
	return keyMap{
		Add:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add co-editors")),
		Edit:    key.NewBinding(key.WithKeys("e", "enter"), key.WithHelp("e/enter", "change permissions")),
		Remove:  key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "remove")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
	}
}

// Screen lists an event's co-editors and changes them.
type Screen struct {
	ctx       *ui.Context
	client    *api.Client
	eventID   string
	eventName string
	owner     int64
	keys      keyMap
	table     table.Model
	list      []api.Coeditor
	stream    ui.Stream[api.Coeditor]
	loading   bool
	loaded    bool
	err       error
	busy      string // the change in flight
	result    []string
	dialog    ui.Dialog
	width     int
	height    int
}

// New builds the co-editors screen of one event.
func New(ctx *ui.Context, client *api.Client, eventID, eventName string) ui.Screen {
	t := table.New(ctx.Theme,
		table.Column{Title: "Email", Width: 22, Flex: 2},
		table.Column{Title: "Sections", Width: 8},
		table.Column{Title: "Can edit", Width: 16, Flex: 3},
	)
	t.SetEmptyText("No co-editors yet. Press a to add some.")
	return &Screen{ctx: ctx, client: client, eventID: eventID, eventName: eventName,
		owner: owners.Add(1), keys: newKeys(), table: t}
}

// Title is the breadcrumb.
func (s *Screen) Title() string { return "Co-editors" }

// Init loads the listing.
func (s *Screen) Init() tea.Cmd { return s.load() }

func (s *Screen) load() tea.Cmd {
	s.loading = true
	s.table.SetLoading(true)
	client, id := s.client, s.eventID
	return s.stream.Start(ui.OnePage(func(ctx context.Context) ([]api.Coeditor, error) {
		return client.Coeditors.List(ctx, id)
	}))
}

// Close cancels the listing in flight. A change in flight finishes and is
// reported: a requested change should not be cut in half.
func (s *Screen) Close() { s.stream.Stop() }

// Update handles replies, dialogs and keys.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Page[api.Coeditor]:
		if !s.stream.Owns(msg) {
			return s, nil
		}
		s.loading = false
		s.table.SetLoading(false)
		if msg.Err != nil {
			s.err = msg.Err
			return s, ui.Toast(ui.ToastError, "Loading co-editors failed: "+msg.Err.Error())
		}
		s.err, s.loaded, s.list = nil, true, msg.Items
		s.table.SetRows(s.rows())
		return s, nil
	case startMsg:
		if msg.owner != s.owner {
			return s, nil
		}
		return s, s.start(msg)
	case changedMsg:
		if msg.owner != s.owner {
			return s, nil
		}
		return s, s.onChanged(msg)
	}
	if cmd, handled := s.dialog.Update(msg); handled {
		return s, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && !s.table.Filtering() {
		if cmd, handled := s.onKey(k); handled {
			return s, cmd
		}
	}
	var cmd tea.Cmd
	s.table, cmd = s.table.Update(msg)
	return s, cmd
}

func (s *Screen) onKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, s.keys.Refresh):
		return s.load(), true
	case key.Matches(k, s.keys.Add), key.Matches(k, s.keys.Edit), key.Matches(k, s.keys.Remove):
	default:
		return nil, false
	}
	if s.busy != "" {
		return ui.Toast(ui.ToastInfo, "Wait: "+s.busy+" is still in progress"), true
	}
	if key.Matches(k, s.keys.Add) {
		return s.openAdd(), true
	}
	c, ok := s.selected()
	if !ok {
		return ui.Toast(ui.ToastInfo, "No co-editor selected: press a to add one"), true
	}
	if key.Matches(k, s.keys.Edit) {
		return s.openEdit(c), true
	}
	q := fmt.Sprintf("Remove %s as co-editor of %q? They keep no edit access to the event.", c.Email, s.eventName)
	s.dialog.Ask(s.ctx.Theme, q, true, s.run(api.CoeditorDelete, []api.Coeditor{{Email: c.Email}}))
	return nil, true
}

func (s *Screen) selected() (api.Coeditor, bool) {
	row, ok := s.table.Selected()
	if !ok {
		return api.Coeditor{}, false
	}
	for _, c := range s.list {
		if c.Email == row.ID {
			return c, true
		}
	}
	return api.Coeditor{}, false
}

// groupOptions are the twelve groups for a multi-select, those in selected
// ticked.
func groupOptions(selected []string) []huh.Option[string] {
	out := make([]huh.Option[string], len(api.PermissionGroups))
	for i, g := range api.PermissionGroups {
		out[i] = huh.NewOption(g.Label+": "+g.Grants, g.Value).Selected(slices.Contains(selected, g.Value))
	}
	return out
}

// splitEmails reads addresses separated by commas, semicolons or spaces.
func splitEmails(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' })
}

func (s *Screen) openAdd() tea.Cmd {
	emails, groups := new(string), new([]string)
	owner := s.owner
	validate := func(list []string, groups []string) error {
		if len(list) == 0 {
			return errors.New("enter at least one email address")
		}
		cs := make([]api.Coeditor, len(list))
		for i, e := range list {
			cs[i] = api.Coeditor{Email: e, PermissionGroups: groups}
		}
		// The same rules as the API client's, without the per-request limit
		// (longer lists are split).
		req := api.CoeditorRequest{Operation: api.CoeditorAdd, Coeditors: cs}
		err := req.Validate()
		var ve *api.ValidationError
		if errors.As(err, &ve) {
			for _, p := range ve.Problems {
				if p.Field != "coeditors" {
					return fmt.Errorf("%s: %s", fieldName(p.Field, list), p.Message)
				}
			}
			return nil
		}
		return err
	}
	f := ui.NewForm(s.ctx.Theme, fmt.Sprintf("Add co-editors to %q", s.eventName),
		func() tea.Msg {
			list := splitEmails(*emails)
			cs := make([]api.Coeditor, len(list))
			for i, e := range list {
				cs[i] = api.Coeditor{Email: e, PermissionGroups: slices.Clone(*groups)}
			}
			return startMsg{owner: owner, op: api.CoeditorAdd, list: cs}
		},
		huh.NewGroup(
			huh.NewInput().Title("Email addresses").
				Description("One or more, separated by commas. Up to 3 go in each request.").
				Value(emails).CharLimit(2000).Validate(func(v string) error {
				return validate(splitEmails(v), nil)
			}),
			huh.NewMultiSelect[string]().Title("Sections they may edit").
				Description("space toggles. Every co-editor can change event details and view all sections.").
				Options(groupOptions(nil)...).Value(groups).Height(8),
		))
	return s.dialog.ShowForm(f)
}

// fieldName turns a validator field ("coeditors[1].email") into words that
// name the address.
func fieldName(field string, list []string) string {
	var i int
	if _, err := fmt.Sscanf(field, "coeditors[%d]", &i); err == nil && i >= 0 && i < len(list) {
		return strings.TrimSpace(list[i])
	}
	return field
}

func (s *Screen) openEdit(c api.Coeditor) tea.Cmd {
	groups := slices.Clone(c.PermissionGroups)
	email, owner := c.Email, s.owner
	f := ui.NewForm(s.ctx.Theme, "Permissions of "+email,
		func() tea.Msg {
			return startMsg{owner: owner, op: api.CoeditorUpdate,
				list: []api.Coeditor{{Email: email, PermissionGroups: slices.Clone(groups)}}}
		},
		huh.NewGroup(
			huh.NewMultiSelect[string]().Title("Sections "+email+" may edit").
				Description("space toggles, enter saves, esc keeps them as they are.").
				Options(groupOptions(c.PermissionGroups)...).Value(&groups).Height(12),
		))
	return s.dialog.ShowForm(f)
}

// run returns the command that starts a change once confirmed.
func (s *Screen) run(op string, list []api.Coeditor) tea.Cmd {
	owner := s.owner
	return func() tea.Msg { return startMsg{owner: owner, op: op, list: list} }
}

var opWords = map[string][2]string{
	api.CoeditorAdd:    {"adding co-editors", "Added"},
	api.CoeditorUpdate: {"changing permissions", "Updated"},
	api.CoeditorDelete: {"removing a co-editor", "Removed"},
}

func (s *Screen) start(m startMsg) tea.Cmd {
	s.busy = opWords[m.op][0]
	owner, client, id := s.owner, s.client, s.eventID
	emails := make([]string, len(m.list))
	for i, c := range m.list {
		emails[i] = api.NormalizeEmail(c.Email)
	}
	return ui.Async(func() tea.Msg {
		failed, err := client.Coeditors.Change(context.Background(), id, m.op, m.list)
		return changedMsg{owner: owner, op: m.op, emails: emails, failed: failed, err: err}
	})
}

// maxResultLines bounds the per-address lines under the header.
const maxResultLines = 3

func (s *Screen) onChanged(m changedMsg) tea.Cmd {
	s.busy = ""
	refused := map[string]bool{}
	for _, f := range m.failed {
		refused[api.NormalizeEmail(f.Email)] = true
	}
	done := 0
	for _, e := range slices.Compact(slices.Sorted(slices.Values(m.emails))) {
		if !refused[e] {
			done++
		}
	}
	total := len(slices.Compact(slices.Sorted(slices.Values(m.emails))))
	word := opWords[m.op][1]
	var summary string
	level := ui.ToastSuccess
	switch {
	case m.err != nil && errors.Is(m.err, api.ErrOutcomeUnknown):
		summary = fmt.Sprintf("ERROR %s may or may not have happened (no answer arrived): press r to check. %v", opWords[m.op][0], m.err)
		level = ui.ToastError
	case m.err != nil:
		summary = "ERROR " + m.err.Error()
		level = ui.ToastError
	case len(m.failed) == 0 && total == 1:
		summary = fmt.Sprintf("OK %s %s", word, m.emails[0])
	case len(m.failed) == 0:
		summary = fmt.Sprintf("OK %s all %d", word, total)
	default:
		summary = fmt.Sprintf("PARTLY %s %d of %d; %d refused", word, done, total, len(m.failed))
		level = ui.ToastError
	}
	s.result = []string{summary}
	for i, f := range m.failed {
		if i == maxResultLines {
			s.result = append(s.result, fmt.Sprintf("  ...and %d more refused", len(m.failed)-i))
			break
		}
		s.result = append(s.result, fmt.Sprintf("  REFUSED %s: %s", f.Email, f.Message))
	}
	toast := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(summary, "OK "), "ERROR "), "PARTLY ")
	if len(m.failed) > 0 {
		toast += ": " + m.failed[0].Email + " " + strings.TrimSuffix(m.failed[0].Message, ".")
		if len(m.failed) > 1 {
			toast += fmt.Sprintf(" (+%d more)", len(m.failed)-1)
		}
	}
	s.layout()
	return tea.Batch(ui.Toast(level, toast), s.load())
}

func (s *Screen) rows() []table.Row {
	rows := make([]table.Row, len(s.list))
	for i, c := range s.list {
		rows[i] = table.Row{ID: c.Email, Cells: []string{
			c.Email,
			fmt.Sprintf("%d of %d", len(c.PermissionGroups), len(api.PermissionGroups)),
			api.PermissionLabels(c.PermissionGroups),
		}}
	}
	return rows
}

// SetSize lays the screen out.
func (s *Screen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.dialog.SetSize(w, h)
	s.layout()
}

// panelLines is the height of the permissions panel: one line per group
// with what it grants when there is room, two columns of labels otherwise,
// nothing on a very small screen.
func (s *Screen) panelLines() int {
	free := s.height - 1 - len(s.result) - s.tableHeight() - 1
	switch {
	case free >= len(api.PermissionGroups)+1:
		return len(api.PermissionGroups) + 1
	case free >= len(api.PermissionGroups)/2+1:
		return len(api.PermissionGroups)/2 + 1
	}
	return 0
}

// tableHeight fits the rows (at least three lines of them) and leaves the
// rest to the panel.
func (s *Screen) tableHeight() int {
	avail := max(s.height-1-len(s.result), 3)
	want := max(len(s.list), 3) + 2
	if avail-want-1 < len(api.PermissionGroups)/2+1 {
		return avail // no room for a panel: the table takes it all
	}
	return min(want, avail)
}

func (s *Screen) layout() { s.table.SetSize(s.width, s.tableHeight()) }

// View renders the header, the last result, the table and the panel.
func (s *Screen) View() string {
	th := s.ctx.Theme
	st := ui.LoadState{Busy: s.busy, Loading: s.loading, Err: s.err}
	if s.loaded {
		st.Summary = ui.Count(len(s.list), "co-editor")
	}
	head := ui.Heading(th, th.Title.Render("Co-editors of "+s.eventName), st)
	lines := []string{ui.Fit(head, s.width, 1)}
	for _, r := range s.result {
		st := th.Success
		if strings.HasPrefix(r, "ERROR") || strings.HasPrefix(r, "PARTLY") || strings.HasPrefix(r, "  REFUSED") {
			st = th.Error
		}
		lines = append(lines, ui.Fit(st.Render(r), s.width, 1))
	}
	lines = append(lines, s.table.View())
	if n := s.panelLines(); n > 0 {
		lines = append(lines, "", s.panel(n))
	}
	return s.dialog.View(strings.Join(lines, "\n"), s.width, s.height)
}

// panel shows every group with a mark for the selected co-editor: [x] may
// edit, [ ] may not, so the answer never rests on colour.
func (s *Screen) panel(lines int) string {
	th := s.ctx.Theme
	c, ok := s.selected()
	if !ok {
		return th.Muted.Render("Select a co-editor to see the sections they may edit.")
	}
	head := th.Header.Render("Sections " + c.Email + " may edit")
	if note := "  (every co-editor can change event details and view all sections)"; lipgloss.Width(head+note) <= s.width {
		head += th.Muted.Render(note)
	}
	mark := func(g api.PermissionGroup) string {
		if slices.Contains(c.PermissionGroups, g.Value) {
			return th.Success.Render("[x] " + g.Label)
		}
		return th.Muted.Render("[ ] " + g.Label)
	}
	out := []string{ui.Fit(head, s.width, 1)}
	if lines > len(api.PermissionGroups) {
		for _, g := range api.PermissionGroups {
			label := lipgloss.NewStyle().Width(24).Render(mark(g))
			out = append(out, ui.Fit("  "+label+th.Muted.Render(g.Grants), s.width, 1))
		}
		return strings.Join(out, "\n")
	}
	half := len(api.PermissionGroups) / 2
	colW := max((s.width-2)/2, 20)
	for i := range half {
		left := lipgloss.NewStyle().Width(colW).Render(mark(api.PermissionGroups[i]))
		out = append(out, ui.Fit("  "+left+mark(api.PermissionGroups[i+half]), s.width, 1))
	}
	return strings.Join(out, "\n")
}

// CapturingInput is true while a dialog or the filter has the keyboard.
func (s *Screen) CapturingInput() bool {
	return s.dialog.Open() || s.table.Filtering()
}

// CapturingBack is true while esc closes a dialog or clears the filter.
func (s *Screen) CapturingBack() bool { return s.CapturingInput() || s.table.FilterText() != "" }

// ShortHelp implements help.KeyMap.
func (s *Screen) ShortHelp() []key.Binding {
	if s.dialog.Open() {
		return s.dialog.ShortHelp()
	}
	return []key.Binding{s.keys.Add, s.keys.Edit, s.keys.Remove, s.keys.Refresh}
}

// FullHelp implements help.KeyMap.
func (s *Screen) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{s.keys.Add, s.keys.Edit, s.keys.Remove, s.keys.Refresh}}, s.table.Keys.FullHelp()...)
}
