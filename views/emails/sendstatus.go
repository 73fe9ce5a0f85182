package emails

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

// sendPageSize is the page size of the send status listing: the provider's
// largest, so 100,000 recipients take 334 requests.
const sendPageSize = 300

// Indices into the chart's counters: statuses and reasons are 1 + their
// position in api.SendStatuses and api.FailureReasons; 0 is "none" for a
// reason and "another word" for a status; otherReason is a reason word the
// spec does not list.
var otherReason = uint8(len(api.FailureReasons) + 1)

// sendRec is what the screen keeps per recipient beside its table row:
// enough to filter, count, export and draw the row again without the
// decoded record (the table keeps its own copy of the cells).
type sendRec struct {
	name, email string // as received
	unlisted    *unlistedWords
	sent        int64 // Unix seconds; 0 when not sent
	status      uint8
	reason      uint8
}

// unlistedWords are a recipient's status or reason words that the spec does
// not list, as received: rare, so kept apart.
type unlistedWords struct{ status, reason string }

// sendData is one load of the recipients. recs grows by appending only and
// its elements never change, so an export may read it in the background
// while pages arrive.
type sendData struct {
	recs    []sendRec
	statusN [6]int // by status index
	reasonN [7]int // by reason index
	total   int    // the server's count
}

// SendStatusScreen shows who an email went to and how it went.
type SendStatusScreen struct {
	ui.ScreenBase
	client    *api.Client
	opts      options
	eventID   string
	eventName string
	et        api.EmailType
	export    ui.Task // the CSV being written
	table     table.Model

	// sendData is what the screen shows; a reload collects into next and
	// the rows on screen stay until it is whole (the first load shows as
	// it arrives).
	sendData
	next   *sendData
	loaded bool             // a load has completed
	times  map[int64]string // local minute cells, shared

	statusFilter uint8 // 0: all
	reasonFilter uint8 // 0: all

	stream  ui.Stream[api.EmailSendRecord]
	loading bool
	err     error

	hideChart bool
}

func newSendStatus(ctx *ui.Context, client *api.Client, o options, eventID, eventName string, et api.EmailType) *SendStatusScreen {
	th := ctx.Theme
	statusStyle := func(c string) lipgloss.Style {
		if c == api.LookupEnum(api.SendStatuses, api.SendMissedSchedule).Label {
			return th.Warning
		}
		return th.Status(c)
	}
	t := table.New(th,
		table.Column{Title: "Name", Width: 14, Flex: 2},
		table.Column{Title: "Email", Width: 18, Flex: 3},
		table.Column{Title: "Status", Width: 10, Flex: 2, Style: statusStyle}, // room first goes to "Missed schedule"
		table.Column{Title: "Reason", Width: 12, Style: func(string) lipgloss.Style { return th.Error }},
		table.Column{Title: "Sent (local)", Width: 16},
	)
	t.Keys = table.KeysFrom(ctx.Keys)
	t.SetEmptyText("Nobody received this email.")
	s := &SendStatusScreen{client: client, opts: o, eventID: eventID, eventName: eventName, et: et,
		table: t, times: map[int64]string{}}
	s.ScreenBase = ui.NewScreenBase(ctx, ui.ScreenConfig{Actions: s.actions, List: &s.table,
		Help: []key.Binding{t.Keys.Filter}, Nav: t.Keys.Navigation(), Body: ui.Feed(&s.table)})
	return s
}

// Title is the breadcrumb.
func (s *SendStatusScreen) Title() string { return s.et.Name }

// Init starts loading.
func (s *SendStatusScreen) Init() tea.Cmd { return s.reload() }

func (s *SendStatusScreen) reload() tea.Cmd {
	s.next = &sendData{}
	if !s.loaded {
		s.sendData = sendData{}
		s.table.SetRows(nil)
	}
	s.loading, s.err = true, nil
	s.table.SetLoading(true)
	return s.stream.Start(s.client.Emails.SendStatusPager(s.eventID, s.et.EmailTypeID,
		api.ListSendStatusOptions{PageSize: sendPageSize}))
}

// Close stops the background load.
func (s *SendStatusScreen) Close() { s.stream.Stop() }

// Update handles pages, the export and keys.
func (s *SendStatusScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Page[api.EmailSendRecord]:
		if !s.stream.Owns(msg) {
			return s, nil
		}
		return s, s.onPage(msg)
	case exportDoneMsg:
		return s, s.onExported(msg)
	}
	return s, s.ScreenBase.Update(msg)
}

// actions are what the screen lets the user do. Back clears the status and
// reason filters, but only while they are on and the table's own search is
// not (esc clears that first).
func (s *SendStatusScreen) actions() ui.Actions {
	k := s.Ctx.Keys
	as := ui.Actions{
		{Key: k.StatusFilter, Run: s.cycle(&s.statusFilter, len(api.SendStatuses))},
		{Key: k.ReasonFilter, Run: s.cycle(&s.reasonFilter, len(api.FailureReasons))},
		{Key: k.Save, Help: "write CSV", Why: s.notExporting, Run: s.openExport},
		{Key: k.Chart, Run: s.toggleChart},
		{Key: k.Refresh, Help: "reload", Minor: true, Run: s.reload},
	}
	if s.filtered() && s.table.FilterText() == "" {
		as = append(as, ui.Action{Key: k.Back, Help: "clear filters", Minor: true, Run: s.clearFilters})
	}
	return as
}

// cycle moves a filter to its next value (0 is all, then 1..n).
func (s *SendStatusScreen) cycle(f *uint8, n int) func() tea.Cmd {
	return func() tea.Cmd {
		*f = (*f + 1) % uint8(n+1)
		s.refilter()
		return nil
	}
}

func (s *SendStatusScreen) clearFilters() tea.Cmd {
	s.statusFilter, s.reasonFilter = 0, 0
	s.refilter()
	return nil
}

func (s *SendStatusScreen) toggleChart() tea.Cmd {
	s.hideChart = !s.hideChart
	s.layout()
	return nil
}

// notExporting is an Action.Why: one export at a time.
func (s *SendStatusScreen) notExporting() string {
	if s.export.Running() {
		return "Wait: the export is still being written"
	}
	return ""
}

func (s *SendStatusScreen) filtered() bool { return s.statusFilter != 0 || s.reasonFilter != 0 }

// Columns of the recipients table that the status and reason filters read.
const (
	statusCol = 2
	reasonCol = 3
)

// refilter hands the table the status and reason filters as a row
// predicate on the cells that show them: no row is rebuilt, so a filter key
// stays within a frame at 100,000 rows. The table keeps its own text filter
// and sort on top.
func (s *SendStatusScreen) refilter() {
	var keep func(table.Row) bool
	if s.filtered() {
		status, reason := "", ""
		if s.statusFilter != 0 {
			status = api.SendStatuses[s.statusFilter-1].Label
		}
		if s.reasonFilter != 0 {
			reason = api.FailureReasons[s.reasonFilter-1].Label
		}
		keep = func(r table.Row) bool {
			return (status == "" || r.Cells[statusCol] == status) && (reason == "" || r.Cells[reasonCol] == reason)
		}
	}
	s.table.SetWhere(keep)
	s.table.SetEmptyText(s.emptyText())
	s.setTableTotal()
}

// emptyText says why no recipient shows: nobody received the email, or
// nobody passes the status and reason filters.
func (s *SendStatusScreen) emptyText() string {
	if !s.filtered() {
		return "Nobody received this email."
	}
	var parts []string
	if s.statusFilter != 0 {
		parts = append(parts, strings.ToLower(api.SendStatuses[s.statusFilter-1].Label))
	}
	if s.reasonFilter != 0 {
		parts = append(parts, "failed as "+strings.ToLower(api.FailureReasons[s.reasonFilter-1].Label))
	}
	k := s.Ctx.Keys
	return fmt.Sprintf("No recipient is %s (%s or %s changes the filters, esc clears them).",
		strings.Join(parts, " and "), k.StatusFilter.Help().Key, k.ReasonFilter.Help().Key)
}

func (s *SendStatusScreen) setTableTotal() {
	if s.filtered() {
		s.table.SetTotal(0) // "N loaded": the server's total is not the filter's
		return
	}
	s.table.SetTotal(s.total)
}

func (s *SendStatusScreen) onPage(m ui.Page[api.EmailSendRecord]) tea.Cmd {
	into := &s.sendData
	if s.loaded {
		into = s.next
	}
	if m.Err != nil {
		s.loading, s.err = false, m.Err
		s.table.LoadFailed(m.Err.Error())
		what := "Loading recipients"
		if s.loaded {
			what = "Reloading recipients (the rows shown are from the last load)"
		}
		return ui.Fail(what, fmt.Errorf("stopped after %s of %s: %w", ui.Thousands(len(into.recs)), ui.Thousands(into.total), m.Err))
	}
	into.total = m.Total
	fresh := table.NewRows(len(m.Items)) // the table applies the filters
	// The pager delivers each recipient once, across restarts too.
	for _, it := range m.Items {
		r := s.convert(it)
		into.recs = append(into.recs, r)
		into.statusN[r.status]++
		into.reasonN[r.reason]++
		fresh.Add(table.Row{ID: api.NormalizeEmail(it.Email), Cells: s.cells(r)})
	}
	if !s.loaded {
		s.table.AppendRows(fresh)
		s.setTableTotal()
	}
	if !m.Done {
		return s.stream.Next()
	}
	if s.loaded {
		s.sendData = *s.next
		rows := table.NewRows(len(s.recs))
		for _, r := range s.recs {
			rows.Add(table.Row{ID: api.NormalizeEmail(r.email), Cells: s.cells(r)})
		}
		s.table.SetRows(rows)
		s.setTableTotal()
	}
	s.next, s.loaded, s.loading = nil, true, false
	s.table.SetLoading(false)
	return nil
}

// convert keeps of a decoded record what the screen needs.
func (s *SendStatusScreen) convert(it api.EmailSendRecord) sendRec {
	r := sendRec{name: it.Name, email: it.Email}
	var unlisted unlistedWords
	for i, e := range api.SendStatuses {
		if e.Value == it.Status {
			r.status = uint8(i + 1)
		}
	}
	if r.status == 0 {
		unlisted.status = it.Status
	}
	if it.FailureReason != "" {
		r.reason = otherReason
		for i, e := range api.FailureReasons {
			if e.Value == it.FailureReason {
				r.reason = uint8(i + 1)
			}
		}
		if r.reason == otherReason {
			unlisted.reason = it.FailureReason
		}
	}
	if unlisted != (unlistedWords{}) {
		r.unlisted = &unlisted
	}
	if it.SentDate != nil {
		r.sent = it.SentDate.Unix()
	}
	return r
}

// cells are a recipient's row: the status and reason as labelled, or
// their words as received; the send time to the local minute. The status,
// reason and time cells are shared strings.
func (s *SendStatusScreen) cells(r sendRec) []string {
	var status, reason string
	if r.unlisted != nil {
		status, reason = r.unlisted.status, r.unlisted.reason
	}
	if r.status > 0 {
		status = api.SendStatuses[r.status-1].Label
	}
	if r.reason > 0 && r.reason != otherReason {
		reason = api.FailureReasons[r.reason-1].Label
	}
	sent := "-"
	if r.sent != 0 {
		minute := r.sent - r.sent%60
		if c, ok := s.times[minute]; ok {
			sent = c
		} else {
			sent = time.Unix(minute, 0).In(s.opts.local).Format("2006-01-02 15:04")
			s.times[minute] = sent
		}
	}
	return []string{ui.OrDash(r.name), r.email, status, reason, sent}
}

// SetSize lays the screen out.
func (s *SendStatusScreen) SetSize(w, h int) {
	s.ScreenBase.SetSize(w, h)
	s.layout()
}

// chartWide is the width from which the two charts sit side by side.
const chartWide = 78

// chartLines is how many lines the chart takes: none when hidden or when
// the table would keep fewer than 6 lines.
func (s *SendStatusScreen) chartLines() int {
	if s.hideChart {
		return 0
	}
	st := 1 + len(api.SendStatuses)
	if s.statusN[0] > 0 {
		st++ // "Other"
	}
	re := 1 + len(api.FailureReasons)
	if s.reasonN[otherReason] > 0 {
		re++
	}
	switch {
	case s.Width() >= chartWide && s.fits(max(st, re)):
		return max(st, re)
	case s.Width() < chartWide && s.fits(st+re):
		return st + re
	case s.fits(st):
		return st // by status only
	}
	return 0
}

// fits reports whether a chart of n lines leaves the table its 6 lines.
func (s *SendStatusScreen) fits(n int) bool { return s.Height()-2-n >= 6 }

func (s *SendStatusScreen) layout() {
	s.table.SetSize(s.Width(), max(s.Height()-2-s.chartLines(), 1))
}

// View renders the header, the chart, the filter line and the table.
func (s *SendStatusScreen) View() string {
	parts := []string{ui.Fit(s.header(), s.Width(), 1)}
	if n := s.chartLines(); n > 0 {
		parts = append(parts, s.chart(n))
	}
	parts = append(parts, ui.Fit(s.filterLine(), s.Width(), 1), s.table.View())
	return s.Frame(strings.Join(parts, "\n"))
}

func (s *SendStatusScreen) header() string {
	th := s.Ctx.Theme
	st := api.LookupEnum(api.EmailTypeStatuses, s.et.Status)
	h := th.Title.Render(s.et.Name) + " " + th.Status(s.et.Status).Render(strings.ToUpper(st.Label))
	if s.et.TriggerDate != nil {
		h += th.Muted.Render("  " + localTime(s.et.TriggerDate, s.opts.local) + " (" + relative(s.et.TriggerDate, s.opts.now()) + ")")
	}
	switch {
	case s.loading && s.loaded && s.next.total > 0:
		h += th.Muted.Render("  "+ui.Count(len(s.recs), "recipient")) + th.Info.Render(fmt.Sprintf("  refreshing %s of %s…", ui.Thousands(len(s.next.recs)), ui.Thousands(s.next.total)))
	case s.loading && s.loaded:
		h += th.Muted.Render("  "+ui.Count(len(s.recs), "recipient")) + th.Info.Render("  refreshing…")
	case s.loading && s.total > 0:
		h += th.Info.Render(fmt.Sprintf("  loading %s of %s…", ui.Thousands(len(s.recs)), ui.Thousands(s.total)))
	case s.loading:
		h += th.Info.Render("  loading…")
	case s.err != nil && s.loaded:
		h += th.Muted.Render("  "+ui.Count(len(s.recs), "recipient")) + th.Error.Render("  ERROR: reload failed, r reloads")
	case s.err != nil:
		h += th.Error.Render(fmt.Sprintf("  ERROR: stopped at %s of %s, r reloads", ui.Thousands(len(s.recs)), ui.Thousands(s.total)))
	default:
		h += th.Muted.Render("  " + ui.Count(len(s.recs), "recipient"))
	}
	return h
}

func (s *SendStatusScreen) filterLine() string {
	th := s.Ctx.Theme
	label := func(values []api.Enum, i uint8) string {
		if i == 0 {
			return "all"
		}
		return values[i-1].Label
	}
	on := func(text string, active bool) string {
		if active {
			return th.Selected.Render(text)
		}
		return text
	}
	k := s.Ctx.Keys
	keyOf := func(b key.Binding) string { return th.Key.Render(b.Help().Key) }
	line := keyOf(k.StatusFilter) + " status: " + on(label(api.SendStatuses, s.statusFilter), s.statusFilter != 0) +
		"  " + keyOf(k.ReasonFilter) + " reason: " + on(label(api.FailureReasons, s.reasonFilter), s.reasonFilter != 0)
	if s.filtered() || s.table.FilterText() != "" {
		line += th.Muted.Render(fmt.Sprintf("  showing %s of %s", ui.Thousands(s.table.VisibleLen()), ui.Thousands(len(s.recs))))
	}
	line += "  " + keyOf(k.Save) + th.Muted.Render(" export")
	if s.hideChart {
		line += "  " + keyOf(k.Chart) + th.Muted.Render(" chart")
	}
	return line
}

// ConfirmQuit holds up quitting while an export is being written.
func (s *SendStatusScreen) ConfirmQuit() string {
	if s.export.Running() {
		return "a CSV export is still being written"
	}
	return ""
}
