package checkin

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
	"github.com/evdesk/evdesk/views"
)

// Picker chooses what to check attendees in to: one of the user's upcoming
// published events, then the whole event or one of its sessions. Enter
// opens the desk; h opens the history.
type Picker struct {
	ui.ScreenBase
	ctx  *ui.Context // the base's, by its old name (the tests')
	deps views.Env

	events  table.Model
	byID    map[string]api.Event
	stream  ui.Stream[api.Event]
	loading bool
	err     error

	// The second step: the sessions of the chosen event. fixed: the
	// picker was opened for one event and has no first step.
	fixed    bool
	chosen   *api.Event
	sessions table.Model
	sessByID map[string]api.Session
	sessTask ui.Task
	sessLoad bool
	sessErr  error
}

// wholeEvent is the sessions table's row for checking in to the event.
const wholeEvent = "\x00whole"

type (
	pickerSessionsMsg struct {
		items []api.Session
		err   error
	}
)

// NewPicker lists the user's upcoming events for a check-in desk.
func NewPicker(ctx *ui.Context, d views.Env) ui.Screen {
	d = withDefaults(d)
	ev := table.New(ctx.Theme,
		table.Column{Title: "Event", Width: 20, Flex: 3},
		table.Column{Title: "Type", Width: 10},
		table.Column{Title: "Attendance", Width: 10},
		table.Column{Title: "Starts (local)", Width: 16},
	)
	ev.SetEmptyText("No upcoming published events. Press r to refresh.")
	ev.SetSort(3, false) // the soonest next start first: a recurring event's first one is long past
	ss := table.New(ctx.Theme,
		table.Column{Title: "Check in to", Width: 20, Flex: 3},
		table.Column{Title: "Starts (local)", Width: 16},
		table.Column{Title: "Where", Width: 10, Flex: 2},
	)
	ss.Pin(wholeEvent) // first, whatever the sort
	p := &Picker{ctx: ctx, deps: d, events: ev, sessions: ss, byID: map[string]api.Event{}}
	p.ScreenBase = ui.NewScreenBase(ctx, ui.ScreenConfig{Actions: p.actions, List: stepList{p}, Refresh: p.refresh,
		Body: func(msg tea.Msg) tea.Cmd {
			t := p.current()
			var cmd tea.Cmd
			*t, cmd = t.Update(msg)
			return cmd
		},
		Help: ev.Keys.ShortHelp(), Nav: ev.Keys.Navigation()})
	return p
}

// actions open the desk (or the chosen event's sessions) and the history;
// esc goes back from the sessions to the events.
func (p *Picker) actions() ui.Actions {
	k := p.ctx.Keys
	as := ui.Actions{
		{Key: ui.With(k.Open, "open desk"), Run: p.open},
		{Key: ui.With(k.History, "history"), Run: p.history},
	}
	if !p.fixed && p.chosen != nil && p.sessions.FilterText() == "" {
		as = append(as, ui.Action{Key: ui.With(k.Back, "other events"), Minor: true, Run: func() tea.Cmd { p.back(); return nil }})
	}
	return as
}

// stepList is the picker's list: the table of the step it is at.
type stepList struct{ p *Picker }

func (l stepList) Filtering() bool    { return l.p.current().Filtering() }
func (l stepList) FilterText() string { return l.p.current().FilterText() }

// NewSessionPicker opens a desk for one event: the whole event or one of
// its sessions (the event detail's check-in key). An event without sessions
// goes straight to its desk.
func NewSessionPicker(ctx *ui.Context, d views.Env, eventID, eventName string) ui.Screen {
	p := NewPicker(ctx, d).(*Picker)
	p.fixed = true
	p.chosen = &api.Event{EventID: eventID, Name: eventName}
	return p
}

func (p *Picker) Title() string {
	if p.chosen != nil {
		return "Check-in: " + p.chosen.Name
	}
	return "Check-in"
}

func (p *Picker) Init() tea.Cmd {
	if p.fixed {
		return p.loadSessions()
	}
	return p.reload()
}

func (p *Picker) reload() tea.Cmd {
	p.loading, p.err = true, nil
	p.byID = map[string]api.Event{}
	p.events.SetRows(nil)
	p.events.SetLoading(true)
	return p.stream.Start(p.deps.Client.Events.Pager(api.ListEventsOptions{StatusType: api.ListUpcoming, PageSize: 100}))
}

// Close cancels the loads in flight.
func (p *Picker) Close() {
	p.stream.Stop()
	p.sessTask.Stop()
}

func (p *Picker) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Page[api.Event]:
		if !p.stream.Owns(msg) {
			return p, nil
		}
		return p, p.onEvents(msg)
	case pickerSessionsMsg:
		if p.chosen == nil {
			return p, nil
		}
		return p, p.onSessions(msg)
	}
	return p, p.ScreenBase.Update(msg)
}

func (p *Picker) current() *table.Model {
	if p.chosen != nil {
		return &p.sessions
	}
	return &p.events
}

// refresh loads the step's list again.
func (p *Picker) refresh() tea.Cmd {
	if p.fixed || p.chosen != nil {
		return p.loadSessions()
	}
	return p.reload()
}

func (p *Picker) back() {
	p.sessTask.Stop()
	p.chosen = nil
}

// open moves to the sessions of the chosen event, or opens the desk.
func (p *Picker) open() tea.Cmd {
	if p.chosen == nil {
		row, ok := p.events.Selected()
		if !ok {
			return nil
		}
		e := p.byID[row.ID]
		p.chosen = &e
		return p.loadSessions()
	}
	row, ok := p.sessions.Selected()
	if !ok {
		return nil
	}
	e := *p.chosen
	if row.ID == wholeEvent {
		return ui.Push(p.desk(e.EventID, e.Name, "", ""))
	}
	return ui.Push(p.desk(e.EventID, e.Name, row.ID, p.sessByID[row.ID].Name))
}

// desk opens the desk of an event or session; a read-only session, which
// records nothing, opens its arrivals board instead.
func (p *Picker) desk(eventID, eventName, sessionID, sessionName string) ui.Screen {
	if p.ctx.ReadOnly != "" {
		return NewBoard(p.ctx, p.deps, eventID, eventName, sessionID)
	}
	return NewDesk(p.ctx, p.deps, eventID, eventName, sessionID, sessionName)
}

func (p *Picker) history() tea.Cmd {
	if p.chosen == nil {
		row, ok := p.events.Selected()
		if !ok {
			return nil
		}
		e := p.byID[row.ID]
		return ui.Push(NewHistory(p.ctx, p.deps, e.EventID, e.Name, ""))
	}
	row, ok := p.sessions.Selected()
	if !ok {
		return nil
	}
	sid := row.ID
	if sid == wholeEvent {
		sid = ""
	}
	return ui.Push(NewHistory(p.ctx, p.deps, p.chosen.EventID, p.chosen.Name, sid))
}

func (p *Picker) loadSessions() tea.Cmd {
	p.sessLoad, p.sessErr = true, nil
	p.sessByID = map[string]api.Session{}
	rows := table.NewRows(1)
	rows.Add(table.Row{ID: wholeEvent, Cells: []string{"Whole event", p.startText(p.chosen.NextStart(p.deps.Now())), "-"}})
	p.sessions.SetRows(rows)
	p.sessions.SetLoading(true)
	p.sessions.SetFilter("")
	id, client := p.chosen.EventID, p.deps.Client
	return p.sessTask.Run(func(ctx context.Context) tea.Msg {
		items, err := client.Attendees.Sessions(ctx, id)
		return pickerSessionsMsg{items: items, err: err}
	})
}

func (p *Picker) onEvents(m ui.Page[api.Event]) tea.Cmd {
	if m.Err != nil {
		p.loading, p.err = false, m.Err
		p.events.LoadFailed(m.Err.Error())
		return ui.Fail("Loading upcoming events", m.Err)
	}
	rows := table.NewRows(len(m.Items))
	for _, e := range m.Items {
		if e.Status != "" && !strings.EqualFold(e.Status, api.StatusPublished) {
			continue // a desk checks in to published events only
		}
		p.byID[e.EventID] = e
		rows.Add(table.Row{ID: e.EventID, Cells: []string{
			e.Name, ui.EnumLabel(api.EventTypeLabels, e.EventType), ui.EnumLabel(api.AttendanceLabels, e.AttendanceType), p.startText(e.NextStart(p.deps.Now())),
		}})
	}
	p.events.AppendRows(rows)
	if !m.Done {
		return p.stream.Next()
	}
	p.loading = false
	p.events.SetLoading(false)
	return nil
}

func (p *Picker) onSessions(m pickerSessionsMsg) tea.Cmd {
	p.sessLoad = false
	p.sessions.SetLoading(false)
	if m.err != nil {
		p.sessErr = m.err
		return ui.Fail("Loading sessions (the whole event still works)", m.err)
	}
	if len(m.items) == 0 {
		// Nothing to choose: straight to the event's desk.
		e := *p.chosen
		desk := p.desk(e.EventID, e.Name, "", "")
		if p.fixed {
			return tea.Sequence(ui.Pop(), ui.Push(desk))
		}
		p.back()
		return ui.Push(desk)
	}
	rows := table.NewRows(len(m.items))
	for _, s := range m.items {
		p.sessByID[s.SessionID] = s
		where := s.PhysicalLocation
		if where == "" {
			where = "-"
		}
		name := sessionLabel(p.chosen.Name, s.Name)
		if name == "" {
			name = s.SessionID
		}
		rows.Add(table.Row{ID: s.SessionID, Cells: []string{name, p.startText(s.StartTime), where}})
	}
	p.sessions.AppendRows(rows)
	return nil
}

func (p *Picker) startText(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.In(p.deps.Local).Format("2006-01-02 15:04")
}

func (p *Picker) SetSize(w, h int) {
	p.ScreenBase.SetSize(w, h)
	p.events.SetSize(w, max(1, h-2))
	p.sessions.SetSize(w, max(1, h-2))
}

func (p *Picker) View() string {
	th := p.ctx.Theme
	var head string
	if p.chosen == nil {
		head = p.Heading(th.Title.Render("Check-in")+th.Muted.Render(": choose an upcoming event"),
			ui.LoadState{Loading: p.loading, Err: p.err})
		return head + "\n\n" + p.events.View()
	}
	head = th.Title.Render(p.chosen.Name) + th.Muted.Render(": check in to the whole event or one session")
	switch {
	case p.sessLoad:
		head += th.Muted.Render("  loading sessions...")
	case p.sessErr != nil:
		head += th.Error.Render("  ERROR: sessions failed, r to retry")
	}
	return ui.Fit(head, p.Width(), 1) + "\n\n" + p.sessions.View()
}

// sessionLabel is a session's name without the event's name in front, as
// services often write it ("Summit 2027 - Opening Keynote"): the heading
// names the event, and the part that tells sessions apart is what must fit.
func sessionLabel(event, session string) string {
	event = strings.TrimSpace(event)
	if event == "" || len(session) <= len(event) || !strings.EqualFold(session[:len(event)], event) {
		return session
	}
	rest := strings.TrimLeft(session[len(event):], " -–—:·|,/")
	if rest == "" || len(rest) == len(session)-len(event) {
		return session // nothing after the name, or the name runs on ("Summit 2027b")
	}
	return rest
}
