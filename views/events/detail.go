package events

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/accesslinks"
	"github.com/evdesk/evdesk/views/coeditors"
	"github.com/evdesk/evdesk/views/emails"
	"github.com/evdesk/evdesk/views/exhibitors"
	"github.com/evdesk/evdesk/views/registration"
)

type detailMsg struct {
	event *api.Event
	err   error
}

// ChangedMsg is broadcast when an action changed an event on the server, so
// the lists that show it reload.
type ChangedMsg struct{ EventID string }

// actionDoneMsg reports an event action to the detail that ran it.
type actionDoneMsg struct {
	eventID string
	op      string
	result  *api.ActionResult
	err     error
}

// DetailScreen shows every field of one event and its actions.
type DetailScreen struct {
	ui.ScreenBase
	env        views.Env
	event      api.Event
	bucket     Bucket
	hubs       map[string]string // hub id to name, as the list knew them
	full       bool              // the single-event answer (host, venue) has arrived
	loader     ui.Task
	cancelling *cancelDraft // the cancellation in flight, reopened if refused
	err        error
	vp         viewport.Model
}

// NewDetail opens an event; it shows what the listing knew at once and
// fetches the full record in the background.
func NewDetail(ctx *ui.Context, env views.Env, e api.Event, b Bucket, hubs map[string]string) *DetailScreen {
	s := &DetailScreen{env: env.WithDefaults(), event: e, bucket: b, hubs: hubs, vp: ui.NewViewport(ctx.Keys)}
	k := ctx.Keys
	s.ScreenBase = ui.NewScreenBase(ctx, ui.ScreenConfig{Actions: s.actions, Refresh: s.load,
		Nav: []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown}, Body: ui.Feed(&s.vp)})
	return s
}

func (s *DetailScreen) Title() string { return s.event.Name }

func (s *DetailScreen) Init() tea.Cmd { return s.load() }

func (s *DetailScreen) load() tea.Cmd {
	id, client := s.event.EventID, s.env.Client
	return s.loader.Run(func(ctx context.Context) tea.Msg {
		e, err := client.Events.Get(ctx, id)
		return detailMsg{event: e, err: err}
	})
}

// Close cancels the fetch in flight; an action in flight finishes.
func (s *DetailScreen) Close() {
	s.loader.Stop()
	s.ScreenBase.Close()
}

func (s *DetailScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case detailMsg:
		if msg.err != nil {
			s.err = msg.err
			s.refreshContent()
			return s, ui.Fail("get event", msg.err)
		}
		s.event, s.full, s.err = *msg.event, true, nil
		if s.bucket != BucketCancelled {
			s.bucket = bucketOf(msg.event, s.env.Now())
		}
		s.refreshContent()
		return s, nil
	case actionDoneMsg:
		return s, s.onActionDone(msg)
	case registrantsMsg:
		s.Done()
		d := cancelDraft{registrants: msg.n}
		if msg.err != nil {
			d.registrants = -1
		}
		return s, s.showCancelForm(d)
	}
	return s, s.ScreenBase.Update(msg)
}

// actions are what the detail lets the user do with the event.
func (s *DetailScreen) actions() ui.Actions {
	k, e, name := s.Ctx.Keys, s.event, s.event.Name
	notBusy := s.NotBusy
	// only allows an action in the given states of the event (the actions
	// are built afresh for every key, so the state is the current one).
	only := func(why string, b ...Bucket) func() string {
		return func() string {
			if busy := notBusy(); busy != "" {
				return busy
			}
			if !slices.Contains(b, s.bucket) {
				return why
			}
			return ""
		}
	}
	status := strings.ToLower(s.bucket.String())
	push := func(open func() ui.Screen) func() tea.Cmd { return func() tea.Cmd { return ui.Push(open()) } }
	as := ui.Actions{
		{Writes: true, Key: k.Publish, Help: "publish", Run: s.publish,
			Why: only("Publish: only drafts can be published; this event is "+status, BucketDraft)},
		{Writes: true, Key: k.Cancel, Help: "cancel event", Run: s.openCancelForm,
			Why: only("Cancel: only upcoming published events can be cancelled; this event is "+status, BucketUpcoming)},
		{Writes: true, Key: k.Duplicate, Help: "duplicate", Run: s.openDuplicateForm, Why: notBusy},
		{Writes: true, Key: k.Delete, Help: "delete draft", Dangerous: true, Run: s.run("delete", deleteDraft),
			Confirm: func() string { return fmt.Sprintf("Delete the draft %q? This cannot be undone.", name) },
			Why:     only("Delete: only drafts can be deleted; cancel a published event instead", BucketDraft)},
		{Writes: true, Key: k.Edit, Help: "edit", Run: s.openEditForm,
			Why: only("Edit: past and cancelled events cannot be edited", BucketDraft, BucketUpcoming)},
		{Key: k.Browse, Help: "open the event page", Minor: true, Run: func() tea.Cmd { return ui.Browse(s.Ctx, e.EventURL) }},
		{Key: k.Coeditors, Run: push(func() ui.Screen { return coeditors.New(s.Ctx, s.env.Client, e.EventID, name) })},
		{Key: k.Emails, Run: push(func() ui.Screen {
			return emails.New(s.Ctx, s.env, e.EventID, name)
		})},
		{Key: k.Links, Minor: true, Run: push(func() ui.Screen {
			return accesslinks.New(s.Ctx, s.env.Client, e.EventID, name, e.EventType == api.EventTypeRecurring)
		})},
		{Key: k.Exhibitors, Minor: true, Run: push(func() ui.Screen { return exhibitors.New(s.Ctx, s.env.Client, e.EventID, name) }),
			Why: func() string {
				if e.EventType != "" && e.EventType != api.EventTypeConference {
					return "Exhibitors: only conference (multi-session) events have exhibitors"
				}
				return ""
			}},
		{Key: k.Register, Minor: true, Run: push(func() ui.Screen {
			return registration.New(s.Ctx, s.env, e.EventID, name)
		})},
	}
	if s.env.CheckInDesk != nil {
		as = append(as, ui.Action{Key: k.CheckIn, Minor: true, Run: s.openDesk})
	}
	if s.env.CheckInHistory != nil {
		as = append(as, ui.Action{Key: k.History, Minor: true, Run: push(func() ui.Screen { return s.env.CheckInHistory(s.Ctx, e.EventID, name) })})
	}
	return as
}

// openDesk opens the check-in desk; on a draft or a cancelled event, where
// nobody can be registered, it says so and asks first.
func (s *DetailScreen) openDesk() tea.Cmd {
	e := s.event
	open := func() tea.Cmd { return ui.Push(s.env.CheckInDesk(s.Ctx, e.EventID, e.Name)) }
	var why string
	switch s.bucket {
	case BucketDraft:
		why = "is a draft: nobody can register before it is published"
	case BucketCancelled:
		why = "is cancelled: nobody can register"
	default:
		return open()
	}
	return s.ask(fmt.Sprintf("%q %s, so the desk has nobody to check in (each scan: NOT REGISTERED). Open the desk anyway?", e.Name, why), false, open)
}

// publish asks first: registration opens once it is published.
func (s *DetailScreen) publish() tea.Cmd {
	return s.ask(fmt.Sprintf("Publish %q? Registration opens once it is published.", s.event.Name), false,
		s.run("publish", func(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error) {
			return c.Events.Publish(ctx, id)
		}))
}

func deleteDraft(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error) {
	return nil, c.Events.Delete(ctx, id)
}

func (s *DetailScreen) ask(question string, dangerous bool, onYes func() tea.Cmd) tea.Cmd {
	s.Dialog.Ask(s.Ctx.Theme, question, dangerous, onYes)
	return nil
}

type actionFunc func(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error)

// run returns what starts an action once confirmed: it marks the screen
// busy and makes the call in the background, answering with actionDoneMsg.
// Leaving the screen does not cancel it: a requested change should finish
// and report.
func (s *DetailScreen) run(op string, f actionFunc) func() tea.Cmd {
	return func() tea.Cmd {
		id, client := s.event.EventID, s.env.Client
		return s.Do(op, func() tea.Msg {
			res, err := f(context.Background(), client, id)
			return actionDoneMsg{eventID: id, op: op, result: res, err: err}
		})
	}
}

func (s *DetailScreen) onActionDone(m actionDoneMsg) tea.Cmd {
	s.Done()
	if m.op == "unchanged" { // an edit that changed nothing: the form closes
		return s.Dialog.Settle(nil, "")
	}
	if m.op == "save" {
		if settle := s.Dialog.Settle(m.err, ""); m.err != nil {
			return tea.Batch(ui.Fail(actionName(m.op), actionError(m.err)), settle)
		}
	}
	if m.op == "cancel" && m.err != nil && s.cancelling != nil && !errors.Is(m.err, api.ErrOutcomeUnknown) {
		// Refused: the form comes back with the message and the reason.
		d := *s.cancelling
		d.refused = m.err
		return tea.Batch(ui.Fail("cancel event", m.err), s.showCancelForm(d))
	}
	s.cancelling = nil
	if m.err != nil {
		return ui.Fail(actionName(m.op), actionError(m.err))
	}
	changed := ui.Broadcast(ChangedMsg{EventID: m.eventID}) // the lists reload
	switch m.op {
	case "delete":
		return tea.Batch(changed, ui.Toast(ui.ToastSuccess, fmt.Sprintf("Deleted the draft %q", s.event.Name)), ui.Pop())
	case "duplicate":
		return tea.Batch(changed, ui.Toast(ui.ToastSuccess, "Duplicated: the copy is draft "+m.result.EventID))
	case "cancel":
		s.bucket = BucketCancelled
	case "save":
		return tea.Batch(changed, ui.Toast(ui.ToastSuccess, "Saved"), s.load())
	}
	return tea.Batch(changed, ui.Toast(ui.ToastSuccess, fmt.Sprintf("%q is now %s", s.event.Name, m.result.Status)), s.load())
}

// actionError adds what to do when no answer arrived; the spec's meaning
// of a refusal is in err itself.
func actionError(err error) error {
	if errors.Is(err, api.ErrOutcomeUnknown) {
		return fmt.Errorf("it may or may not have happened (no answer arrived): press r to check: %w", err)
	}
	return err
}

func (s *DetailScreen) SetSize(w, h int) {
	s.ScreenBase.SetSize(w, h)
	s.vp.SetWidth(w)
	s.vp.SetHeight(max(h-1, 1))
	s.refreshContent()
}

func (s *DetailScreen) View() string {
	th := s.Ctx.Theme
	status := th.Status(s.bucket.String()).Render(strings.ToUpper(s.bucket.String()))
	line := status + " " + th.Title.Render(s.event.Name)
	switch {
	case s.Busy() != "":
		line += th.Muted.Render("  " + s.Busy() + "...")
	case !s.full && s.err == nil:
		line += th.Muted.Render("  loading details...")
	}
	return s.Frame(ui.Fit(line, s.Width(), 1) + "\n" + s.vp.View())
}

// refreshContent rebuilds the viewport text; called on data or size change,
// never from View.
func (s *DetailScreen) refreshContent() {
	s.vp.SetContent(renderEvent(s.Ctx.Theme, &s.event, s.bucket, s.hubs, s.err, s.Width(), s.env.Local, s.env.Now()))
}

func renderEvent(th *ui.Theme, e *api.Event, b Bucket, hubs map[string]string, loadErr error, width int, local *time.Location, now time.Time) string {
	loc := e.Location()
	var out []string
	section := func(title string, rows ...[2]string) {
		var lines []string
		for _, r := range rows {
			if strings.TrimSpace(r[1]) == "" || r[1] == "-" {
				continue
			}
			label := th.Muted.Render(fmt.Sprintf("%-16s", r[0]))
			val := lipgloss.NewStyle().Width(max(width-18, 20)).Render(r[1])
			lines = append(lines, lipgloss.JoinHorizontal(lipgloss.Top, "  ", label, val))
		}
		if len(lines) > 0 {
			out = append(out, th.Header.Render(title), strings.Join(lines, "\n"), "")
		}
	}
	if loadErr != nil {
		out = append(out, th.Error.Render("ERROR "+loadErr.Error()), th.Muted.Render("Press r to try again."), "")
	}
	if len(e.Unreadable) > 0 {
		out = append(out, th.Error.Render("UNREADABLE "+api.UnreadableText(e.Unreadable)+": the server sent a value evdesk cannot read; shown without it"), "")
	}
	section("Overview",
		[2]string{"Status", b.String()},
		[2]string{"Type", ui.EnumLabel(api.EventTypeLabels, e.EventType)},
		[2]string{"Meeting type", meetingTypeText(e.MeetingType)},
		[2]string{"Attendance", ui.EnumLabel(api.AttendanceLabels, e.AttendanceType)},
		[2]string{"Access", ui.EnumLabel(api.AccessLevelLabels, e.AccessLevel)},
		[2]string{"Event ID", e.EventID},
		[2]string{"Hub", hubLabel(e.HubID, hubs)},
		[2]string{"Host", e.HostID},
		[2]string{"Link", e.EventURL},
	)
	var cal []string
	for _, c := range e.Calendar {
		cal = append(cal, dualTime(c.StartTime, loc, local)+" to "+endOf(c.StartTime, c.EndTime, loc))
	}
	section("When",
		[2]string{"Timezone", e.Timezone},
		[2]string{"Starts", dualTime(e.StartTime, loc, local)},
		[2]string{"Ends", dualTime(e.EndTime, loc, local)},
		[2]string{"Lobby opens", dualTime(e.LobbyStartTime, loc, local)},
		[2]string{"Lobby closes", dualTime(e.LobbyEndTime, loc, local)},
		[2]string{"Schedule", scheduleText(e, loc)},
		[2]string{"Next", nextText(e, b, loc, local, now)},
		[2]string{"Calendar", strings.Join(cal, "\n")},
	)
	// The whole venue (spec 2.4), then the deprecated location it replaces.
	section("Where", append(e.Venue.Fields(), [2]string{"Location", api.DeprecatedLocation(e.PhysicalLocation)})...)
	contact := e.ContactName
	if e.ContactEmail != "" {
		contact = strings.TrimSpace(contact + " <" + e.ContactEmail + ">")
	}
	section("About",
		[2]string{"Tagline", e.Tagline},
		[2]string{"Description", e.Description},
		[2]string{"Categories", strings.Join(e.Categories, ", ")},
		[2]string{"Tags", strings.Join(e.Tags, ", ")},
		[2]string{"Blocked", strings.Join(e.BlockedCountries, ", ")},
		[2]string{"Contact", contact},
	)
	return strings.Join(out, "\n")
}

// nextText is an upcoming series' next occurrence, "" otherwise.
func nextText(e *api.Event, b Bucket, loc, local *time.Location, now time.Time) string {
	if b != BucketUpcoming || e.Recurrence == nil || e.StartTime == nil {
		return ""
	}
	next, ok := api.NextOccurrence(*e.StartTime, e.Recurrence, loc, now)
	if !ok {
		return "the series has ended"
	}
	return dualTime(&next, loc, local)
}

func scheduleText(e *api.Event, loc *time.Location) string {
	if e.Recurrence == nil && e.EventType != api.EventTypeRecurring {
		return ""
	}
	return describeRecurrence(e.Recurrence, loc)
}

// endOf is a calendar entry's end in the event's zone: the time alone on
// the day it starts, the day too when it ends on another one.
func endOf(start, end *time.Time, loc *time.Location) string {
	if end == nil {
		return "?"
	}
	e := end.In(loc)
	if start != nil {
		if sy, sm, sd := start.In(loc).Date(); e.Year() == sy && e.Month() == sm && e.Day() == sd {
			return e.Format("15:04")
		}
	}
	return e.Format("Mon 2 Jan 2006 15:04")
}

// actionName names an action as the api names its call ("update event"),
// so a failure reads once: "update event: error 260210: ...".
func actionName(op string) string {
	if op == "save" {
		return "update event"
	}
	return op + " event"
}

// meetingTypeText names a single-session event's meeting type in words
// ("" when it has none, so the line is left out).
func meetingTypeText(v string) string {
	if v == "" {
		return ""
	}
	return ui.EnumLabel(api.MeetingTypeLabels, v)
}
