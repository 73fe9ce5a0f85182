// Package exhibitors is the exhibitors screen of a conference event: its
// exhibitors and sponsors with their tiers (by the names the user gave
// them, package tiernames), a detail pane with contact and links, and forms
// to add one and to name a tier.
package exhibitors

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/tiernames"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/resource"
	"github.com/evdesk/evdesk/ui/table"
)

// createdMsg answers an exhibitor's creation.
type createdMsg struct {
	x   *api.Exhibitor
	err error
}

// namesMsg carries the tier names read from the user's file.
type namesMsg struct {
	names tiernames.Names
	err   error
}

// sessionsMsg carries the event's sessions, so exhibitors' sessions show
// by name and the add form offers them to choose from.
type sessionsMsg struct {
	items []api.Session
	err   error
}

// namedMsg answers the naming of a tier: the file's names once written.
type namedMsg struct {
	id, name string
	names    tiernames.Names
	err      error
}

// Screen lists an event's exhibitors and sponsors.
type Screen struct {
	*resource.Base[api.Exhibitor]
	client    *api.Client
	eventID   string
	eventName string
	// tierFile holds the tier names; names is what it held last (empty
	// when it cannot be read: the ids show).
	tierFile  string
	names     tiernames.Names
	namesLoad ui.Task
	naming    ui.Task
	// sessions are the event's sessions as last loaded (nil when they
	// could not be: ids show and the form takes ids).
	sessions     []api.Session
	sessionsLoad ui.Task
	pane         int // the detail pane's height, set by layout
}

// New builds the exhibitors screen of one event; tier names come from
// tiernames.Path().
func New(ctx *ui.Context, client *api.Client, eventID, eventName string) ui.Screen {
	s := &Screen{client: client, eventID: eventID, eventName: eventName, tierFile: tiernames.Path()}
	s.Base = resource.New(ctx, resource.Config[api.Exhibitor]{
		Actions: s.actions,
		Heading: "Exhibitors of " + eventName,
		Summary: summary,
		Loading: "Loading exhibitors",
		Explain: explain,
		Empty:   "No exhibitors yet. Press a to add one.",
		Columns: []table.Column{
			{Title: "Name", Width: 18, Flex: 2},
			{Title: "Kind", Width: 9},
			{Title: "Tier", Width: 10},
			{Title: "Contact", Width: 18, Flex: 2},
			{Title: "Sessions", Width: 8},
		},
		Load:     func(ctx context.Context) ([]api.Exhibitor, error) { return client.Exhibitors.List(ctx, eventID) },
		LoadAlso: func() tea.Cmd { return tea.Batch(s.loadNames(), s.loadSessions()) },
		Row: func(x api.Exhibitor) table.Row {
			return table.Row{ID: x.ExhibitorID, Cells: []string{x.Name, kind(x), s.tierLabel(x.TierID),
				x.ContactName, fmt.Sprint(len(x.AssociatedSessions))}}
		},
	})
	return s
}

// Title is the breadcrumb.
func (s *Screen) Title() string { return "Exhibitors" }

// loadNames reads the tier names with every load of the list (the file
// may have been edited meanwhile).
func (s *Screen) loadNames() tea.Cmd {
	path := s.tierFile
	return s.namesLoad.Run(func(context.Context) tea.Msg {
		names, err := tiernames.Load(path)
		return namesMsg{names: names, err: err}
	})
}

// loadSessions reads the event's sessions with every load of the list.
func (s *Screen) loadSessions() tea.Cmd {
	client, id := s.client, s.eventID
	return s.sessionsLoad.Run(func(ctx context.Context) tea.Msg {
		items, err := client.Attendees.Sessions(ctx, id)
		return sessionsMsg{items: items, err: err}
	})
}

// sessionName is a session's name, or its id when the sessions are not
// known.
func (s *Screen) sessionName(id string) string {
	for _, x := range s.sessions {
		if x.SessionID == id && strings.TrimSpace(x.Name) != "" {
			return x.Name
		}
	}
	return id
}

// Close cancels the loads in flight; a tier name being saved is written.
func (s *Screen) Close() {
	s.Base.Close()
	s.namesLoad.Stop()
	s.sessionsLoad.Stop()
}

// actions are what the screen lets the user do.
func (s *Screen) actions() ui.Actions {
	k := s.Ctx.Keys
	return ui.Actions{
		{Writes: true, Key: k.Add, Help: "add exhibitor", Run: s.openAdd, Why: func() string {
			if why := s.NotBusy(); why != "" {
				return why
			}
			if api.IsCode(s.Err(), api.CodeUnsupportedEventType) {
				return "Add: only conference (multi-session) events have exhibitors"
			}
			return ""
		}},
		{Key: k.Edit, Help: "name tier", Run: s.openNameTier, Why: s.whyNotName},
	}
}

// whyNotName says why the selected row's tier cannot be named now.
func (s *Screen) whyNotName() string {
	x, ok := s.Selected()
	switch {
	case s.naming.Running():
		return "Wait: the last tier name is still being saved"
	case !ok:
		return "No exhibitor selected: name a tier on a sponsor's row"
	case !x.IsSponsor:
		return x.Name + " is an exhibitor, not a sponsor: only sponsors have a tier to name"
	case x.TierID == "":
		return x.Name + " has no tier id, so there is no tier to name"
	}
	return ""
}

// Update handles the creation's answer, then what every resource screen
// handles; the table's height follows the rows loaded.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	var cmd tea.Cmd
	switch m := msg.(type) {
	case createdMsg:
		cmd = s.onCreated(m)
	case namesMsg:
		s.names = m.names
		s.Redraw()
		if m.err != nil {
			cmd = ui.Fail("Reading tier names", fmt.Errorf("ids show until it is fixed: %w", m.err))
		}
	case sessionsMsg:
		s.sessions = m.items
		if m.err != nil && !api.IsCode(m.err, api.CodeUnsupportedEventType) {
			cmd = ui.Fail("Loading the event's sessions", fmt.Errorf("session ids show: %w", m.err))
		}
	case namedMsg:
		cmd = s.onNamed(m)
	default:
		cmd = s.Base.Update(msg)
	}
	s.layout()
	return s, cmd
}

func (s *Screen) onNamed(m namedMsg) tea.Cmd {
	if m.err != nil {
		return ui.Fail("Naming tier "+m.id, m.err)
	}
	s.names = m.names
	s.Redraw()
	if m.name == "" {
		return ui.Toast(ui.ToastSuccess, "Tier "+m.id+" shows its id again")
	}
	return ui.Toast(ui.ToastSuccess, fmt.Sprintf("Tier %s is now named %s", m.id, m.name))
}

// openNameTier asks for the selected sponsor's tier name, prefilled with
// the current one; an empty name clears it.
func (s *Screen) openNameTier() tea.Cmd {
	x, _ := s.Selected()
	id, name := x.TierID, s.names.Name(x.TierID)
	f := ui.NewForm(s.Ctx.Theme, "Name the sponsor tier of "+x.Name,
		func() tea.Cmd { return s.saveName(id, strings.TrimSpace(name)) },
		huh.NewGroup(huh.NewInput().Title("Tier name").Value(&name).CharLimit(tiernames.MaxNameLen).
			Description("Tier id "+id+". Shown in place of the id, on this computer only; empty shows the id again.").
			Validate(func(v string) error {
				if strings.TrimSpace(v) == "" {
					return nil
				}
				return tiernames.CheckName(v)
			})),
	)
	return s.Dialog.ShowForm(f)
}

// saveName writes the tier's name in the background: the file is read
// again and replaced whole.
func (s *Screen) saveName(id, name string) tea.Cmd {
	path := s.tierFile
	return s.naming.Detached(func() tea.Msg {
		names, err := tiernames.Set(path, id, name)
		return namedMsg{id: id, name: name, names: names, err: err}
	})
}

func (s *Screen) onCreated(m createdMsg) tea.Cmd {
	if m.err != nil {
		text := explain(m.err)
		if errors.Is(m.err, api.ErrOutcomeUnknown) {
			text = "The exhibitor may or may not have been added (no answer arrived): press r to check before adding again. " + text
		}
		return tea.Batch(ui.Fail("Add exhibitor", ui.Explain(text, m.err)), s.Done())
	}
	return tea.Batch(ui.Toast(ui.ToastSuccess, "Added "+m.x.Name), s.Done())
}

// kind is what the table's Kind column calls x.
func kind(x api.Exhibitor) string {
	if x.IsSponsor {
		return "Sponsor"
	}
	return "Exhibitor"
}

// summary counts the rows by their kind, so the two counts add up to the
// rows shown ("3 exhibitors, 5 sponsors" for eight rows).
func summary(list []api.Exhibitor) string {
	sponsors := 0
	for _, x := range list {
		if x.IsSponsor {
			sponsors++
		}
	}
	return ui.Count(len(list)-sponsors, "exhibitor") + ", " + ui.Count(sponsors, "sponsor")
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

// tierLabel is the name the user gave tier id, else the start of the id
// (the detail pane shows it whole).
func (s *Screen) tierLabel(id string) string {
	switch {
	case id == "":
		return "-"
	case s.names.Name(id) != "":
		return s.names.Name(id)
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

// tiersInUse lists the tiers the event's sponsors carry, for the form:
// "Gold = id" when named, else the id.
func (s *Screen) tiersInUse() []string {
	var ids, out []string
	for _, x := range s.Items {
		if x.TierID != "" && !slices.Contains(ids, x.TierID) {
			ids = append(ids, x.TierID)
			if name := s.names.Name(x.TierID); name != "" {
				out = append(out, name+" = "+x.TierID)
			} else {
				out = append(out, x.TierID)
			}
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
	// chosen are the sessions picked from the event's list; when the
	// list is not known, sessions holds typed ids instead.
	chosen []string
	// named maps the names of the tiers in use (lower case) to their ids,
	// so a name typed in the tier field is sent as its id.
	named map[string]string
}

func (f *addForm) request() api.ExhibitorCreate {
	t := strings.TrimSpace
	req := api.ExhibitorCreate{Name: t(f.name), ContactName: t(f.contact), ContactEmail: t(f.email),
		IsSponsor: f.sponsor, Description: t(f.description), Website: t(f.website), PrivacyPolicy: t(f.privacy),
		LinkedInURL: t(f.linkedin), TwitterURL: t(f.twitter), YouTubeURL: t(f.youtube),
		InstagramURL: t(f.instagram), FacebookURL: t(f.facebook)}
	if f.sponsor {
		req.TierID = t(f.tier)
		if id, ok := f.named[strings.ToLower(req.TierID)]; ok {
			req.TierID = id
		}
	}
	req.AssociatedSessions = append(slices.Clone(f.chosen), strings.FieldsFunc(f.sessions, func(r rune) bool { return r == ',' || r == ' ' || r == ';' })...)
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
	client, id := s.client, s.eventID
	return s.Do("adding an exhibitor", func() tea.Msg {
		x, err := client.Exhibitors.Create(context.Background(), id, req)
		return createdMsg{x: x, err: err}
	})
}

func (s *Screen) openAdd() tea.Cmd {
	v := &addForm{named: map[string]string{}}
	for _, x := range s.Items {
		if name := s.names.Name(x.TierID); name != "" {
			v.named[strings.ToLower(name)] = x.TierID
		}
	}
	check := func(field string, set func(string)) func(string) error {
		return func(x string) error {
			set(x)
			return problem(v.request(), field)
		}
	}
	tierDesc := "Required for a sponsor."
	if used := s.tiersInUse(); len(used) > 0 {
		tierDesc = "In use: " + strings.Join(used, ", ")
		if len(v.named) > 0 {
			tierDesc += ". A name stands for its id."
		}
	}
	input := func(title, field string, dst *string, set func(string)) *huh.Input {
		return huh.NewInput().Title(title).Value(dst).Validate(check(field, set))
	}
	f := ui.NewForm(s.Ctx.Theme, fmt.Sprintf("Add an exhibitor to %q", s.eventName),
		func() tea.Cmd { return s.create(v.request()) },
		huh.NewGroup(
			input("Name", "name", &v.name, func(x string) { v.name = x }),
			input("Contact name", "contact_name", &v.contact, func(x string) { v.contact = x }),
			input("Contact email", "contact_email", &v.email, func(x string) { v.email = x }),
			huh.NewConfirm().Title("Sponsor?").Value(&v.sponsor),
		),
		huh.NewGroup(
			input("Sponsor tier id", "tier_id", &v.tier, func(x string) { v.tier = x }).Description(tierDesc),
			s.sessionsField(v, check),
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
	return s.Dialog.ShowForm(f)
}

// SetSize lays the screen out.
func (s *Screen) SetSize(w, h int) {
	s.Base.SetSize(w, h)
	s.layout()
}

// detailLines is the most the detail pane can need: name, contact, about,
// sessions and seven links.
const detailLines = 11

// detailHeight is what the detail pane needs for the tallest exhibitor
// loaded, so the table keeps one height as the cursor moves and gets
// the rest of the screen.
func (s *Screen) detailHeight() int {
	h := 3
	for i := range s.Items {
		x := &s.Items[i]
		n := 2 // name and contact
		if strings.TrimSpace(x.Description) != "" {
			n++
		}
		if len(x.AssociatedSessions) > 0 {
			n++
		}
		h = max(h, n+max(len(x.Links()), 1))
	}
	return min(h, detailLines)
}

// layout sizes the table and the detail pane for the items loaded; the
// pane is left out (0) when the screen is too short for both.
func (s *Screen) layout() {
	avail := max(s.Height()-1, 3)
	s.pane = s.detailHeight()
	if avail-s.pane-1 < 5 { // the pane, a blank line above it, a table of 5
		s.pane = 0
		s.SetTableHeight(avail)
		return
	}
	s.SetTableHeight(min(max(len(s.Items), 3)+4, avail-s.pane-1))
}

// View renders the heading, the table and the detail pane.
func (s *Screen) View() string {
	var below []string
	if s.pane > 0 {
		below = []string{"", ui.Fit(s.detail(), s.Width(), s.pane)}
	}
	return s.Base.View(nil, below)
}

// tierDetail names a tier whole for the detail pane: the name and its id.
func (s *Screen) tierDetail(id string) string {
	if name := s.names.Name(id); name != "" {
		return name + " (" + id + ")"
	}
	return id
}

// detail shows the selected exhibitor's contact, description and links.
func (s *Screen) detail() string {
	th := s.Ctx.Theme
	x, ok := s.Selected()
	if !ok {
		return ""
	}
	what := kind(x)
	if x.IsSponsor {
		what += ", tier " + s.tierDetail(x.TierID)
	}
	out := []string{ui.Fit(th.Header.Render(x.Name)+th.Muted.Render("  "+what), s.Width(), 1)}
	row := func(label, value string) {
		if strings.TrimSpace(value) != "" {
			out = append(out, ui.Fit("  "+th.Muted.Render(fmt.Sprintf("%-15s", label))+value, s.Width(), 1))
		}
	}
	row("Contact", fmt.Sprintf("%s <%s>", x.ContactName, x.ContactEmail))
	row("About", x.Description)
	if n := len(x.AssociatedSessions); n > 0 {
		names := make([]string, len(x.AssociatedSessions))
		for i, id := range x.AssociatedSessions {
			names[i] = s.sessionName(id)
		}
		row("Sessions", strings.Join(names, ", "))
	}
	for _, l := range x.Links() {
		row(l[0], l[1])
	}
	if len(x.Links()) == 0 {
		row("Links", "none")
	}
	return lipgloss.JoinVertical(lipgloss.Left, out...)
}

// sessionsField lets the user choose the exhibitor's sessions from the
// event's list, by name and start; when the list could not be loaded it
// takes ids typed by hand.
func (s *Screen) sessionsField(v *addForm, check func(string, func(string)) func(string) error) huh.Field {
	if len(s.sessions) == 0 {
		return huh.NewInput().Title("Session ids").Value(&v.sessions).
			Validate(check("associated_sessions", func(x string) { v.sessions = x })).
			Description("Optional; separated by commas.")
	}
	opts := make([]huh.Option[string], len(s.sessions))
	for i, x := range s.sessions {
		label := x.Name
		if x.StartTime != nil { // in the session's own zone: the venue's time
			label += "  " + ui.ZoneTime(*x.StartTime, x.Timezone, time.UTC)
		}
		opts[i] = huh.NewOption(label, x.SessionID)
	}
	return huh.NewMultiSelect[string]().Title("Sessions").Options(opts...).Value(&v.chosen).
		Description("Optional; space chooses, enter goes on.").Height(min(len(opts)+2, 8))
}
