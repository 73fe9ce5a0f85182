// Package views holds what the screen families share: Env, the program's
// parts every screen borrows beside ui.Context (which holds the look, the
// keys and the labels). Each family is a package below it; console puts
// them together.
package views

import (
	"log/slog"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/changelog"
	"github.com/evdesk/evdesk/internal/checkin/printing"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/webhook"
	"github.com/evdesk/evdesk/ui"
)

// Env is what the screens need from the program: the server, the clock and
// the user's zone, the journal folder, the ways between families, and each
// family's settings. One per program; the console hands it to every section
// and each screen passes it on to the screens it opens.
type Env struct {
	Client *api.Client
	// Now and Local are the clock and the user's zone (WithDefaults: the
	// wall clock and the machine's zone); tests fix them.
	Now   func() time.Time
	Local *time.Location
	// JournalDir holds the check-in journals, one file per event or
	// session, and the caches beside them: in production the folder of
	// the session's server (package place), never shared with another
	// server's.
	JournalDir string

	// Between families, set by the console (nil leaves their keys inert):
	// an event's check-in desk (via its sessions) and check-in history, and
	// what learns the names of each registration's tickets for the desks.
	CheckInDesk    func(ctx *ui.Context, eventID, eventName string) ui.Screen
	CheckInHistory func(ctx *ui.Context, eventID, eventName string) ui.Screen
	LearnNames     func(eventID string, asked []api.TicketRequest, res *api.TicketsResult)

	Desks
	Phone
	Transcribe
}

// WithDefaults is e with the wall clock and the machine's zone where none
// are set.
func (e Env) WithDefaults() Env {
	if e.Now == nil {
		e.Now = time.Now
	}
	if e.Local == nil {
		e.Local = time.Local
	}
	return e
}

// Desks is what the check-in desks need besides the client and the clock.
type Desks struct {
	// SenderClient sends the check-ins: give it few retries of its own
	// (api.WithRetry with MaxAttempts 1 or 2) so an outage shows as offline
	// at once; the sender retries without end. Nil uses Client, each call
	// cut short after checkin.SendTimeout.
	SenderClient *api.Client
	// Elsewhere, when set, says in words where scans of an event wait
	// that this server does not send (kept aside from before servers were
	// recorded, or another server's); the desk tells them as it opens.
	Elsewhere func(eventID, sessionID string) []string
	// Desk is the desk's name (default checkin.DefaultDesk): sent as the
	// source of every check-in, shown to the other desks ("ALREADY CHECKED
	// IN at Desk 2").
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
	// Bell starts desks with the terminal bell on failures switched on.
	Bell bool
	// Venue, when set, makes a desk's membership of its venue (evdesk
	// desk --venue): the desks of a venue agree and share one sender.
	Venue func(eventID, sessionID string) (venue.Venue, error)
	// WatchVenue, when set, lets a board (evdesk desk --board --venue)
	// watch the venue's desks without being one.
	WatchVenue func(eventID, sessionID string) (VenueWatch, error)
	// Extras: walk-ins, badges, the on_checkin hook.
	Extras Extras
}

// VenueWatch is a venue as a board sees it (package mesh's Observer).
type VenueWatch interface {
	Info() venue.Info
	// Admissions are the venue's check-ins, each at its scan's time, and
	// whether those it held when watched are all in.
	Admissions() ([]roster.Arrival, bool)
	Close() error
}

// Extras are what the desk does at the door beyond checking people in:
// registering walk-ins, printing badges and running the on_checkin hook.
// The zero value turns them all off.
type Extras struct {
	// WalkIns lets the desk register someone the server does not know
	// (the profile's walk_ins; off at a kiosk unless it says so).
	WalkIns bool
	// Printer is badge_printer (a CUPS queue or ipp://host/printers/NAME);
	// "" prints nothing. PrintBadges is always, ask or never (config).
	Printer, PrintBadges string
	// BadgeLayout is a built-in layout's name or a layout file.
	BadgeLayout string
	// OnCheckin is the hook's arguments; nil runs nothing.
	OnCheckin []string
	// Log hears the hook's runs.
	Log *slog.Logger
	// Run runs the print commands (default printing.Exec).
	Run printing.Runner
}

// Phone is what the phone screen needs besides the client.
type Phone struct {
	// Baseline is the profile's baseline file (phone_baseline): the
	// settings are checked against it from the start. "" for none.
	Baseline string
	// OpenProfile builds a client for another profile's account, to show
	// its policy beside this one; nil when the program cannot.
	OpenProfile func(name string) (*api.Client, error)
	// OtherProfile is the profile the comparison form offers first.
	OtherProfile string
	// Changelog finds the change log entry that deprecates a field, given
	// as "setting.field" (changelog.ForField on the console's copy of the
	// feed); nil when there is no change log.
	Changelog func(field string) (changelog.Entry, bool)
}

// Transcribe is what the Transcribe section needs.
type Transcribe struct {
	// Transcriber is nil without AI credentials: the section explains how
	// to add them. TranscribeSamples are audio URLs offered in the demo.
	Transcriber       *api.Transcriber
	TranscribeSamples []string
	// Recordings is where a webhook listener keeps the recordings it
	// received ("" Dir: none).
	Recordings webhook.Spool
}
