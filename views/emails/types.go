// Package emails holds the emails screens of an event: its email types with
// their status and trigger time, and the send status of one email (a chart
// of recipients by status and failure reason, then every recipient, loaded
// in the background, filterable and exportable to CSV).
package emails

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/resource"
	"github.com/evdesk/evdesk/ui/table"
	"github.com/evdesk/evdesk/views"
)

// Option adjusts the screens (tests set the export folder).
type Option func(*options)

type options struct {
	now   func() time.Time // relative times ("in 3 days")
	local *time.Location   // the zone times are shown in
	dir   string           // export folder; "" is the current directory
}

// WithExportDir sets the folder the CSV export suggests (default: the
// current directory).
func WithExportDir(dir string) Option { return func(o *options) { o.dir = dir } }

// TypesScreen lists an event's email types.
type TypesScreen struct {
	*resource.Base[api.EmailType]
	client    *api.Client
	opts      options
	eventID   string
	eventName string
}

// New builds the emails screen of one event, its times told by env's clock
// and zone.
func New(ctx *ui.Context, env views.Env, eventID, eventName string, opts ...Option) ui.Screen {
	env = env.WithDefaults()
	client := env.Client
	o := options{now: env.Now, local: env.Local}
	for _, f := range opts {
		f(&o)
	}
	th := ctx.Theme
	s := &TypesScreen{client: client, opts: o, eventID: eventID, eventName: eventName}
	s.Base = resource.New(ctx, resource.Config[api.EmailType]{
		Actions: s.actions,
		Heading: "Emails of " + eventName,
		Noun:    "email type",
		Loading: "Loading emails",
		Empty:   "This event has no emails.",
		Columns: []table.Column{
			{Title: "Email", Width: 18, Flex: 3},
			{Title: "Status", Width: 11, Style: func(c string) lipgloss.Style { return th.Status(c) }},
			{Title: "Trigger (local)", Width: 16},
			{Title: "When", Width: 12},
			{Title: "Sent when", Width: 14, Flex: 3},
		},
		Pager: func() ui.Pager[api.EmailType] {
			return client.Emails.TypesPager(eventID, api.ListEmailTypesOptions{PageSize: 300})
		},
		Row: s.row,
	})
	return s
}

// Title is the breadcrumb.
func (s *TypesScreen) Title() string { return "Emails" }

// actions are what the screen lets the user do.
func (s *TypesScreen) actions() ui.Actions {
	return ui.Actions{
		{Key: s.Ctx.Keys.Open, Help: "send status", Why: s.NeedsSelection("No email selected"), Run: s.open},
	}
}

// open shows the selected email's send status.
func (s *TypesScreen) open() tea.Cmd {
	et, _ := s.Selected()
	return ui.Push(newSendStatus(s.Ctx, s.client, s.opts, s.eventID, s.eventName, et))
}

// Update hands everything to the base: the screen has no messages of its own.
func (s *TypesScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	return s, s.Base.Update(msg)
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

// SetSize lays the screen out: a heading, a blank line, the table and a line
// about the selected email.
func (s *TypesScreen) SetSize(w, h int) {
	s.Base.SetSize(w, h)
	s.SetTableHeight(h - 3)
}

// View renders the screen.
func (s *TypesScreen) View() string {
	return s.Base.View([]string{""}, []string{ui.Fit(s.about(), s.Width(), 1)})
}

// about puts the selected email's status and trigger in words.
func (s *TypesScreen) about() string {
	th := s.Ctx.Theme
	et, ok := s.Selected()
	if !ok {
		return ""
	}
	st := api.LookupEnum(api.EmailTypeStatuses, et.Status)
	text := th.Status(et.Status).Render(st.Label) + th.Muted.Render(": "+ui.OrDash(st.Meaning))
	if et.TriggerDate != nil {
		text += th.Muted.Render(" · " + fullTime(et.TriggerDate, s.opts.local))
	}
	return text
}
