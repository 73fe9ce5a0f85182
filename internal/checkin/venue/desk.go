// Package venue is one check-in desk at a venue, apart from any screen: its
// durable journal and the sender that delivers it, the event's roster (who
// is registered, with their tickets) and the arrivals (who the server holds
// as checked in, and at which desk), both kept beside the journal and
// refreshed in the background. With them a scan is answered at once, online
// or offline, and a person checked in at another desk is recognised here
// within one sync.
package venue

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// Defaults of Options.
const (
	// DefaultSyncEvery is how often the check-in history is synced.
	DefaultSyncEvery = 5 * time.Second
	// DefaultRefreshEvery is how often the roster is downloaded again.
	DefaultRefreshEvery = 15 * time.Minute
	// retryEvery is the wait after a failed roster download.
	retryEvery = 30 * time.Second
	// lockWait is how long Open waits for a journal another desk of this
	// program is still closing.
	lockWait = 2 * time.Second
)

// Options configures a desk.
type Options struct {
	// Dir is the journal folder; the caches sit beside the journals.
	Dir string
	// EventID, and SessionID for a session's desk.
	EventID, SessionID string
	// Name is the desk's name, sent as the source of its check-ins and
	// shown to the other desks.
	Name string
	// Client reads the roster and the history (give it retries).
	Client *api.Client
	// CheckIn sends check-ins (scanqueue.SenderOptions.CheckIn).
	CheckIn scanqueue.CheckInFunc
	// Now and Local default to the wall clock and the user's zone.
	Now   func() time.Time
	Local *time.Location
	// SyncEvery and RefreshEvery set the history's and the roster's
	// refresh (defaults above).
	SyncEvery, RefreshEvery time.Duration
	// Wait pauses the background loops (default: a timer); tests inject
	// one that waits for a signal. A wait ends early on Refresh and Close.
	Wait func(ctx context.Context, d time.Duration) error
	// Sender adjusts the sender's options (tests: clock, sleep, jitter).
	Sender func(*scanqueue.SenderOptions)
	// OnStatus and OnAck are the sender's callbacks (see
	// scanqueue.SenderOptions); OnChange hears that the roster or the
	// arrivals changed. All run on goroutines of the desk's and may block.
	OnStatus func(scanqueue.Status)
	OnAck    func([]scanqueue.Scan)
	OnChange func()
	// LockWait replaces lockWait when not zero.
	LockWait time.Duration
	// Venue, when set, joins the desk to its venue's other desks (package
	// mesh); nil is a desk that works alone.
	Venue Venue
}

// RosterState is where the roster stands.
type RosterState struct {
	// Roster is the latest roster (from the cache or a download); nil
	// until one is at hand.
	Roster *roster.Roster
	// Loading, with Loaded of Total, while a download is under way.
	Loading       bool
	Loaded, Total int
	// Err is the last download's failure; nil once one succeeds.
	Err error
	// Refused: the service refuses the registrants list (403, 404), so
	// the desk checks in by email alone (roster.EmailOnly).
	Refused bool
}

// Health is how the desk's reads of the server fare (the roster and the
// history; the sender reports its own).
type Health struct {
	LastOK  time.Time // the last read that succeeded
	LastErr error     // the last read's failure; nil after a success
}

// Desk is one check-in desk. Its methods are safe for concurrent use.
type Desk struct {
	o  Options
	j  *scanqueue.Journal
	s  *scanqueue.Sender
	ar *roster.Arrivals

	roster atomic.Pointer[roster.Roster]

	mu     sync.Mutex
	rstate RosterState
	health Health
	learn  learned // names and walk-ins (names.go); under mu

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	napR   *nap // the roster loop's waits
	napS   *nap // the sync loop's waits
	once   sync.Once
}

// Open opens the desk's journal (waiting briefly for a desk of this program
// that is still closing it), loads the caches, starts the sender and the
// background refreshes. Close it when done.
func Open(o Options) (*Desk, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Local == nil {
		o.Local = time.Local
	}
	if o.SyncEvery <= 0 {
		o.SyncEvery = DefaultSyncEvery
	}
	if o.RefreshEvery <= 0 {
		o.RefreshEvery = DefaultRefreshEvery
	}
	if o.Wait == nil {
		o.Wait = api.SleepContext
	}
	if o.LockWait == 0 {
		o.LockWait = lockWait
	}
	if o.Client == nil || o.CheckIn == nil {
		return nil, errors.New("venue: Options.Client and Options.CheckIn are required")
	}
	j, err := openJournal(o)
	if err != nil {
		return nil, err
	}
	d := &Desk{o: o, j: j, napR: newNap(), napS: newNap()}
	// A damaged or foreign cache is only a cache: start without it.
	d.learn.names, _ = roster.LoadNames(roster.NamesPath(o.Dir, o.EventID), o.EventID)
	if ro, _ := roster.Load(roster.CachePath(o.Dir, o.EventID), o.EventID); ro != nil {
		ro = d.withLearned(ro)
		d.roster.Store(ro)
		d.rstate.Roster, d.rstate.Total = ro, ro.Total()
	}
	d.ar, _ = roster.LoadArrivals(roster.ArrivalsPath(o.Dir, o.EventID, o.SessionID), o.EventID, o.SessionID)
	so := scanqueue.SenderOptions{CheckIn: o.CheckIn, Now: o.Now, OnStatus: o.OnStatus, OnAck: d.onAck}
	if o.Venue != nil {
		so.Hold, so.CheckIn = o.Venue.Hold, o.Venue.Guard(o.CheckIn)
	}
	if o.Sender != nil {
		o.Sender(&so)
	}
	if d.s, err = scanqueue.NewSender(j, so); err != nil {
		_ = j.Close()
		return nil, err
	}
	d.ctx, d.cancel = context.WithCancel(context.Background())
	if o.Venue != nil {
		o.Venue.Attach(d)
	}
	d.wg.Add(2)
	go d.rosterLoop()
	go d.syncLoop()
	return d, nil
}

// lockRetry is the pause between tries of a journal another desk holds.
const lockRetry = 50 * time.Millisecond

// openJournal opens the journal, trying again for LockWait while another
// desk holds it. The tries are counted, not timed: the desk's clock (Now)
// may be a test's fixed one, and the lock is another process's, so the
// pause between tries is real time whatever the clock says.
func openJournal(o Options) (*scanqueue.Journal, error) {
	for tries := max(1, int(o.LockWait/lockRetry)); ; tries-- {
		j, err := scanqueue.Open(o.Dir, o.EventID, o.SessionID, scanqueue.WithClock(o.Now))
		if !errors.Is(err, scanqueue.ErrLocked) || tries <= 1 {
			return j, err
		}
		time.Sleep(lockRetry)
	}
}

// onAck notes this desk's confirmed check-ins among the arrivals, so the
// counters and the board count them before the next sync.
func (d *Desk) onAck(scans []scanqueue.Scan) {
	for _, sc := range scans {
		if sc.Outcome == scanqueue.CheckedIn {
			d.ar.Note(sc.Email, sc.Source, sc.At)
		}
	}
	if d.o.OnAck != nil {
		d.o.OnAck(scans)
	}
}

// Journal and Sender are the desk's queue.
func (d *Desk) Journal() *scanqueue.Journal { return d.j }
func (d *Desk) Sender() *scanqueue.Sender   { return d.s }

// Arrivals are the check-ins the server holds, as last synced.
func (d *Desk) Arrivals() *roster.Arrivals { return d.ar }

// Name is the desk's name.
func (d *Desk) Name() string { return d.o.Name }

// Roster is the roster at hand, or nil.
func (d *Desk) Roster() *roster.Roster { return d.roster.Load() }

// RosterState is where the roster stands.
func (d *Desk) RosterState() RosterState {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.rstate
}

// Health is how the desk's reads of the server fare.
func (d *Desk) Health() Health {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.health
}

// Scan journals scans of normalised, checked addresses (see
// scanqueue.Journal.ScanWith) with what the desk knows of each: the
// roster's verdict, and a check-in the server holds, which makes the scan
// Already (naming the desk) and sends nothing.
func (d *Desk) Scan(emails []string) ([]scanqueue.Scan, error) {
	scans, err := d.j.ScanWith(emails, d.o.Name, d.prior)
	if err != nil || d.o.Venue == nil {
		return scans, err
	}
	return d.o.Venue.Admit(scans), nil
}

func (d *Desk) prior(email string) scanqueue.Prior {
	var p scanqueue.Prior
	if ro := d.roster.Load(); ro != nil {
		p.Expect = scanqueue.ExpectUnknown
		if _, ok := ro.ByEmail(email); ok {
			p.Expect = scanqueue.ExpectRegistered
		}
	}
	if ar, ok := d.ar.Lookup(email); ok {
		p.Already = d.CheckedInAt(ar)
	}
	return p
}

// CheckedInAt says where and when the server's check-in was made:
// "checked in at Desk 2, 09:14"; "by 09:14" when found after a gap.
func (d *Desk) CheckedInAt(ar roster.Arrival) string {
	where := ar.Desk
	switch {
	case where == "":
		where = "a desk that gave no name"
	case where == d.o.Name:
		where = "this desk (" + where + ")"
	}
	when := ""
	if !ar.At.IsZero() {
		when = ", " + ar.At.In(d.o.Local).Format("15:04")
		if ar.By {
			when = ", by " + ar.At.In(d.o.Local).Format("15:04")
		}
	}
	return "checked in at " + where + when
}

// Refresh is the desk's "retry now": the sender tries at once, the history
// is synced, and a roster whose download failed is fetched again.
func (d *Desk) Refresh() {
	d.s.Wake()
	d.napS.poke()
	if d.RosterState().Err != nil {
		d.napR.poke()
	}
}

// AtRest reports whether the desk has nothing under way: the roster and
// history refreshes wait for their time or a Refresh, the sender is at rest
// (scanqueue.Sender.AtRest), and every change has been told to OnChange.
// It stays so until a scan, a Refresh or a timer.
func (d *Desk) AtRest() bool {
	return d.napR.resting() && d.napS.resting() && d.s.AtRest()
}

// Sync brings the arrivals up to date once, now, and saves them.
func (d *Desk) Sync(ctx context.Context) error {
	_, err := d.ar.Sync(ctx, d.o.Client, d.o.EventID, d.o.SessionID, d.o.Now)
	d.read(err)
	if err != nil {
		return fmt.Errorf("sync the check-in history: %w", err)
	}
	// The cache only saves a look-up later: a failed save is no failure.
	_ = d.ar.Save(roster.ArrivalsPath(d.o.Dir, d.o.EventID, d.o.SessionID), d.o.EventID, d.o.SessionID)
	d.changed()
	return nil
}

// read records how a read of the server fared.
func (d *Desk) read(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err == nil {
		d.health = Health{LastOK: d.o.Now()}
		return
	}
	if d.ctx.Err() == nil {
		d.health.LastErr = err
	}
}

func (d *Desk) changed() {
	if d.o.OnChange != nil && d.ctx.Err() == nil {
		d.o.OnChange()
	}
}

func (d *Desk) syncLoop() {
	defer d.wg.Done()
	for d.ctx.Err() == nil {
		if !d.alone() { // the venue syncs for every desk
			if !d.pause(venueRest, d.napS) {
				return
			}
			continue
		}
		_ = d.Sync(d.ctx)
		if !d.pause(d.o.SyncEvery, d.napS) {
			return
		}
	}
}

// venueRest is how long a loop the venue does for this desk waits before
// it looks again (VenueChanged wakes it sooner).
const venueRest = time.Hour

// alone reports whether the desk reads the service itself: it has no
// venue, or is cut off from it.
func (d *Desk) alone() bool { return d.o.Venue == nil || d.o.Venue.Alone() }

// rosterLoop downloads the roster when the cache is missing or old, then
// every RefreshEvery (sooner after a failure).
func (d *Desk) rosterLoop() {
	defer d.wg.Done()
	wait, shared := time.Duration(0), false
	if ro := d.roster.Load(); ro != nil {
		wait = max(0, d.o.RefreshEvery-d.o.Now().Sub(ro.Updated()))
	}
	for {
		if wait > 0 && !d.pause(wait, d.napR) {
			return
		}
		if !d.alone() { // the venue shares its roster
			wait, shared = venueRest, true
			continue
		}
		if shared { // cut off from the venue: download when the roster is due
			shared = false
			if ro := d.roster.Load(); ro != nil {
				if wait = d.o.RefreshEvery - d.o.Now().Sub(ro.Updated()); wait > 0 {
					continue
				}
			}
		}
		wait = d.o.RefreshEvery
		if err := d.download(); err != nil {
			if d.ctx.Err() != nil {
				return
			}
			if !roster.RegistrantsRefused(err) { // a refusal stands: ask again at the usual time
				wait = min(retryEvery, d.o.RefreshEvery)
			}
		}
	}
}

func (d *Desk) download() error {
	d.mu.Lock()
	d.rstate.Loading, d.rstate.Loaded = true, 0
	d.mu.Unlock()
	d.changed()
	ro, err := roster.Download(d.ctx, d.o.Client, d.o.EventID, d.o.Now, func(n, total int) {
		d.mu.Lock()
		d.rstate.Loaded, d.rstate.Total = n, total
		d.mu.Unlock()
		d.changed()
	})
	d.read(err)
	if err == nil {
		_ = roster.Save(roster.CachePath(d.o.Dir, d.o.EventID), ro)
		d.reloadNames()
	}
	d.mu.Lock()
	d.rstate.Loading, d.rstate.Err, d.rstate.Refused = false, err, roster.RegistrantsRefused(err)
	if err == nil {
		ro = d.withLearnedLocked(ro)
		d.rstate.Roster, d.rstate.Total = ro, ro.Total()
		d.roster.Store(ro)
	}
	d.mu.Unlock()
	d.changed()
	return err
}

// pause waits d on n, or less when poked or closing; false when closing.
func (d *Desk) pause(wait time.Duration, n *nap) bool {
	n.begin()
	defer n.end()
	ctx, cancel := context.WithCancel(d.ctx)
	defer cancel()
	go func() {
		select {
		case <-n.wake:
			cancel()
		case <-ctx.Done():
		}
	}()
	_ = d.o.Wait(ctx, wait)
	return d.ctx.Err() == nil
}

// nap is a refresh loop's wait that a poke cuts short. It knows whether the
// loop rests: a poke ends the rest at once, before the loop wakes, so no
// moment shows a poked loop at rest.
type nap struct {
	mu   sync.Mutex
	rest bool
	wake chan struct{}
}

func newNap() *nap { return &nap{wake: make(chan struct{}, 1)} }

func (n *nap) poke() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.rest = false
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// begin marks the loop at rest, unless a poke is waiting for it.
func (n *nap) begin() {
	n.mu.Lock()
	n.rest = len(n.wake) == 0
	n.mu.Unlock()
}

func (n *nap) end() {
	n.mu.Lock()
	n.rest = false
	n.mu.Unlock()
}

func (n *nap) resting() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.rest
}

// Stats are the board's figures now.
func (d *Desk) Stats(latest int) roster.Stats {
	return d.ar.Stats(d.o.Now(), d.RosterState().Total, latest)
}

// Close stops the refreshes and the sender, saves the arrivals and closes
// the journal; pending scans stay in it for the next desk.
func (d *Desk) Close() error {
	var err error
	d.once.Do(func() {
		d.cancel()
		d.wg.Wait()
		if d.o.Venue != nil {
			_ = d.o.Venue.Close()
		}
		_ = d.s.Close()
		_ = d.ar.Save(roster.ArrivalsPath(d.o.Dir, d.o.EventID, d.o.SessionID), d.o.EventID, d.o.SessionID)
		err = d.j.Close()
	})
	return err
}
