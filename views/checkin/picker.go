package checkin

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
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
	ctx  *ui.Context
	deps views.Env
	keys pickerKeys

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

	width, height int
}

type pickerKeys struct {
	Open, History, Refresh key.Binding
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
	ss := table.New(ctx.Theme,
		table.Column{Title: "Check in to", Width: 20, Flex: 3},
		table.Column{Title: "Starts (local)", Width: 16},
		table.Column{Title: "Where", Width: 10, Flex: 2},
	)
	return &Picker{
		ctx: ctx, deps: d, events: ev, sessions: ss, byID: map[string]api.Event{},
		keys: pickerKeys{
			Open:    ui.With(ctx.Keys.Open, "open desk"),
			History: ui.With(ctx.Keys.History, "history"),
			Refresh: ctx.Keys.Refresh,
		},
	}
}

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
	case tea.KeyPressMsg:
		if cmd, handled := p.onKey(msg); handled {
			return p, cmd
		}
	}
	var cmd tea.Cmd
	if p.chosen != nil {
		p.sessions, cmd = p.sessions.Update(msg)
	} else {
		p.events, cmd = p.events.Update(msg)
	}
	return p, cmd
}

func (p *Picker) current() *table.Model {
	if p.chosen != nil {
		return &p.sessions
	}
	return &p.events
}

func (p *Picker) onKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if p.current().Filtering() {
		return nil, false
	}
	switch {
	case !p.fixed && p.chosen != nil && k.String() == "esc" && p.sessions.FilterText() == "":
		p.back()
		return nil, true
	case key.Matches(k, p.keys.Refresh):
		if p.fixed || p.chosen != nil {
			return p.loadSessions(), true
		}
		return p.reload(), true
	case key.Matches(k, p.keys.Open):
		return p.open(), true
	case key.Matches(k, p.keys.History):
		return p.history(), true
	}
	return nil, false
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
	p.sessions.SetRows([]table.Row{{ID: wholeEvent, Cells: []string{"Whole event", p.startText(p.chosen.StartTime), "-"}}})
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
	rows := make([]table.Row, 0, len(m.Items))
	for _, e := range m.Items {
		if e.Status != "" && !strings.EqualFold(e.Status, api.StatusPublished) {
			continue // a desk checks in to published events only
		}
		p.byID[e.EventID] = e
		rows = append(rows, table.Row{ID: e.EventID, Cells: []string{
			e.Name, ui.EnumLabel(api.EventTypeLabels, e.EventType), ui.EnumLabel(api.AttendanceLabels, e.AttendanceType), p.startText(e.StartTime),
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
	rows := make([]table.Row, 0, len(m.items))
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
		rows = append(rows, table.Row{ID: s.SessionID, Cells: []string{name, p.startText(s.StartTime), where}})
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

var ()

func (p *Picker) SetSize(w, h int) {
	p.width, p.height = w, h
	p.events.SetSize(w, max(1, h-2))
	p.sessions.SetSize(w, max(1, h-2))
}

func (p *Picker) View() string {
	th := p.ctx.Theme
	var head string
	if p.chosen == nil {
		head = ui.Heading(th, th.Title.Render("Check-in")+th.Muted.Render(": choose an upcoming event"),
			ui.LoadState{Loading: p.loading, Err: p.err})
		return ui.Fit(head, p.width, 1) + "\n\n" + p.events.View()
	}
	head = th.Title.Render(p.chosen.Name) + th.Muted.Render(": check in to the whole event or one session")
	switch {
	case p.sessLoad:
		head += th.Muted.Render("  loading sessions...")
	case p.sessErr != nil:
		head += th.Error.Render("  ERROR: sessions failed, r to retry")
	}
	return ui.Fit(head, p.width, 1) + "\n\n" + p.sessions.View()
}

// CapturingInput is true while a filter input has the keyboard.
func (p *Picker) CapturingInput() bool { return p.current().Filtering() }

// CapturingBack is true while esc has a meaning here: a filter to clear,
// or the sessions step to leave.
func (p *Picker) CapturingBack() bool {
	c := p.current()
	return c.Filtering() || c.FilterText() != "" || (p.chosen != nil && !p.fixed)
}

func (p *Picker) ShortHelp() []key.Binding {
	return append([]key.Binding{p.keys.Open, p.keys.History, p.keys.Refresh}, p.current().Keys.ShortHelp()...)
}

func (p *Picker) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{p.keys.Open, p.keys.History, p.keys.Refresh}}, [][]key.Binding{p.current().Keys.Navigation()}...)
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
