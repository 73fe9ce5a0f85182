package venue

import (
	"time"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// Venue is the rest of the venue a desk works in (package mesh implements
// it): the venue's desks agree on who is checked in, and one of them reads
// and writes the service for all. A desk cut off from its venue works
// alone, as a desk without one does. Its methods are safe for concurrent
// use.
type Venue interface {
	// Attach begins sharing the desk's work; Open calls it once, with the
	// desk ready but its loops not yet started.
	Attach(d *Desk)
	// Alone reports whether the desk works alone now: it then reads the
	// service and sends its own scans itself.
	Alone() bool
	// Hold reports whether the desk's own sender leaves a pending scan to
	// the venue. It runs with the journal locked (scanqueue
	// SenderOptions.Hold).
	Hold(sc scanqueue.Scan) bool
	// Guard wraps the desk's own sending, so the venue can take its
	// pending scans back only once no request of the desk's own is under
	// way.
	Guard(send scanqueue.CheckInFunc) scanqueue.CheckInFunc
	// Admit takes scans just journaled to the venue. A pending scan of a
	// person another desk admitted first comes back Already (and is
	// journaled so); the others are the venue's to deliver.
	Admit(scans []scanqueue.Scan) []scanqueue.Scan
	// Info is the venue as a board shows it.
	Info() Info
	// Close leaves the venue; the desk closes its journal after it.
	Close() error
}

// Info is a venue's state for the board.
type Info struct {
	Name string `json:"name"`
	// State is where this desk stands: "joining", "meshed" or "alone"
	// (cut off; it works as a desk without a venue does). A board, which
	// is no desk, says "alone" when the desks it hears all work alone, and
	// "cutoff" when it has heard desks but none lately (SilentAfter).
	State string `json:"state"`
	// Upstream names the desk that talks to the service for all ("" when
	// none does yet).
	Upstream string `json:"upstream,omitempty"`
	// Desks are the desks of the venue heard from lately, this one
	// included, by name.
	Desks []DeskInfo `json:"desks"`
	// Replicas is how many copies of the venue's scans the desks keep.
	Replicas int `json:"replicas"`
	// Queue counts the check-ins the venue has not yet sent upstream.
	Queue int `json:"queue"`
	// Twice lists the people admitted at two desks while the venue was
	// split.
	Twice []Twice `json:"twice,omitempty"`
	// Err is the last trouble, in words ("" when none).
	Err string `json:"error,omitempty"`
}

// SilentAfter is how long a desk may go unheard (a desk tells the venue
// about itself every second) before a board calls it silent and no longer
// counts it as present.
const SilentAfter = 10 * time.Second

// DeskInfo is one desk of a venue.
type DeskInfo struct {
	Name     string    `json:"name"`
	Upstream bool      `json:"upstream,omitempty"`
	Alone    bool      `json:"alone,omitempty"`
	Scans    int       `json:"scans"`   // scans recorded at the desk
	Pending  int       `json:"pending"` // of them, not yet answered by the service
	Seen     time.Time `json:"seen"`
}

// Twice is a person admitted at two desks while the venue was split.
type Twice struct {
	Email string    `json:"email"`
	First string    `json:"first"` // the desk that admitted them first, as the venue holds it
	Again string    `json:"again"` // the desk that admitted them again
	At    time.Time `json:"at"`
}

// Config is the desk's options as opened (with defaults filled in).
func (d *Desk) Config() Options { return d.o }

// Done is closed when the desk closes.
func (d *Desk) Done() <-chan struct{} { return d.ctx.Done() }

// Venue is the desk's venue, or nil.
func (d *Desk) Venue() Venue { return d.o.Venue }

// Settle records answers the venue brought for this desk's pending scans
// (the service's, or Already when another desk admitted the person first),
// tells them like the sender's own acks, and returns the scans settled.
func (d *Desk) Settle(acks []scanqueue.Ack) ([]scanqueue.Scan, error) {
	settled, err := d.j.Ack(acks)
	if err != nil || len(settled) == 0 {
		return settled, err
	}
	d.onAck(settled)
	d.s.Wake() // the status carries the new counts
	return settled, nil
}

// SetRoster takes a roster the venue shares, when it is newer than the
// one at hand, and keeps it in the cache.
func (d *Desk) SetRoster(ro *roster.Roster) {
	if ro == nil || ro.EventID() != d.o.EventID {
		return
	}
	if cur := d.roster.Load(); cur != nil && !ro.Updated().After(cur.Updated()) {
		return
	}
	d.mu.Lock()
	d.rstate = RosterState{Roster: ro, Total: ro.Total()}
	d.roster.Store(ro)
	d.mu.Unlock()
	_ = roster.Save(roster.CachePath(d.o.Dir, d.o.EventID), ro)
	d.changed()
}

// VenueChanged tells the desk that the venue changed: it wakes the loops
// and the sender, which look at Alone again, and tells OnChange.
func (d *Desk) VenueChanged() {
	d.napS.poke()
	d.napR.poke()
	d.s.Wake()
	d.changed()
}

// Changed tells OnChange that the arrivals changed.
func (d *Desk) Changed() { d.changed() }
