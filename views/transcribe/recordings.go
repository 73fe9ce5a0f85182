package transcribe

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/internal/webhook"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

type (
	recordingsMsg struct {
		recs []webhook.Recording
		err  error
	}
	// chosenMsg asks the Transcribe screen to transcribe a recording.
	chosenMsg struct{ rec webhook.Recording }
)

// RecordingsScreen lists the recordings a webhook listener received (the
// session.recording_completed events in its spool), newest first; enter
// transcribes the selected one on the Transcribe screen and keeps its SRT
// beside the event.
type RecordingsScreen struct {
	ctx     *ui.Context
	spool   webhook.Spool
	local   *time.Location
	loader  ui.Task
	loading bool
	err     error
	recs    map[string]webhook.Recording // by row id (the spooled file)
	table   table.Model
	width   int
	height  int
}

func newRecordings(ctx *ui.Context, spool webhook.Spool, local *time.Location) *RecordingsScreen {
	t := table.New(ctx.Theme)
	t.Keys = table.KeysFrom(ctx.Keys)
	t.SetOrigin(0, 2)
	t.SetEmptyText("No recording received yet: run `evdesk webhooks listen` (it keeps them in " + spool.Dir + ").")
	t.SetColumns(
		table.Column{Title: "Received", Width: 16},
		table.Column{Title: "SRT", Width: 4},
		table.Column{Title: "Recording (external_storage_url)", Width: 20, Flex: 1},
	)
	return &RecordingsScreen{ctx: ctx, spool: spool, local: local, table: t}
}

// Title is the breadcrumb.
func (s *RecordingsScreen) Title() string { return "Recordings received" }

// Init reads the spool.
func (s *RecordingsScreen) Init() tea.Cmd { return s.load() }

// Close stops a read in flight.
func (s *RecordingsScreen) Close() { s.loader.Stop() }

func (s *RecordingsScreen) load() tea.Cmd {
	s.loading = true
	spool := s.spool
	return s.loader.Run(func(context.Context) tea.Msg {
		recs, err := spool.Recordings(0)
		return recordingsMsg{recs: recs, err: err}
	})
}

func (s *RecordingsScreen) actions() ui.Actions {
	k := s.ctx.Keys
	return ui.Actions{
		{Key: k.Open, Help: "transcribe", Run: s.choose, Why: func() string {
			if _, ok := s.table.Selected(); !ok {
				return "No recording to transcribe yet"
			}
			return ""
		}},
		{Key: k.Refresh, Help: "refresh", Run: s.load},
	}
}

// choose goes back to the Transcribe screen with the selected recording.
func (s *RecordingsScreen) choose() tea.Cmd {
	row, _ := s.table.Selected()
	rec := s.recs[row.ID]
	return tea.Sequence(ui.Pop(), ui.Broadcast(chosenMsg{rec: rec}))
}

// Update handles the spool's listing, the actions and the table.
func (s *RecordingsScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case recordingsMsg:
		s.loading, s.err = false, msg.err
		if msg.err != nil {
			return s, ui.Fail("Reading the recordings received", msg.err)
		}
		s.recs = map[string]webhook.Recording{}
		rows := make([]table.Row, len(msg.recs))
		for i, r := range msg.recs {
			srt := "-"
			if r.Transcript != "" {
				srt = "yes"
			}
			s.recs[r.Path] = r
			rows[i] = table.Row{ID: r.Path, Cells: []string{r.ReceivedAt.In(s.local).Format("2006-01-02 15:04"), srt,
				sanitize.Line(r.URL)}}
		}
		s.table.SetRows(rows)
		return s, nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && !s.table.Filtering() {
		if cmd, handled := s.actions().Dispatch(k, nil, s.ctx); handled {
			return s, cmd
		}
	}
	var cmd tea.Cmd
	s.table, cmd = s.table.Update(msg)
	return s, cmd
}

// SetSize lays the screen out.
func (s *RecordingsScreen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.table.SetSize(w, max(3, h-2))
}

// View renders the heading, where the recordings come from, and the table.
func (s *RecordingsScreen) View() string {
	th := s.ctx.Theme
	summary := ""
	if !s.loading && s.err == nil {
		summary = ui.Count(s.table.Len(), "recording")
	}
	head := ui.Heading(th, th.Title.Render("Recordings received"), ui.LoadState{Loading: s.loading, Err: s.err, Summary: summary})
	info := th.Muted.Render("kept by `evdesk webhooks listen`; enter transcribes one and keeps its SRT beside it")
	lines := []string{ui.Fit(head, s.width, 1), ui.Fit(info, s.width, 1), s.table.View()}
	return ui.Fit(strings.Join(lines, "\n"), s.width, s.height)
}

// CapturingInput is true while the filter has the keyboard.
func (s *RecordingsScreen) CapturingInput() bool { return s.table.Filtering() }

// CapturingBack is true while esc clears the filter.
func (s *RecordingsScreen) CapturingBack() bool {
	return s.table.Filtering() || s.table.FilterText() != ""
}

// ShortHelp implements help.KeyMap.
func (s *RecordingsScreen) ShortHelp() []key.Binding {
	if s.table.Filtering() {
		return nil
	}
	return append(s.actions().ShortHelp(), s.table.Keys.Filter)
}

// FullHelp implements help.KeyMap.
func (s *RecordingsScreen) FullHelp() [][]key.Binding {
	return [][]key.Binding{s.actions().FullHelp(), s.table.Keys.Navigation()}
}
