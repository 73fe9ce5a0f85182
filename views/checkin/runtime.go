package checkin

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/views"
)

// pump carries the sender's callbacks, which run on a goroutine of the
// sender's, into the program as messages: the callbacks post, and a command
// that blocks on the channel hands each message over. No goroutine but the
// program's touches the desk.
type pump struct {
	ch   chan tea.Msg
	done chan struct{}
	once sync.Once
}

func newPump() *pump { return &pump{ch: make(chan tea.Msg, 256), done: make(chan struct{})} }

// post queues a message; it blocks while the queue is full (the sender's
// publisher may block) and returns at once after stop.
func (p *pump) post(m tea.Msg) {
	select {
	case p.ch <- m:
	case <-p.done:
	}
}

func (p *pump) stop() { p.once.Do(func() { close(p.done) }) }

// next waits for the next message. It answers with the message and itself
// in one batch, so the loop re-arms even when the message reaches no screen
// (the desk hidden under another section's screens); it ends with stop.
func (p *pump) next() tea.Cmd {
	return func() tea.Msg {
		select {
		case m := <-p.ch:
			return tea.BatchMsg{func() tea.Msg { return m }, p.next()}
		case <-p.done:
			return nil
		}
	}
}

// writer runs journal writes in the order the desk asked for them, though
// each runs in a command of its own (commands run concurrently).
type writer struct {
	mu           sync.Mutex
	cond         *sync.Cond
	issued, next uint64
	closed       bool
}

func newWriter() *writer {
	w := &writer{}
	w.cond = sync.NewCond(&w.mu)
	return w
}

// take hands out the next ticket; call it from Update.
func (w *writer) take() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := w.issued
	w.issued++
	return t
}

// run waits for ticket t's turn, then runs f.
func (w *writer) run(t uint64, f func()) {
	w.mu.Lock()
	for w.next != t && !w.closed {
		w.cond.Wait()
	}
	w.mu.Unlock()
	f()
	w.mu.Lock()
	if w.next == t {
		w.next++
	}
	w.cond.Broadcast()
	w.mu.Unlock()
}

// close lets every waiting write through (to find the journal closed).
func (w *writer) close() {
	w.mu.Lock()
	w.closed = true
	w.cond.Broadcast()
	w.mu.Unlock()
}

// runtime is the desk's share of the world outside the model: the venue
// desk it opened (journal, sender, roster, arrivals), its pump and writer.
// It is safe for concurrent use.
type runtime struct {
	pump *pump
	w    *writer

	mu     sync.Mutex
	closed bool
	v      *venue.Desk
	door   *door // walk-ins, badges, the hook (door.go)
	// down is closed once shutdown has closed the desk.
	down chan struct{}
}

func newRuntime() *runtime {
	return &runtime{pump: newPump(), w: newWriter(), down: make(chan struct{})}
}

// shutdown closes the venue desk (sender, refreshes, journal); pending scans
// stay in the journal for the next desk. It runs once, off the Update path.
func (rt *runtime) shutdown() {
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return
	}
	rt.closed = true
	v, dr := rt.v, rt.door
	rt.mu.Unlock()
	rt.pump.stop()
	rt.w.close()
	dr.close()
	if v != nil {
		_ = v.Close()
	}
	close(rt.down)
}

// Messages of the desk's background work. The shell brings each back to
// the desk that asked (the pump's command is the desk's).
type (
	openedMsg struct {
		v    *venue.Desk
		snap snapshot
		door *door
		err  error
	}
	recordedMsg struct {
		keys  []string // the placeholder entries, one per email
		scans []scanqueue.Scan
		// earlier holds, for scans found Already, when the scan they
		// repeat was made.
		earlier map[string]time.Time
		err     error
	}
	statusMsg struct{ st scanqueue.Status }
	ackMsg    struct{ scans []scanqueue.Scan }
	// changedMsg: the roster or the arrivals changed.
	changedMsg struct{}
)

// snapshot is what the desk shows from the journal when it opens.
type snapshot struct {
	recent []scanqueue.Scan // newest first, at most recentMax
	// elsewhere: where scans of the target wait that this server does
	// not send (views.Desks.Elsewhere).
	elsewhere []string
	today     map[string]bool
	counts    scanqueue.Counts
	resumed   int // pending scans left by an earlier desk
}

// recentMax is how many scans the desk remembers for its list.
const recentMax = 50

// open opens the venue desk and takes the snapshot. If the desk closed
// meanwhile, it closes what it opened and reports nothing.
func (rt *runtime) open(d views.Env, eventID, sessionID string) tea.Msg {
	o := venue.Options{
		Dir: d.JournalDir, EventID: eventID, SessionID: sessionID, Name: d.Desk,
		Client: d.Client, CheckIn: checkInFunc(d), Now: d.Now, Local: d.Local,
		SyncEvery: d.SyncEvery, RefreshEvery: d.RefreshEvery,
		OnStatus: func(st scanqueue.Status) { rt.pump.post(statusMsg{st: st}) },
		OnAck:    func(sc []scanqueue.Scan) { rt.pump.post(ackMsg{scans: sc}) },
		OnChange: func() { rt.pump.post(changedMsg{}) },
	}
	if h := hooksOf(d); h != nil {
		o.LockWait, o.Sender, o.Wait = h.lockWait, h.sender, h.wait
	}
	takeOver(journalKey(d, eventID, sessionID)) // a desk left sending lets go first
	if d.Venue != nil {
		vn, err := d.Venue(eventID, sessionID)
		if err != nil {
			return openedMsg{err: err}
		}
		o.Venue = vn
	}
	v, err := venue.Open(o)
	if err != nil {
		if o.Venue != nil {
			_ = o.Venue.Close()
		}
		return openedMsg{err: err}
	}
	snap := takeSnapshot(v.Journal(), d.Now().In(d.Local))
	if d.Elsewhere != nil {
		snap.elsewhere = d.Elsewhere(eventID, sessionID)
	}
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		_ = v.Close()
		return nil
	}
	rt.v = v
	rt.door = rt.openDoor(d, v, eventID, sessionID)
	dr := rt.door
	rt.mu.Unlock()
	return openedMsg{v: v, snap: snap, door: dr}
}

func takeSnapshot(j *scanqueue.Journal, now time.Time) snapshot {
	all := j.Scans()
	snap := snapshot{today: map[string]bool{}, counts: j.Counts()}
	snap.resumed = snap.counts.Pending
	for i := len(all) - 1; i >= 0 && len(snap.recent) < recentMax; i-- {
		snap.recent = append(snap.recent, all[i])
	}
	for _, sc := range all {
		if sc.Outcome == scanqueue.CheckedIn && sameDay(sc.AckedAt, now) {
			snap.today[sc.ID] = true
		}
	}
	return snap
}

func sameDay(t, now time.Time) bool {
	if t.IsZero() {
		return false
	}
	y1, m1, d1 := t.In(now.Location()).Date()
	y2, m2, d2 := now.Date()
	return y1 == y2 && m1 == m2 && d1 == d2
}

// record journals emails in ticket order and reports what became of them.
func (rt *runtime) record(v *venue.Desk, ticket uint64, keys, emails []string) tea.Cmd {
	return func() tea.Msg {
		msg := recordedMsg{keys: keys}
		rt.w.run(ticket, func() {
			msg.scans, msg.err = v.Scan(emails)
			for _, sc := range msg.scans {
				if sc.Outcome != scanqueue.Already {
					continue
				}
				if prev, ok := v.Journal().Lookup(sc.Email); ok && prev.ID != sc.ID {
					if msg.earlier == nil {
						msg.earlier = map[string]time.Time{}
					}
					msg.earlier[sc.ID] = prev.At
				}
			}
		})
		return msg
	}
}
