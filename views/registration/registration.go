// Package registration is the guided registration flow of an event (spec
// 4.6): hub, published event, an access link with its recurring option, a
// ticket type, sessions, then attendees registered through create tickets.
package registration

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
)

// loadMsg carries everything the flow shows.
type loadMsg struct {
	event    *api.Event
	links    []api.AccessLink
	types    []api.TicketType
	sessions []api.Session
	hubName  string // "" when the hub list is unavailable
	err      error
}

// createdMsg reports a create-tickets call.
type createdMsg struct {
	emails []string
	res    *api.TicketsResult
	err    error
}

type keyMap struct {
	Link, Type, Up, Down, Toggle, All, Register, Refresh key.Binding
}

func newKeys() keyMap {
	return keyMap{
		Link:     key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "next link")),
		Type:     key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "next ticket type")),
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "session")),
		Down:     key.NewBinding(key.WithKeys("down", "j")),
		Toggle:   key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "choose session")),
		All:      key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "all/none sessions")),
		Register: key.NewBinding(key.WithKeys("a", "enter"), key.WithHelp("a", "register attendees")),
		Refresh:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
	}
}

// Screen is the guided registration flow of one event.
type Screen struct {
	ctx       *ui.Context
	client    *api.Client
	eventID   string
	eventName string
	keys      keyMap
	loader    ui.Task
	creating  ui.Task
	loading   bool
	err       error

	event    *api.Event
	links    []api.AccessLink // registration links first
	types    []api.TicketType
	sessions []api.Session
	hubName  string
	link     int
	ttype    int
	cursor   int
	chosen   map[string]bool

	busy    bool
	results []string // per email
	summary string
	failed  bool
	dialog  ui.Dialog
	width   int
	height  int
}

// New builds the registration flow of one event.
func New(ctx *ui.Context, client *api.Client, eventID, eventName string) ui.Screen {
	return &Screen{ctx: ctx, client: client, eventID: eventID, eventName: eventName,
		keys: newKeys(), chosen: map[string]bool{}}
}

// Title is the breadcrumb.
func (s *Screen) Title() string { return "Registration" }

// Init loads the event, its links, ticket types and sessions.
func (s *Screen) Init() tea.Cmd { return s.load() }

func (s *Screen) load() tea.Cmd {
	s.loading = true
	client, id := s.client, s.eventID
	return s.loader.Run(func(ctx context.Context) tea.Msg {
		var m loadMsg
		if m.event, m.err = client.Events.Get(ctx, id); m.err != nil {
			return m
		}
		if m.links, m.err = client.AccessLinks.List(ctx, id); m.err != nil {
			return m
		}
		if m.types, m.err = client.Registration.TicketTypes(ctx, id); m.err != nil {
			return m
		}
		if m.sessions, m.err = client.Attendees.Sessions(ctx, id); m.err != nil {
			return m
		}
		// The hub's name is a courtesy: without it the id shows.
		if hubs, err := client.Hubs.List(ctx); err == nil {
			for _, h := range hubs {
				if h.HubID == m.event.HubID {
					m.hubName = h.Name
				}
			}
		}
		return m
	})
}

// Close cancels the load in flight; a registration in flight finishes.
func (s *Screen) Close() { s.loader.Stop() }

// Update handles replies, the form and keys.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case loadMsg:
		s.loading = false
		if msg.err != nil {
			s.err = msg.err
			return s, ui.Toast(ui.ToastError, "Loading the registration flow failed: "+msg.err.Error())
		}
		s.err = nil
		s.apply(msg)
		return s, nil
	case createdMsg:
		return s, s.onCreated(msg)
	}
	if cmd, handled := s.dialog.Update(msg); handled {
		return s, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return s, s.onKey(k)
	}
	return s, nil
}

// apply keeps the user's choices across a refresh where they still exist.
func (s *Screen) apply(m loadMsg) {
	prevLink, prevType := s.currentLinkID(), s.currentTypeID()
	s.event, s.types, s.sessions, s.hubName = m.event, m.types, m.sessions, m.hubName
	s.links = slices.Clone(m.links)
	// Registration links first, the default first among them.
	slices.SortStableFunc(s.links, func(a, b api.AccessLink) int {
		rank := func(l api.AccessLink) int {
			switch {
			case l.Type == api.LinkRegistration && l.IsDefault:
				return 0
			case l.Type == api.LinkRegistration:
				return 1
			}
			return 2
		}
		return rank(a) - rank(b)
	})
	s.link = max(0, slices.IndexFunc(s.links, func(l api.AccessLink) bool { return l.AccessLinkID == prevLink }))
	s.ttype = max(0, slices.IndexFunc(s.types, func(t api.TicketType) bool { return t.TicketTypeID == prevType }))
	if prevLink == "" {
		s.pickLinkType()
	}
	for id := range s.chosen {
		if !slices.ContainsFunc(s.sessions, func(x api.Session) bool { return x.SessionID == id }) {
			delete(s.chosen, id)
		}
	}
	s.cursor = min(s.cursor, max(len(s.sessions)-1, 0))
}

// pickLinkType selects a group-join link's own ticket type.
func (s *Screen) pickLinkType() {
	if l, ok := s.currentLink(); ok && l.TicketTypeID != "" {
		if i := slices.IndexFunc(s.types, func(t api.TicketType) bool { return t.TicketTypeID == l.TicketTypeID }); i >= 0 {
			s.ttype = i
		}
	}
}

func (s *Screen) currentLink() (api.AccessLink, bool) {
	if s.link < len(s.links) {
		return s.links[s.link], true
	}
	return api.AccessLink{}, false
}

func (s *Screen) currentLinkID() string {
	l, _ := s.currentLink()
	return l.AccessLinkID
}

func (s *Screen) currentTypeID() string {
	if s.ttype < len(s.types) {
		return s.types[s.ttype].TicketTypeID
	}
	return ""
}

// option is the recurring option the tickets follow: the chosen link's, or
// all_sessions for a recurring event whose link has none.
func (s *Screen) option() string {
	l, _ := s.currentLink()
	if l.RecurringRegistrationOption != "" {
		return l.RecurringRegistrationOption
	}
	if s.event != nil && s.event.EventType == api.EventTypeRecurring {
		return api.RecurringAllSessions
	}
	return ""
}

func (s *Screen) published() bool { return s.event != nil && s.event.Status == api.StatusPublished }

func (s *Screen) chosenIDs() []string {
	var out []string
	for _, ss := range s.sessions {
		if s.chosen[ss.SessionID] {
			out = append(out, ss.SessionID)
		}
	}
	return out
}

// blocked says why attendees cannot be registered yet, or "".
func (s *Screen) blocked() string {
	switch {
	case s.event == nil:
		return "the event has not loaded yet"
	case !s.published():
		return "publish the event first (p on the event detail)"
	case len(s.types) == 0:
		return "the event has no ticket types"
	}
	switch n := len(s.chosenIDs()); s.option() {
	case api.RecurringSingleSession, api.RecurringMultipleSessions:
		if n == 0 {
			return "choose one or more sessions (space)"
		}
	}
	return ""
}

func (s *Screen) onKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, s.keys.Refresh):
		return s.load()
	case key.Matches(k, s.keys.Link) && len(s.links) > 0:
		s.link = (s.link + 1) % len(s.links)
		s.pickLinkType()
	case key.Matches(k, s.keys.Type) && len(s.types) > 0:
		s.ttype = (s.ttype + 1) % len(s.types)
	case key.Matches(k, s.keys.Up):
		s.cursor = max(s.cursor-1, 0)
	case key.Matches(k, s.keys.Down):
		s.cursor = min(s.cursor+1, max(len(s.sessions)-1, 0))
	case key.Matches(k, s.keys.Toggle), key.Matches(k, s.keys.All):
		if s.option() == api.RecurringAllSessions {
			return ui.Toast(ui.ToastInfo, "This link registers for all sessions: no sessions to choose")
		}
		if key.Matches(k, s.keys.All) {
			all := len(s.chosenIDs()) < len(s.sessions)
			for _, ss := range s.sessions {
				s.chosen[ss.SessionID] = all
			}
		} else if s.cursor < len(s.sessions) {
			id := s.sessions[s.cursor].SessionID
			s.chosen[id] = !s.chosen[id]
		}
	case key.Matches(k, s.keys.Register):
		if s.busy {
			return ui.Toast(ui.ToastInfo, "Wait: a registration is still in progress")
		}
		if why := s.blocked(); why != "" {
			return ui.Toast(ui.ToastInfo, "Cannot register yet: "+why)
		}
		return s.openForm()
	}
	return nil
}

// parseAttendees reads one attendee a line: "email[, first[, last]]".
func parseAttendees(text string) []api.TicketRequest {
	var out []api.TicketRequest
	for _, line := range strings.Split(text, "\n") {
		parts := strings.Split(line, ",")
		if strings.TrimSpace(parts[0]) == "" {
			continue
		}
		t := api.TicketRequest{Email: strings.TrimSpace(parts[0])}
		if len(parts) > 1 {
			t.FirstName = strings.TrimSpace(parts[1])
		}
		if len(parts) > 2 {
			t.LastName = strings.TrimSpace(strings.Join(parts[2:], ","))
		}
		out = append(out, t)
	}
	return out
}

// request builds the tickets for the people typed, per the current choices.
func (s *Screen) request(text string) *api.TicketsRequest {
	opt, ids, typ := s.option(), s.chosenIDs(), s.currentTypeID()
	req := &api.TicketsRequest{Option: opt}
	for _, p := range parseAttendees(text) {
		p.TicketTypeID = typ
		req.Tickets = append(req.Tickets, api.BuildTickets(opt, p, ids)...)
	}
	return req
}

func (s *Screen) openForm() tea.Cmd {
	text := new(string)
	validate := s.validator()
	f := ui.NewForm(s.ctx.Theme, "Register attendees for "+s.eventName, func() tea.Cmd {
		return s.register(*text)
	}, huh.NewGroup(
		huh.NewText().Title("Attendees").
			Description("One a line: email, first name, last name (names optional). alt+enter or ctrl+j: new line.").
			Value(text).CharLimit(20000).Lines(6).Validate(validate),
	))
	return s.dialog.ShowForm(f)
}

// validator checks the typed attendees with the client's rules, naming the
// line of the first problem.
func (s *Screen) validator() func(string) error {
	opt, ids := s.option(), s.chosenIDs()
	return func(text string) error {
		people := parseAttendees(text)
		if len(people) == 0 {
			return errors.New("enter at least one email address")
		}
		for i, p := range people {
			if err := api.CheckEmail(p.Email); err != nil {
				return fmt.Errorf("line %d: email %v", i+1, err)
			}
		}
		req := &api.TicketsRequest{Option: opt}
		for _, p := range people {
			req.Tickets = append(req.Tickets, api.BuildTickets(opt, p, ids)...)
		}
		var ve *api.ValidationError
		if err := req.Validate(); errors.As(err, &ve) {
			return errors.New(ve.Problems[0].Field + " " + ve.Problems[0].Message)
		}
		return nil
	}
}

func (s *Screen) register(text string) tea.Cmd {
	req := s.request(text)
	var emails []string
	for _, t := range req.Tickets {
		if !slices.Contains(emails, t.Email) {
			emails = append(emails, t.Email)
		}
	}
	s.busy = true
	s.summary, s.results, s.failed = "", nil, false
	client, id := s.client, s.eventID
	return s.creating.Detached(func() tea.Msg {
		res, err := client.Registration.CreateTickets(context.Background(), id, req)
		return createdMsg{emails: emails, res: res, err: err}
	})
}

func (s *Screen) onCreated(m createdMsg) tea.Cmd {
	s.busy = false
	s.results = nil
	if m.res != nil {
		counts := map[string]int{}
		for _, t := range m.res.Tickets {
			counts[api.NormalizeEmail(t.Email)]++
		}
		refused := map[string]string{}
		for _, e := range m.res.Errors {
			refused[api.NormalizeEmail(e.Email)] = strings.TrimSuffix(e.Message, ".") + " (" + e.ErrorCode + ")"
		}
		for _, e := range m.emails {
			switch {
			case refused[e] != "":
				s.results = append(s.results, "REFUSED "+e+": "+refused[e])
			case counts[e] > 0:
				s.results = append(s.results, fmt.Sprintf("OK      %s: %s", e, ui.Count(counts[e], "ticket")))
			case m.err != nil:
				s.results = append(s.results, "UNKNOWN "+e+": not sent or no answer")
			}
		}
	}
	var level ui.ToastLevel
	switch {
	case m.err != nil && errors.Is(m.err, api.ErrOutcomeUnknown):
		s.summary, s.failed, level = "ERROR no answer arrived: check the registrants before trying again. "+m.err.Error(), true, ui.ToastError
	case m.err != nil:
		s.summary, s.failed, level = "ERROR "+m.err.Error(), true, ui.ToastError
	case len(m.res.Errors) > 0:
		s.summary, s.failed, level = fmt.Sprintf("PARTLY registered %d of %d people", len(m.emails)-len(m.res.Errors), len(m.emails)), true, ui.ToastError
	default:
		s.summary, level = fmt.Sprintf("OK registered %d %s (%s)", len(m.emails), people(len(m.emails)),
			ui.Count(len(m.res.Tickets), "ticket")), ui.ToastSuccess
	}
	return ui.Toast(level, strings.TrimPrefix(strings.TrimPrefix(s.summary, "OK "), "ERROR "))
}

func people(n int) string {
	if n == 1 {
		return "person"
	}
	return "people"
}

// SetSize lays the screen out.
func (s *Screen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.dialog.SetSize(w, h)
}

// View renders the steps, the sessions and the last results.
func (s *Screen) View() string {
	th := s.ctx.Theme
	st := ui.LoadState{Loading: s.loading, Err: s.err}
	if s.busy {
		st.Busy = "creating tickets"
	}
	head := ui.Heading(th, th.Title.Render("Register attendees: "+s.eventName), st)
	lines := []string{ui.Fit(head, s.width, 1)}
	if s.err != nil && s.event == nil {
		lines = append(lines, ui.Fit(th.Error.Render(s.err.Error()), s.width, 1))
		return strings.Join(lines, "\n")
	}
	if s.event == nil {
		return strings.Join(lines, "\n")
	}
	done := func(ok bool, text string) string {
		if ok {
			return th.Success.Render("[x] ") + text
		}
		return th.Warning.Render("[ ] ") + text
	}
	hub := s.event.HubID
	label := ui.OrDash(hub)
	if s.hubName != "" {
		label = s.hubName
	}
	lines = append(lines, ui.Fit(done(hub != "", "1 Hub         "+label), s.width, 1))
	status := strings.ToLower(s.event.Status)
	if !s.published() {
		status += ": publish it before registering attendees"
	}
	lines = append(lines, ui.Fit(done(s.published(), "2 Published   "+status), s.width, 1))
	l, hasLink := s.currentLink()
	linkText := "none: create one with l on the event detail"
	if hasLink {
		linkText = fmt.Sprintf("%s [%s]  (%d of %d, l next)", l.Name, l.Type, s.link+1, len(s.links))
	}
	lines = append(lines, ui.Fit(done(hasLink, "3 Access link "+linkText), s.width, 1))
	typeText := "none"
	if s.ttype < len(s.types) {
		typeText = fmt.Sprintf("%s  (%d of %d, t next)", s.types[s.ttype].Label(), s.ttype+1, len(s.types))
	}
	lines = append(lines, ui.Fit("    Ticket type "+typeText, s.width, 1))
	opt := s.option()
	optText := "not a recurring event: sessions optional"
	if opt != "" {
		optText = opt + ": " + api.RecurringOptionLabel(opt)
	}
	lines = append(lines, ui.Fit("    Registers   "+optText, s.width, 1))
	n := len(s.chosenIDs())
	sessText := fmt.Sprintf("%d of %d chosen", n, len(s.sessions))
	if opt == api.RecurringAllSessions {
		sessText = fmt.Sprintf("all %d", len(s.sessions))
	}
	lines = append(lines, ui.Fit(done(opt == "" || opt == api.RecurringAllSessions || n > 0, "4 Sessions    "+sessText), s.width, 1))

	// Results take their lines; the sessions list gets what is left.
	res := s.resultLines()
	avail := s.height - len(lines) - len(res) - 2
	if avail > 0 && len(s.sessions) > 0 {
		first := 0
		if s.cursor >= avail {
			first = s.cursor - avail + 1
		}
		for i := first; i < min(len(s.sessions), first+avail); i++ {
			ss := s.sessions[i]
			mark := "[ ]"
			if s.chosen[ss.SessionID] || opt == api.RecurringAllSessions {
				mark = "[x]"
			}
			when := ""
			if ss.StartTime != nil {
				t := ss.StartTime.UTC()
				if loc, err := time.LoadLocation(ss.Timezone); err == nil && ss.Timezone != "" {
					t = t.In(loc)
				}
				when = t.Format("Mon 02 Jan 15:04") + "  "
			}
			row := "  " + mark + " " + when + ss.Name
			if i == s.cursor {
				row = th.Selected.Render(row)
			}
			lines = append(lines, ui.Fit(row, s.width, 1))
		}
	}
	step5 := "5 Attendees   press a to enter emails and create tickets"
	if why := s.blocked(); why != "" {
		step5 = "5 Attendees   not yet: " + why
	}
	lines = append(lines, ui.Fit(done(s.blocked() == "" && s.summary != "" && !s.failed, step5), s.width, 1))
	lines = append(lines, res...)
	return s.dialog.View(strings.Join(lines, "\n"), s.width, s.height)
}

// maxResults bounds the per-email lines.
const maxResults = 6

func (s *Screen) resultLines() []string {
	if s.summary == "" {
		return nil
	}
	th := s.ctx.Theme
	st := th.Success
	if s.failed {
		st = th.Error
	}
	out := []string{ui.Fit(st.Render(s.summary), s.width, 1)}
	for i, r := range s.results {
		if i == maxResults {
			out = append(out, ui.Fit(fmt.Sprintf("  ...and %d more", len(s.results)-i), s.width, 1))
			break
		}
		st := th.Success
		if !strings.HasPrefix(r, "OK") {
			st = th.Error
		}
		out = append(out, ui.Fit("  "+st.Render(r), s.width, 1))
	}
	return out
}

// CapturingInput is true while the form has the keyboard.
func (s *Screen) CapturingInput() bool { return s.dialog.Open() }

// CapturingBack is true while esc closes the form.
func (s *Screen) CapturingBack() bool { return s.dialog.Open() }

// ShortHelp implements help.KeyMap.
func (s *Screen) ShortHelp() []key.Binding {
	if s.dialog.Open() {
		return nil
	}
	return []key.Binding{s.keys.Link, s.keys.Type, s.keys.Toggle, s.keys.Register, s.keys.Refresh}
}

// FullHelp implements help.KeyMap.
func (s *Screen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.keys.Link, s.keys.Type, s.keys.Up, s.keys.Toggle, s.keys.All}, {s.keys.Register, s.keys.Refresh}}
}
