// Package exhibitors is the exhibitors screen of a conference event: its
// exhibitors and sponsors with their tiers, a detail pane with contact and
// links, and a form to add one.
package exhibitors

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

// createdMsg answers an exhibitor's creation.
type createdMsg struct {
	x   *api.Exhibitor
	err error
}

type keyMap struct{ Add, Refresh key.Binding }

func newKeys() keyMap {
	return keyMap{
		Add:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add exhibitor")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
	}
}

// Screen lists an event's exhibitors and sponsors.
type Screen struct {
	ctx       *ui.Context
	client    *api.Client
	eventID   string
	eventName string
	change    ui.Task
	keys      keyMap
	table     table.Model
	list      []api.Exhibitor
	stream    ui.Stream[api.Exhibitor]
	loading   bool
	loaded    bool
	err       error
	busy      bool
	dialog    ui.Dialog
	width     int
	height    int
}

// New builds the exhibitors screen of one event.
func New(ctx *ui.Context, client *api.Client, eventID, eventName string) ui.Screen {
	t := table.New(ctx.Theme,
		table.Column{Title: "Name", Width: 18, Flex: 2},
		table.Column{Title: "Kind", Width: 9},
		table.Column{Title: "Tier", Width: 10},
		table.Column{Title: "Contact", Width: 18, Flex: 2},
		table.Column{Title: "Sessions", Width: 8},
	)
	t.SetEmptyText("No exhibitors yet. Press a to add one.")
	return &Screen{ctx: ctx, client: client, eventID: eventID, eventName: eventName,
		keys: newKeys(), table: t}
}

// Title is the breadcrumb.
func (s *Screen) Title() string { return "Exhibitors" }

// Init loads the listing.
func (s *Screen) Init() tea.Cmd { return s.load() }

func (s *Screen) load() tea.Cmd {
	s.loading = true
	s.table.SetLoading(true)
	client, id := s.client, s.eventID
	return s.stream.Start(ui.OnePage(func(ctx context.Context) ([]api.Exhibitor, error) {
		return client.Exhibitors.List(ctx, id)
	}))
}

// Close cancels the listing in flight; a create in flight finishes and is
// reported.
func (s *Screen) Close() { s.stream.Stop() }

// Update handles replies, the form and keys.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Page[api.Exhibitor]:
		if !s.stream.Owns(msg) {
			return s, nil
		}
		s.loading = false
		s.table.SetLoading(false)
		if msg.Err != nil {
			s.err = msg.Err
			s.table.SetEmptyText(explain(msg.Err))
			s.table.SetRows(nil)
			return s, ui.Toast(ui.ToastError, "Loading exhibitors failed: "+explain(msg.Err))
		}
		s.err, s.loaded, s.list = nil, true, msg.Items
		s.table.SetEmptyText("No exhibitors yet. Press a to add one.")
		s.table.SetRows(s.rows())
		return s, nil
	case createdMsg:
		s.busy = false
		if msg.err != nil {
			text := explain(msg.err)
			if errors.Is(msg.err, api.ErrOutcomeUnknown) {
				text = "The exhibitor may or may not have been added (no answer arrived): press r to check before adding again. " + text
			}
			return s, ui.Toast(ui.ToastError, text)
		}
		return s, tea.Batch(ui.Toast(ui.ToastSuccess, "Added "+msg.x.Name), s.load())
	}
	if cmd, handled := s.dialog.Update(msg); handled {
		return s, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && !s.table.Filtering() {
		switch {
		case key.Matches(k, s.keys.Refresh):
			return s, s.load()
		case key.Matches(k, s.keys.Add):
			switch {
			case s.busy:
				return s, ui.Toast(ui.ToastInfo, "Wait: an exhibitor is still being added")
			case api.IsCode(s.err, api.CodeUnsupportedEventType):
				return s, ui.Toast(ui.ToastInfo, "Add: only conference (multi-session) events have exhibitors")
			}
			return s, s.openAdd()
		}
	}
	var cmd tea.Cmd
	s.table, cmd = s.table.Update(msg)
	return s, cmd
}

// explain puts an error in words for this screen: what the spec's codes
// mean here and what to do.
func explain(err error) string {
	switch {
	case api.IsCode(err, api.CodeUnsupportedEventType):
		return "This event has no exhibitors: only conference (multi-session) events do (error 1006)."
	case api.IsCode(err, api.CodeNotHost):
		return "You are not a host of this event, so you cannot see or add its exhibitors (error 3011)."
	}
	return err.Error()
}

// tierLabel shows the start of a tier id (the API names tiers by id only;
// the detail pane shows it whole).
func (s *Screen) tierLabel(id string) string {
	if id == "" {
		return "-"
	}
	return clip(id, 8)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func (s *Screen) rows() []table.Row {
	rows := make([]table.Row, len(s.list))
	for i, x := range s.list {
		kind := "Exhibitor"
		if x.IsSponsor {
			kind = "Sponsor"
		}
		rows[i] = table.Row{ID: x.ExhibitorID, Cells: []string{x.Name, kind, s.tierLabel(x.TierID),
			x.ContactName, fmt.Sprint(len(x.AssociatedSessions))}}
	}
	return rows
}

func (s *Screen) selected() (api.Exhibitor, bool) {
	row, ok := s.table.Selected()
	if !ok {
		return api.Exhibitor{}, false
	}
	i := slices.IndexFunc(s.list, func(x api.Exhibitor) bool { return x.ExhibitorID == row.ID })
	if i < 0 {
		return api.Exhibitor{}, false
	}
	return s.list[i], true
}

// tiersInUse lists the tier ids the event's sponsors carry, for the form.
func (s *Screen) tiersInUse() []string {
	var out []string
	for _, x := range s.list {
		if x.TierID != "" && !slices.Contains(out, x.TierID) {
			out = append(out, x.TierID)
		}
	}
	return out
}

// addForm holds the form's bound values.
type addForm struct {
	name, contact, email, tier, sessions, description string
	website, privacy, linkedin, twitter, youtube      string
	instagram, facebook                               string
	sponsor                                           bool
}

func (f *addForm) request() api.ExhibitorCreate {
	t := strings.TrimSpace
	req := api.ExhibitorCreate{Name: t(f.name), ContactName: t(f.contact), ContactEmail: t(f.email),
		IsSponsor: f.sponsor, Description: t(f.description), Website: t(f.website), PrivacyPolicy: t(f.privacy),
		LinkedInURL: t(f.linkedin), TwitterURL: t(f.twitter), YouTubeURL: t(f.youtube),
		InstagramURL: t(f.instagram), FacebookURL: t(f.facebook)}
	if f.sponsor {
		req.TierID = t(f.tier)
	}
	req.AssociatedSessions = strings.FieldsFunc(f.sessions, func(r rune) bool { return r == ',' || r == ' ' || r == ';' })
	return req
}

// problem returns the validator's message for field, so the form, the CLI
// and the client agree.
func problem(req api.ExhibitorCreate, field string) error {
	var ve *api.ValidationError
	if errors.As(req.Validate(), &ve) {
		for _, p := range ve.Problems {
			if p.Field == field || strings.HasPrefix(p.Field, field+"[") {
				return errors.New(p.Message)
			}
		}
	}
	return nil
}

// create adds the exhibitor in the background; the screen is busy until
// the answer.
func (s *Screen) create(req api.ExhibitorCreate) tea.Cmd {
	s.busy = true
	client, id := s.client, s.eventID
	return s.change.Detached(func() tea.Msg {
		x, err := client.Exhibitors.Create(context.Background(), id, req)
		return createdMsg{x: x, err: err}
	})
}

func (s *Screen) openAdd() tea.Cmd {
	v := &addForm{}
	check := func(field string, set func(string)) func(string) error {
		return func(x string) error {
			set(x)
			return problem(v.request(), field)
		}
	}
	tierDesc := "Required for a sponsor."
	if used := s.tiersInUse(); len(used) > 0 {
		tierDesc = "In use: " + strings.Join(used, ", ")
	}
	input := func(title, field string, dst *string, set func(string)) *huh.Input {
		return huh.NewInput().Title(title).Value(dst).Validate(check(field, set))
	}
	f := ui.NewForm(s.ctx.Theme, fmt.Sprintf("Add an exhibitor to %q", s.eventName),
		func() tea.Cmd { return s.create(v.request()) },
		huh.NewGroup(
			input("Name", "name", &v.name, func(x string) { v.name = x }),
			input("Contact name", "contact_name", &v.contact, func(x string) { v.contact = x }),
			input("Contact email", "contact_email", &v.email, func(x string) { v.email = x }),
			huh.NewConfirm().Title("Sponsor?").Value(&v.sponsor),
		),
		huh.NewGroup(
			input("Sponsor tier id", "tier_id", &v.tier, func(x string) { v.tier = x }).Description(tierDesc),
			input("Session ids", "associated_sessions", &v.sessions, func(x string) { v.sessions = x }).
				Description("Optional; separated by commas."),
			huh.NewInput().Title("Description").Value(&v.description).CharLimit(2000),
		),
		huh.NewGroup(
			input("Website", "website", &v.website, func(x string) { v.website = x }),
			input("Privacy policy", "privacy_policy", &v.privacy, func(x string) { v.privacy = x }),
			input("LinkedIn", "linkedin_url", &v.linkedin, func(x string) { v.linkedin = x }),
			input("Twitter", "twitter_url", &v.twitter, func(x string) { v.twitter = x }),
			input("YouTube", "youtube_url", &v.youtube, func(x string) { v.youtube = x }),
			input("Instagram", "instagram_url", &v.instagram, func(x string) { v.instagram = x }),
			input("Facebook", "facebook_url", &v.facebook, func(x string) { v.facebook = x }),
		),
	)
	return s.dialog.ShowForm(f)
}

// SetSize lays the screen out.
func (s *Screen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.dialog.SetSize(w, h)
	s.table.SetSize(w, s.tableHeight())
}

// detailLines is the height of the detail pane.
const detailLines = 11

func (s *Screen) tableHeight() int {
	avail := max(s.height-1, 3)
	if avail-detailLines-1 < 5 {
		return avail
	}
	return min(max(len(s.list), 3)+4, avail-detailLines-1)
}

// View renders the header, the table and the detail pane.
func (s *Screen) View() string {
	th := s.ctx.Theme
	st := ui.LoadState{Loading: s.loading, Err: s.err}
	if s.busy {
		st.Busy = "adding"
	}
	if s.loaded {
		sponsors := 0
		for _, x := range s.list {
			if x.IsSponsor {
				sponsors++
			}
		}
		st.Summary = ui.Count(len(s.list), "exhibitor") + ", " + ui.Count(sponsors, "sponsor")
	}
	head := ui.Heading(th, th.Title.Render("Exhibitors of "+s.eventName), st)
	lines := []string{ui.Fit(head, s.width, 1), s.table.View()}
	if s.height-1-s.tableHeight() > detailLines {
		lines = append(lines, "", s.detail())
	}
	return s.dialog.View(strings.Join(lines, "\n"), s.width, s.height)
}

// detail shows the selected exhibitor's contact, description and links.
func (s *Screen) detail() string {
	th := s.ctx.Theme
	x, ok := s.selected()
	if !ok {
		return ""
	}
	kind := "Exhibitor"
	if x.IsSponsor {
		kind = "Sponsor, tier " + x.TierID
	}
	out := []string{ui.Fit(th.Header.Render(x.Name)+th.Muted.Render("  "+kind), s.width, 1)}
	row := func(label, value string) {
		if strings.TrimSpace(value) != "" {
			out = append(out, ui.Fit("  "+th.Muted.Render(fmt.Sprintf("%-15s", label))+value, s.width, 1))
		}
	}
	row("Contact", fmt.Sprintf("%s <%s>", x.ContactName, x.ContactEmail))
	row("About", x.Description)
	if n := len(x.AssociatedSessions); n > 0 {
		row("Sessions", strings.Join(x.AssociatedSessions, ", "))
	}
	for _, l := range x.Links() {
		row(l[0], l[1])
	}
	if len(x.Links()) == 0 {
		row("Links", "none")
	}
	return lipgloss.JoinVertical(lipgloss.Left, out...)
}

// CapturingInput is true while the form or the filter has the keyboard.
func (s *Screen) CapturingInput() bool { return s.dialog.Open() || s.table.Filtering() }

// CapturingBack is true while esc closes the form or clears the filter.
func (s *Screen) CapturingBack() bool { return s.CapturingInput() || s.table.FilterText() != "" }

// ShortHelp implements help.KeyMap.
func (s *Screen) ShortHelp() []key.Binding {
	if s.dialog.Open() {
		return nil
	}
	return []key.Binding{s.keys.Add, s.keys.Refresh}
}

// FullHelp implements help.KeyMap.
func (s *Screen) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{s.keys.Add, s.keys.Refresh}}, s.table.Keys.FullHelp()...)
}
