package checkin

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/printing"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views"
)

var testNow = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func testClock() time.Time { return testNow }

// rig is the console on a fresh simulator with a fixed clock, driven
// synchronously; the desk's pump is drained by the test.
type rig struct {
	*uitest.Driver
	t    testing.TB
	app  *ui.App
	sim  *sim.Sim
	srv  *server
	ids  sim.Fixtures
	deps views.Env
	rts  chan *runtime
}

type rigOpt func(*rigConfig)

type rigConfig struct {
	w, h      int
	dir       string
	noDesk    bool
	eventID   func(sim.Fixtures) string
	sessionID string
	lockWait  time.Duration
	checkIn   scanqueue.CheckInFunc
	offline   bool         // the server drops every connection from the start
	pin       string       // a kiosk's PIN
	extras    views.Extras // walk-ins, badges, the hook
	printPoll time.Duration
	search    bool   // a kiosk offers its masked search
	base      string // the API's address, when not the simulator's
	now       func() time.Time
	log       *slog.Logger
	board     bool // the arrivals board alone, not the desk
	venue     func(eventID, sessionID string) (views.VenueWatch, error)
	download  bool // no roster cached: the desk downloads it
	elsewhere func(eventID, sessionID string) []string
}

func withSize(w, h int) rigOpt         { return func(c *rigConfig) { c.w, c.h = w, h } }
func withJournalDir(dir string) rigOpt { return func(c *rigConfig) { c.dir = dir } }
func pickerOnly() rigOpt               { return func(c *rigConfig) { c.noDesk = true } }
func withSession(id string) rigOpt     { return func(c *rigConfig) { c.sessionID = id } }
func withKioskPIN(pin string) rigOpt   { return func(c *rigConfig) { c.pin = pin } }
func withExtras(x views.Extras) rigOpt { return func(c *rigConfig) { c.extras = x } }
func withKioskSearch() rigOpt          { return func(c *rigConfig) { c.search = true } }

// withUnreachableServer points the desk's clients at loopback port 1,
// where nothing listens: every connection is refused.
func withUnreachableServer() rigOpt { return func(c *rigConfig) { c.base = "http://127.0.0.1:1/v2" } }
func withLog(l *slog.Logger) rigOpt { return func(c *rigConfig) { c.log = l } }

// withElsewhere tells the desk where scans wait that its server does not
// send.
func withElsewhere(f func(eventID, sessionID string) []string) rigOpt {
	return func(c *rigConfig) { c.elsewhere = f }
}

// withClock runs the rig on c instead of the fixed testClock.
func withClock(c *movingClock) rigOpt { return func(cfg *rigConfig) { cfg.now = c.Now } }

// movingClock starts at testNow and moves only when the test says; the
// desk's goroutines read it too.
type movingClock struct{ ahead atomic.Int64 }

func (c *movingClock) Now() time.Time          { return testNow.Add(time.Duration(c.ahead.Load())) }
func (c *movingClock) Advance(d time.Duration) { c.ahead.Add(int64(d)) }
func boardOnly() rigOpt                        { return func(c *rigConfig) { c.board = true } }

// withVenueWatch gives a board its venue to watch.
func withVenueWatch(f func(eventID, sessionID string) (views.VenueWatch, error)) rigOpt {
	return func(c *rigConfig) { c.venue = f }
}

// downloadRoster starts the desk with no roster cached, so it downloads
// the registrants as a desk's first start does. Other rigs find the large
// conference's roster cached beside the journal (downloaded once for the
// package: 20,000 registrants over HTTP cost most of a test's time).
func downloadRoster() rigOpt { return func(c *rigConfig) { c.download = true } }
func withCheckIn(f scanqueue.CheckInFunc) rigOpt {
	return func(c *rigConfig) { c.checkIn = f }
}

func largeEvent(f sim.Fixtures) string { return f.LargeConferenceEventID }

// newRig opens the check-in section with the desk of the large conference
// on top (unless pickerOnly).
func newRig(t testing.TB, opts ...rigOpt) *rig {
	t.Helper()
	cfg := rigConfig{w: 100, h: 30, eventID: largeEvent}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.dir == "" {
		cfg.dir = t.TempDir()
	}
	s := sim.New(sim.Options{Now: testClock, NoRateLimit: true})
	srv := startServer(t, s)
	if !cfg.download {
		seedRoster(t, cfg.dir)
	}
	if cfg.offline {
		s.SetFaults(0, 0, 1)
	}
	mk := func(extra ...api.Option) *api.Client {
		base := srv.URL() + "/v2"
		if cfg.base != "" {
			base = cfg.base
		}
		c, err := api.New(append([]api.Option{api.WithBaseURL(base), api.WithToken(sim.DemoToken),
			api.WithRateLimit(0, 0), api.WithClock(testClock),
			api.WithSleep(func(context.Context, time.Duration) error { return nil })}, extra...)...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	r := &rig{t: t, sim: s, srv: srv, ids: s.Fixtures(), rts: make(chan *runtime, 64)}
	r.deps = views.Env{
		Client:     mk(),
		JournalDir: cfg.dir,
		Now:        testClock,
		Local:      time.UTC,
		Desks: views.Desks{
			SenderClient: mk(api.WithRetry(api.RetryPolicy{MaxAttempts: 1})),
			Desk:         "evdesk desk test",
			KioskPIN:     cfg.pin,
			Extras:       cfg.extras,
			KioskSearch:  cfg.search,
			WatchVenue:   cfg.venue,
			Elsewhere:    cfg.elsewhere,
		},
	}
	useHooks(t, cfg.dir, &testHooks{
		manualPump: true,
		onRuntime:  func(rt *runtime) { r.rts <- rt },
		lockWait:   cfg.lockWait,
		checkIn:    cfg.checkIn,
		sender: func(o *scanqueue.SenderOptions) {
			o.Jitter = func() float64 { return 0 }
			// Backoff waits until woken (ctrl+r), so an outage
			// holds still for the golden file.
			o.Sleep = untilWoken
		},
		// The history and the roster refresh when asked (ctrl+r),
		// so every view is the same on every run.
		wait: untilWoken,
		// So do walk-ins that wait for the server.
		walkinSleep: untilWoken,
		printing: func(o *printing.Options) {
			if cfg.printPoll > 0 {
				o.PollEvery = cfg.printPoll
			}
		},
	})
	if cfg.now != nil {
		r.deps.Now = cfg.now
	}
	ctx := &ui.Context{Theme: ui.NewTheme(true, true), Profile: "test", Log: cfg.log}
	var appOpts []ui.Option
	if !cfg.noDesk {
		ev := cfg.eventID(r.ids)
		name := map[string]string{r.ids.LargeConferenceEventID: "Observability Summit APAC",
			r.ids.RecurringEventID: "Pottery for Beginners (weekly)"}[ev]
		sess := cfg.sessionID
		appOpts = append(appOpts, ui.WithInitialScreen(func(c *ui.Context) ui.Screen {
			if cfg.board {
				return NewBoard(c, r.deps, ev, name, sess)
			}
			return NewDesk(c, r.deps, ev, name, sess, "")
		}))
	}
	r.app = ui.NewApp(ctx, []ui.Section{{Name: "Check-in", New: func(c *ui.Context) ui.Screen { return NewPicker(c, r.deps) }}}, appOpts...)
	r.Driver = uitest.New(t, r.app, cfg.w, cfg.h)
	t.Cleanup(r.closeDesks)
	return r
}

// desk is the desk on top of the stack.
func (r *rig) desk() *Desk {
	r.t.Helper()
	d, ok := r.app.Top().(*Desk)
	if !ok {
		r.t.Fatalf("the top screen is %T, not the desk", r.app.Top())
	}
	return d
}

// closeDesks shuts every desk this rig opened and waits, so the temporary
// directory is not removed under a journal.
func (r *rig) closeDesks() {
	for {
		select {
		case rt := <-r.rts:
			rt.shutdown()
			<-rt.down
		default:
			return
		}
	}
}

// settle delivers the pumped messages of the desk on top until the view
// shows every one of want, then until the desk is at rest. The deadline
// only ends a test that has failed (under -race, on a busy machine, a
// desk is slow).
func (r *rig) settle(want ...string) {
	r.t.Helper()
	rt := r.desk().rt
	deadline := time.After(30 * time.Second)
	shows := func() bool {
		v := r.View()
		for _, w := range want {
			if !strings.Contains(v, w) {
				return false
			}
		}
		return true
	}
	for !shows() {
		select {
		case m := <-rt.pump.ch:
			r.Send(m)
		case <-deadline:
			r.t.Fatalf("timed out waiting for %q; view:\n%s", want, r.View())
		}
	}
	r.quiet(rt, deadline)
}

// quiet delivers the desk's pumped messages until the venue desk is at rest
// (nothing under way, every change posted) and none is left to deliver.
// Nothing but the test wakes a resting desk (its timers wait for ctrl+r), so
// the view is then final.
func (r *rig) quiet(rt *runtime, deadline <-chan time.Time) {
	r.t.Helper()
	poll := time.NewTicker(time.Millisecond)
	defer poll.Stop()
	for {
		select {
		case m := <-rt.pump.ch:
			r.Send(m)
			continue
		default:
		}
		// Rest first, then the pump: a desk at rest posts nothing more.
		if rt.atRest() && len(rt.pump.ch) == 0 {
			return
		}
		select {
		case m := <-rt.pump.ch:
			r.Send(m)
		case <-poll.C:
		case <-deadline:
			r.t.Fatalf("timed out waiting for the desk to rest; view:\n%s", r.View())
		}
	}
}

// atRest: the venue desk (if one opened) and its walk-in sender have
// nothing under way.
func (rt *runtime) atRest() bool {
	rt.mu.Lock()
	v, dr := rt.v, rt.door
	rt.mu.Unlock()
	if dr != nil && dr.walker != nil && !dr.walker.AtRest() {
		return false
	}
	return v == nil || v.AtRest()
}

// scan types text as a scanner does and ends it with Enter.
func (r *rig) scan(text string) {
	r.t.Helper()
	r.Type(text)
	r.Press("enter")
}

// untilWoken is a wait that only a wake (ctrl+r) or closing ends.
func untilWoken(ctx context.Context, _ time.Duration) error { <-ctx.Done(); return ctx.Err() }

func ctrl(c rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: c, Mod: tea.ModCtrl} }

func fkey(n int) tea.KeyPressMsg { return tea.KeyPressMsg{Code: tea.KeyF1 + rune(n-1)} }

func pushMsg(s ui.Screen) tea.Msg { return ui.PushMsg{Screen: s} }

// seeded is the large conference's roster cache file as a fresh simulator
// serves it at testNow: downloaded and written once, then copied.
var seeded struct {
	once    sync.Once
	eventID string
	file    []byte
	err     error
}

// seedRoster caches the large conference's roster in dir, unless the test
// put a cache there itself.
func seedRoster(t testing.TB, dir string) {
	t.Helper()
	seeded.once.Do(func() { seeded.eventID, seeded.file, seeded.err = rosterFile() })
	if seeded.err != nil {
		t.Fatal(seeded.err)
	}
	path := roster.CachePath(dir, seeded.eventID)
	if _, err := os.Stat(path); err == nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, seeded.file, 0o600); err != nil {
		t.Fatal(err)
	}
}

// rosterFile downloads the large conference's roster and returns its event
// id and its cache file as roster.Save writes it.
func rosterFile() (string, []byte, error) {
	s := sim.New(sim.Options{Now: testClock, NoRateLimit: true})
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0), api.WithClock(testClock))
	if err != nil {
		return "", nil, err
	}
	ro, err := roster.Download(context.Background(), c, s.Fixtures().LargeConferenceEventID, testClock, nil)
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "evdesk-roster-")
	if err != nil {
		return "", nil, err
	}
	defer os.RemoveAll(dir)
	path := roster.CachePath(dir, ro.EventID())
	if err := roster.Save(path, ro); err != nil {
		return "", nil, err
	}
	b, err := os.ReadFile(path)
	return ro.EventID(), b, err
}
