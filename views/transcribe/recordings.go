package transcribe

import (
	"context"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/internal/webhook"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/resource"
	"github.com/evdesk/evdesk/ui/table"
)

// chosenMsg asks the Transcribe screen to transcribe a recording.
type chosenMsg struct{ rec webhook.Recording }

// RecordingsScreen lists the recordings a webhook listener received (the
// session.recording_completed events in its spool), newest first; enter
// transcribes the selected one on the Transcribe screen and keeps its SRT
// beside the event.
type RecordingsScreen struct {
	*resource.Base[webhook.Recording]
}

func newRecordings(ctx *ui.Context, spool webhook.Spool, local *time.Location) *RecordingsScreen {
	s := &RecordingsScreen{}
	s.Base = resource.New(ctx, resource.Config[webhook.Recording]{
		Heading: "Recordings received",
		Noun:    "recording",
		Loading: "Reading the recordings received",
		Empty:   "No recording received yet: run `evdesk webhooks listen` (it keeps them in " + spool.Dir + ").",
		Columns: []table.Column{
			{Title: "Received", Width: 16},
			{Title: "SRT", Width: 4},
			{Title: "Recording (external_storage_url)", Width: 20, Flex: 1},
		},
		Load: func(context.Context) ([]webhook.Recording, error) { return spool.Recordings(0) },
		Row: func(r webhook.Recording) table.Row {
			srt := "-"
			if r.Transcript != "" {
				srt = "yes"
			}
			return table.Row{ID: r.Path, Cells: []string{r.ReceivedAt.In(local).Format("2006-01-02 15:04"), srt, sanitize.Line(r.URL)}}
		},
		Actions: s.actions,
		Help:    []key.Binding{ctx.Keys.Filter},
	})
	s.SetTableTop(1)
	return s
}

// Title is the breadcrumb.
func (s *RecordingsScreen) Title() string { return "Recordings received" }

func (s *RecordingsScreen) actions() ui.Actions {
	return ui.Actions{{Key: s.Ctx.Keys.Open, Help: "transcribe", Run: s.choose, Why: s.NeedsSelection("No recording to transcribe yet")}}
}

// choose goes back to the Transcribe screen with the selected recording.
func (s *RecordingsScreen) choose() tea.Cmd {
	rec, _ := s.Selected()
	return tea.Sequence(ui.Pop(), ui.Broadcast(chosenMsg{rec: rec}))
}

// Update is the base's.
func (s *RecordingsScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) { return s, s.Base.Update(msg) }

// SetSize lays the screen out: the table under the heading and the line
// that says where the recordings come from.
func (s *RecordingsScreen) SetSize(w, h int) {
	s.Base.SetSize(w, h)
	s.SetTableHeight(h - 2)
}

// View renders the heading, where the recordings come from, and the table.
func (s *RecordingsScreen) View() string {
	info := s.Ctx.Theme.Muted.Render("kept by `evdesk webhooks listen`; enter transcribes one and keeps its SRT beside it")
	return s.Base.View([]string{ui.Fit(info, s.Width(), 1)}, nil)
}
