// Package registration is the guided registration flow of an event (spec
// 4.6): hub, published event, an access link with its recurring option, a
// ticket type, sessions, then attendees registered through create tickets.
// The sessions still to come are the screen's list; an event that takes no
// registrations (a draft, a cancelled event) is refused at once, in words.
// An event whose registration form has required questions names them when
// it refuses tickets without answers (260504); the attendees form then asks
// for them.
package registration

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/resource"
	"github.com/evdesk/evdesk/ui/table"
	"github.com/evdesk/evdesk/views"
)

// flowMsg carries the event and what registering needs besides its
// sessions (the base loads those once the event is known to be open).
type flowMsg struct {
	event     *api.Event
	cancelled bool
	links     []api.AccessLink
	types     []api.TicketType
	hubName   string // "" when the hub list is unavailable
	err       error
}

// Screen is the guided registration flow of one event.
type Screen struct {
	*resource.Base[api.Session]
	client    *api.Client
	eventID   string
	eventName string
	now       func() time.Time
	learn     func(eventID string, asked []api.TicketRequest, res *api.TicketsResult)
	flow      ui.Task
	flowErr   error

	event   *api.Event
	closed  string           // why the event takes no registrations; "" when it does
	links   []api.AccessLink // registration links first
	types   []api.TicketType
	hubName string
	link    int
	ttype   int
	chosen  map[string]bool

	results []string // per email
	summary string
	failed  bool

	// questions are the required registration questions the server named
	// (260504); answers the last answers typed to them, and typed the last
	// attendees, both kept to fill the form again.
	questions []string
	answers   map[string]string
	typed     string
}

// New builds the registration flow of one event: env's clock decides
// which sessions are over, and env.LearnNames (when set) hears what each
// registration made, in the background (the check-in desks keep the names
// of the people registered).
func New(ctx *ui.Context, env views.Env, eventID, eventName string) ui.Screen {
	env = env.WithDefaults()
	client := env.Client
	s := &Screen{client: client, eventID: eventID, eventName: eventName, now: env.Now, learn: env.LearnNames,
		chosen: map[string]bool{}, answers: map[string]string{}}
	now := s.now
	s.Base = resource.New(ctx, resource.Config[api.Session]{
		Actions: s.actions,
		Heading: "Register attendees: " + eventName,
		Noun:    "session",
		Loading: "Loading sessions",
		Empty:   "No sessions still to come: past sessions are not offered.",
		Columns: []table.Column{
			{Title: "", Width: 3},
			{Title: "When", Width: 21},
			{Title: "Session", Width: 20, Flex: 1},
		},
		Load: func(ctx context.Context) ([]api.Session, error) {
			all, err := client.Attendees.Sessions(ctx, eventID)
			return notOver(all, now()), err
		},
		Row: s.row,
	})
	s.SetRefresh(s.load) // the whole flow, then the sessions
	return s
}

// notOver keeps the sessions that have not ended (that have not started,
// when the end is unknown): a past session is never offered.
func notOver(all []api.Session, now time.Time) []api.Session {
	out := make([]api.Session, 0, len(all))
	for _, ss := range all {
		end := ss.EndTime
		if end == nil {
			end = ss.StartTime
		}
		if end == nil || end.After(now) {
			out = append(out, ss)
		}
	}
	return out
}

// Title is the breadcrumb.
func (s *Screen) Title() string { return "Registration" }

// Init loads the event, then (if it takes registrations) its sessions.
func (s *Screen) Init() tea.Cmd { return s.load() }

// maxCancelledScan bounds the cancelled events read to find this one.
const maxCancelledScan = 3000

func (s *Screen) load() tea.Cmd {
	client, id := s.client, s.eventID
	return s.flow.Run(func(ctx context.Context) tea.Msg {
		var m flowMsg
		if m.event, m.err = client.Events.Get(ctx, id); m.err != nil || !published(m.event) {
			return m
		}
		// A cancelled event keeps its PUBLISHED status: only the cancelled
		// listing tells.
		if m.cancelled, m.err = cancelled(ctx, client, id); m.err != nil || m.cancelled {
			return m
		}
		if m.links, m.err = client.AccessLinks.List(ctx, id); m.err != nil {
			return m
		}
		if m.types, m.err = client.Registration.TicketTypes(ctx, id); m.err != nil {
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

// cancelled reports whether the event is among the cancelled ones.
func cancelled(ctx context.Context, client *api.Client, id string) (bool, error) {
	n := 0
	for e, err := range client.Events.List(ctx, api.ListEventsOptions{StatusType: api.ListCancelled, PageSize: 300}) {
		if err != nil {
			return false, fmt.Errorf("checking whether the event was cancelled: %w", err)
		}
		if e.EventID == id {
			return true, nil
		}
		if n++; n >= maxCancelledScan {
			break // past the bound the server's own refusal will say it
		}
	}
	return false, nil
}

func published(e *api.Event) bool {
	return e != nil && strings.EqualFold(e.Status, api.StatusPublished)
}

// Close cancels the loads in flight; a registration in flight finishes.
func (s *Screen) Close() {
	s.flow.Stop()
	s.Base.Close()
}

// Update handles the flow and the registration's answers; the rest (the
// sessions' pages, the dialog, the actions' keys, the table) is the base's.
// r reloads the whole flow, not only the sessions.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case flowMsg:
		cmd = s.onFlow(msg)
	case createdMsg:
		cmd = s.onCreated(msg)
	default:
		cmd = s.Base.Update(msg)
	}
	s.layout()
	return s, cmd
}

func (s *Screen) onFlow(m flowMsg) tea.Cmd {
	if m.err != nil {
		s.flowErr = m.err
		return ui.Fail("Loading the registration flow", m.err)
	}
	s.flowErr = nil
	s.event = m.event
	s.closed = s.closedReason(m.event, m.cancelled)
	if s.closed != "" {
		return nil
	}
	s.apply(m)
	return s.Reload()
}

// closedReason says, in words, why the event takes no registrations, or "".
func (s *Screen) closedReason(e *api.Event, cancelled bool) string {
	name := fmt.Sprintf("%q", s.eventName)
	switch {
	case cancelled:
		return name + " was cancelled: a cancelled event takes no registrations."
	case strings.EqualFold(e.Status, api.StatusDraft):
		return name + " is a draft: publish it first (" + s.Ctx.Keys.Publish.Help().Key +
			" on the event detail), then register attendees."
	case !published(e):
		return fmt.Sprintf("%s is %s, not published: only a published event takes registrations.",
			name, strings.ToLower(ui.OrDash(e.Status)))
	}
	return ""
}

// apply keeps the user's choices across a refresh where they still exist.
func (s *Screen) apply(m flowMsg) {
	prevLink, prevType := s.currentLinkID(), s.currentTypeID()
	s.types, s.hubName = m.types, m.hubName
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

// chosenIDs are the chosen sessions still offered, in the list's order.
func (s *Screen) chosenIDs() []string {
	var out []string
	for _, ss := range s.Items {
		if s.chosen[ss.SessionID] {
			out = append(out, ss.SessionID)
		}
	}
	return out
}

// row is a session's line: a mark, when it starts (in its own zone) and
// its name.
func (s *Screen) row(ss api.Session) table.Row {
	mark := "[ ]"
	if s.chosen[ss.SessionID] || s.option() == api.RecurringAllSessions {
		mark = "[x]"
	}
	when := "-"
	if ss.StartTime != nil {
		when = ui.ZoneTime(*ss.StartTime, ss.Timezone, time.UTC)
	}
	return table.Row{ID: ss.SessionID, Cells: []string{mark, when, ss.Name}}
}

// remark redraws every session's mark (the link's option decides them).
func (s *Screen) remark() {
	rows := table.NewRows(len(s.Items))
	for _, ss := range s.Items {
		rows.Add(s.row(ss))
	}
	s.Table.SetRows(rows)
}

// The steps the user takes, each an action.
type step int

const (
	stepChoose   step = iota // the access link and the ticket type
	stepSessions             // the sessions
	stepRegister             // the attendees
)

// actions are what the screen lets the user do.
func (s *Screen) actions() ui.Actions {
	k := s.Ctx.Keys
	why := func(st step) func() string { return func() string { return s.whyNot(st) } }
	register := ui.Action{Writes: true, Key: k.Add, Help: "register attendees", Why: why(stepRegister), Run: s.openForm}
	enter := register
	enter.Key, enter.Minor = k.Open, true
	if s.closed != "" { // nothing to choose; a and enter say why
		return ui.Actions{register, enter}
	}
	return ui.Actions{
		{Key: k.Edit, Help: "choose link and ticket type", Why: why(stepChoose), Run: s.openChoice},
		{Key: k.Toggle, Help: "choose session", Why: why(stepSessions), Run: s.toggle},
		{Key: k.ToggleAll, Help: "all/none sessions", Minor: true, Why: why(stepSessions), Run: s.toggleAll},
		register, enter,
	}
}

// whyNot says why a step cannot be taken now, or "": the flow's order is
// here and nowhere else.
func (s *Screen) whyNot(st step) string {
	if st == stepRegister && s.NotBusy() != "" {
		return s.NotBusy()
	}
	switch {
	case s.event == nil:
		return "Wait: the event has not loaded yet"
	case s.closed != "":
		return "Registration is closed: " + s.closed
	}
	switch st {
	case stepChoose:
		if len(s.links) == 0 && len(s.types) == 0 {
			return "Nothing to choose: the event has no access links and no ticket types"
		}
	case stepSessions:
		switch {
		case s.option() == api.RecurringAllSessions:
			return "This link registers for all sessions: no sessions to choose"
		case len(s.Items) == 0:
			return "No sessions to choose: none is still to come"
		}
	case stepRegister:
		if why := s.missing(); why != "" {
			return "Cannot register yet: " + why
		}
	}
	return ""
}

// missing says what the open event's attendees still wait for (step 5's
// line), or "".
func (s *Screen) missing() string {
	if len(s.types) == 0 {
		return "the event has no ticket types"
	}
	switch n := len(s.chosenIDs()); s.option() {
	case api.RecurringSingleSession, api.RecurringMultipleSessions:
		if n == 0 {
			return "choose one or more sessions (" + s.Ctx.Keys.Toggle.Help().Key + ")"
		}
	}
	return ""
}

func (s *Screen) toggle() tea.Cmd {
	if ss, ok := s.Selected(); ok {
		s.chosen[ss.SessionID] = !s.chosen[ss.SessionID]
		s.Table.UpdateRow(s.row(ss))
	}
	return nil
}

func (s *Screen) toggleAll() tea.Cmd {
	all := len(s.chosenIDs()) < len(s.Items)
	for _, ss := range s.Items {
		s.chosen[ss.SessionID] = all
	}
	s.remark()
	return nil
}

// openChoice asks for the access link and the ticket type. A link that
// brings its own ticket type (group-join) sets it, unless the type is
// changed in the same form.
func (s *Screen) openChoice() tea.Cmd {
	prevLink, prevType := s.currentLinkID(), s.currentTypeID()
	link, typ := new(string), new(string)
	*link, *typ = prevLink, prevType
	var fields []huh.Field
	if len(s.links) > 0 {
		opts := make([]huh.Option[string], len(s.links))
		for i, l := range s.links {
			label := fmt.Sprintf("%s [%s]", l.Name, l.Type)
			if l.IsDefault {
				label += " (default)"
			}
			opts[i] = huh.NewOption(label, l.AccessLinkID)
		}
		fields = append(fields, huh.NewSelect[string]().Title("Access link").
			Description("Its registration option decides which sessions to choose.").Options(opts...).Value(link))
	}
	if len(s.types) > 0 {
		opts := make([]huh.Option[string], len(s.types))
		for i, t := range s.types {
			opts[i] = huh.NewOption(t.Label(), t.TicketTypeID)
		}
		fields = append(fields, huh.NewSelect[string]().Title("Ticket type").
			Description("A group-join link brings its own unless you pick one here.").Options(opts...).Value(typ))
	}
	f := ui.NewForm(s.Ctx.Theme, "Link and ticket type for "+s.eventName, func() tea.Cmd {
		s.choose(*link, *typ, prevLink, prevType)
		return nil
	}, huh.NewGroup(fields...))
	return s.Dialog.ShowForm(f)
}

// choose applies the form's answers.
func (s *Screen) choose(link, typ, prevLink, prevType string) {
	if i := slices.IndexFunc(s.links, func(l api.AccessLink) bool { return l.AccessLinkID == link }); i >= 0 {
		s.link = i
	}
	if i := slices.IndexFunc(s.types, func(t api.TicketType) bool { return t.TicketTypeID == typ }); i >= 0 {
		s.ttype = i
	}
	if link != prevLink && typ == prevType {
		s.pickLinkType()
	}
	s.remark()
}

// SetSize lays the screen out.
func (s *Screen) SetSize(w, h int) {
	s.Base.SetSize(w, h)
	s.layout()
}

// layout gives the sessions table the lines the steps and results leave,
// no more than its rows need, so step 5 follows the sessions.
func (s *Screen) layout() {
	avail := s.Height() - 1 - len(s.steps()) - len(s.after())
	s.SetTableHeight(min(max(len(s.Items), 1)+2, avail))
}

// View renders the steps, the sessions and the last results; an event that
// takes no registrations gets only the reason.
func (s *Screen) View() string {
	if s.event == nil || s.closed != "" {
		return s.refusal()
	}
	return s.Base.View(s.steps(), s.after())
}
