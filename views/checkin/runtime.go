package checkin

import (
	"context"
	"errors"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/scanqueue"
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

// runtime is the desk's share of the world outside the model: the journal
// and sender it opened, its pump and writer. It is safe for concurrent use;
// messages carry it so a desk knows its own.
type runtime struct {
	pump *pump
	w    *writer
	// ctx ends when the desk closes, cancelling its listings.
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	closed bool
	j      *scanqueue.Journal
	s      *scanqueue.Sender
	// down is closed once shutdown has closed the sender and journal.
	down chan struct{}
}

func newRuntime() *runtime {
	ctx, cancel := context.WithCancel(context.Background())
	return &runtime{pump: newPump(), w: newWriter(), ctx: ctx, cancel: cancel, down: make(chan struct{})}
}

// shutdown stops the sender, then closes the journal; pending scans stay
// in the journal for the next desk. It runs once, off the Update path.
func (rt *runtime) shutdown() {
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return
	}
	rt.closed = true
	j, s := rt.j, rt.s
	rt.mu.Unlock()
	rt.cancel()
	rt.pump.stop()
	rt.w.close()
	if s != nil {
		_ = s.Close()
	}
	if j != nil {
		_ = j.Close()
	}
	close(rt.down)
}

// Messages of the desk's background work; each names its runtime.
type (
	openedMsg struct {
		rt   *runtime
		j    *scanqueue.Journal
		s    *scanqueue.Sender
		snap snapshot
		err  error
	}
	recordedMsg struct {
		rt    *runtime
		keys  []string // the placeholder entries, one per email
		scans []scanqueue.Scan
		// earlier holds, for scans found Already, when the scan they
		// repeat was made.
		earlier map[string]time.Time
		err     error
	}
	statusMsg struct {
		rt *runtime
		st scanqueue.Status
	}
	ackMsg struct {
		rt    *runtime
		scans []scanqueue.Scan
	}
	registeredMsg struct {
		rt    *runtime
		total int
		err   error
	}
)

// snapshot is what the desk shows from the journal when it opens.
type snapshot struct {
	recent  []scanqueue.Scan // newest first, at most recentMax
	today   map[string]bool
	counts  scanqueue.Counts
	resumed int // pending scans left by an earlier desk
}

// recentMax is how many scans the desk remembers for its list.
const recentMax = 50

// lockWait is how long opening waits for a journal another desk of this
// program is still closing.
const lockWait = 2 * time.Second

// open opens the journal, takes the snapshot and starts the sender. If the
// desk closed meanwhile, it closes what it opened and reports nothing.
func (rt *runtime) open(d Deps, eventID, sessionID string) tea.Msg {
	opts := []scanqueue.JournalOption{scanqueue.WithClock(d.Now)}
	var j *scanqueue.Journal
	var err error
	wait := lockWait
	if d.hooks != nil && d.hooks.lockWait != 0 {
		wait = d.hooks.lockWait
	}
	for deadline := time.Now().Add(wait); ; {
		j, err = scanqueue.Open(d.JournalDir, eventID, sessionID, opts...)
		if !errors.Is(err, scanqueue.ErrLocked) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		return openedMsg{rt: rt, err: err}
	}
	snap := takeSnapshot(j, d.Now().In(d.Local))
	so := scanqueue.SenderOptions{
		CheckIn:  d.checkInFunc(),
		Now:      d.Now,
		OnStatus: func(st scanqueue.Status) { rt.pump.post(statusMsg{rt: rt, st: st}) },
		OnAck:    func(sc []scanqueue.Scan) { rt.pump.post(ackMsg{rt: rt, scans: sc}) },
	}
	if d.hooks != nil && d.hooks.sender != nil {
		d.hooks.sender(&so)
	}
	s, err := scanqueue.NewSender(j, so)
	if err != nil {
		_ = j.Close()
		return openedMsg{rt: rt, err: err}
	}
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		_ = s.Close()
		_ = j.Close()
		return nil
	}
	rt.j, rt.s = j, s
	rt.mu.Unlock()
	return openedMsg{rt: rt, j: j, s: s, snap: snap}
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
func (rt *runtime) record(j *scanqueue.Journal, ticket uint64, keys, emails []string, source string) tea.Cmd {
	return func() tea.Msg {
		msg := recordedMsg{rt: rt, keys: keys}
		rt.w.run(ticket, func() {
			msg.scans, msg.err = j.ScanMany(emails, source)
			for _, sc := range msg.scans {
				if sc.Outcome != scanqueue.Already {
					continue
				}
				if prev, ok := j.Lookup(sc.Email); ok && prev.ID != sc.ID {
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

// registered asks for the registrants listing's total_records.
func (rt *runtime) registered(c *api.Client, eventID string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(rt.ctx, 30*time.Second)
		defer cancel()
		l, err := c.Attendees.RegistrantsPage(ctx, eventID, api.ListRegistrantsOptions{PageSize: 1}, "")
		if err != nil {
			return registeredMsg{rt: rt, err: err}
		}
		return registeredMsg{rt: rt, total: l.TotalRecords}
	}
}
