// Package transcribe is the Transcribe section: send the location of an
// audio file to the AI transcription service and read the timed transcript
// (timestamps, speakers, text), filter it and save it as text or SRT.
package transcribe

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/transcript"
	"github.com/evdesk/evdesk/internal/webhook"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/table"
)

type (
	doneMsg struct {
		file string
		tr   *api.Transcript
		err  error
		srt  string // where a recording's transcript was kept, if one was
	}
	savedMsg struct {
		path string
		err  error
	}
)

// Option configures the screen.
type Option func(*Screen)

// WithSamples lists audio locations to suggest in the form (the demo's
// sample files).
func WithSamples(urls ...string) Option { return func(s *Screen) { s.samples = urls } }

// WithRecordings lists the recordings a webhook listener keeps in spool
// (h), each transcribed with a key.
func WithRecordings(spool webhook.Spool) Option { return func(s *Screen) { s.spool = spool } }

// WithLocal sets the zone times are shown in (default the machine's).
func WithLocal(loc *time.Location) Option { return func(s *Screen) { s.local = loc } }

// WithDir sets the folder saved transcripts go to by default (default the
// current one).
func WithDir(dir string) Option { return func(s *Screen) { s.dir = dir } }

// Screen is the Transcribe section: the transcript is a table of segments
// (time, speaker, text), the selected one's whole text below it.
type Screen struct {
	ui.ScreenBase
	tr      *api.Transcriber
	samples []string
	dir     string
	spool   webhook.Spool // recordings received ("" Dir: none)
	local   *time.Location

	file, language string // the last request
	saving         ui.Task
	err            error
	result         *api.Transcript

	table table.Model
}

// transcribing is the work in flight, as "Wait: ... is still in progress"
// names it.
const transcribing = "a transcription"

// Columns of the segments table; the text takes the spare width.
const (
	stampWidth      = 11 // "mm:ss-mm:ss"
	minSpeakerWidth = 7
	maxSpeakerWidth = 16
)

// New builds the screen. tr may be nil when no AI credentials are
// configured: the screen then says how to add them.
func New(ctx *ui.Context, tr *api.Transcriber, opts ...Option) ui.Screen {
	t := table.New(ctx.Theme)
	t.Keys = table.KeysFrom(ctx.Keys)
	t.SetOrigin(0, 2) // under the heading and the info line
	t.SetEmptyText("No speech in this file.")
	s := &Screen{tr: tr, table: t, language: api.DefaultTranscribeLang, local: time.Local}
	k := t.Keys
	s.ScreenBase = ui.NewScreenBase(ctx, ui.ScreenConfig{Actions: s.actions, List: &s.table,
		Help: []key.Binding{k.Up, k.Down}, Nav: k.Navigation(), Body: s.onSegments,
		Waiting: func() bool { return s.tr == nil }}) // the page says how to set it up
	s.setColumns(minSpeakerWidth)
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *Screen) setColumns(speakerW int) {
	th := s.Ctx.Theme
	s.table.SetColumns(
		table.Column{Title: "Time", Width: stampWidth, Style: func(string) lipgloss.Style { return th.Muted }},
		table.Column{Title: "Speaker", Width: speakerW},
		table.Column{Title: "Text", Width: 16, Flex: 1},
	)
}

// Title is the breadcrumb.
func (s *Screen) Title() string { return "Transcribe" }

// Init does nothing: the tab opens on its screen, which says that n opens
// the form (a form that opened by itself took the n its text asks for, and
// tabbing past the section typed into it).
func (s *Screen) Init() tea.Cmd { return nil }

func (s *Screen) openForm() tea.Cmd {
	file, lang := new(string), new(string)
	*file, *lang = s.file, s.language
	if *file == "" && len(s.samples) > 0 {
		*file = s.samples[0]
	}
	desc := "An http(s) URL the service can fetch (WAV, MP3, M4A, FLAC, OGG)."
	if len(s.samples) > 0 {
		desc = "Samples: " + strings.Join(s.samples, " ")
	}
	f := ui.NewForm(s.Ctx.Theme, "Transcribe an audio file",
		func() tea.Cmd { return s.start(strings.TrimSpace(*file), strings.TrimSpace(*lang)) },
		huh.NewGroup(
			huh.NewInput().Title("Audio file URL").Description(desc).Value(file).CharLimit(2048).
				Validate(func(v string) error { return fieldProblem(api.TranscribeRequest{File: strings.TrimSpace(v)}, "file") }),
			huh.NewInput().Title("Language").Description("A locale code such as en-US.").Value(lang).CharLimit(35).
				Validate(func(v string) error {
					return fieldProblem(api.TranscribeRequest{File: "https://example.com/a.mp3",
						Config: api.TranscribeConfig{Language: strings.TrimSpace(v)}}, "config.language")
				}),
		))
	return s.Dialog.ShowForm(f)
}

// fieldProblem is the request validator's message for one field, so the
// form, the CLI and the client agree.
func fieldProblem(r api.TranscribeRequest, field string) error {
	var ve *api.ValidationError
	if errors.As(r.Validate(), &ve) {
		for _, p := range ve.Problems {
			if p.Field == field {
				return errors.New(p.Message)
			}
		}
	}
	return nil
}

func (s *Screen) start(file, language string) tea.Cmd {
	s.err, s.file, s.language = nil, file, language
	tr := s.tr
	req := api.TranscribeRequest{File: file, Config: api.TranscribeConfig{Language: language}}
	return s.Start(transcribing, func(ctx context.Context) tea.Msg {
		t, err := tr.Transcribe(ctx, req)
		return doneMsg{file: req.File, tr: t, err: err}
	})
}

// transcribeRecording transcribes a recording received and keeps its SRT
// beside the spooled event.
func (s *Screen) transcribeRecording(rec webhook.Recording) tea.Cmd {
	if s.tr == nil {
		return nil
	}
	s.Dialog = ui.Dialog{} // an open form gives way to the recording
	s.Dialog.SetSize(s.Width(), s.Height())
	s.err, s.file = nil, rec.URL
	tr := s.tr
	return s.Start(transcribing, func(ctx context.Context) tea.Msg {
		path, t, err := webhook.TranscribeRecording(ctx, tr, rec)
		return doneMsg{file: rec.URL, tr: t, err: err, srt: path}
	})
}

// Update handles replies, dialogs, the actions' keys and the table.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case chosenMsg:
		return s, s.transcribeRecording(msg.rec)
	case doneMsg:
		return s, s.onDone(msg)
	case savedMsg:
		if msg.err != nil {
			return s, ui.Fail("Saving the transcript", msg.err)
		}
		return s, ui.Toast(ui.ToastSuccess, "Saved the transcript to "+msg.path)
	}
	return s, s.ScreenBase.Update(msg)
}

// onSegments moves over and filters the segments, once there are some.
func (s *Screen) onSegments(msg tea.Msg) tea.Cmd {
	if s.result == nil {
		return nil
	}
	var cmd tea.Cmd
	s.table, cmd = s.table.Update(msg)
	s.layout()
	return cmd
}

// onSegmentsKey is onSegments for the filter key.
func (s *Screen) onSegmentsKey(k tea.KeyPressMsg) tea.Cmd { return s.onSegments(k) }

// onDone shows a transcript, or the error; a failure clears the previous
// transcript and its filter, so nothing on screen belongs to another file.
func (s *Screen) onDone(m doneMsg) tea.Cmd {
	s.Done()
	if m.err != nil {
		s.err, s.result = m.err, nil
		s.table.SetRows(nil)
		s.table.SetFilter("")
		s.layout()
		return ui.Fail("Transcribing", m.err)
	}
	s.result = m.tr
	segs := m.tr.Result.Segments
	speakerW := minSpeakerWidth
	rows := table.NewRows(len(segs))
	for i, seg := range segs {
		speakerW = max(speakerW, min(ansi.StringWidth(seg.Speaker), maxSpeakerWidth))
		rows.Add(table.Row{ID: strconv.Itoa(i), Cells: []string{span(seg), seg.Speaker, seg.Text}})
	}
	s.setColumns(speakerW)
	s.table.SetRows(rows)
	s.layout()
	kept := ""
	if m.srt != "" {
		kept = "; SRT kept in " + m.srt
	}
	return ui.Toast(ui.ToastSuccess, fmt.Sprintf("Transcribed %s of audio in %d segments%s",
		transcript.Stamp(m.tr.DurationSec), len(segs), kept))
}

// span is a segment's time: "mm:ss-mm:ss".
func span(seg api.Segment) string {
	return transcript.Stamp(seg.Start) + "-" + transcript.Stamp(seg.End)
}

// actions are what the section lets the user do.
func (s *Screen) actions() ui.Actions {
	k := s.Ctx.Keys
	setUp := func() string {
		if s.tr == nil {
			return "Transcription is not set up: run evdesk login --ai"
		}
		return ""
	}
	return ui.Actions{
		{Key: k.New, Help: "new transcription", Run: s.openForm, Why: func() string { return cmp.Or(s.NotBusy(), setUp()) }},
		{Key: k.Save, Help: "save as text/SRT", Run: s.openSave, Why: func() string {
			if s.result == nil && s.tr != nil {
				return "Nothing to save yet: press n to transcribe a file"
			}
			return setUp()
		}},
		{Key: k.History, Help: "recordings received", Run: func() tea.Cmd { return ui.Push(newRecordings(s.Ctx, s.spool, s.local)) },
			Why: func() string {
				if s.spool.Dir == "" {
					return "No webhook listener keeps recordings for this console"
				}
				return setUp()
			}},
		{Key: s.table.Keys.Filter, RunKey: s.onSegmentsKey, Why: func() string {
			if s.result == nil && s.tr != nil {
				return "Nothing to filter yet: press n to transcribe a file"
			}
			return setUp()
		}},
	}
}

func (s *Screen) openSave() tea.Cmd {
	path, format := new(string), new(string)
	*format = transcript.FormatText
	*path = filepath.Join(s.dir, "transcript-"+strings.TrimSuffix(filepath.Base(s.file), filepath.Ext(s.file))+".txt")
	f := ui.NewForm(s.Ctx.Theme, "Save the transcript",
		func() tea.Cmd {
			p := strings.TrimSpace(*path)
			if *format == transcript.FormatSRT && filepath.Ext(p) == ".txt" {
				p = strings.TrimSuffix(p, ".txt") + ".srt"
			}
			return s.Dialog.Replace(s.Ctx.Theme, p, func() tea.Cmd { return s.save(p, *format) })
		},
		huh.NewGroup(
			huh.NewSelect[string]().Title("Format").Options(
				huh.NewOption("Text: [mm:ss - mm:ss] Speaker: text", transcript.FormatText),
				huh.NewOption("SRT subtitles", transcript.FormatSRT)).Value(format),
			huh.NewInput().Title("Save as").Description("Relative to the current folder; .txt becomes .srt for SRT.").
				Value(path).Validate(checkSavePath),
		))
	return s.Dialog.ShowForm(f)
}

// save writes the transcript on screen to path in the background.
func (s *Screen) save(path, format string) tea.Cmd {
	t := s.result
	if t == nil {
		return nil
	}
	return s.saving.Detached(func() tea.Msg {
		return savedMsg{path: path, err: transcript.Save(path, t, format)}
	})
}

// checkSavePath accepts a file path whose folder exists.
func checkSavePath(p string) error {
	p = strings.TrimSpace(p)
	if p == "" {
		return errors.New("enter a file name, for example transcript.srt")
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a folder; add a file name", p)
	}
	if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
		return fmt.Errorf("the folder %s does not exist", filepath.Dir(p))
	}
	return nil
}

// SetSize lays the screen out.
func (s *Screen) SetSize(w, h int) {
	s.ScreenBase.SetSize(w, h)
	s.layout()
}

// layout fits the table to its segments (and the filter line while it is
// open), within the room the selected segment leaves, so the segment sits
// right under the rows.
func (s *Screen) layout() {
	h := s.table.Len() + 2
	if s.table.Filtering() {
		h++
	}
	s.table.SetSize(s.Width(), max(3, min(h, s.Height()-2-s.segmentHeight())))
}

// segmentHeight is the room under the table for the selected segment: a
// rule, its time and speaker, and its text.
func (s *Screen) segmentHeight() int { return min(8, max(4, (s.Height()-2)/4)) }

// View renders the header, the info line, then the error or the segments
// and the selected one in full.
func (s *Screen) View() string {
	th := s.Ctx.Theme
	if s.tr == nil {
		return s.noCredentials()
	}
	head := th.Title.Render("Transcribe")
	var info string
	switch {
	case s.Busy() != "":
		head += th.Muted.Render("  transcribing " + s.file + "...")
		info = th.Muted.Render("The service answers once the whole file is transcribed; press n to send another instead.")
	case s.err != nil:
		head += th.Error.Render("  ERROR")
		info = th.Muted.Render("Press n to change the request and try again.")
	case s.result != nil:
		head += th.Muted.Render(fmt.Sprintf("  %s  %s, %d segments", s.file, transcript.Stamp(s.result.DurationSec),
			len(s.result.Result.Segments)))
		info = th.Muted.Render("request " + s.result.RequestID)
	default:
		info = th.Muted.Render("Press n to transcribe an audio file.")
		if s.spool.Dir != "" {
			info = th.Muted.Render("Press n to transcribe an audio file, h for the recordings webhooks brought.")
		}
	}
	lines := []string{ui.Fit(head, s.Width(), 1), ui.Fit(info, s.Width(), 1)}
	switch {
	case s.err != nil && s.Busy() == "":
		msg := lipgloss.NewStyle().Width(max(s.Width()-2, 10)).Render(s.err.Error())
		lines = append(lines, th.Error.Render(msg))
	case s.result != nil:
		lines = append(lines, s.table.View(), s.segmentView())
	}
	return s.Frame(ui.Fit(strings.Join(lines, "\n"), s.Width(), s.Height()))
}

// segmentView shows the selected segment whole: its time and speaker, and
// its text wrapped to the width.
func (s *Screen) segmentView() string {
	th := s.Ctx.Theme
	h := s.segmentHeight()
	out := []string{th.Muted.Render(strings.Repeat("─", s.Width()))}
	row, ok := s.table.Selected()
	if !ok {
		return ui.Fit(strings.Join(out, "\n"), s.Width(), h)
	}
	seg := s.result.Result.Segments[s.segmentIndex(row)]
	out = append(out, th.Muted.Render(span(seg))+" "+th.Header.Render(seg.Speaker))
	text := lipgloss.NewStyle().Width(max(s.Width()-2, 10)).Render(seg.Text)
	out = append(out, strings.Split(text, "\n")...)
	if len(out) > h {
		out = append(out[:h-1], th.Muted.Render("…"))
	}
	return ui.Fit(strings.Join(out, "\n"), s.Width(), h)
}

// segmentIndex is the segment a row shows (its ID is the index).
func (s *Screen) segmentIndex(r table.Row) int {
	i, _ := strconv.Atoi(r.ID)
	return max(0, min(i, len(s.result.Result.Segments)-1))
}

// noCredentials explains how to make the section work.
func (s *Screen) noCredentials() string {
	th := s.Ctx.Theme
	profile := s.Ctx.Profile
	if profile == "" {
		profile = "default"
	}
	text := []string{
		th.Title.Render("Transcribe"),
		"",
		th.Warning.Render("NOT SET UP") + " The transcription service needs an AI services API key and secret,",
		"and none are stored for profile " + profile + ".",
		"",
		"Run  " + th.Key.Render("evdesk login --ai") + "  to store them (in the OS keyring), then restart evdesk.",
		"evdesk signs a short-lived token (JWT, one hour at most) with them for each session.",
		"",
		th.Muted.Render("In --demo the simulator's credentials are preset."),
	}
	return ui.Fit(lipgloss.NewStyle().Width(max(s.Width(), 20)).Render(strings.Join(text, "\n")), s.Width(), s.Height())
}
