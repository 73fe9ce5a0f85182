package main

import (
	"context"
	"fmt"
	"image/color"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/auth"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/console"
)

// Colours of the virtual terminal: what it answers when the program asks
// for its background, and what unstyled cells are drawn with.
var (
	termFg = color.RGBA{0xD8, 0xD8, 0xD8, 0xFF}
	termBg = color.RGBA{0x1A, 0x1B, 0x26, 0xFF}
)

// How long a step may take, and how the screen is watched meanwhile. A
// step ends as soon as its text shows; the bound is for a CI machine under
// the race detector and other builds (20 s was reached there).
const (
	stepTimeout  = 90 * time.Second
	pollInterval = 20 * time.Millisecond
	// settledPolls is how many identical polls in a row count as settled.
	settledPolls = 5
)

// vterm is the emulator behind a lock: the program writes from its own
// goroutines while the watcher reads cells. Reads of the program's input
// (key bytes and the emulator's answers to queries) need no lock.
type vterm struct {
	mu sync.Mutex
	em *vt.Emulator
}

func newVTerm(w, h int) *vterm {
	em := vt.NewEmulator(w, h)
	em.SetDefaultForegroundColor(termFg)
	em.SetDefaultBackgroundColor(termBg)
	return &vterm{em: em}
}

func (t *vterm) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.em.Write(p)
}

func (t *vterm) Read(p []byte) (int, error) { return t.em.Read(p) }

// typeKeys sends bytes as if typed; it returns once the program read them.
func (t *vterm) typeKeys(s string) {
	_, _ = io.WriteString(t.em.InputPipe(), s)
}

// cell is a copy of one terminal cell.
type cell struct {
	text  string
	width int
	style uv.Style
}

// grid copies every cell.
func (t *vterm) grid() [][]cell {
	t.mu.Lock()
	defer t.mu.Unlock()
	w, h := t.em.Width(), t.em.Height()
	out := make([][]cell, h)
	for y := range h {
		out[y] = make([]cell, w)
		for x := range w {
			if c := t.em.CellAt(x, y); c != nil {
				out[y][x] = cell{text: c.Content, width: c.Width, style: c.Style}
			} else {
				out[y][x] = cell{text: " ", width: 1}
			}
		}
	}
	return out
}

func gridText(g [][]cell) string {
	var b strings.Builder
	for _, row := range g {
		for _, c := range row {
			if c.width == 0 && c.text == "" {
				continue // the tail of a wide character
			}
			b.WriteString(c.text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func sameGrid(a, b [][]cell) bool {
	if len(a) != len(b) {
		return false
	}
	for y := range a {
		if len(a[y]) != len(b[y]) {
			return false
		}
		for x := range a[y] {
			ca, cb := a[y][x], b[y][x]
			if ca.text != cb.text || ca.width != cb.width || !ca.style.Equal(&cb.style) {
				return false
			}
		}
	}
	return true
}

// waitFor polls until every text is on screen, nothing is in flight (the
// status bar says "in flight" while calls run) and the screen stopped
// changing; it returns that screen.
func (t *vterm) waitFor(texts []string, deadline time.Time) ([][]cell, error) {
	var last [][]cell
	same := 0
	for {
		g := t.grid()
		text := gridText(g)
		ready := !strings.Contains(text, "in flight")
		for _, w := range texts {
			ready = ready && strings.Contains(text, w)
		}
		if ready && last != nil && sameGrid(g, last) {
			same++
			if same >= settledPolls {
				return g, nil
			}
		} else {
			same = 0
		}
		last = g
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("timed out waiting for %q; the screen shows:\n%s", texts, text)
		}
		time.Sleep(pollInterval)
	}
}

// capture starts a simulator and the console for one screen, walks its
// steps and returns the final cells.
func capture(sc screen) ([][]cell, error) {
	now := func() time.Time { return fixedNow }
	// The frozen clock never refills the simulator's rate-limit bucket, so
	// the limit is off.
	srv, err := sim.Start("127.0.0.1:0", sim.Options{Now: now, NoRateLimit: true})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	token := sc.Token
	if token == "" {
		token = sim.DemoToken
	}
	client, err := api.New(api.WithBaseURL(srv.URL()), api.WithToken(token), api.WithClock(now),
		api.WithRateLimit(0, 0), api.WithUserAgent("evdesk-screenshots"))
	if err != nil {
		return nil, err
	}
	journals, err := os.MkdirTemp("", "evdesk-screenshot-journals")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(journals)
	// The simulator checks tokens against its fixed clock, so the JWTs are
	// minted on it too.
	jwt, err := auth.NewJWTSource(auth.AICredentials{APIKey: sim.DemoAIKey, APISecret: sim.DemoAISecret},
		auth.WithJWTClock(now))
	if err != nil {
		return nil, err
	}
	transcriber, err := api.NewTranscriber(srv.URL(), jwt, api.WithClock(now), api.WithRateLimit(0, 0))
	if err != nil {
		return nil, err
	}
	sections := console.Sections(views.Env{Client: client, Now: now, Local: time.UTC, JournalDir: journals,
		Desks:      views.Desks{Desk: "screenshots"},
		Transcribe: views.Transcribe{Transcriber: transcriber, TranscribeSamples: sim.SampleAudioURLs}})
	// Steps type their keys in one write, as a person types them one by
	// one.
	opts := []ui.Option{ui.WithEveryKeyTyped()}
	if sc.Section != "" {
		opts = append(opts, ui.WithSection(sc.Section))
	}
	app := ui.NewApp(&ui.Context{Demo: true, Profile: "demo", Theme: ui.NewTheme(true, false)}, sections, opts...)

	term := newVTerm(termWidth, termHeight)
	if _, err := term.Write([]byte("\x1b[20h")); err != nil { // line feed also returns the carriage
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := tea.NewProgram(app,
		tea.WithContext(ctx),
		tea.WithInput(term), tea.WithOutput(term),
		tea.WithWindowSize(termWidth, termHeight),
		tea.WithColorProfile(colorprofile.TrueColor),
		tea.WithEnvironment([]string{"TERM=xterm-256color", "COLORTERM=truecolor", "LANG=C.UTF-8"}),
		tea.WithoutSignals())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	defer func() {
		p.Quit()
		select { // the input reader cannot be interrupted; do not wait long
		case <-done:
		case <-time.After(2 * time.Second):
		}
	}()

	var g [][]cell
	for i, st := range sc.Steps {
		if st.Keys != "" {
			term.typeKeys(st.Keys)
		}
		if g, err = term.waitFor(st.Wait, time.Now().Add(stepTimeout)); err != nil {
			return nil, fmt.Errorf("step %d (%q): %w", i+1, st.Keys, err)
		}
	}
	select {
	case err := <-done:
		return nil, fmt.Errorf("the console stopped early: %v", err)
	default:
	}
	return g, nil
}
