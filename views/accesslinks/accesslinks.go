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

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/resource"
	"github.com/evdesk/evdesk/ui/table"
)

// typesMsg carries the event's ticket types, which name the group-join
// links' types; without them the ids show.
type typesMsg struct{ types []api.TicketType }

// doneMsg reports a create, update or delete.
type doneMsg struct {
	what   string // what was done, for the success toast ("Created VIP")
	failed string // the operation, for a failure ("Create link VIP")
	err    error
}

// Screen lists an event's access links and changes them.
type Screen struct {
	*resource.Base[api.AccessLink]
	client    *api.Client
	eventID   string
	eventName string
	recurring bool
	types     []api.TicketType
	typesLoad ui.Task
	result    string
	resultErr bool
}

// New builds the access-links screen of one event; recurring offers the
// recurring registration option in the forms.
func New(ctx *ui.Context, client *api.Client, eventID, eventName string, recurring bool) ui.Screen {
	s := &Screen{client: client, eventID: eventID, eventName: eventName, recurring: recurring}
	s.Base = resource.New(ctx, resource.Config[api.AccessLink]{
		Actions: s.actions,
		Heading: "Access links of " + eventName,
		Noun:    "link",
		Loading: "Loading access links",
		Empty:   "No access links yet. Press a to create one.",
		Columns: []table.Column{
			{Title: "Name", Width: 14, Flex: 2},
			{Title: "Type", Width: 12},
			{Title: "Sign-in", Width: 14, Flex: 2},
			{Title: "Default", Width: 7},
			{Title: "URL", Width: 16, Flex: 3},
		},
		Load:     func(ctx context.Context) ([]api.AccessLink, error) { return client.AccessLinks.List(ctx, eventID) },
		LoadAlso: s.loadTypes,
		Row: func(l api.AccessLink) table.Row {
			def := ""
			if l.IsDefault {
				def = "* yes"
			}
			return table.Row{ID: l.AccessLinkID, Cells: []string{l.Name, l.Type, api.AuthMethodLabel(l.AuthenticationMethod), def, l.URL}}
		},
	})
	return s
}

// Title is the breadcrumb.
func (s *Screen) Title() string { return "Access links" }

// loadTypes reads the ticket types with every load of the links.
func (s *Screen) loadTypes() tea.Cmd {
	client, id := s.client, s.eventID
	return s.typesLoad.Run(func(ctx context.Context) tea.Msg {
		types, _ := client.Registration.TicketTypes(ctx, id) // a failure leaves the ids showing
		return typesMsg{types: types}
	})
}

// Close cancels the loads in flight.
func (s *Screen) Close() {
	s.Base.Close()
	s.typesLoad.Stop()
}

// actions are what the screen lets the user do.
func (s *Screen) actions() ui.Actions {
	k := s.Ctx.Keys
	selected := s.NeedsSelection("No access link selected: press a to create one")
	return ui.Actions{
		{Writes: true, Key: k.Add, Help: "new link", Why: s.NotBusy, Run: s.openCreate},
		{Writes: true, Key: k.OrOpen(k.Edit), Help: "edit", Why: selected, Run: s.openEdit},
		{Writes: true, Key: k.Delete, Help: "delete", Why: selected, Dangerous: true, Confirm: s.deleteQuestion, Run: s.remove},
		{Key: k.Copy, Help: "copy URL", Run: s.copyURL, Why: func() string {
			if why := selected(); why != "" {
				return why
			}
			if l, _ := s.Selected(); l.URL == "" {
				return "This link has no URL yet"
			}
			return ""
		}},
		{Writes: true, Key: k.MakeDefault, Help: "make default", Minor: true, Run: s.makeDefault, Why: func() string {
			if why := selected(); why != "" {
				return why
			}
			if l, _ := s.Selected(); l.IsDefault {
				return l.Name + " is already the default link"
			}
			return ""
		}},
	}
}

// Update handles the screen's own replies, then what every resource
// screen handles; the table's height follows the rows loaded.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case typesMsg:
		s.types = msg.types
	case doneMsg:
		cmd = s.onDone(msg)
	default:
		cmd = s.Base.Update(msg)
	}
	s.layout()
	return s, cmd
}

func (s *Screen) onDone(m doneMsg) tea.Cmd {
	settle := s.Dialog.Settle(m.err, refusedField(m.err))
	if m.err != nil {
		s.result, s.resultErr = "ERROR "+m.failed+": "+errText(m.err), true
		return tea.Batch(ui.Fail(m.failed, m.err), s.Done(), settle)
	}
	s.result, s.resultErr = "OK "+m.what, false
	return tea.Batch(ui.Toast(ui.ToastSuccess, m.what), s.Done(), settle)
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

// copyURL puts the selected link's URL on the clipboard. OSC 52 may not
// reach every terminal, so the URL stays on screen too.
func (s *Screen) copyURL() tea.Cmd {
	l, _ := s.Selected()
	s.result, s.resultErr = "URL "+l.URL, false
	return tea.Batch(tea.SetClipboard(l.URL), ui.Toast(ui.ToastSuccess, "Copied the URL of "+l.Name))
}

func (s *Screen) makeDefault() tea.Cmd {
	l, _ := s.Selected()
	yes := true
	return s.run("Made "+l.Name+" the default link", "Make "+l.Name+" the default link", func(ctx context.Context, c *api.Client, ev string) error {
		return c.AccessLinks.Update(ctx, ev, l.AccessLinkID, &api.AccessLinkUpdate{IsDefault: &yes})
	})
}

// deleteQuestion asks before deleting the selected link, and warns when
// it is the default: the event is then left without one.
func (s *Screen) deleteQuestion() string {
	l, _ := s.Selected()
	q := fmt.Sprintf("Delete the access link %q of %q? People using its URL can no longer register or join through it.", l.Name, s.eventName)
	if l.IsDefault {
		q += " It is the default link: the event will then have no default link until you make another one the default."
	}
	return q
}

// remove deletes the selected link (once confirmed).
func (s *Screen) remove() tea.Cmd {
	l, _ := s.Selected()
	id := l.AccessLinkID
	return s.run("Deleted "+l.Name, "Delete link "+l.Name, func(ctx context.Context, c *api.Client, ev string) error {
		return c.AccessLinks.Delete(ctx, ev, id)
	})
}

// run performs a change in the background; the screen is busy until its
// answer.
func (s *Screen) run(what, op string, fn func(context.Context, *api.Client, string) error) tea.Cmd {
	client, id := s.client, s.eventID
	return s.Do(strings.ToLower(what[:1])+what[1:], func() tea.Msg {
		return doneMsg{what: what, failed: op, err: fn(context.Background(), client, id)}
	})
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
		out = append(out, huh.NewOption(api.RecurringOptionLabel(o), o))
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

// groups are the link form's fields, keyed by the request fields they fill,
// so a refusal marks the field it names.
func (s *Screen) groups(fields *ui.Fields, v *linkForm, create bool) []*huh.Group {
	fs := []huh.Field{
		huh.NewInput().Key("name").Title("Name").Value(&v.name).CharLimit(200).
			Validate(func(x string) error {
				if strings.TrimSpace(x) == "" {
					return errors.New("a name is required")
				}
				return nil
			}),
	}
	if create {
		fs = append(fs, huh.NewSelect[string]().Key("type").Title("Type").Inline(true).Options(
			huh.NewOption("registration", api.LinkRegistration),
			huh.NewOption("group-join", api.LinkGroupJoin)).Value(&v.typ))
	}
	fs = append(fs,
		huh.NewSelect[string]().Key("authentication_method").Title("Sign-in").Inline(true).Options(authOptions()...).Value(&v.auth),
		huh.NewInput().Key("idp_name").Title("Identity provider (corporate SSO only)").Value(&v.idp),
		huh.NewSelect[string]().Key("ticket_type_id").Title("Ticket type (group-join only)").Inline(true).Options(s.typeOptions()...).Value(&v.ticketType),
	)
	if s.recurring {
		fs = append(fs, huh.NewSelect[string]().Key("recurring_registration_option").Title("Recurring registration").Inline(true).Options(optionOptions()...).Value(&v.option))
	}
	fs = append(fs,
		huh.NewInput().Key("allow_domain_list").Title(fmt.Sprintf("Allowed domains (comma-separated, at most %d; empty: all)", api.MaxAllowedDomains)).
			Value(&v.domains).CharLimit(4000).Validate(checkDomains),
		huh.NewInput().Key("email_restrict_list").Title("Only these addresses (comma-separated; empty: anyone)").
			Value(&v.emails).CharLimit(8000).Validate(checkEmails),
		huh.NewMultiSelect[string]().Key("flags").Title("Options (space toggles)").Options(
			huh.NewOption("require the registration email at join", flagEmailAuth).Selected(v.emailAuth),
			huh.NewOption("require a security code at join", flagSecurityCode).Selected(v.securityCode),
			huh.NewOption("make it the default link", flagDefault).Selected(v.isDefault),
		).Value(&v.flags),
	)
	return []*huh.Group{fields.Group(fs...)}
}

// newLinkForm is the create or edit form: it stays open until the server
// takes it, a refusal marked at its field.
func (s *Screen) newLinkForm(title string, v *linkForm, create bool, submit func() tea.Cmd) *ui.Form {
	return ui.NewKeptForm(s.Ctx.Theme, title, submit, func(fs *ui.Fields) []*huh.Group {
		return s.groups(fs, v, create)
	}).Alias("security_at_join", "flags").Alias("is_default", "flags")
}

// refusedField is the form field a refusal without a field is about.
func refusedField(err error) string {
	if api.IsCode(err, api.CodeJoinLinkNameTaken) {
		return "name"
	}
	return ""
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
	f := s.newLinkForm(fmt.Sprintf("New access link for %q", s.eventName), v, true, func() tea.Cmd {
		v.readFlags()
		in := &api.AccessLinkCreate{Name: strings.TrimSpace(v.name), Type: v.typ, AuthenticationMethod: v.auth,
			IdPName: strings.TrimSpace(v.idp), IsDefault: v.isDefault, AllowDomainList: splitList(v.domains),
			EmailRestrictList: splitList(v.emails), RecurringRegistrationOption: v.option, TicketTypeID: v.ticketType,
			EventType: eventType}
		if v.emailAuth || v.securityCode {
			in.SecurityAtJoin = v.security()
		}
		return s.run("Created "+in.Name, "Create link "+in.Name, func(ctx context.Context, c *api.Client, ev string) error {
			_, err := c.AccessLinks.Create(ctx, ev, in)
			return err
		})
	})
	return s.Dialog.ShowForm(f)
}

func (s *Screen) openEdit() tea.Cmd {
	l, _ := s.Selected()
	v := &linkForm{name: l.Name, auth: api.NeutralAuthMethod(l.AuthenticationMethod), idp: l.IdPName, option: l.RecurringRegistrationOption,
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
	f := s.newLinkForm("Edit "+l.Name+" ("+l.Type+")", v, false, func() tea.Cmd {
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
		return s.run("Saved "+strings.TrimSpace(v.name), "Save link "+strings.TrimSpace(v.name), func(ctx context.Context, c *api.Client, ev string) error {
			return c.AccessLinks.Update(ctx, ev, id, u)
		})
	})
	return s.Dialog.ShowForm(f)
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
	s.Base.SetSize(w, h)
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
	avail := max(s.Height()-1-s.resultLines(), 3)
	if avail-detailLines-1 < 4 {
		return avail
	}
	return min(max(len(s.Items), 3)+2, avail-detailLines-1)
}

func (s *Screen) layout() { s.SetTableHeight(s.tableHeight()) }

// View renders the heading, the last result, the table and the detail pane.
func (s *Screen) View() string {
	th := s.Ctx.Theme
	var above, below []string
	if s.result != "" {
		st := th.Success
		if s.resultErr {
			st = th.Error
		}
		above = []string{ui.Fit(st.Render(s.result), s.Width(), 1)}
	}
	if s.Height()-1-s.resultLines()-s.tableHeight() > detailLines {
		below = []string{"", s.detail()}
	}
	return s.Base.View(above, below)
}

func onOff(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// detail shows every field of the selected link.
func (s *Screen) detail() string {
	th := s.Ctx.Theme
	l, ok := s.Selected()
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
		{"Recurring", api.RecurringOptionLabel(l.RecurringRegistrationOption)},
		{"Ticket type", ticket},
		{"Domains", domains},
		{"Addresses", emails},
		{"At join", sec},
		{"URL", l.URL},
	}
	out := make([]string, 0, len(rows))
	for _, r := range rows {
		label := th.Muted.Render(fmt.Sprintf("%-12s", r[0]))
		out = append(out, ui.Fit(label+r[1], s.Width(), 1))
	}
	return strings.Join(out, "\n")
}
