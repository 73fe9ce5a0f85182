// Package emails holds the emails screens of an event: its email types with
// their status and trigger time, and the send status of one email (a chart
// of recipients by status and failure reason, then every recipient, loaded
// in the background, filterable and exportable to CSV).
package emails

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

// Option adjusts the screens (tests fix the clock, zone and export folder).
type Option func(*options)

type options struct {
	now   func() time.Time
	local *time.Location
	dir   string // export folder; "" is the current directory
}

// WithClock sets the clock for relative times ("in 3 days").
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithLocation sets the zone times are shown in (default: the user's).
func WithLocation(loc *time.Location) Option { return func(o *options) { o.local = loc } }

// WithExportDir sets the folder the CSV export suggests (default: the
// current directory).
func WithExportDir(dir string) Option { return func(o *options) { o.dir = dir } }

type typesKeys struct {
	Open, Refresh key.Binding
}

// TypesScreen lists an event's email types.
type TypesScreen struct {
	ctx       *ui.Context
	client    *api.Client
	opts      options
	eventID   string
	eventName string
	keys      typesKeys
	table     table.Model
	types     map[string]api.EmailType
	stream    ui.Stream[api.EmailType]
	loading   bool
	err       error
	width     int
	height    int
}

// New builds the emails screen of one event.
func New(ctx *ui.Context, client *api.Client, eventID, eventName string, opts ...Option) ui.Screen {
	o := options{now: time.Now, local: time.Local}
	for _, f := range opts {
		f(&o)
	}
	th := ctx.Theme
	t := table.New(th,
		table.Column{Title: "Email", Width: 18, Flex: 3},
		table.Column{Title: "Status", Width: 11, Style: func(c string) lipgloss.Style { return th.Status(c) }},
		table.Column{Title: "Trigger (local)", Width: 16},
		table.Column{Title: "When", Width: 12},
		table.Column{Title: "Sent when", Width: 14, Flex: 3},
	)
	t.SetEmptyText("This event has no emails.")
	return &TypesScreen{ctx: ctx, client: client, opts: o, eventID: eventID, eventName: eventName,
		table: t, types: map[string]api.EmailType{},
		keys: typesKeys{
			Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send status")),
			Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		}}
}

// Title is the breadcrumb.
func (s *TypesScreen) Title() string { return "Emails" }

// Init starts loading.
func (s *TypesScreen) Init() tea.Cmd { return s.reload() }

func (s *TypesScreen) reload() tea.Cmd {
	s.loading, s.err = true, nil
	s.types = map[string]api.EmailType{}
	s.table.SetRows(nil)
	s.table.SetLoading(true)
	return s.stream.Start(s.client.Emails.TypesPager(s.eventID, api.ListEmailTypesOptions{PageSize: 300}))
}

// Close cancels the load in flight.
func (s *TypesScreen) Close() { s.stream.Stop() }

// Update handles pages and keys.
func (s *TypesScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Page[api.EmailType]:
		if !s.stream.Owns(msg) {
			return s, nil
		}
		if msg.Err != nil {
			s.loading, s.err = false, msg.Err
			s.table.SetLoading(false)
			return s, ui.Toast(ui.ToastError, "Loading emails failed: "+msg.Err.Error())
		}
		rows := make([]table.Row, 0, len(msg.Items))
		for _, et := range msg.Items {
			s.types[et.EmailTypeID] = et
			rows = append(rows, s.row(et))
		}
		s.table.AppendRows(rows)
		s.table.SetTotal(msg.Total)
		if !msg.Done {
			return s, s.stream.Next()
		}
		s.loading = false
		s.table.SetLoading(false)
		return s, nil
	case tea.KeyPressMsg:
		if s.table.Filtering() {
			break
		}
		switch {
		case key.Matches(msg, s.keys.Refresh):
			return s, s.reload()
		case key.Matches(msg, s.keys.Open):
			if row, ok := s.table.Selected(); ok {
				et := s.types[row.ID]
				return s, ui.Push(newSendStatus(s.ctx, s.client, s.opts, s.eventID, s.eventName, et))
			}
			return s, nil
		}
	}
	var cmd tea.Cmd
	s.table, cmd = s.table.Update(msg)
	return s, cmd
}

func (s *TypesScreen) row(et api.EmailType) table.Row {
	return table.Row{ID: et.EmailTypeID, Cells: []string{
		et.Name,
		api.LookupEnum(api.EmailTypeStatuses, et.Status).Label,
		localTime(et.TriggerDate, s.opts.local),
		relative(et.TriggerDate, s.opts.now()),
		ui.OrDash(et.TriggerOverview),
	}}
}

// SetSize lays the screen out: a header, the table and a line about the
// selected email.
func (s *TypesScreen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.table.SetSize(w, max(h-3, 1))
}

// View renders the screen.
func (s *TypesScreen) View() string {
	th := s.ctx.Theme
	head := ui.Heading(th, th.Title.Render("Emails of "+s.eventName),
		ui.LoadState{Loading: s.loading, Err: s.err, Summary: ui.Count(len(s.types), "email type")})
	return ui.Fit(head, s.width, 1) + "\n\n" + s.table.View() + "\n" + ui.Fit(s.about(), s.width, 1)
}

// about puts the selected email's status and trigger in words.
func (s *TypesScreen) about() string {
	th := s.ctx.Theme
	row, ok := s.table.Selected()
	if !ok {
		return ""
	}
	et := s.types[row.ID]
	st := api.LookupEnum(api.EmailTypeStatuses, et.Status)
	text := th.Status(et.Status).Render(st.Label) + th.Muted.Render(": "+ui.OrDash(st.Meaning))
	if et.TriggerDate != nil {
		text += th.Muted.Render(" · " + fullTime(et.TriggerDate, s.opts.local))
	}
	return text
}

// CapturingInput is true while the filter input has the keyboard.
func (s *TypesScreen) CapturingInput() bool { return s.table.Filtering() }

// CapturingBack is true while a filter is applied: esc clears it first.
func (s *TypesScreen) CapturingBack() bool { return s.table.Filtering() || s.table.FilterText() != "" }

// ShortHelp implements help.KeyMap.
func (s *TypesScreen) ShortHelp() []key.Binding {
	return append([]key.Binding{s.keys.Open, s.keys.Refresh}, s.table.Keys.ShortHelp()...)
}

// FullHelp implements help.KeyMap.
func (s *TypesScreen) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{s.keys.Open, s.keys.Refresh}}, s.table.Keys.FullHelp()...)
}
