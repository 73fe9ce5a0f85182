package scanqueue

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evdesk/evdesk/api"

	"github.com/evdesk/evdesk/internal/words"
)

// CheckInFunc checks attendees in at an event (sessionID empty) or one of
// its sessions; it has the shape of api.AttendeesService.CheckIn, which
// production passes. Refused attendees come back in failed; an error means
// the outcome of the whole call is unknown or it was refused as a whole.
type CheckInFunc func(ctx context.Context, eventID, sessionID string, emails []string, source string) (failed []api.BatchError, err error)

// State is what the sender is doing.
type State int

// States of a Sender.
const (
	// Idle: nothing pending, or waiting for the first scan.
	Idle State = iota
	// Sending: a request is under way.
	Sending
	// Offline: the server could not be reached or failed (network error,
	// 5xx); retrying with backoff.
	Offline
	// Throttled: the server asked to slow down (429); retrying when it said.
	Throttled
	// Blocked: the server refuses every request (401, 403, 404: signed out,
	// no access, no such event or session); scans stay pending and the
	// sender retries slowly. The desk should show LastError.
	Blocked
	// Refused: the server refused a request as a whole (another 4xx, or a
	// 400 that narrowing found to be the request's fault, not a scan's);
	// its scans stay pending and are retried with backoff. The desk should
	// show LastError.
	Refused
	// Unwritable: the journal cannot record the server's answers (the
	// disk is full). The answers are held in memory and nothing more is
	// sent; the sender tries to record them again with backoff, or at once
	// on Wake, and goes on by itself once they are recorded.
	Unwritable
	// Stopped: the journal failed or the sender was closed; nothing more
	// is sent.
	Stopped
)

func (s State) String() string {
	switch s {
	case Idle:
		return "idle"
	case Sending:
		return "sending"
	case Offline:
		return "offline"
	case Throttled:
		return "throttled"
	case Blocked:
		return "blocked"
	case Refused:
		return "refused"
	case Unwritable:
		return "unwritable"
	case Stopped:
		return "stopped"
	}
	return fmt.Sprintf("state %d", int(s))
}

// Status is a snapshot of a sender and its journal, for the desk's status
// line.
type Status struct {
	EventID, SessionID string
	State              State
	// Online is false while the server cannot be reached or fails.
	Online bool
	Counts
	InFlight int // scans in the request under way
	// Failures counts consecutive failed attempts; 0 after a success.
	Failures int
	// LastError is the latest failure; nil once a request succeeds.
	LastError error
	// RetryAt is when the next attempt starts while backing off.
	RetryAt time.Time
	// LastSent is when a request last succeeded.
	LastSent time.Time
	// Seq increases with every status; a consumer may drop one older than
	// the last it showed.
	Seq uint64
}

// SenderOptions configures a Sender.
type SenderOptions struct {
	// CheckIn sends one batch (required). Give it an api client whose own
	// retries are few (api.WithRetry with MaxAttempts 1 or 2), so an outage
	// shows as Offline at once; the sender retries without end.
	CheckIn CheckInFunc
	// BatchSize is the most scans per request: 1 to 300 (default 300).
	BatchSize int
	// OnStatus receives every change of status. OnAck receives the scans
	// the server answered, once journaled. Both run on a goroutine of
	// their own, in order, and may block (tea.Program.Send) without
	// stalling the sender; Close does not wait for them.
	OnStatus func(Status)
	OnAck    func([]Scan)
	// Sleep waits between attempts (default: a timer honouring ctx). Tests
	// inject one that returns at once or advances a fake clock.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now stamps RetryAt and LastSent (default time.Now).
	Now func() time.Time
	// Jitter returns a number in [0, 1) (default math/rand/v2).
	Jitter func() float64
	// Hold, when set, keeps pending scans back from sending: a venue's
	// mesh delivers them (package venue). It runs with the journal locked
	// and must not call it; Wake the sender when its answer changes.
	Hold func(Scan) bool
	// BaseDelay and MaxDelay bound the exponential backoff (defaults 500ms
	// and 30s); a server's Retry-After wins over both, up to MaxRetryAfter
	// (default 5 minutes), so no answer can park the desk for long.
	BaseDelay, MaxDelay, MaxRetryAfter time.Duration
}

// DefaultMaxRetryAfter caps the wait a server's Retry-After can ask of the
// sender.
const DefaultMaxRetryAfter = 5 * time.Minute

// Sender delivers a journal's pending scans in the background.
type Sender struct {
	j    *Journal
	opts SenderOptions

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	wake   chan struct{}

	mu      sync.Mutex
	st      Status        // state fields only; counts come from the journal
	changed chan struct{} // closed and replaced on every change
	// resting: the run loop waits in rest, on restOn (see AtRest).
	resting bool
	restOn  <-chan struct{}

	pub *publisher

	// held are the server's answers the journal could not record yet
	// (see Unwritable); only the run loop touches them.
	held         []Ack
	heldFailures int
}

// NewSender starts delivering j's pending scans, at once and whenever new
// ones arrive. Close it before closing the journal.
func NewSender(j *Journal, opts SenderOptions) (*Sender, error) {
	if opts.CheckIn == nil {
		return nil, errors.New("checkin: SenderOptions.CheckIn is required")
	}
	if opts.BatchSize <= 0 || opts.BatchSize > api.MaxAttendeesPerBatch {
		opts.BatchSize = api.MaxAttendeesPerBatch
	}
	if opts.Sleep == nil {
		opts.Sleep = api.SleepContext
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Jitter == nil {
		opts.Jitter = rand.Float64
	}
	if opts.BaseDelay <= 0 {
		opts.BaseDelay = 500 * time.Millisecond
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = 30 * time.Second
	}
	if opts.MaxRetryAfter <= 0 {
		opts.MaxRetryAfter = DefaultMaxRetryAfter
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Sender{
		j: j, opts: opts, ctx: ctx, cancel: cancel,
		done: make(chan struct{}), wake: make(chan struct{}, 1), changed: make(chan struct{}),
		st:  Status{EventID: j.EventID(), SessionID: j.SessionID(), State: Idle, Online: true},
		pub: newPublisher(opts.OnStatus, opts.OnAck),
	}
	s.pub.status = s.Status
	go s.pub.run()
	go s.run()
	return s, nil
}

// Scan journals a scan (see Journal.Scan); the sender picks it up.
func (s *Sender) Scan(email, source string) (Scan, error) {
	sc, err := s.j.Scan(email, source)
	if err == nil {
		s.touch(nil)
	}
	return sc, err
}

// Wake cuts a backoff wait short: the desk's "retry now".
func (s *Sender) Wake() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resting = false // at once: the sender's own wake-up comes later
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Status is the current status.
func (s *Sender) Status() Status {
	s.mu.Lock()
	st := s.st
	s.mu.Unlock()
	st.Counts = s.j.Counts()
	return st
}

// Flush waits until nothing is pending, the sender stops or ctx ends.
func (s *Sender) Flush(ctx context.Context) error {
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		st := s.Status()
		if st.Pending == 0 {
			return nil
		}
		if st.State == Stopped {
			cause := st.LastError
			if cause == nil {
				cause = errors.New("it was closed")
			}
			return fmt.Errorf("%s still pending: the sender stopped: %w", words.Count(st.Pending, "scan"), cause)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			if st.LastError != nil {
				return fmt.Errorf("%s still pending (%s: %v): %w", words.Count(st.Pending, "scan"), st.State, st.LastError, ctx.Err())
			}
			return fmt.Errorf("%s still pending: %w", words.Count(st.Pending, "scan"), ctx.Err())
		}
	}
}

// Close stops the sender, cutting a request or a wait short; pending scans
// stay in the journal for next time. It does not close the journal.
func (s *Sender) Close() error {
	s.cancel()
	<-s.done
	s.pub.stop()
	return nil
}

// touch publishes a change; update, when set, changes the state first.
func (s *Sender) touch(update func(*Status)) {
	s.mu.Lock()
	if update != nil {
		update(&s.st)
	}
	s.st.Seq++
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
	s.pub.poke(nil)
}

func (s *Sender) run() {
	defer close(s.done)
	defer s.touch(func(st *Status) { st.State, st.InFlight = Stopped, 0 })
	failures := 0
	for {
		if len(s.held) > 0 {
			if !s.recordHeld() {
				return
			}
			continue
		}
		batch, arrived := s.j.batch(s.opts.BatchSize, s.opts.Hold)
		if len(batch) == 0 {
			s.touch(func(st *Status) { st.State, st.InFlight, st.RetryAt = Idle, 0, time.Time{} })
			if !s.rest(arrived, -1) {
				return
			}
			continue
		}
		s.touch(func(st *Status) { st.State, st.InFlight, st.RetryAt = Sending, len(batch), time.Time{} })
		acks, err := s.deliver(batch)
		if len(acks) > 0 {
			settled, jerr := s.j.Ack(acks)
			if jerr != nil && s.j.failed() {
				s.touch(func(st *Status) { st.LastError = jerr })
				return
			}
			if jerr != nil { // the disk is full: hold the answers, send nothing more
				s.held = acks
				continue
			}
			s.pub.poke(settled)
		}
		if s.ctx.Err() != nil {
			return
		}
		if errors.Is(err, errRetryRest) {
			continue // the named scans are rejected; the rest go now
		}
		if err == nil {
			failures = 0
			now := s.opts.Now()
			s.touch(func(st *Status) {
				st.Online, st.Failures, st.LastError, st.LastSent, st.InFlight = true, 0, nil, now, 0
			})
			continue
		}
		state, wait := s.classify(err, failures)
		failures++
		retryAt := s.opts.Now().Add(wait)
		s.touch(func(st *Status) {
			st.State, st.Online, st.Failures, st.LastError, st.RetryAt, st.InFlight =
				state, state != Offline, failures, err, retryAt, 0
		})
		if !s.rest(arrived, wait) {
			return
		}
	}
}

// errRetryRest: the client's own validation refused some scans of a batch
// by position (attendees[i]); those are rejected and the rest go again at
// once.
var errRetryRest = errors.New("the rest of the batch goes again")

// deliver sends a batch and turns the answer into acks. The answer's
// errors reject the scans they name; a 400 refusing the whole batch is
// narrowed down to the scans at fault (narrow.go); any other failure leaves
// every scan of the batch pending, to be retried.
func (s *Sender) deliver(batch []Scan) ([]Ack, error) {
	failed, err := s.send(batch)
	if err == nil {
		return acksFor(batch, failed), nil
	}
	if named := namedAttendees(err, len(batch)); len(named) > 0 {
		acks := make([]Ack, 0, len(named))
		for i, msg := range named {
			acks = append(acks, Ack{ID: batch[i].ID, Outcome: Rejected, Message: msg})
		}
		return acks, errRetryRest
	}
	if ae, whole := refusedWhole(err); whole && len(batch) > 1 {
		return s.narrow(batch, ae)
	}
	return nil, err
}

// send sends one batch of scans (all of one source, the batch's first).
func (s *Sender) send(batch []Scan) ([]api.BatchError, error) {
	emails := make([]string, len(batch))
	for i, sc := range batch {
		emails[i] = sc.Email
	}
	return s.opts.CheckIn(s.ctx, s.j.EventID(), s.j.SessionID(), emails, batch[0].Source)
}

// attendeeField reads the position out of a field such as
// "attendees[3].email".
var attendeeField = regexp.MustCompile(`^attendees\[(\d+)\]`)

// namedAttendees maps the positions in a batch of n that the client's own
// validation refused to the reason; nil when it names none. A server's
// answer never comes here: its documented error body names no attendee.
func namedAttendees(err error, n int) map[int]string {
	var ve *api.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	out := map[int]string{}
	for _, f := range ve.Problems {
		m := attendeeField.FindStringSubmatch(f.Field)
		if m == nil {
			continue
		}
		i, perr := strconv.Atoi(m[1])
		if perr != nil || i >= n {
			continue
		}
		msg := strings.TrimSpace(f.Message)
		if msg == "" {
			msg = "refused"
		}
		if prev := out[i]; prev != "" {
			msg = prev + "; " + msg
		}
		out[i] = msg
	}
	return out
}

// classify turns a failure into a state and the wait before the next try:
// the server's Retry-After when it gave one (capped), else capped
// exponential backoff with jitter (the cap from the start when Blocked).
func (s *Sender) classify(err error, failures int) (State, time.Duration) {
	state := Offline
	var ae *api.Error
	var ve *api.ValidationError
	switch {
	case errors.As(err, &ve):
		state = Refused
	case errors.As(err, &ae):
		switch ae.Status {
		case http.StatusTooManyRequests:
			state = Throttled
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
			state = Blocked
		default:
			if ae.Status >= 400 && ae.Status < 500 {
				state = Refused
			}
		}
		if ae.RetryAfter > 0 {
			return state, min(ae.RetryAfter, s.opts.MaxRetryAfter)
		}
	}
	if state == Blocked {
		failures = math.MaxInt32
	}
	d := float64(s.opts.BaseDelay) * math.Pow(2, float64(min(failures, 62)))
	d = math.Min(d, float64(s.opts.MaxDelay))
	return state, time.Duration(d/2 + s.opts.Jitter()*d/2)
}

// rest waits d (for ever when d < 0), or less when woken: by Wake, or by a
// scan arriving after the batch that arrived came with (no answer of a
// server parks a desk that has work). It is false when the sender is
// closing.
func (s *Sender) rest(arrived <-chan struct{}, d time.Duration) bool {
	s.mu.Lock()
	s.resting, s.restOn = len(s.wake) == 0, arrived
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.resting = false
		s.mu.Unlock()
	}()
	if d < 0 {
		select {
		case <-s.ctx.Done():
		case <-arrived:
		case <-s.wake:
		}
		return s.ctx.Err() == nil
	}
	ctx, cancel := context.WithCancel(s.ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-s.wake:
			cancel()
		case <-arrived:
			cancel()
		case <-ctx.Done():
		}
	}()
	_ = s.opts.Sleep(ctx, d)
	// The watch ends before the next rest begins: left running, it could
	// take that rest's Wake (seen in a test under load: ctrl+r lost).
	cancel()
	<-watched
	return s.ctx.Err() == nil
}

// AtRest reports whether the sender is waiting (for a scan, a wake or its
// backoff) with nothing new in the journal since it last looked, and every
// status and ack already handed to the callbacks. It stays at rest until a
// scan, Wake or its backoff ends, so a test can wait for it in place of
// waiting for a quiet while.
func (s *Sender) AtRest() bool {
	s.mu.Lock()
	resting, arrived := s.resting, s.restOn
	s.mu.Unlock()
	if !resting {
		return false
	}
	select {
	case <-arrived:
		return false
	default:
	}
	return s.pub.idle()
}

// publisher runs the callbacks on a goroutine of its own, in order.
type publisher struct {
	onStatus func(Status)
	onAck    func([]Scan)
	status   func() Status

	mu     sync.Mutex
	acks   [][]Scan
	dirty  bool
	busy   bool // drain is running the callbacks
	signal chan struct{}
	quit   chan struct{}
	once   sync.Once
}

func newPublisher(onStatus func(Status), onAck func([]Scan)) *publisher {
	return &publisher{onStatus: onStatus, onAck: onAck, signal: make(chan struct{}, 1), quit: make(chan struct{})}
}

// poke queues settled scans (if any) and a status update.
func (p *publisher) poke(settled []Scan) {
	if p.onStatus == nil && p.onAck == nil {
		return
	}
	p.mu.Lock()
	if len(settled) > 0 && p.onAck != nil {
		p.acks = append(p.acks, settled)
	}
	p.dirty = true
	p.mu.Unlock()
	select {
	case p.signal <- struct{}{}:
	default:
	}
}

func (p *publisher) run() {
	for {
		select {
		case <-p.signal:
		case <-p.quit:
			p.drain() // the final status (Stopped)
			return
		}
		p.drain()
	}
}

func (p *publisher) drain() {
	p.mu.Lock()
	acks, dirty := p.acks, p.dirty
	p.acks, p.dirty, p.busy = nil, false, true
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		p.busy = false
		p.mu.Unlock()
	}()
	for _, a := range acks {
		p.onAck(a)
	}
	if dirty && p.onStatus != nil {
		p.onStatus(p.status())
	}
}

// idle: every status and ack poked so far has been handed over.
func (p *publisher) idle() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.dirty && len(p.acks) == 0 && !p.busy
}

func (p *publisher) stop() { p.once.Do(func() { close(p.quit) }) }

// RefusedAt maps the positions in a batch of n that a request refused as
// malformed names (a 400 whose fields name attendees[i], or the client's
// own validation) to the reason; nil when it names none. A venue's
// upstream desk reads its answers with it.
func RefusedAt(err error, n int) map[int]string { return namedAttendees(err, n) }
