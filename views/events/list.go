// Package events holds the events screens: the list, the detail view and the
// event actions (publish, cancel, duplicate, delete draft).
package events

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
	"github.com/evdesk/evdesk/views"
)

// listedEvent is an event and the listing it came from.
type listedEvent struct {
	event  api.Event
	bucket Bucket
}

// ListScreen lists the user's events across the four listings.
type ListScreen struct {
	ui.ScreenBase
	env    views.Env
	table  table.Model
	events map[string]listedEvent
	hubs   map[string]string // hub id to name; ids show until names arrive
	// hubCells are the names as the table shows them: without the words
	// every hub of the account starts with (the organisation's name).
	hubCells map[string]string
	// hubOrder lists hub ids as the server gave them, for the create form.
	hubOrder []string
	counts   [5]int
	// counted says which counts are whole: a listing not (yet) loaded has
	// no count, and shows none rather than 0.
	counted [5]bool
	// incoming and incomingCounts collect a reload's answer; the rows on
	// screen stay until it is whole (the first load shows as it arrives).
	incoming       map[string]listedEvent
	incomingCounts [5]int
	loaded         bool // a load has completed
	bucket         Bucket
	// stream loads the listing of loadOrder[stage]; a reload restarts it,
	// so answers to older loads are dropped.
	stream   ui.Stream[api.Event]
	creating ui.Task // a new draft being saved
	loading  bool
	stage    int
	err      error
}

// NewList builds the events list screen.
func NewList(ctx *ui.Context, env views.Env) *ListScreen {
	env = env.WithDefaults()
	th := ctx.Theme
	status := func(cell string) lipgloss.Style { return th.Status(cell) }
	t := table.New(th,
		table.Column{Title: "Name", Width: 18, Flex: 4},
		table.Column{Title: "Type", Width: 10, Flex: 1},
		table.Column{Title: "Status", Width: 9, Style: status},
		table.Column{Title: "Attendance", Width: 10},
		table.Column{Title: "When (local)", Width: 16},
		table.Column{Title: "Hub", Width: 10, Flex: 2},
	)
	t.SetEmptyText("No events here. Press r to refresh, or 1-5 to change the listing.")
	t.Keys = table.KeysFrom(ctx.Keys)
	t.SetOrigin(0, 2) // under the listings line and a blank line
	s := &ListScreen{env: env, table: t, events: map[string]listedEvent{}}
	s.ScreenBase = ui.NewScreenBase(ctx, ui.ScreenConfig{Actions: s.actions, List: &s.table,
		Help: []key.Binding{t.Keys.Filter}, Nav: t.Keys.Navigation(), Body: ui.Feed(&s.table)})
	return s
}

func (s *ListScreen) Title() string { return "Events" }

func (s *ListScreen) Init() tea.Cmd { return tea.Batch(s.reload(), s.loadHubs()) }

// hubsMsg carries hub names; without them the list shows hub ids.
type hubsMsg struct {
	hubs []api.Hub
	err  error
}

func (s *ListScreen) loadHubs() tea.Cmd {
	client := s.env.Client
	return ui.Async(func() tea.Msg {
		hubs, err := client.Hubs.List(context.Background())
		return hubsMsg{hubs: hubs, err: err}
	})
}

// reload starts a fresh load of every listing, dropping answers to older
// ones. The rows on screen stay until the new answer is whole, and stay
// if it fails.
func (s *ListScreen) reload() tea.Cmd {
	s.incoming, s.incomingCounts = map[string]listedEvent{}, [5]int{}
	if !s.loaded {
		s.events = s.incoming // the first load shows as it arrives
		s.counted = [5]bool{}
	}
	s.stage = 0
	s.loading = true
	s.err = nil
	s.table.SetLoading(true)
	return s.startStage()
}

func (s *ListScreen) startStage() tea.Cmd {
	b := loadOrder[s.stage]
	return s.stream.Start(s.env.Client.Events.Pager(api.ListEventsOptions{StatusType: b.listing(), PageSize: 100}))
}

// Close cancels the load in flight when the screen leaves.
func (s *ListScreen) Close() { s.stream.Stop() }

func (s *ListScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Page[api.Event]:
		if !s.stream.Owns(msg) {
			return s, nil // an answer to a load the user has since replaced
		}
		return s, s.onPage(msg)
	case hubsMsg:
		if msg.err != nil {
			s.Ctx.Log.Info("hub names unavailable", "err", msg.err)
			return s, nil
		}
		s.hubs, s.hubOrder = map[string]string{}, nil
		for _, h := range msg.hubs {
			s.hubs[h.HubID] = h.Name
			s.hubOrder = append(s.hubOrder, h.HubID)
		}
		s.hubCells = withoutSharedLead(s.hubs)
		s.table.SetRows(s.rowsFor(s.bucket))
		return s, nil
	case ChangedMsg: // published, cancelled, duplicated, deleted or saved
		return s, s.reload()
	case table.ActivatedMsg: // a double click
		return s, s.open()
	case createdMsg:
		return s, s.onCreated(msg)
	}
	return s, s.ScreenBase.Update(msg)
}

// actions are what the list lets the user do.
func (s *ListScreen) actions() ui.Actions {
	k := s.Ctx.Keys
	return ui.Actions{
		{Key: k.Open, Help: "open", Run: s.open},
		{Writes: true, Key: k.New, Help: "new event", Run: s.openCreateForm},
		{Key: k.Refresh, Run: s.reload},
		{Key: ui.Numbers(k.Views, len(bucketNames), "choose listing"), RunKey: s.showBucket},
	}
}

// PaletteItems offers every loaded event to the command palette; until the
// first load is whole, the events come as they arrive and one item, shown
// whatever is typed, says they are loading (or could not be loaded).
func (s *ListScreen) PaletteItems() []ui.PaletteItem {
	items := make([]ui.PaletteItem, 0, len(s.events)+1)
	for _, le := range s.events { // the first load's, as they arrive
		items = append(items, ui.PaletteItem{
			Title:   "Event: " + le.event.Name,
			Hint:    strings.ToLower(le.bucket.String()) + ", " + listTime(le.event.StartTime, s.env.Local),
			Section: "Events",
			Run:     func() tea.Cmd { return ui.Push(NewDetail(s.Ctx, s.env, le.event, le.bucket, s.hubs)) },
		})
	}
	slices.SortFunc(items, func(a, b ui.PaletteItem) int { return strings.Compare(a.Title, b.Title) })
	if s.loaded {
		return items
	}
	note := ui.PaletteItem{Title: "Events are loading…", Hint: "type again in a moment, or enter: the list",
		Section: "Events", Stay: true, Always: true, Run: func() tea.Cmd { return nil }}
	if !s.loading && s.err != nil {
		note.Title, note.Hint = "Events could not be loaded", "enter: the list (r tries again)"
	}
	return append(items, note)
}

// open shows the selected event.
func (s *ListScreen) open() tea.Cmd {
	row, ok := s.table.Selected()
	if !ok {
		return nil
	}
	le := s.events[row.ID]
	return ui.Push(NewDetail(s.Ctx, s.env, le.event, le.bucket, s.hubs))
}

// showBucket switches to the listing of number key k (1: all ... 5:
// cancelled).
func (s *ListScreen) showBucket(k tea.KeyPressMsg) tea.Cmd {
	if i := int(k.Code - '1'); i >= 0 && i < len(bucketNames) {
		s.bucket = Bucket(i)
		s.table.SetRows(s.rowsFor(s.bucket))
	}
	return nil
}

func (s *ListScreen) onPage(m ui.Page[api.Event]) tea.Cmd {
	bucket := loadOrder[s.stage]
	if m.Err != nil {
		s.loading = false
		s.err = m.Err
		s.table.LoadFailed(m.Err.Error())
		op := "Loading events" // the first listing: nothing is known
		if s.stage > 0 {
			op = "Loading " + strings.ToLower(bucket.String()) + " events"
		}
		return ui.Fail(op, m.Err)
	}
	for _, e := range m.Items {
		if _, dup := s.incoming[e.EventID]; dup {
			continue // an event can move between listings while we load
		}
		s.incoming[e.EventID] = listedEvent{event: e, bucket: bucket}
		s.incomingCounts[bucket]++
		s.incomingCounts[BucketAll]++
	}
	if !s.loaded {
		s.counts = s.incomingCounts
		// The rows are rebuilt in their order (by listing, then by when):
		// a series' next occurrence can put it before events that start
		// earlier.
		s.table.SetRows(s.rowsFor(s.bucket))
	}
	if !m.Done {
		return s.stream.Next()
	}
	if !s.loaded {
		s.counted[bucket] = true
	}
	if s.stage+1 < len(loadOrder) {
		s.stage++
		return s.startStage()
	}
	s.events, s.counts, s.loaded = s.incoming, s.incomingCounts, true
	s.counted = [5]bool{true, true, true, true, true}
	s.table.SetRows(s.rowsFor(s.bucket))
	s.loading = false
	s.table.SetLoading(false)
	// Every listing loaded: a failed load's error leaves the status bar.
	done := []tea.Cmd{ui.Succeeded("Loading events")}
	for _, b := range loadOrder[1:] {
		done = append(done, ui.Succeeded("Loading "+strings.ToLower(b.String())+" events"))
	}
	return tea.Batch(done...)
}

// rowsFor lists the bucket's rows in load order (upcoming first), then by
// start time, matching what streaming in produced.
func (s *ListScreen) rowsFor(b Bucket) *table.Rows {
	picked := make([]listedEvent, 0, s.counts[b])
	for _, le := range s.events {
		if b == BucketAll || le.bucket == b {
			picked = append(picked, le)
		}
	}
	rank := func(b Bucket) int { return slices.Index(loadOrder, b) }
	slices.SortFunc(picked, func(x, y listedEvent) int {
		when := compareTimes(s.when(x.event, x.bucket), s.when(y.event, y.bucket))
		if x.bucket == BucketPast && y.bucket == BucketPast {
			when = -when // past events: the latest first
		}
		return cmp.Or(cmp.Compare(rank(x.bucket), rank(y.bucket)), when,
			strings.Compare(x.event.EventID, y.event.EventID))
	})
	rows := table.NewRows(len(picked))
	for _, le := range picked {
		rows.Add(s.row(le.event, le.bucket))
	}
	return rows
}

func compareTimes(a, b *time.Time) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	return a.Compare(*b)
}

func (s *ListScreen) row(e api.Event, b Bucket) table.Row {
	name := e.Name
	if len(e.Unreadable) > 0 { // in words, not only colour: the detail says which
		name = "[unreadable] " + name
	}
	return table.Row{ID: e.EventID, Cells: []string{
		name,
		ui.EnumLabel(api.EventTypeLabels, e.EventType),
		b.String(),
		ui.EnumLabel(api.AttendanceLabels, e.AttendanceType),
		listTime(s.when(e, b), s.env.Local),
		hubLabel(e.HubID, s.hubCells),
	}}
}

// when is the time the list shows: an upcoming series' next occurrence,
// else the start.
func (s *ListScreen) when(e api.Event, b Bucket) *time.Time {
	if b == BucketUpcoming {
		return e.NextStart(s.env.Now())
	}
	return e.StartTime
}

func (s *ListScreen) SetSize(w, h int) {
	s.ScreenBase.SetSize(w, h)
	s.table.SetSize(w, max(h-2, 1))
}

func (s *ListScreen) View() string {
	th := s.Ctx.Theme
	var tabs []string
	for i, name := range bucketNames {
		label := fmt.Sprintf("%d %s %s", i+1, name, s.countLabel(Bucket(i)))
		if Bucket(i) == s.bucket {
			tabs = append(tabs, th.TabActive.Render(label))
		} else {
			tabs = append(tabs, th.TabInactive.Render(label))
		}
	}
	head := strings.Join(tabs, " ")
	switch {
	case s.loading && s.loaded:
		head += th.Muted.Render("  refreshing " + strings.ToLower(loadOrder[s.stage].String()) + "…")
	case s.loading:
		head += th.Muted.Render("  loading " + strings.ToLower(loadOrder[s.stage].String()) + "…")
	case s.err != nil && s.loaded:
		head += th.Error.Render("  ERROR: reload failed, r to retry")
	case s.err != nil:
		head += th.Error.Render("  ERROR: load failed, r to retry")
	}
	return s.Frame(ui.Fit(head, s.Width(), 1) + "\n\n" + s.table.View())
}

// countLabel is a listing's count: "…" (or the count so far and "…")
// while it loads, "?" when its load failed.
func (s *ListScreen) countLabel(b Bucket) string {
	switch {
	case s.counted[b]:
		return fmt.Sprint(s.counts[b])
	case !s.loading:
		return "?"
	case s.counts[b] == 0:
		return "…"
	}
	return fmt.Sprintf("%d…", s.counts[b])
}

// withoutSharedLead drops the leading words all names share, so a narrow
// column shows what tells them apart: "Northwind Events" and "Northwind
// Internal" become "Events" and "Internal". One name is kept whole.
func withoutSharedLead(names map[string]string) map[string]string {
	var shared []string
	first := true
	for _, n := range names {
		words := strings.Fields(n)
		if first { // a name never loses its last word
			shared, first = words[:max(len(words)-1, 0)], false
			continue
		}
		k := 0
		for k < len(shared) && k < len(words)-1 && shared[k] == words[k] {
			k++
		}
		shared = shared[:k]
	}
	out := make(map[string]string, len(names))
	for id, n := range names {
		words := strings.Fields(n)
		if len(names) > 1 && len(shared) > 0 {
			words = words[len(shared):]
		}
		out[id] = strings.Join(words, " ")
	}
	return out
}

// hubLabel is the hub's name when known, else its id.
func hubLabel(id string, names map[string]string) string {
	if n := names[id]; n != "" {
		return n
	}
	return ui.OrDash(id)
}
