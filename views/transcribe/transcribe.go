// Package transcribe is the Transcribe section: send the location of an
// audio file to the AI transcription service and read the timed transcript
// (timestamps, speakers, text), search it and save it as text or SRT.
package transcribe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/transcript"
	"github.com/evdesk/evdesk/ui"
)

type (
	doneMsg struct {
		file string
		tr   *api.Transcript
		err  error
	}
	savedMsg struct {
		path string
		err  error
	}
)

type keyMap struct {
	New, Search, Next, Prev, Save, Scroll, Top, Bottom key.Binding
}

func newKeys() keyMap {
	return keyMap{
		New:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new transcription")),
		Search: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		Next:   key.NewBinding(key.WithKeys("ctrl+n", "right"), key.WithHelp("→", "next match")),
		Prev:   key.NewBinding(key.WithKeys("ctrl+p", "left"), key.WithHelp("←", "previous match")),
		Save:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "save as text/SRT")),
		Scroll: key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"), key.WithHelp("↑/↓", "scroll")),
		Top:    key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "top")),
		Bottom: key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "bottom")),
	}
}

// Option configures the screen.
type Option func(*Screen)

// WithSamples lists audio locations to suggest in the form (the demo's
// sample files).
func WithSamples(urls ...string) Option { return func(s *Screen) { s.samples = urls } }

// WithDir sets the folder saved transcripts go to by default (default the
// current one).
func WithDir(dir string) Option { return func(s *Screen) { s.dir = dir } }

// Screen is the Transcribe section.
type Screen struct {
	ctx     *ui.Context
	tr      *api.Transcriber
	keys    keyMap
	samples []string
	dir     string

	file, language string  // the last request
	transcribing   ui.Task // the transcription in flight
	saving         ui.Task
	busy           bool
	err            error
	result         *api.Transcript

	rows    []row // rendered transcript, rebuilt on data, size or search change
	offset  int
	matches []int // indices of segments matching the search
	current int   // index into matches

	search    textinput.Model
	searching bool
	query     string

	dialog        ui.Dialog
	width, height int
}

// row is one line of the rendered transcript and the segment it belongs to.
type row struct {
	seg  int
	text string
}

// New builds the screen. tr may be nil when no AI credentials are
// configured: the screen then says how to add them.
func New(ctx *ui.Context, tr *api.Transcriber, opts ...Option) ui.Screen {
	in := textinput.New()
	in.Prompt = "/ "
	in.Placeholder = "search the transcript"
	in.SetStyles(ctx.Theme.TextInputStyles())
	s := &Screen{ctx: ctx, tr: tr, keys: newKeys(), search: in, language: api.DefaultTranscribeLang}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Title is the breadcrumb.
func (s *Screen) Title() string { return "Transcribe" }

// Init opens the form when the service is usable.
func (s *Screen) Init() tea.Cmd {
	if s.tr == nil {
		return nil
	}
	return s.openForm()
}

// Close cancels the transcription in flight.
func (s *Screen) Close() { s.transcribing.Stop() }

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
	f := ui.NewForm(s.ctx.Theme, "Transcribe an audio file",
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
	return s.dialog.ShowForm(f)
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
	s.busy, s.err, s.file, s.language = true, nil, file, language
	tr := s.tr
	req := api.TranscribeRequest{File: file, Config: api.TranscribeConfig{Language: language}}
	return s.transcribing.Run(func(ctx context.Context) tea.Msg {
		t, err := tr.Transcribe(ctx, req)
		return doneMsg{file: req.File, tr: t, err: err}
	})
}

// Update handles replies, dialogs, the search and keys.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case doneMsg:
		s.busy = false
		if msg.err != nil {
			s.err = msg.err
			return s, ui.Toast(ui.ToastError, "Transcription failed: "+msg.err.Error())
		}
		s.result, s.offset = msg.tr, 0
		s.rebuild()
		return s, ui.Toast(ui.ToastSuccess, fmt.Sprintf("Transcribed %s of audio in %d segments",
			transcript.Stamp(msg.tr.DurationSec), len(msg.tr.Result.Segments)))
	case savedMsg:
		if msg.err != nil {
			return s, ui.Toast(ui.ToastError, "Saving the transcript failed: "+msg.err.Error())
		}
		return s, ui.Toast(ui.ToastSuccess, "Saved the transcript to "+msg.path)
	case tea.BackgroundColorMsg:
		s.search.SetStyles(s.ctx.Theme.TextInputStyles())
	}
	if cmd, handled := s.dialog.Update(msg); handled {
		return s, cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if s.searching {
			return s, s.updateSearch(msg)
		}
		return s, nil
	}
	if s.searching {
		return s, s.onSearchKey(k)
	}
	return s, s.onKey(k)
}

func (s *Screen) onKey(k tea.KeyPressMsg) tea.Cmd {
	if s.tr == nil {
		return nil
	}
	switch {
	case key.Matches(k, s.keys.New):
		if s.busy {
			return ui.Toast(ui.ToastInfo, "Wait: a transcription is still in progress")
		}
		return s.openForm()
	case key.Matches(k, s.keys.Search):
		if s.result == nil {
			return ui.Toast(ui.ToastInfo, "Nothing to search yet: press n to transcribe a file")
		}
		s.searching = true
		s.search.CursorEnd()
		return s.search.Focus()
	case key.Matches(k, s.keys.Next):
		s.jump(1)
	case key.Matches(k, s.keys.Prev):
		s.jump(-1)
	case key.Matches(k, s.keys.Save):
		if s.result == nil {
			return ui.Toast(ui.ToastInfo, "Nothing to save yet: press n to transcribe a file")
		}
		return s.openSave()
	case key.Matches(k, s.keys.Top):
		s.offset = 0
	case key.Matches(k, s.keys.Bottom):
		s.offset = len(s.rows)
	default:
		switch k.String() {
		case "up":
			s.offset--
		case "down":
			s.offset++
		case "pgup":
			s.offset -= s.bodyHeight()
		case "pgdown":
			s.offset += s.bodyHeight()
		}
	}
	s.clamp()
	return nil
}

func (s *Screen) onSearchKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "enter":
		s.searching = false
		s.search.Blur()
		if s.query != "" && len(s.matches) == 0 {
			return ui.Toast(ui.ToastInfo, fmt.Sprintf("No segment mentions %q", s.search.Value()))
		}
		return nil
	case "esc":
		s.searching = false
		s.search.Blur()
		s.search.SetValue("")
		s.setQuery("")
		return nil
	}
	return s.updateSearch(k)
}

func (s *Screen) updateSearch(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	s.search, cmd = s.search.Update(msg)
	s.setQuery(s.search.Value())
	return cmd
}

func (s *Screen) setQuery(q string) {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == s.query {
		return
	}
	s.query, s.current = q, 0
	s.rebuild()
	s.reveal()
}

// jump moves to the next (dir 1) or previous (-1) match, wrapping around.
func (s *Screen) jump(dir int) {
	if len(s.matches) == 0 {
		return
	}
	s.current = (s.current + dir + len(s.matches)) % len(s.matches)
	s.rebuild()
	s.reveal()
}

// reveal scrolls the current match into view.
func (s *Screen) reveal() {
	if len(s.matches) == 0 {
		return
	}
	seg := s.matches[s.current]
	for i, r := range s.rows {
		if r.seg == seg {
			if i < s.offset || i >= s.offset+s.bodyHeight() {
				s.offset = max(i-2, 0)
			}
			break
		}
	}
	s.clamp()
}

func (s *Screen) openSave() tea.Cmd {
	path, format := new(string), new(string)
	*format = transcript.FormatText
	*path = filepath.Join(s.dir, "transcript-"+strings.TrimSuffix(filepath.Base(s.file), filepath.Ext(s.file))+".txt")
	f := ui.NewForm(s.ctx.Theme, "Save the transcript",
		func() tea.Cmd {
			p := strings.TrimSpace(*path)
			if *format == transcript.FormatSRT && filepath.Ext(p) == ".txt" {
				p = strings.TrimSuffix(p, ".txt") + ".srt"
			}
			return s.save(p, *format)
		},
		huh.NewGroup(
			huh.NewSelect[string]().Title("Format").Options(
				huh.NewOption("Text: [mm:ss - mm:ss] Speaker: text", transcript.FormatText),
				huh.NewOption("SRT subtitles", transcript.FormatSRT)).Value(format),
			huh.NewInput().Title("Save as").Description("Relative to the current folder; .txt becomes .srt for SRT.").
				Value(path).Validate(checkSavePath),
		))
	return s.dialog.ShowForm(f)
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

// rebuild renders the transcript rows for the current width and search;
// called on data, size or search change, never from View.
func (s *Screen) rebuild() {
	s.rows, s.matches = nil, nil
	if s.result == nil {
		return
	}
	th := s.ctx.Theme
	speakerW := 4
	for _, seg := range s.result.Result.Segments {
		speakerW = max(speakerW, min(lipgloss.Width(seg.Speaker), 16))
	}
	textW := max(s.width-2-12-speakerW-2, 16)
	for i, seg := range s.result.Result.Segments {
		hit := s.query != "" && (strings.Contains(strings.ToLower(seg.Text), s.query) ||
			strings.Contains(strings.ToLower(seg.Speaker), s.query))
		if hit {
			s.matches = append(s.matches, i)
		}
	}
	s.current = min(s.current, max(len(s.matches)-1, 0))
	for i, seg := range s.result.Result.Segments {
		mark := "  "
		style := lipgloss.NewStyle()
		if len(s.matches) > 0 {
			for j, m := range s.matches {
				if m != i {
					continue
				}
				mark = "* "
				style = th.Info
				if j == s.current {
					mark, style = "> ", th.Selected
				}
			}
		}
		lines := strings.Split(lipgloss.NewStyle().Width(textW).Render(seg.Text), "\n")
		for n, l := range lines {
			stamp, who := strings.Repeat(" ", 11), strings.Repeat(" ", speakerW)
			if n == 0 {
				stamp = transcript.Stamp(seg.Start) + "-" + transcript.Stamp(seg.End)
				who = fmt.Sprintf("%-*s", speakerW, clip(seg.Speaker, speakerW))
			}
			text := th.Muted.Render(stamp) + " " + th.Header.Render(who) + "  " + style.Render(strings.TrimRight(l, " "))
			s.rows = append(s.rows, row{seg: i, text: mark + text})
		}
	}
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func (s *Screen) bodyHeight() int {
	h := s.height - 2 // header and info line
	if s.searching || s.query != "" {
		h--
	}
	return max(h, 1)
}

func (s *Screen) clamp() {
	s.offset = min(s.offset, max(len(s.rows)-s.bodyHeight(), 0))
	s.offset = max(s.offset, 0)
}

// SetSize lays the screen out.
func (s *Screen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.search.SetWidth(max(w-4, 1))
	s.dialog.SetSize(w, h)
	s.rebuild()
	s.clamp()
}

// View renders the header, the transcript window and the search line.
func (s *Screen) View() string {
	th := s.ctx.Theme
	if s.tr == nil {
		return s.noCredentials()
	}
	head := th.Title.Render("Transcribe")
	var info string
	switch {
	case s.busy:
		head += th.Muted.Render("  transcribing " + s.file + "...")
		info = th.Muted.Render("The service answers once the whole file is transcribed; press n to send another instead.")
	case s.err != nil:
		head += th.Error.Render("  ERROR")
		info = th.Muted.Render("Press n to change the request and try again.")
	case s.result != nil:
		head += th.Muted.Render(fmt.Sprintf("  %s  %s, %d segments", s.file, transcript.Stamp(s.result.DurationSec),
			len(s.result.Result.Segments)))
		info = th.Muted.Render(fmt.Sprintf("request %s  lines %d-%d of %d", s.result.RequestID,
			min(s.offset+1, len(s.rows)), min(s.offset+s.bodyHeight(), len(s.rows)), len(s.rows)))
	default:
		info = th.Muted.Render("Press n to transcribe an audio file.")
	}
	lines := []string{ui.Fit(head, s.width, 1), ui.Fit(info, s.width, 1)}
	if s.err != nil && !s.busy {
		msg := lipgloss.NewStyle().Width(max(s.width-2, 10)).Render(s.err.Error())
		lines = append(lines, ui.Fit(th.Error.Render(msg), s.width, min(strings.Count(msg, "\n")+1, s.bodyHeight())))
	}
	end := min(s.offset+s.bodyHeight(), len(s.rows))
	for _, r := range s.rows[min(s.offset, end):end] {
		lines = append(lines, ui.Fit(r.text, s.width, 1))
	}
	for len(lines) < 2+s.bodyHeight() && s.err == nil {
		lines = append(lines, "")
	}
	switch {
	case s.searching:
		lines = append(lines, s.search.View())
	case s.query != "":
		n := fmt.Sprintf("%d of %d", min(s.current+1, len(s.matches)), len(s.matches))
		if len(s.matches) == 0 {
			n = "no"
		}
		lines = append(lines, ui.Fit(th.Muted.Render(fmt.Sprintf("search %q: %s matches  (←/→ move, / change, esc in search clears)",
			s.query, n)), s.width, 1))
	}
	return s.dialog.View(strings.Join(lines, "\n"), s.width, s.height)
}

// noCredentials explains how to make the section work.
func (s *Screen) noCredentials() string {
	th := s.ctx.Theme
	profile := s.ctx.Profile
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
	return ui.Fit(lipgloss.NewStyle().Width(max(s.width, 20)).Render(strings.Join(text, "\n")), s.width, s.height)
}

// CapturingInput is true while the form or the search has the keyboard.
func (s *Screen) CapturingInput() bool { return s.dialog.Open() || s.searching }

// CapturingBack is true while esc closes the form or the search.
func (s *Screen) CapturingBack() bool { return s.CapturingInput() }

// ShortHelp implements help.KeyMap.
func (s *Screen) ShortHelp() []key.Binding {
	switch {
	case s.dialog.Open():
		return nil
	case s.searching:
		return []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep search")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear search"))}
	case s.tr == nil:
		return nil
	}
	return []key.Binding{s.keys.New, s.keys.Search, s.keys.Next, s.keys.Save, s.keys.Scroll}
}

// FullHelp implements help.KeyMap.
func (s *Screen) FullHelp() [][]key.Binding {
	return [][]key.Binding{{s.keys.New, s.keys.Save}, {s.keys.Search, s.keys.Next, s.keys.Prev},
		{s.keys.Scroll, s.keys.Top, s.keys.Bottom}}
}
