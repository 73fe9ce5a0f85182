package roster

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/words"
)

// Arrival is one check-in the server holds.
type Arrival struct {
	Email string `json:"email"`
	// Desk is the check-in's source: the name of the desk that made it.
	Desk string `json:"desk,omitempty"`
	// At is when the check-in was first known here: this desk's own scan
	// time, or the sync that found it (the history carries no times).
	At time.Time `json:"at"`
	// By marks At as only an upper bound: the check-in was found after a
	// gap in syncing (the first look, or a long outage), so it happened at
	// some time before At.
	By bool `json:"by,omitempty"`
}

// Seen is when the check-in was first known here, in words: the time of
// day, with the date on another day, and "by" it when it was found after
// a gap in syncing.
func (ar Arrival) Seen(now time.Time, loc *time.Location) string {
	if ar.At.IsZero() {
		return "-"
	}
	s := words.ClockAt(ar.At, now, loc)
	if ar.By {
		s = "by " + s
	}
	return s
}

// gapLimit is the longest pause between two syncs after which the arrivals
// a sync finds are still timed by it; after a longer one they are "by" it.
const gapLimit = 2 * time.Minute

// Arrivals is the check-in history of an event, or of one of its sessions,
// as the server holds it, with the time each check-in was first known
// here. It is safe for concurrent use.
type Arrivals struct {
	mu      sync.RWMutex
	list    []Arrival
	byEmail map[string]int32
	synced  time.Time // the last complete sync
	total   int       // the server's count at that sync
	changed bool      // since the last save
}

// NewArrivals is an empty history.
func NewArrivals() *Arrivals { return &Arrivals{byEmail: map[string]int32{}} }

// Lookup finds the check-in of an address; a nil history knows none.
func (a *Arrivals) Lookup(email string) (Arrival, bool) {
	if a == nil {
		return Arrival{}, false
	}
	a.mu.RLock()
	defer a.mu.RUnlock()
	i, ok := a.byEmail[api.NormalizeEmail(email)]
	if !ok {
		return Arrival{}, false
	}
	return a.list[i], true
}

// Len is how many check-ins are known.
func (a *Arrivals) Len() int {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return len(a.list)
}

// Synced is when the history last matched the server's.
func (a *Arrivals) Synced() time.Time {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.synced
}

// All copies every known check-in, in the order they became known.
func (a *Arrivals) All() []Arrival {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return slices.Clone(a.list)
}

// Note records a check-in at the time it was scanned: this desk's once the
// server confirmed it, or one a desk of its venue made. A check-in the
// server's history gave is kept with its desk (the server's record names
// the desk that was first), but takes the scan's time when that is earlier:
// a sync only knows when it found the check-in. It reports whether it
// changed anything.
func (a *Arrivals) Note(email, desk string, at time.Time) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	e := api.NormalizeEmail(email)
	if i, ok := a.byEmail[e]; ok {
		if ar := &a.list[i]; !at.IsZero() && at.Before(ar.At) {
			ar.At, ar.By = at, false
			a.changed = true
			return true
		}
		return false
	}
	a.add(Arrival{Email: e, Desk: desk, At: at})
	return true
}

// Forget drops the check-in of an address: a venue's desk admitted the
// person, and the server refused them.
func (a *Arrivals) Forget(email string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e := api.NormalizeEmail(email)
	i, ok := a.byEmail[e]
	if !ok {
		return
	}
	a.list = slices.Delete(a.list, int(i), int(i)+1)
	delete(a.byEmail, e)
	for k := int(i); k < len(a.list); k++ {
		a.byEmail[a.list[k].Email] = int32(k)
	}
	a.changed = true
}

// add appends an arrival. Call with mu held.
func (a *Arrivals) add(ar Arrival) {
	a.byEmail[ar.Email] = int32(len(a.list))
	a.list = append(a.list, ar)
	a.changed = true
}

// merge takes a complete history from the server, found at now. It returns
// how many check-ins were new here.
func (a *Arrivals) merge(items []api.AttendeeAction, total int, now time.Time) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	by := a.synced.IsZero() || now.Sub(a.synced) > gapLimit
	added := 0
	for _, it := range items {
		if it.Action != "" && it.Action != api.ActionCheckIn {
			continue
		}
		e := api.NormalizeEmail(it.Email)
		if i, ok := a.byEmail[e]; ok {
			if a.list[i].Desk != it.Source { // the server's word on who was first
				a.list[i].Desk = it.Source
				a.changed = true
			}
			continue
		}
		a.add(Arrival{Email: e, Desk: it.Source, At: now, By: by})
		added++
	}
	a.synced, a.total = now, total
	return added
}

// Sync brings the history up to date with the server's, for an event
// (sessionID "") or one of its sessions. One small request tells whether
// the server's count changed since the last sync; only then is the whole
// history walked (the listing has no times and no "since"). It returns how
// many check-ins it found new.
func (a *Arrivals) Sync(ctx context.Context, c *api.Client, eventID, sessionID string, now func() time.Time) (int, error) {
	probe, err := c.Attendees.ListPage(ctx, eventID, sessionID, api.ListAttendeeActionsOptions{PageSize: 1}, "")
	if err != nil {
		return 0, err
	}
	a.mu.RLock()
	same := !a.synced.IsZero() && probe.TotalRecords == a.total && probe.TotalRecords <= len(a.list)
	a.mu.RUnlock()
	if same {
		a.mu.Lock()
		a.synced = now()
		a.mu.Unlock()
		return 0, nil
	}
	var items []api.AttendeeAction
	pager := c.Attendees.Pager(eventID, sessionID, api.ListAttendeeActionsOptions{PageSize: api.MaxAttendeesPerBatch})
	for it, err := range pager.All(ctx) {
		if err != nil {
			return 0, err
		}
		items = append(items, it)
	}
	return a.merge(items, pager.Total(), now()), nil
}

// ArrivalsPath is the arrivals cache of an event, or of one of its
// sessions, in dir (the journal folder).
func ArrivalsPath(dir, eventID, sessionID string) string {
	return filepath.Join(dir, baseName(eventID, sessionID)+".arrivals.json")
}

// arrivalsFile is the arrivals cache on disk.
type arrivalsFile struct {
	Version   int       `json:"version"`
	EventID   string    `json:"event_id"`
	SessionID string    `json:"session_id,omitempty"`
	Synced    time.Time `json:"synced"`
	Total     int       `json:"total"`
	Arrivals  []Arrival `json:"arrivals"`
}

// Save writes the history to path atomically when it changed since the
// last save (or load).
func (a *Arrivals) Save(path, eventID, sessionID string) error {
	a.mu.Lock()
	if !a.changed {
		a.mu.Unlock()
		return nil
	}
	f := arrivalsFile{Version: cacheVersion, EventID: eventID, SessionID: sessionID, Synced: a.synced, Total: a.total,
		Arrivals: slices.Clone(a.list)}
	a.changed = false
	a.mu.Unlock()
	if err := writeJSON(path, f); err != nil {
		a.mu.Lock()
		a.changed = true
		a.mu.Unlock()
		return err
	}
	return nil
}

// LoadArrivals reads the arrivals cache of an event or session, removing a
// leftover of an interrupted save first. A missing file is an empty
// history.
func LoadArrivals(path, eventID, sessionID string) (*Arrivals, error) {
	removeLeftovers(path, 0)
	a := NewArrivals()
	var f arrivalsFile
	if ok, err := readJSON(path, &f); !ok || err != nil {
		return a, err
	}
	if f.Version != cacheVersion || f.EventID != eventID || f.SessionID != sessionID {
		return a, fmt.Errorf("arrivals cache %s: another version, event or session; it will be synced afresh", path)
	}
	for _, ar := range f.Arrivals {
		ar.Email = api.NormalizeEmail(ar.Email)
		if _, dup := a.byEmail[ar.Email]; !dup && ar.Email != "" {
			a.add(ar)
		}
	}
	a.synced, a.total, a.changed = f.Synced, f.Total, false
	return a, nil
}
