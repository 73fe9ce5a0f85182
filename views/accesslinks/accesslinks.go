// Package accesslinks is the access-links screen of an event: registration
// and group-join links, their settings, creating, editing, deleting them and
// copying a link's URL.
package accesslinks

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

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

// owners numbers screens, so a reply reaches only the screen that asked.
var owners atomic.Int64

// loadMsg carries the links and the ticket types; gen ties it to its load.
type loadMsg struct {
	owner int64
	gen   int
	links []api.AccessLink
	types []api.TicketType
	err   error
}

// doneMsg reports a create, update or delete.
type doneMsg struct {
	owner int64
	what  string
	err   error
}

type keyMap struct {
	Add, Edit, Delete, Copy, Default, Refresh key.Binding
}

func newKeys() keyMap {
	return keyMap{
		Add:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "new link")),
		Edit:    key.NewBinding(key.WithKeys("e", "enter"), key.WithHelp("e/enter", "edit")),
		Delete:  key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "delete")),
		Copy:    key.NewBinding(key.WithKeys("c", "y"), key.WithHelp("c", "copy URL")),
		Default: key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "make default")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
	}
}

// Screen lists an event's access links and changes them.
type Screen struct {
	ctx       *ui.Context
	client    *api.Client
	eventID   string
	eventName string
	recurring bool
	owner     int64
	keys      keyMap
	table     table.Model
	links     []api.AccessLink
	types     []api.TicketType
	gen       int
	cancel    context.CancelFunc
	loading   bool
	loaded    bool
	err       error
	busy      string
	result    string
	resultErr bool
	dialog    ui.Dialog
	width     int
	height    int
}

// New builds the access-links screen of one event; recurring offers the
// recurring registration option in the forms.
func New(ctx *ui.Context, client *api.Client, eventID, eventName string, recurring bool) ui.Screen {
	t := table.New(ctx.Theme,
		table.Column{Title: "Name", Width: 14, Flex: 2},
		table.Column{Title: "Type", Width: 12},
		table.Column{Title: "Sign-in", Width: 14, Flex: 2},
		table.Column{Title: "Default", Width: 7},
		table.Column{Title: "URL", Width: 16, Flex: 3},
	)
	t.SetEmptyText("No access links yet. Press a to create one.")
	return &Screen{ctx: ctx, client: client, eventID: eventID, eventName: eventName, recurring: recurring,
		owner: owners.Add(1), keys: newKeys(), table: t}
}

// Title is the breadcrumb.
func (s *Screen) Title() string { return "Access links" }

// Init loads the links.
func (s *Screen) Init() tea.Cmd { return s.load() }

func (s *Screen) load() tea.Cmd {
	if s.cancel != nil {
		s.cancel()
	}
	s.gen++
	s.loading = true
	s.table.SetLoading(true)
	var ctx context.Context
	ctx, s.cancel = context.WithCancel(context.Background())
	owner, gen, client, id := s.owner, s.gen, s.client, s.eventID
	return ui.Async(func() tea.Msg {
		links, err := client.AccessLinks.List(ctx, id)
		if err != nil {
			return loadMsg{owner: owner, gen: gen, err: err}
		}
		// Ticket types only name the group-join links' types: a failure
		// there leaves the ids showing.
		types, _ := client.Registration.TicketTypes(ctx, id)
		return loadMsg{owner: owner, gen: gen, links: links, types: types}
	})
}

// Close cancels the load in flight.
func (s *Screen) Close() {
	if s.cancel != nil {
		s.cancel()
	}
}

// Update handles replies, dialogs and keys.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case loadMsg:
		if msg.owner != s.owner || msg.gen != s.gen {
			return s, nil
		}
		s.loading = false
		s.table.SetLoading(false)
		if msg.err != nil {
			s.err = msg.err
			return s, ui.Toast(ui.ToastError, "Loading access links failed: "+msg.err.Error())
		}
		s.err, s.loaded, s.links, s.types = nil, true, msg.links, msg.types
		s.table.SetRows(s.rows())
		return s, nil
	case doneMsg:
		if msg.owner != s.owner {
			return s, nil
		}
		s.busy = ""
		if msg.err != nil {
			s.result, s.resultErr = "ERROR "+msg.what+": "+errText(msg.err), true
			s.layout()
			return s, tea.Batch(ui.Toast(ui.ToastError, msg.what+" failed"), s.load())
		}
		s.result, s.resultErr = "OK "+msg.what, false
		s.layout()
		return s, tea.Batch(ui.Toast(ui.ToastSuccess, msg.what), s.load())
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

// errText says what failed and, for an API error, what the code means.
func errText(err error) string {
	var ve *api.ValidationError
	if errors.As(err, &ve) {
		return ve.Error()
	}
	if errors.Is(err, api.ErrOutcomeUnknown) {
		return "no answer arrived, so it may or may not have happened: press r to check. " + err.Error()
	}
	return err.Error()
}

func (s *Screen) onKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, s.keys.Refresh):
		return s.load(), true
	case key.Matches(k, s.keys.Add), key.Matches(k, s.keys.Edit), key.Matches(k, s.keys.Delete),
		key.Matches(k, s.keys.Copy), key.Matches(k, s.keys.Default):
	default:
		return nil, false
	}
	if s.busy != "" {
		return ui.Toast(ui.ToastInfo, "Wait: "+s.busy+" is still in progress"), true
	}
	if key.Matches(k, s.keys.Add) {
		return s.openCreate(), true
	}
	l, ok := s.selected()
	if !ok {
		return ui.Toast(ui.ToastInfo, "No access link selected: press a to create one"), true
	}
	switch {
	case key.Matches(k, s.keys.Copy):
		if l.URL == "" {
			return ui.Toast(ui.ToastInfo, "This link has no URL yet"), true
		}
		// OSC 52 may not reach every terminal: the URL stays on screen.
		s.result, s.resultErr = "URL "+l.URL, false
		s.layout()
		return tea.Batch(tea.SetClipboard(l.URL), ui.Toast(ui.ToastSuccess, "Copied the URL of "+l.Name)), true
	case key.Matches(k, s.keys.Edit):
		return s.openEdit(l), true
	case key.Matches(k, s.keys.Default):
		if l.IsDefault {
			return ui.Toast(ui.ToastInfo, l.Name+" is already the default link"), true
		}
		yes := true
		return s.run("Made "+l.Name+" the default link", func(ctx context.Context, c *api.Client, ev string) error {
			return c.AccessLinks.Update(ctx, ev, l.AccessLinkID, &api.AccessLinkUpdate{IsDefault: &yes})
		}), true
	}
	q := fmt.Sprintf("Delete the access link %q of %q? People using its URL can no longer register or join through it.", l.Name, s.eventName)
	id, name := l.AccessLinkID, l.Name
	s.dialog.Ask(s.ctx.Theme, q, true, func() tea.Cmd {
		return s.run("Deleted "+name, func(ctx context.Context, c *api.Client, ev string) error {
			return c.AccessLinks.Delete(ctx, ev, id)
		})
	})
	return nil, true
}

// run marks the screen busy and performs a change in the background.
func (s *Screen) run(what string, fn func(context.Context, *api.Client, string) error) tea.Cmd {
	owner, client, id := s.owner, s.client, s.eventID
	s.busy = strings.ToLower(what[:1]) + what[1:]
	return ui.Async(func() tea.Msg {
		return doneMsg{owner: owner, what: what, err: fn(context.Background(), client, id)}
	})
}

func (s *Screen) selected() (api.AccessLink, bool) {
	row, ok := s.table.Selected()
	if !ok {
		return api.AccessLink{}, false
	}
	for _, l := range s.links {
		if l.AccessLinkID == row.ID {
			return l, true
		}
	}
	return api.AccessLink{}, false
}

// splitList reads values separated by commas, semicolons, spaces or lines.
func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' })
}

func checkDomains(v string) error {
	list := splitList(v)
	if len(list) > api.MaxAllowedDomains {
		return fmt.Errorf("%d domains; at most %d are allowed", len(list), api.MaxAllowedDomains)
	}
	for _, d := range list {
		if err := api.CheckDomain(d); err != nil {
			return err
		}
	}
	return nil
}

func checkEmails(v string) error {
	for _, e := range splitList(v) {
		if err := api.CheckEmail(e); err != nil {
			return err
		}
	}
	return nil
}

func authOptions() []huh.Option[string] {
	out := make([]huh.Option[string], len(api.AuthMethods))
	for i, m := range api.AuthMethods {
		out[i] = huh.NewOption(api.AuthMethodLabel(m)+" ("+m+")", m)
	}
	return out
}

func optionOptions() []huh.Option[string] {
	out := []huh.Option[string]{huh.NewOption("not set", "")}
	for _, o := range api.RecurringOptions {
		out = append(out, huh.NewOption(api.RecurringOptionLabel(o)+" ("+o+")", o))
	}
	return out
}

func (s *Screen) typeOptions() []huh.Option[string] {
	out := []huh.Option[string]{huh.NewOption("none (registration links)", "")}
	for _, t := range s.types {
		out = append(out, huh.NewOption(t.Label(), t.TicketTypeID))
	}
	return out
}

// linkForm holds the values the create and edit forms bind to.
type linkForm struct {
	name, typ, auth, idp, option, ticketType, domains, emails string
	isDefault, emailAuth, securityCode                        bool
	flags                                                     []string
}

// Flags of the form's multi-select.
const (
	flagEmailAuth    = "email"
	flagSecurityCode = "code"
	flagDefault      = "default"
)

func (s *Screen) groups(v *linkForm, create bool) []*huh.Group {
	fs := []huh.Field{
		huh.NewInput().Title("Name").Value(&v.name).CharLimit(200).
			Validate(func(x string) error {
				if strings.TrimSpace(x) == "" {
					return errors.New("a name is required")
				}
				return nil
			}),
	}
	if create {
		fs = append(fs, huh.NewSelect[string]().Title("Type").Inline(true).Options(
			huh.NewOption("registration", api.LinkRegistration),
			huh.NewOption("group-join", api.LinkGroupJoin)).Value(&v.typ))
	}
	fs = append(fs,
		huh.NewSelect[string]().Title("Sign-in").Inline(true).Options(authOptions()...).Value(&v.auth),
		huh.NewInput().Title("Identity provider (corporate SSO only)").Value(&v.idp),
		huh.NewSelect[string]().Title("Ticket type (group-join only)").Inline(true).Options(s.typeOptions()...).Value(&v.ticketType),
	)
	if s.recurring {
		fs = append(fs, huh.NewSelect[string]().Title("Recurring registration").Inline(true).Options(optionOptions()...).Value(&v.option))
	}
	fs = append(fs,
		huh.NewInput().Title(fmt.Sprintf("Allowed domains (comma-separated, at most %d; empty: all)", api.MaxAllowedDomains)).
			Value(&v.domains).CharLimit(4000).Validate(checkDomains),
		huh.NewInput().Title("Only these addresses (comma-separated; empty: anyone)").
			Value(&v.emails).CharLimit(8000).Validate(checkEmails),
		huh.NewMultiSelect[string]().Title("Options (space toggles)").Options(
			huh.NewOption("require the registration email at join", flagEmailAuth).Selected(v.emailAuth),
			huh.NewOption("require a security code at join", flagSecurityCode).Selected(v.securityCode),
			huh.NewOption("make it the default link", flagDefault).Selected(v.isDefault),
		).Value(&v.flags),
	)
	return []*huh.Group{huh.NewGroup(fs...)}
}

// readFlags copies the multi-select into the booleans.
func (v *linkForm) readFlags() {
	v.emailAuth = slices.Contains(v.flags, flagEmailAuth)
	v.securityCode = slices.Contains(v.flags, flagSecurityCode)
	v.isDefault = slices.Contains(v.flags, flagDefault)
}

func (s *Screen) eventType() string {
	if s.recurring {
		return api.EventTypeRecurring
	}
	return ""
}

func (v *linkForm) security() *api.SecurityAtJoin {
	return &api.SecurityAtJoin{EmailAuthentication: v.emailAuth, SecurityCodeVerification: v.securityCode}
}

func (s *Screen) openCreate() tea.Cmd {
	v := &linkForm{typ: api.LinkRegistration, auth: api.AuthAccountOTP}
	if s.recurring {
		v.option = api.RecurringAllSessions
	}
	eventType := s.eventType()
	f := ui.NewForm(s.ctx.Theme, fmt.Sprintf("New access link for %q", s.eventName), func() tea.Cmd {
		v.readFlags()
		in := &api.AccessLinkCreate{Name: strings.TrimSpace(v.name), Type: v.typ, AuthenticationMethod: v.auth,
			IdPName: strings.TrimSpace(v.idp), IsDefault: v.isDefault, AllowDomainList: splitList(v.domains),
			EmailRestrictList: splitList(v.emails), RecurringRegistrationOption: v.option, TicketTypeID: v.ticketType,
			EventType: eventType}
		if v.emailAuth || v.securityCode {
			in.SecurityAtJoin = v.security()
		}
		return s.run("Created "+in.Name, func(ctx context.Context, c *api.Client, ev string) error {
			_, err := c.AccessLinks.Create(ctx, ev, in)
			return err
		})
	}, s.groups(v, true)...)
	return s.dialog.ShowForm(f)
}

func (s *Screen) openEdit(l api.AccessLink) tea.Cmd {
	v := &linkForm{name: l.Name, auth: l.AuthenticationMethod, idp: l.IdPName, option: l.RecurringRegistrationOption,
		ticketType: l.TicketTypeID, domains: strings.Join(l.AllowDomainList, ", "), emails: strings.Join(l.EmailRestrictList, ", "),
		isDefault: l.IsDefault}
	if l.SecurityAtJoin != nil {
		v.emailAuth, v.securityCode = l.SecurityAtJoin.EmailAuthentication, l.SecurityAtJoin.SecurityCodeVerification
	}
	for _, f := range []struct {
		on   bool
		flag string
	}{{v.emailAuth, flagEmailAuth}, {v.securityCode, flagSecurityCode}, {v.isDefault, flagDefault}} {
		if f.on {
			v.flags = append(v.flags, f.flag)
		}
	}
	orig := *v
	id, typ, eventType := l.AccessLinkID, l.Type, s.eventType()
	f := ui.NewForm(s.ctx.Theme, "Edit "+l.Name+" ("+l.Type+")", func() tea.Cmd {
		v.readFlags()
		u := &api.AccessLinkUpdate{LinkType: typ, EventType: eventType}
		if v.name != orig.name {
			n := strings.TrimSpace(v.name)
			u.Name = &n
		}
		if v.auth != orig.auth {
			u.AuthenticationMethod = &v.auth
		}
		if v.idp != orig.idp {
			u.IdPName = &v.idp
		}
		if v.option != orig.option && v.option != "" {
			u.RecurringRegistrationOption = &v.option
		}
		if v.ticketType != orig.ticketType {
			u.TicketTypeID = &v.ticketType
		}
		if v.domains != orig.domains {
			d := splitList(v.domains)
			u.AllowDomainList = &d
		}
		if v.emails != orig.emails {
			e := splitList(v.emails)
			u.EmailRestrictList = &e
		}
		if v.emailAuth != orig.emailAuth || v.securityCode != orig.securityCode {
			u.SecurityAtJoin = v.security()
		}
		if v.isDefault && !orig.isDefault {
			yes := true
			u.IsDefault = &yes
		}
		return s.run("Saved "+strings.TrimSpace(v.name), func(ctx context.Context, c *api.Client, ev string) error {
			return c.AccessLinks.Update(ctx, ev, id, u)
		})
	}, s.groups(v, false)...)
	return s.dialog.ShowForm(f)
}

func (s *Screen) rows() []table.Row {
	rows := make([]table.Row, len(s.links))
	for i, l := range s.links {
		def := ""
		if l.IsDefault {
			def = "* yes"
		}
		rows[i] = table.Row{ID: l.AccessLinkID, Cells: []string{l.Name, l.Type, api.AuthMethodLabel(l.AuthenticationMethod), def, l.URL}}
	}
	return rows
}

func (s *Screen) typeName(id string) string {
	for _, t := range s.types {
		if t.TicketTypeID == id {
			return t.Label()
		}
	}
	return id
}

// SetSize lays the screen out.
func (s *Screen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.dialog.SetSize(w, h)
	s.layout()
}

// detailLines is the height of the detail pane.
const detailLines = 9

func (s *Screen) resultLines() int {
	if s.result == "" {
		return 0
	}
	return 1
}

func (s *Screen) tableHeight() int {
	avail := max(s.height-1-s.resultLines(), 3)
	if avail-detailLines-1 < 4 {
		return avail
	}
	return min(max(len(s.links), 3)+2, avail-detailLines-1)
}

func (s *Screen) layout() { s.table.SetSize(s.width, s.tableHeight()) }

// View renders the header, the last result, the table and the detail pane.
func (s *Screen) View() string {
	th := s.ctx.Theme
	st := ui.LoadState{Busy: s.busy, Loading: s.loading, Err: s.err}
	if s.loaded {
		st.Summary = ui.Count(len(s.links), "link")
	}
	head := ui.Heading(th, th.Title.Render("Access links of "+s.eventName), st)
	lines := []string{ui.Fit(head, s.width, 1)}
	if s.result != "" {
		st := th.Success
		if s.resultErr {
			st = th.Error
		}
		lines = append(lines, ui.Fit(st.Render(s.result), s.width, 1))
	}
	lines = append(lines, s.table.View())
	if s.height-1-s.resultLines()-s.tableHeight() > detailLines {
		lines = append(lines, "", s.detail())
	}
	return s.dialog.View(strings.Join(lines, "\n"), s.width, s.height)
}

func recurringText(o string) string {
	if o == "" {
		return api.RecurringOptionLabel(o)
	}
	return o + ": " + api.RecurringOptionLabel(o)
}

func onOff(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// detail shows every field of the selected link.
func (s *Screen) detail() string {
	th := s.ctx.Theme
	l, ok := s.selected()
	if !ok {
		return th.Muted.Render("Select a link to see its settings.")
	}
	auth := api.AuthMethodLabel(l.AuthenticationMethod)
	if l.IdPName != "" {
		auth += " via " + l.IdPName
	}
	domains := "any"
	if n := len(l.AllowDomainList); n > 0 {
		domains = fmt.Sprintf("%d: %s", n, strings.Join(l.AllowDomainList, ", "))
	}
	emails := "anyone"
	if n := len(l.EmailRestrictList); n > 0 {
		emails = fmt.Sprintf("%d: %s", n, strings.Join(l.EmailRestrictList, ", "))
	}
	sec := "none"
	if sj := l.SecurityAtJoin; sj != nil {
		sec = "email " + onOff(sj.EmailAuthentication) + ", security code " + onOff(sj.SecurityCodeVerification)
	}
	ticket := "-"
	if l.TicketTypeID != "" {
		ticket = s.typeName(l.TicketTypeID)
	}
	def := "no"
	if l.IsDefault {
		def = "yes (the event's links use it)"
	}
	rows := [][2]string{
		{"Link", l.Name + "  [" + l.Type + "]"},
		{"Default", def},
		{"Sign-in", auth},
		{"Recurring", recurringText(l.RecurringRegistrationOption)},
		{"Ticket type", ticket},
		{"Domains", domains},
		{"Addresses", emails},
		{"At join", sec},
		{"URL", l.URL},
	}
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		label := th.Muted.Render(fmt.Sprintf("%-12s", r[0]))
		out = append(out, ui.Fit(label+r[1], s.width, 1))
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
	return []key.Binding{s.keys.Add, s.keys.Edit, s.keys.Delete, s.keys.Copy, s.keys.Refresh}
}

// FullHelp implements help.KeyMap.
func (s *Screen) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{s.keys.Add, s.keys.Edit, s.keys.Delete, s.keys.Copy, s.keys.Default, s.keys.Refresh}},
		s.table.Keys.FullHelp()...)
}
