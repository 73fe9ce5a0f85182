package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
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

type detailKeys struct {
	Publish, Cancel, Duplicate, Delete, Edit, Refresh, Scroll key.Binding
	CheckIn, CheckIns                                         key.Binding
	Coeditors, Emails, Exhibitors, Links, Register            key.Binding
}

func newDetailKeys() detailKeys {
	return detailKeys{
		Publish:    key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "publish")),
		Cancel:     key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "cancel event")),
		Duplicate:  key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "duplicate")),
		Delete:     key.NewBinding(key.WithKeys("x", "delete"), key.WithHelp("x", "delete draft")),
		Edit:       key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit")),
		Coeditors:  key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "co-editors")),
		Emails:     key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "emails")),
		Exhibitors: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "booths: exhibitors")),
		Links:      key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "access links")),
		Register:   key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "register attendees")),
		Refresh:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Scroll:     key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑/↓", "scroll")),
		CheckIn:    key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "check-in desk")),
		CheckIns:   key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "check-ins")),
	}
}

// DetailScreen shows every field of one event and its actions.
type DetailScreen struct {
	ctx    *ui.Context
	deps   Deps
	keys   detailKeys
	event  api.Event
	bucket Bucket
	hubs   map[string]string // hub id to name, as the list knew them
	full   bool              // the single-event answer (host, venue) has arrived
	loader ui.Task
	action ui.Task
	busy   string // the action in flight, if any
	err    error
	vp     viewport.Model
	dialog ui.Dialog
	width  int
	height int
}

// NewDetail opens an event; it shows what the listing knew at once and
// fetches the full record in the background.
func NewDetail(ctx *ui.Context, deps Deps, e api.Event, b Bucket, hubs map[string]string) *DetailScreen {
	return &DetailScreen{ctx: ctx, deps: deps.withDefaults(), keys: newDetailKeys(), event: e,
		bucket: b, hubs: hubs, vp: viewport.New()}
}

func (s *DetailScreen) Title() string { return s.event.Name }

func (s *DetailScreen) Init() tea.Cmd { return s.load() }

func (s *DetailScreen) load() tea.Cmd {
	id, client := s.event.EventID, s.deps.Client
	return s.loader.Run(func(ctx context.Context) tea.Msg {
		e, err := client.Events.Get(ctx, id)
		return detailMsg{event: e, err: err}
	})
}

// Close cancels the fetch in flight; an action in flight finishes.
func (s *DetailScreen) Close() { s.loader.Stop() }

func (s *DetailScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case detailMsg:
		if msg.err != nil {
			s.err = msg.err
			s.refreshContent()
			return s, ui.Toast(ui.ToastError, msg.err.Error())
		}
		s.event, s.full, s.err = *msg.event, true, nil
		if s.bucket != BucketCancelled {
			s.bucket = bucketOf(msg.event, s.deps.Now())
		}
		s.refreshContent()
		return s, nil
	case actionDoneMsg:
		return s, s.onActionDone(msg)
	}
	if cmd, handled := s.dialog.Update(msg); handled {
		return s, cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if cmd, handled := s.onKey(k); handled {
			return s, cmd
		}
	}
	var cmd tea.Cmd
	s.vp, cmd = s.vp.Update(msg)
	return s, cmd
}

func (s *DetailScreen) onKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(k, s.keys.Refresh):
		return s.load(), true
	case key.Matches(k, s.keys.CheckIn) && s.deps.CheckInDesk != nil:
		return ui.Push(s.deps.CheckInDesk(s.ctx, s.event.EventID, s.event.Name)), true
	case key.Matches(k, s.keys.CheckIns) && s.deps.CheckInHistory != nil:
		return ui.Push(s.deps.CheckInHistory(s.ctx, s.event.EventID, s.event.Name)), true
	case key.Matches(k, s.keys.Coeditors):
		return ui.Push(coeditors.New(s.ctx, s.deps.Client, s.event.EventID, s.event.Name)), true
	case key.Matches(k, s.keys.Exhibitors) && s.event.EventType != "" && s.event.EventType != api.EventTypeConference:
		return ui.Toast(ui.ToastInfo, "Exhibitors: only conference (multi-session) events have exhibitors"), true
	case key.Matches(k, s.keys.Exhibitors):
		return ui.Push(exhibitors.New(s.ctx, s.deps.Client, s.event.EventID, s.event.Name)), true
	case key.Matches(k, s.keys.Links):
		return ui.Push(accesslinks.New(s.ctx, s.deps.Client, s.event.EventID, s.event.Name,
			s.event.EventType == api.EventTypeRecurring)), true
	case key.Matches(k, s.keys.Register):
		return ui.Push(registration.New(s.ctx, s.deps.Client, s.event.EventID, s.event.Name,
			registration.WithClock(s.deps.Now))), true
	case key.Matches(k, s.keys.Emails):
		return ui.Push(emails.New(s.ctx, s.deps.Client, s.event.EventID, s.event.Name,
			emails.WithClock(s.deps.Now), emails.WithLocation(s.deps.Local))), true
	case key.Matches(k, s.keys.Publish), key.Matches(k, s.keys.Cancel),
		key.Matches(k, s.keys.Delete), key.Matches(k, s.keys.Duplicate), key.Matches(k, s.keys.Edit):
	default:
		return nil, false
	}
	if s.busy != "" {
		return ui.Toast(ui.ToastInfo, "Wait: "+s.busy+" is still in progress"), true
	}
	if why := s.disabledReason(k); why != "" {
		return ui.Toast(ui.ToastInfo, why), true
	}
	name := s.event.Name
	switch {
	case key.Matches(k, s.keys.Publish):
		return s.ask(fmt.Sprintf("Publish %q? Registration opens once it is published.", name), false,
			s.run("publish", func(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error) {
				return c.Events.Publish(ctx, id)
			})), true
	case key.Matches(k, s.keys.Delete):
		return s.ask(fmt.Sprintf("Delete the draft %q? This cannot be undone.", name), true,
			s.run("delete", func(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error) {
				return nil, c.Events.Delete(ctx, id)
			})), true
	case key.Matches(k, s.keys.Cancel):
		return s.openCancelForm(), true
	case key.Matches(k, s.keys.Edit):
		return s.openEditForm(), true
	default:
		return s.openDuplicateForm(), true
	}
}

// disabledReason says why an action does not apply to this event, or "".
func (s *DetailScreen) disabledReason(k tea.KeyPressMsg) string {
	switch {
	case key.Matches(k, s.keys.Publish) && s.bucket != BucketDraft:
		return "Publish: only drafts can be published; this event is " + strings.ToLower(s.bucket.String())
	case key.Matches(k, s.keys.Delete) && s.bucket != BucketDraft:
		return "Delete: only drafts can be deleted; cancel a published event instead"
	case key.Matches(k, s.keys.Edit) && (s.bucket == BucketPast || s.bucket == BucketCancelled):
		return "Edit: past and cancelled events cannot be edited"
	case key.Matches(k, s.keys.Cancel) && s.bucket != BucketUpcoming:
		return "Cancel: only upcoming published events can be cancelled; this event is " + strings.ToLower(s.bucket.String())
	}
	return ""
}

func (s *DetailScreen) ask(question string, dangerous bool, onYes func() tea.Cmd) tea.Cmd {
	s.dialog.Ask(s.ctx.Theme, question, dangerous, onYes)
	return nil
}

type actionFunc func(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error)

// run returns what starts an action once confirmed: it marks the screen
// busy and makes the call in the background, answering with actionDoneMsg.
// Leaving the screen does not cancel it: a requested change should finish
// and report.
func (s *DetailScreen) run(op string, f actionFunc) func() tea.Cmd {
	return func() tea.Cmd {
		id, client := s.event.EventID, s.deps.Client
		s.busy = op
		return s.action.Detached(func() tea.Msg {
			res, err := f(context.Background(), client, id)
			return actionDoneMsg{eventID: id, op: op, result: res, err: err}
		})
	}
}

func (s *DetailScreen) onActionDone(m actionDoneMsg) tea.Cmd {
	s.busy = ""
	if m.err != nil {
		return ui.Toast(ui.ToastError, actionError(m.op, m.err))
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

// actionError puts a failed action in words; the spec's meaning is in err.
func actionError(op string, err error) string {
	if errors.Is(err, api.ErrOutcomeUnknown) {
		return fmt.Sprintf("%s may or may not have happened (no answer arrived): press r to check. %v", op, err)
	}
	return err.Error()
}

func (s *DetailScreen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.vp.SetWidth(w)
	s.vp.SetHeight(max(h-1, 1))
	s.dialog.SetSize(w, h)
	s.refreshContent()
}

func (s *DetailScreen) View() string {
	th := s.ctx.Theme
	status := th.Status(s.bucket.String()).Render(strings.ToUpper(s.bucket.String()))
	line := status + " " + th.Title.Render(s.event.Name)
	switch {
	case s.busy != "":
		line += th.Muted.Render("  " + s.busy + "...")
	case !s.full && s.err == nil:
		line += th.Muted.Render("  loading details...")
	}
	return s.dialog.View(ui.Fit(line, s.width, 1)+"\n"+s.vp.View(), s.width, s.height)
}

// refreshContent rebuilds the viewport text; called on data or size change,
// never from View.
func (s *DetailScreen) refreshContent() {
	s.vp.SetContent(renderEvent(s.ctx.Theme, &s.event, s.bucket, s.hubs, s.err, s.width, s.deps.Local))
}

func renderEvent(th *ui.Theme, e *api.Event, b Bucket, hubs map[string]string, loadErr error, width int, local *time.Location) string {
	loc := eventLocation(e)
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
	section("Overview",
		[2]string{"Status", b.String()},
		[2]string{"Type", ui.EnumLabel(api.EventTypeLabels, e.EventType)},
		[2]string{"Meeting type", strings.ToLower(e.MeetingType)},
		[2]string{"Attendance", ui.EnumLabel(api.AttendanceLabels, e.AttendanceType)},
		[2]string{"Access", ui.EnumLabel(api.AccessLevelLabels, e.AccessLevel)},
		[2]string{"Event ID", e.EventID},
		[2]string{"Hub", hubLabel(e.HubID, hubs)},
		[2]string{"Host", e.HostID},
		[2]string{"Link", e.EventURL},
	)
	var cal []string
	for _, c := range e.Calendar {
		cal = append(cal, dualTime(c.StartTime, loc, local)+" to "+timeOnly(c.EndTime, loc))
	}
	section("When",
		[2]string{"Timezone", e.Timezone},
		[2]string{"Starts", dualTime(e.StartTime, loc, local)},
		[2]string{"Ends", dualTime(e.EndTime, loc, local)},
		[2]string{"Lobby opens", dualTime(e.LobbyStartTime, loc, local)},
		[2]string{"Lobby closes", dualTime(e.LobbyEndTime, loc, local)},
		[2]string{"Schedule", scheduleText(e, loc)},
		[2]string{"Calendar", strings.Join(cal, "\n")},
	)
	section("Where",
		[2]string{"Venue", formatVenue(e.Venue)},
		[2]string{"Location", e.PhysicalLocation},
	)
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

func scheduleText(e *api.Event, loc *time.Location) string {
	if e.Recurrence == nil && e.EventType != api.EventTypeRecurring {
		return ""
	}
	return describeRecurrence(e.Recurrence, loc)
}

func timeOnly(t *time.Time, loc *time.Location) string {
	if t == nil {
		return "?"
	}
	return t.In(loc).Format("15:04")
}

// CapturingInput is true while a dialog owns the keyboard.
func (s *DetailScreen) CapturingInput() bool { return s.dialog.Open() }

// CapturingBack is true while esc closes a dialog rather than the screen.
func (s *DetailScreen) CapturingBack() bool { return s.CapturingInput() }

func (s *DetailScreen) ShortHelp() []key.Binding {
	if s.dialog.Open() {
		return s.dialog.ShortHelp()
	}
	return []key.Binding{s.keys.Publish, s.keys.Cancel, s.keys.Duplicate, s.keys.Delete, s.keys.Edit,
		s.keys.Coeditors, s.keys.Emails, s.keys.Refresh}
}

func (s *DetailScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.keys.Publish, s.keys.Cancel, s.keys.Duplicate, s.keys.Delete},
		{s.keys.Edit, s.keys.Coeditors, s.keys.Emails, s.keys.Exhibitors, s.keys.CheckIn, s.keys.CheckIns, s.keys.Links, s.keys.Register}, {s.keys.Refresh, s.keys.Scroll}}
}
