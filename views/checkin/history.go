package checkin

import (
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
	"github.com/evdesk/evdesk/views"
)

// History lists the check-ins the server recorded for an event or one of
// its sessions, streamed page by page into a filterable table.
type History struct {
	ui.ScreenBase
	deps views.Env

	eventID, eventName, sessionID string

	table   table.Model
	stream  ui.Stream[api.AttendeeAction]
	loading bool
	err     error
	// The first load shows as it arrives; a reload collects into next and
	// the rows on screen stay until it is whole, or when it fails.
	loaded    bool
	next      *table.Rows
	nextTotal int
	// seen holds when a desk on this computer first knew each check-in
	// (the service keeps no times), read again with every load.
	seen *roster.Arrivals
	live *roster.Arrivals // the open desk's own, when opened from a desk
	// overDesk: opened from a desk, which goes on taking scans: a scan
	// closes the history and is recorded there (ui.ScanPasser).
	overDesk bool
}

// PassesScans reports whether the history is a view over a desk, which a
// scan brings back (ui.ScanPasser).
func (h *History) PassesScans() bool { return h.overDesk }

// historyPageSize is the largest page the listing serves.
const historyPageSize = 300

// NewHistory shows the check-in history of an event, or of one of its
// sessions when sessionID is not empty.
func NewHistory(ctx *ui.Context, d views.Env, eventID, eventName, sessionID string) ui.Screen {
	d = withDefaults(d)
	t := table.New(ctx.Theme,
		table.Column{Title: "Email", Width: 24, Flex: 3},
		table.Column{Title: "Action", Width: 9},
		table.Column{Title: "Source", Width: 12, Flex: 2},
		table.Column{Title: "First seen here", Width: 16},
	)
	t.SetEmptyText("No check-ins recorded yet. Press r to refresh.")
	if eventName == "" {
		eventName = eventID
	}
	h := &History{deps: d, eventID: eventID, eventName: eventName, sessionID: sessionID, table: t}
	h.ScreenBase = ui.NewScreenBase(ctx, ui.ScreenConfig{List: &h.table, Refresh: h.reload, Body: ui.Feed(&h.table),
		Help: t.Keys.ShortHelp(), Nav: t.Keys.Navigation()})
	return h
}

func (h *History) Title() string {
	if h.sessionID != "" {
		return "History: " + h.eventName + " (session)"
	}
	return "History: " + h.eventName
}

func (h *History) Init() tea.Cmd { return h.reload() }

// seenMsg carries the times a desk here first knew of each check-in.
type seenMsg struct{ seen *roster.Arrivals }

// reload reads the desks' times here, then starts the listing over,
// dropping answers to older loads.
func (h *History) reload() tea.Cmd {
	h.err = nil
	h.loading = true
	h.next, h.nextTotal = nil, 0
	h.table.SetLoading(true)
	path, ev, sess := roster.ArrivalsPath(h.deps.JournalDir, h.eventID, h.sessionID), h.eventID, h.sessionID
	if h.live != nil {
		return func() tea.Msg { return seenMsg{seen: h.live} }
	}
	return func() tea.Msg {
		// A cache that cannot be read only costs the times: "-" shows.
		seen, _ := roster.LoadArrivals(path, ev, sess)
		return seenMsg{seen: seen}
	}
}

// list starts the listing itself.
func (h *History) list() tea.Cmd {
	if !h.loaded {
		h.table.SetRows(nil)
		h.table.SetTotal(0)
	}
	h.table.SetLoading(true)
	return h.stream.Start(h.deps.Client.Attendees.Pager(h.eventID, h.sessionID,
		api.ListAttendeeActionsOptions{PageSize: historyPageSize}))
}

// Close cancels the load in flight when the screen leaves.
func (h *History) Close() { h.stream.Stop() }

func (h *History) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case seenMsg:
		h.seen = msg.seen
		return h, h.list()
	case ui.Page[api.AttendeeAction]:
		if !h.stream.Owns(msg) {
			return h, nil
		}
		return h, h.onPage(msg)
	}
	return h, h.ScreenBase.Update(msg)
}

func (h *History) onPage(m ui.Page[api.AttendeeAction]) tea.Cmd {
	if m.Err != nil {
		h.loading, h.err = false, m.Err
		h.table.LoadFailed(m.Err.Error())
		return ui.Fail("Check-in history", m.Err)
	}
	rows := h.next // a reload gathers its pages into one list
	if rows == nil {
		rows = table.NewRows(len(m.Items))
	}
	for _, a := range m.Items {
		src := a.Source
		if src == "" {
			src = "-"
		}
		when := "-"
		if ar, ok := h.seen.Lookup(a.Email); ok {
			when = ar.Seen(h.deps.Now(), h.deps.Local)
		}
		rows.Add(table.Row{ID: a.Action + "\x00" + api.NormalizeEmail(a.Email), Cells: []string{a.Email, a.Action, src, when}})
	}
	if h.loaded {
		h.next, h.nextTotal = rows, m.Total
	} else {
		h.table.AppendRows(rows)
		h.table.SetTotal(m.Total)
	}
	if !m.Done {
		return h.stream.Next()
	}
	if h.loaded {
		h.table.SetRows(h.next)
		h.table.SetTotal(h.nextTotal)
		h.next = nil
	}
	h.loading, h.loaded = false, true
	h.table.SetLoading(false)
	return nil
}

func (h *History) SetSize(w, height int) {
	h.ScreenBase.SetSize(w, height)
	h.table.SetSize(w, max(1, height-2))
}

func (h *History) View() string {
	th := h.Ctx.Theme
	scope := "whole event"
	if h.sessionID != "" {
		scope = "session " + h.sessionID
	}
	st := ui.LoadState{Loading: h.loading && !h.loaded, Err: h.err}
	if h.loaded {
		st.Summary = ui.Count(h.table.Len(), "check-in")
		if h.loading {
			st.Summary += ", refreshing..."
		}
	}
	head := h.Heading(th.Title.Render("Check-in history")+th.Muted.Render(" · "+sanitize.Line(h.eventName)+" · "+scope), st)
	return head + "\n\n" + h.table.View()
}
