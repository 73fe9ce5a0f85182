package checkin

import (
	"context"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/timer"
)

// Board is the arrivals board on its own, for a supervisor's screen
// (`evdesk desk EVENT --board`): it syncs the check-in history itself,
// records nothing, and refreshes live.
type Board struct {
	ctx  *ui.Context
	deps Deps
	keys boardKeys

	eventID, eventName, sessionID string

	b          board
	arr        *roster.Arrivals
	sync       ui.Task
	registered int
	err        error

	width, height int
}

type boardKeys struct{ Refresh key.Binding }

type (
	boardSyncMsg struct {
		registered int
		err        error
	}
	boardSyncTickMsg struct{}
)

// NewBoard shows the arrivals board of an event, or of one of its sessions.
// Times of check-ins a desk on this computer saw come from its cache; the
// others are timed when the board first sees them.
func NewBoard(ctx *ui.Context, d Deps, eventID, eventName, sessionID string) ui.Screen {
	d = d.withDefaults()
	arr, _ := roster.LoadArrivals(roster.ArrivalsPath(d.JournalDir, eventID, sessionID), eventID, sessionID)
	if eventName == "" {
		eventName = eventID
	}
	return &Board{ctx: ctx, deps: d, eventID: eventID, eventName: eventName, sessionID: sessionID,
		b: newBoard(ctx, d, eventID, sessionID), arr: arr,
		keys: boardKeys{Refresh: ui.With(ctx.Keys.Refresh, "sync now")}}
}

func (s *Board) Title() string { return "Board: " + s.eventName }

func (s *Board) Init() tea.Cmd { return tea.Batch(s.syncNow(), s.b.loadSessions()) }

// syncNow syncs the history and asks the registered count.
func (s *Board) syncNow() tea.Cmd {
	arr, c, ev, sess, now := s.arr, s.deps.Client, s.eventID, s.sessionID, s.deps.Now
	return s.sync.Run(func(ctx context.Context) tea.Msg {
		if _, err := arr.Sync(ctx, c, ev, sess, now); err != nil {
			return boardSyncMsg{err: err}
		}
		n, err := roster.Registered(ctx, c, ev)
		return boardSyncMsg{registered: n, err: err}
	})
}

func (s *Board) Close() {
	s.sync.Stop()
	s.b.stop()
}

func (s *Board) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case boardSyncMsg:
		s.err = msg.err
		if msg.registered > 0 {
			s.registered = msg.registered
		}
		s.b.show(s.arr.Stats(s.deps.Now(), s.registered, boardLatest))
		every := s.deps.SyncEvery
		if every <= 0 {
			every = venue.DefaultSyncEvery
		}
		return s, timer.After(every, func(time.Time) tea.Msg { return boardSyncTickMsg{} })
	case boardSyncTickMsg:
		if s.sync.Running() {
			return s, nil
		}
		return s, s.syncNow()
	case boardMsg:
		return s, s.b.update(msg)
	case boardTickMsg:
		return s, s.b.loadSessions()
	case tea.KeyPressMsg:
		if key.Matches(msg, s.keys.Refresh) {
			return s, tea.Batch(s.syncNow(), s.b.loadSessions())
		}
	}
	return s, nil
}

func (s *Board) SetSize(w, h int) { s.width, s.height = w, h }

func (s *Board) View() string {
	t := s.ctx.Theme
	head := ui.Heading(t, t.Title.Render(s.eventName)+t.Muted.Render(" · "+s.scope()),
		ui.LoadState{Loading: s.sync.Running() && !s.b.have, Err: s.err})
	return ui.Fit(head, s.width, 1) + "\n\n" + s.b.view(s.width, max(1, s.height-2))
}

func (s *Board) scope() string {
	if s.sessionID == "" {
		return "whole event"
	}
	return "session " + s.sessionID
}

func (s *Board) ShortHelp() []key.Binding { return []key.Binding{s.keys.Refresh} }

func (s *Board) FullHelp() [][]key.Binding { return [][]key.Binding{{s.keys.Refresh}} }
