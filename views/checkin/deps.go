// Package checkin holds the check-in screens: the event and session picker,
// the desk (one scan input, a result box, counters, recent scans and a
// registrant search) and the check-in history. The durable queue behind the
// desk is the checkin package at the module root.
package checkin

import (
	"context"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/printing"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"

	"github.com/evdesk/evdesk/api"
)

// Deps is what the check-in screens need beyond the program context.
type Deps struct {
	// Client lists events, sessions, registrants and history.
	Client *api.Client
	// SenderClient sends the check-ins: give it few retries of its own
	// (api.WithRetry with MaxAttempts 1 or 2) so an outage shows as offline
	// at once; the sender retries without end. Nil uses Client, each call
	// cut short after SendTimeout.
	SenderClient *api.Client
	// JournalDir holds the journals, one file per event or session:
	// filepath.Join(config.StateDir(), "journal") in production.
	JournalDir string
	// Desk is the desk's name (default DefaultDesk): sent as the source of
	// every check-in, shown to the other desks ("ALREADY CHECKED IN at
	// Desk 2").
	Desk string
	// KioskPIN, when set, keeps the desk on screen: leaving takes the
	// kiosk key and this PIN (digits only, so no scan can be taken for it;
	// config.CheckKioskPIN checks it).
	KioskPIN string
	// KioskSearch offers the registrant search while the kiosk is locked:
	// names only, partly masked (the profile's kiosk_search). Without it
	// the public cannot search the roster.
	KioskSearch bool
	// SyncEvery and RefreshEvery set how often the check-in history and
	// the roster are refreshed (venue's defaults when zero).
	SyncEvery, RefreshEvery time.Duration
	// Now and Local default to the wall clock and the user's zone.
	Now   func() time.Time
	Local *time.Location
	// Bell starts desks with the terminal bell on failures switched on.
	Bell bool
	// Venue, when set, makes a desk's membership of its venue (evdesk
	// desk --venue): the desks of a venue agree and share one sender.
	Venue func(eventID, sessionID string) (venue.Venue, error)
	// WatchVenue, when set, lets a board (evdesk desk --board --venue)
	// watch the venue's desks without being one.
	WatchVenue func(eventID, sessionID string) (VenueWatch, error)
	// Extras: walk-ins, badges, the on_checkin hook (door.go).
	Extras Extras

	hooks *testHooks
}

// SendTimeout bounds one check-in request when Deps.SenderClient is nil,
// so the long retries of a console client still show an outage quickly.
const SendTimeout = 8 * time.Second

// DefaultDesk names a desk when Deps.Desk is empty.
const DefaultDesk = "evdesk desk"

func (d Deps) withDefaults() Deps {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Local == nil {
		d.Local = time.Local
	}
	if d.Desk == "" {
		d.Desk = DefaultDesk
	}
	return d
}

// checkInFunc sends check-ins with the sender's client.
func (d Deps) checkInFunc() scanqueue.CheckInFunc {
	if d.hooks != nil && d.hooks.checkIn != nil {
		return d.hooks.checkIn
	}
	if d.SenderClient != nil {
		return d.SenderClient.Attendees.CheckIn
	}
	c := d.Client
	return func(ctx context.Context, eventID, sessionID string, emails []string, source string) ([]api.BatchError, error) {
		ctx, cancel := context.WithTimeout(ctx, SendTimeout)
		defer cancel()
		return c.Attendees.CheckIn(ctx, eventID, sessionID, emails, source)
	}
}

// testHooks let tests drive the desk without a running program.
type testHooks struct {
	// manualPump: the desk does not wait on its pump; the test reads the
	// pumped messages and delivers them.
	manualPump bool
	// onRuntime sees every desk's runtime, so tests can shut it down.
	onRuntime func(*runtime)
	// lockWait replaces lockWait when not zero.
	lockWait time.Duration
	// sender adjusts the sender's options (clock, sleep, jitter).
	sender func(*scanqueue.SenderOptions)
	// checkIn replaces the network call.
	checkIn scanqueue.CheckInFunc
	// wait replaces the background refreshes' waits.
	wait func(ctx context.Context, d time.Duration) error
	// walkinSleep replaces the walk-in sender's retry waits.
	walkinSleep func(ctx context.Context, d time.Duration) error
	// printing adjusts the print queue's options (a faster poll).
	printing func(*printing.Options)
}

// VenueWatch is a venue as a board sees it (package mesh's Observer).
type VenueWatch interface {
	Info() venue.Info
	Close() error
}
