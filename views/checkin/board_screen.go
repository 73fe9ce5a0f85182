package checkin

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/timer"
	"github.com/evdesk/evdesk/views"
)

// Board is the arrivals board on its own, for a supervisor's screen
// (`evdesk desk EVENT --board`): it syncs the check-in history itself,
// records nothing, and refreshes live.
type Board struct {
	ui.ScreenBase
	deps views.Env

	eventID, eventName, sessionID string

	b          board
	arr        *roster.Arrivals
	sync       ui.Task
	registered int
	err        error
	// vw watches the venue (--board --venue); closed once the screen is.
	vw     views.VenueWatch
	closed bool
}

type (
	boardSyncMsg struct {
		registered int
		err        error
	}
	boardSyncTickMsg struct{}
	// venueWatchMsg: the board joined its venue as a watcher.
	venueWatchMsg struct {
		vw  views.VenueWatch
		err error
	}
	// venueTickMsg asks the venue's state again.
	venueTickMsg struct{}
)

// venueEvery is how often a board reads its venue's state.
const venueEvery = time.Second

// NewBoard shows the arrivals board of an event, or of one of its sessions.
// Times of check-ins a desk on this computer saw come from its cache; the
// others are timed when the board first sees them.
func NewBoard(ctx *ui.Context, d views.Env, eventID, eventName, sessionID string) ui.Screen {
	d = withDefaults(d)
	arr, _ := roster.LoadArrivals(roster.ArrivalsPath(d.JournalDir, eventID, sessionID), eventID, sessionID)
	if eventName == "" {
		eventName = eventID
	}
	s := &Board{deps: d, eventID: eventID, eventName: eventName, sessionID: sessionID,
		b: newBoard(ctx, d, eventID, eventName, sessionID), arr: arr}
	s.ScreenBase = ui.NewScreenBase(ctx, ui.ScreenConfig{Actions: func() ui.Actions {
		return ui.Actions{{Key: ctx.Keys.Refresh, Help: "sync now", Run: func() tea.Cmd {
			return tea.Batch(s.syncNow(), s.b.loadSessions())
		}}}
	}})
	return s
}

func (s *Board) Title() string { return "Board: " + s.eventName }

func (s *Board) Init() tea.Cmd { return tea.Batch(s.syncNow(), s.b.loadSessions(), s.watchVenue()) }

// watchVenue joins the venue as a watcher, in the background (its engine
// takes a moment to start).
func (s *Board) watchVenue() tea.Cmd {
	open, ev, sess := s.deps.WatchVenue, s.eventID, s.sessionID
	if open == nil {
		return nil
	}
	return func() tea.Msg {
		vw, err := open(ev, sess)
		return venueWatchMsg{vw: vw, err: err}
	}
}

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
	s.closed = true
	if vw := s.vw; vw != nil {
		s.vw = nil
		go func() { _ = vw.Close() }() // its engine takes a moment to stop
	}
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
	case venueWatchMsg:
		if msg.err != nil {
			s.err = fmt.Errorf("venue: %w", msg.err)
			return s, nil
		}
		if s.closed { // left meanwhile
			go func() { _ = msg.vw.Close() }()
			return s, nil
		}
		s.vw = msg.vw
		return s, func() tea.Msg { return venueTickMsg{} }
	case venueTickMsg:
		if s.vw == nil {
			return s, nil
		}
		in := s.vw.Info()
		s.b.venue = &in
		// The venue knows when its desks scanned; the history only when
		// this board found a check-in.
		scanned, _ := s.vw.Admissions()
		learned := false
		for _, a := range scanned {
			learned = s.arr.Note(a.Email, a.Desk, a.At) || learned
		}
		if learned { // the figures again only when the venue taught it something
			s.b.show(s.arr.Stats(s.deps.Now(), s.registered, boardLatest))
		}
		return s, timer.After(venueEvery, func(time.Time) tea.Msg { return venueTickMsg{} })
	case boardMsg:
		return s, s.b.update(msg)
	case boardTickMsg:
		return s, s.b.loadSessions()
	}
	return s, s.ScreenBase.Update(msg)
}

func (s *Board) View() string {
	t := s.Ctx.Theme
	head := s.Heading(t.Title.Render(s.eventName)+t.Muted.Render(" · "+s.scope()),
		ui.LoadState{Loading: s.sync.Running() && !s.b.have, Err: s.err})
	return head + "\n\n" + s.b.view(s.Width(), max(1, s.Height()-2))
}

func (s *Board) scope() string {
	if s.sessionID == "" {
		return "whole event"
	}
	return "session " + s.sessionID
}
