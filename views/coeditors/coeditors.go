// Package coeditors is the co-editors screen of an event: who may edit which
// sections, adding people, changing their permissions and removing them.
package coeditors

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/resource"
	"github.com/evdesk/evdesk/ui/table"
)

// changedMsg reports a change: the addresses sent and those refused.
type changedMsg struct {
	op     string
	emails []string
	failed []api.BatchError
	err    error
}

// Screen lists an event's co-editors and changes them.
type Screen struct {
	*resource.Base[api.Coeditor]
	client    *api.Client
	eventID   string
	eventName string
	result    []string
	// adding is the add form's addresses while it is sent: the refused
	// ones stay in it when the form opens again.
	adding *string
}

// New builds the co-editors screen of one event.
func New(ctx *ui.Context, client *api.Client, eventID, eventName string) ui.Screen {
	s := &Screen{client: client, eventID: eventID, eventName: eventName}
	s.Base = resource.New(ctx, resource.Config[api.Coeditor]{
		Actions: s.actions,
		Heading: "Co-editors of " + eventName,
		Noun:    "co-editor",
		Loading: "Loading co-editors",
		Empty:   "No co-editors yet. Press a to add some.",
		Columns: []table.Column{
			{Title: "Email", Width: 22, Flex: 2},
			{Title: "Sections", Width: 8},
			{Title: "Can edit", Width: 16, Flex: 3},
		},
		Load: func(ctx context.Context) ([]api.Coeditor, error) { return client.Coeditors.List(ctx, eventID) },
		Row: func(c api.Coeditor) table.Row {
			return table.Row{ID: c.Email, Cells: []string{
				c.Email,
				fmt.Sprintf("%d of %d", len(c.PermissionGroups), len(api.PermissionGroups)),
				api.PermissionLabels(c.PermissionGroups),
			}}
		},
	})
	return s
}

// Title is the breadcrumb.
func (s *Screen) Title() string { return "Co-editors" }

// actions are what the screen lets the user do.
func (s *Screen) actions() ui.Actions {
	k := s.Ctx.Keys
	selected := s.NeedsSelection("No co-editor selected: press a to add one")
	return ui.Actions{
		{Writes: true, Key: k.Add, Help: "add co-editors", Why: s.whyNotAdd, Run: s.openAdd},
		{Writes: true, Key: k.OrOpen(k.Edit), Help: "change permissions", Why: selected, Run: s.openEdit},
		{Writes: true, Key: k.Delete, Help: "remove", Why: selected, Dangerous: true, Run: s.remove,
			Confirm: func() string {
				c, _ := s.Selected()
				return fmt.Sprintf("Remove %s as co-editor of %q? They keep no edit access to the event.", c.Email, s.eventName)
			}},
	}
}

// whyNotAdd says why no co-editor can be added now: busy, or the event
// has the most co-editors it takes.
func (s *Screen) whyNotAdd() string {
	if why := s.NotBusy(); why != "" {
		return why
	}
	if n := len(s.Items); n >= api.MaxCoeditorsPerEvent {
		return fmt.Sprintf("The event has %d co-editors, the most it takes: remove one (x) to add another", n)
	}
	return ""
}

// Update handles the change's answer, then what every resource screen
// handles.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	var cmd tea.Cmd
	if m, ok := msg.(changedMsg); ok {
		cmd = s.onChanged(m)
	} else {
		cmd = s.Base.Update(msg)
	}
	s.layout() // the table's height follows the rows loaded
	return s, cmd
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
	s.adding = emails
	f := ui.NewKeptForm(s.Ctx.Theme, fmt.Sprintf("Add co-editors to %q", s.eventName),
		func() tea.Cmd {
			list := splitEmails(*emails)
			cs := make([]api.Coeditor, len(list))
			for i, e := range list {
				cs[i] = api.Coeditor{Email: e, PermissionGroups: slices.Clone(*groups)}
			}
			return s.change(api.CoeditorAdd, cs)
		},
		func(fs *ui.Fields) []*huh.Group {
			return []*huh.Group{fs.Group(
				huh.NewInput().Key("emails").Title("Email addresses").
					Description(placesLeft(len(s.Items))).
					Value(emails).CharLimit(2000).Validate(func(v string) error {
					return validate(splitEmails(v), nil)
				}),
				huh.NewMultiSelect[string]().Key("permission_groups").Title("Sections they may edit").
					Description("space toggles. Every co-editor can change event details and view all sections.").
					Options(groupOptions(*groups)...).Value(groups).Height(8),
			)}
		}).Alias("coeditors", "emails")
	return s.Dialog.ShowForm(f)
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

func (s *Screen) openEdit() tea.Cmd {
	c, _ := s.Selected()
	groups := slices.Clone(c.PermissionGroups)
	email := c.Email
	f := ui.NewForm(s.Ctx.Theme, "Permissions of "+email,
		func() tea.Cmd {
			return s.change(api.CoeditorUpdate, []api.Coeditor{{Email: email, PermissionGroups: slices.Clone(groups)}})
		},
		huh.NewGroup(
			huh.NewMultiSelect[string]().Title("Sections "+email+" may edit").
				Description("space toggles, enter saves, esc keeps them as they are.").
				Options(groupOptions(c.PermissionGroups)...).Value(&groups).Height(12),
		))
	return s.Dialog.ShowForm(f)
}

// remove removes the selected co-editor (once confirmed).
func (s *Screen) remove() tea.Cmd {
	c, _ := s.Selected()
	return s.change(api.CoeditorDelete, []api.Coeditor{{Email: c.Email}})
}

var opWords = map[string][2]string{
	api.CoeditorAdd:    {"adding co-editors", "Added"},
	api.CoeditorUpdate: {"changing permissions", "Updated"},
	api.CoeditorDelete: {"removing a co-editor", "Removed"},
}

// change sends op for list in the background; the screen is busy until
// the answer.
func (s *Screen) change(op string, list []api.Coeditor) tea.Cmd {
	client, id := s.client, s.eventID
	emails := make([]string, len(list))
	for i, c := range list {
		emails[i] = api.NormalizeEmail(c.Email)
	}
	return s.Do(opWords[op][0], func() tea.Msg {
		failed, err := client.Coeditors.Change(context.Background(), id, op, list)
		return changedMsg{op: op, emails: emails, failed: failed, err: err}
	})
}

// maxResultLines bounds the per-address lines under the header.
const maxResultLines = 3

func (s *Screen) onChanged(m changedMsg) tea.Cmd {
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
	s.layout()
	var failure error // all that is known of it, for the recent errors
	switch {
	case m.err != nil:
		failure = m.err
	case len(m.failed) > 0:
		items := make([][2]string, len(m.failed))
		refused := make([]string, len(m.failed))
		for i, f := range m.failed {
			items[i], refused[i] = [2]string{f.Email, f.Message}, f.Email
		}
		failure = &ui.ItemsRefused{Summary: fmt.Sprintf("%s %d of %d", strings.ToLower(word), done, total), Items: items}
		if m.op == api.CoeditorAdd && s.adding != nil {
			*s.adding = strings.Join(refused, ", ") // the form keeps what was not added
		}
	}
	settle := s.Dialog.Settle(failure, "emails")
	if failure == nil {
		toast := strings.TrimPrefix(summary, "OK ")
		return tea.Batch(ui.Toast(level, toast), s.Done(), settle)
	}
	if errors.Is(m.err, api.ErrOutcomeUnknown) {
		failure = fmt.Errorf("it may or may not have happened (no answer arrived): press r to check: %w", m.err)
	}
	return tea.Batch(ui.Fail(opWords[m.op][0], failure), s.Done(), settle)
}

// SetSize lays the screen out.
func (s *Screen) SetSize(w, h int) {
	s.Base.SetSize(w, h)
	s.layout()
}

// panelLines is the height of the permissions panel: one line per group
// with what it grants when there is room, two columns of labels otherwise,
// nothing on a very small screen.
func (s *Screen) panelLines() int {
	free := s.Height() - 1 - len(s.result) - s.tableHeight() - 1
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
	avail := max(s.Height()-1-len(s.result), 3)
	want := max(len(s.Items), 3) + 2
	if avail-want-1 < len(api.PermissionGroups)/2+1 {
		return avail // no room for a panel: the table takes it all
	}
	return min(want, avail)
}

func (s *Screen) layout() {
	s.SetTableHeight(s.tableHeight())
	s.SetTableTop(len(s.result))
}

// View renders the heading, the last result, the table and the panel.
func (s *Screen) View() string {
	th := s.Ctx.Theme
	var above, below []string
	for _, r := range s.result {
		st := th.Success
		if strings.HasPrefix(r, "ERROR") || strings.HasPrefix(r, "PARTLY") || strings.HasPrefix(r, "  REFUSED") {
			st = th.Error
		}
		above = append(above, ui.Fit(st.Render(r), s.Width(), 1))
	}
	if n := s.panelLines(); n > 0 {
		below = []string{"", s.panel(n)}
	}
	return s.Base.View(above, below)
}

// panel shows every group with a mark for the selected co-editor: [x] may
// edit, [ ] may not, so the answer never rests on colour.
func (s *Screen) panel(lines int) string {
	th := s.Ctx.Theme
	c, ok := s.Selected()
	if !ok {
		return th.Muted.Render("Select a co-editor to see the sections they may edit.")
	}
	head := th.Header.Render("Sections " + c.Email + " may edit")
	if note := "  (every co-editor can change event details and view all sections)"; lipgloss.Width(head+note) <= s.Width() {
		head += th.Muted.Render(note)
	}
	mark := func(g api.PermissionGroup) string {
		if slices.Contains(c.PermissionGroups, g.Value) {
			return th.Success.Render("[x] " + g.Label)
		}
		return th.Muted.Render("[ ] " + g.Label)
	}
	out := []string{ui.Fit(head, s.Width(), 1)}
	if lines > len(api.PermissionGroups) {
		for _, g := range api.PermissionGroups {
			label := lipgloss.NewStyle().Width(24).Render(mark(g))
			out = append(out, ui.Fit("  "+label+th.Muted.Render(g.Grants), s.Width(), 1))
		}
		return strings.Join(out, "\n")
	}
	half := len(api.PermissionGroups) / 2
	colW := max((s.Width()-2)/2, 20)
	for i := range half {
		left := lipgloss.NewStyle().Width(colW).Render(mark(api.PermissionGroups[i]))
		out = append(out, ui.Fit("  "+left+mark(api.PermissionGroups[i+half]), s.Width(), 1))
	}
	return strings.Join(out, "\n")
}

// placesLeft tells how many co-editors the event may still take: an event
// has at most api.MaxCoeditorsPerEvent.
func placesLeft(have int) string {
	switch left := api.MaxCoeditorsPerEvent - have; {
	case left <= 0:
		return fmt.Sprintf("One or more, separated by commas. This event has its %d co-editors already: the server will refuse more.", api.MaxCoeditorsPerEvent)
	case left == 1:
		return fmt.Sprintf("One address. An event has at most %d co-editors; this one has room for 1 more.", api.MaxCoeditorsPerEvent)
	default:
		return fmt.Sprintf("One or more, separated by commas. An event has at most %d co-editors; this one has room for %d more.", api.MaxCoeditorsPerEvent, left)
	}
}
