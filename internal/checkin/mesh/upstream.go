package mesh

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// lead takes part in choosing the upstream desk: the desk holding the
// lease renews it every heartbeat; the others take it when it lapsed (its
// holder closed, died or was cut off).
func (n *Node) lead() {
	n.mu.Lock()
	kv, leader, rev := n.leaseKV, n.leader, n.upRev
	n.mu.Unlock()
	ctx, cancel := context.WithTimeout(n.ctx, n.o.Tick)
	defer cancel()
	mine := encode(lease{Node: n.id, Desk: n.cfg.Name})
	if leader {
		r, err := kv.Update(ctx, upstreamKey, mine, rev)
		if err == nil {
			n.mu.Lock()
			n.upRev, n.renewed = r, time.Now()
			n.mu.Unlock()
			n.tend()
			return
		}
		n.mu.Lock()
		since := time.Since(n.renewed)
		n.mu.Unlock()
		// Unanswered (an election) the lease still holds until it would
		// lapse; taken by another desk, it is gone.
		if !wrongSequence(err) && since < n.o.LeaseTTL-n.o.Tick {
			return
		}
		n.trouble(fmt.Errorf("lost the upstream lease: %w", err))
		n.stopUpstream()
	}
	e, err := kv.Get(ctx, upstreamKey)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		if r, err := kv.Create(ctx, upstreamKey, mine); err == nil {
			n.startUpstream(r)
		}
	case err == nil:
		l, _ := decode[lease](e.Value())
		if l.Node == n.id { // this desk held it before a restart
			if r, err := kv.Update(ctx, upstreamKey, mine, e.Revision()); err == nil {
				n.startUpstream(r)
				return
			}
		}
		n.mu.Lock()
		n.up = l
		n.mu.Unlock()
	}
}

// wrongSequence reports a compare-and-set that lost: another desk wrote
// the key meanwhile.
func wrongSequence(err error) bool {
	var ae *jetstream.APIError
	return errors.As(err, &ae) && (ae.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		ae.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

func (n *Node) startUpstream(rev uint64) {
	ctx, cancel := context.WithCancel(n.ctx)
	u := &upstream{n: n, ctx: ctx, view: map[string]admission{}, revs: map[string]uint64{}, walked: map[string]time.Time{}}
	var wg sync.WaitGroup
	n.mu.Lock()
	n.leader, n.upRev, n.renewed = true, rev, time.Now()
	n.up = lease{Node: n.id, Desk: n.cfg.Name}
	n.upStop = func() { cancel(); wg.Wait() }
	n.mu.Unlock()
	n.o.Logf("venue: this desk sends the venue's check-ins upstream")
	wg.Add(1)
	go func() { defer wg.Done(); u.run() }()
	n.tend()
	n.d.Changed()
}

func (n *Node) stopUpstream() {
	n.mu.Lock()
	stop := n.upStop
	n.upStop, n.leader = nil, false
	if n.up.Node == n.id {
		n.up = lease{}
	}
	n.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// tend is the upstream desk's care of the venue's streams: a copy on each
// desk about, up to three, and their leaders on other desks, so this
// desk's loss costs no election. Copies are never taken away: a desk that
// left may come back, and taking one away needs the quorum its loss took.
func (n *Node) tend() {
	want := n.wantReplicas()
	ctx, cancel := context.WithTimeout(n.ctx, 3*time.Second)
	defer cancel()
	names := []string{scansStream, "KV_" + arrivalsKV, "KV_" + leaseKV, "KV_" + desksKV, "OBJ_" + rosterObjects}
	me := n.eng.ns.Name()
	for _, name := range names {
		s, err := n.js.Stream(ctx, name)
		if err != nil {
			continue
		}
		info := s.CachedInfo()
		if info.Config.Replicas < want {
			cfg := info.Config
			cfg.Replicas = want
			if _, err := n.js.UpdateStream(ctx, cfg); err == nil {
				n.o.Logf("venue: %s now kept in %d copies", name, want)
			}
		}
		if handOver(info.Cluster, me) {
			_, _ = n.eng.nc.RequestWithContext(ctx, "$JS.API.STREAM.LEADER.STEPDOWN."+name, nil)
		}
	}
	if s, err := n.js.Stream(ctx, scansStream); err == nil {
		n.mu.Lock()
		n.replicas = s.CachedInfo().Config.Replicas
		n.mu.Unlock()
		if c, err := s.Consumer(ctx, courierName); err == nil {
			if handOver(c.CachedInfo().Cluster, me) {
				_, _ = n.eng.nc.RequestWithContext(ctx, "$JS.API.CONSUMER.LEADER.STEPDOWN."+scansStream+"."+courierName, nil)
			}
		}
	}
}

// handOver reports whether this desk leads a group whose other copies are
// all caught up: only then does it hand the lead over (to a copy that
// lags, the hand-over would leave the group without a leader until it
// caught up, or for good if it never does).
func handOver(cl *jetstream.ClusterInfo, me string) bool {
	if cl == nil || cl.Leader != me || len(cl.Replicas) == 0 {
		return false
	}
	for _, r := range cl.Replicas {
		if !r.Current || r.Offline {
			return false
		}
	}
	return true
}

// upstream is the work of the desk that talks to the service for the
// venue: it drains the scans stream in batches, reads the service's
// history for every desk, and shares the roster.
type upstream struct {
	n   *Node
	ctx context.Context
	// sending is held from a batch's request until its answers are in
	// the arrivals: the history's count is compared only outside it, so a
	// batch on its way is never taken for check-ins made elsewhere.
	sending sync.Mutex
	mu      sync.Mutex
	view    map[string]admission // every admission of the venue, by key
	revs    map[string]uint64
	// synced is when each target's history was last read.
	synced  map[string]time.Time
	shared  map[string]time.Time      // when each event's roster was last shared
	rosters map[string]*roster.Roster // rosters downloaded to share
	// back: the service answered after failing (a batch, or the
	// history's probe); the courier's loop ends every group's backoff.
	back atomic.Bool
	// walked is when each target's history (by targetOf) was last read
	// whole; bound, when the courier bound its queue.
	walked map[string]time.Time
	bound  time.Time
	// unsureUpTo: the scans up to this place in the stream were there
	// when this desk made the queue, and a queue before it may have
	// delivered them.
	unsureUpTo uint64
}

func (u *upstream) run() {
	var w jetstream.KeyWatcher
	for {
		var err error
		if w, err = u.n.arrivals().WatchAll(u.ctx); err == nil {
			break
		}
		u.n.trouble(fmt.Errorf("upstream: watch the arrivals: %w", err))
		if !sleep(u.ctx, time.Second) {
			return
		}
	}
	defer func() { _ = w.Stop() }()
	loaded := make(chan struct{})
	go func() {
		first := true
		for e := range w.Updates() {
			if e == nil {
				if first {
					first = false
					close(loaded)
				}
				continue
			}
			u.take(e)
		}
	}()
	select {
	case <-loaded:
	case <-u.ctx.Done():
		return
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); u.courier() }()
	go func() { defer wg.Done(); u.reader() }()
	wg.Wait()
}

func (u *upstream) take(e jetstream.KeyValueEntry) {
	if e.Operation() != jetstream.KeyValuePut {
		return
	}
	rec, ok := decode[admission](e.Value())
	if !ok {
		return
	}
	u.mu.Lock()
	if e.Revision() >= u.revs[e.Key()] {
		u.view[e.Key()], u.revs[e.Key()] = rec, e.Revision()
	}
	u.mu.Unlock()
}

func (u *upstream) get(key string) (admission, uint64, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	a, ok := u.view[key]
	return a, u.revs[key], ok
}

// write changes an admission with change, retrying when another desk
// wrote it meanwhile; create makes it when there is none.
func (u *upstream) write(key string, create admission, change func(*admission) bool) error {
	kv := u.n.arrivals()
	ctx, cancel := context.WithTimeout(u.ctx, 5*time.Second)
	defer cancel()
	for try := range 8 {
		if try > 0 && !sleep(ctx, time.Duration(try)*50*time.Millisecond) {
			break
		}
		cur, rev, ok := u.get(key)
		var err error
		var r uint64
		if !ok {
			r, err = kv.Create(ctx, key, encode(create))
			cur = create
		} else {
			if !change(&cur) {
				return nil
			}
			r, err = kv.Update(ctx, key, encode(cur), rev)
		}
		if err == nil {
			u.mu.Lock()
			if r > u.revs[key] {
				u.view[key], u.revs[key] = cur, r
			}
			u.mu.Unlock()
			return nil
		}
		// Someone else wrote it: read it and go again (a copy that lags
		// behind may answer the read: the next try is a moment later).
		e, gerr := kv.Get(ctx, key)
		if gerr == nil {
			u.take(e)
		} else if !errors.Is(gerr, jetstream.ErrKeyNotFound) {
			return gerr
		}
	}
	return fmt.Errorf("upstream: the record %s kept changing", key)
}

// item is one scan the upstream desk holds from the stream.
type item struct {
	m       scanMsg
	msg     jetstream.Msg
	key     string
	got     time.Time
	unsure  bool // delivered before: an earlier send's outcome is unknown
	touched time.Time
	// answer is the service's answer to this scan while it is not yet in
	// the arrivals: the scan is never sent again, only its answer written.
	answer *answer
}

type answer struct{ state, message string }

// group is what one request carries: one target, one source.
type group struct {
	event, session, source string
	items                  []*item
	retryAt                time.Time
	failures               int
}

// Batches and the courier's pace.
const (
	fetchWait     = 250 * time.Millisecond
	ackWait       = 30 * time.Second
	maxHeld       = 3000
	progressEvery = 10 * time.Second
	sendTimeout   = 10 * time.Second
)

// courier drains the scans stream: scans gather by target and source for
// up to Linger (or until a batch is full), then go to the service in one
// request; each message is acknowledged (and leaves the stream) only once
// the service's answer is in the arrivals. A message delivered again (an
// upstream desk died holding it) is checked against the service's history
// before it is sent.
func (u *upstream) courier() {
	cons := u.bindQueue(false)
	if cons == nil {
		return
	}
	u.bound = time.Now()
	checked, answered := time.Now(), time.Now()
	var saidFetch time.Time
	groups := map[string]*group{}
	held := 0
	defer func() { // hand back what this desk held, for the next upstream desk
		for _, g := range groups {
			for _, it := range g.items {
				_ = it.msg.Nak()
			}
		}
	}()
	for u.ctx.Err() == nil {
		if time.Since(checked) >= queueCheck {
			checked = time.Now()
			if u.queueAnswers(cons) {
				answered = checked
			} else if time.Since(answered) >= u.n.o.QueueLost {
				// The queue's copies lost their leader and did not choose
				// another (a copy that never caught up): the queue is made
				// again; what it delivers may have been sent before.
				u.n.trouble(fmt.Errorf("upstream: the venue's queue did not answer for %v: making it again", time.Since(answered).Round(time.Second)))
				if cons = u.bindQueue(true); cons == nil {
					return
				}
				// What this desk held came from the queue that is gone:
				// the new one delivers it again.
				clear(groups)
				held, u.bound, answered = 0, time.Now(), time.Now()
			}
		}
		if held < maxHeld {
			batch, err := cons.Fetch(min(api.MaxAttendeesPerBatch, maxHeld-held), jetstream.FetchMaxWait(fetchWait))
			if err == nil {
				for msg := range batch.Messages() {
					held += u.hold(groups, msg)
				}
				err = batch.Error()
			}
			if err != nil {
				// Said at most every progressEvery: a queue that fails
				// keeps failing four times a second.
				if u.ctx.Err() == nil && time.Since(saidFetch) >= progressEvery {
					saidFetch = time.Now()
					u.n.trouble(fmt.Errorf("upstream: take scans from the venue's queue: %w", err))
				}
				if !sleep(u.ctx, fetchWait) {
					return
				}
			}
		} else if !sleep(u.ctx, fetchWait) {
			return
		}
		now := time.Now()
		if u.back.Swap(false) {
			for _, g := range groups {
				g.retryAt = time.Time{}
			}
		}
		for k, g := range groups {
			if len(g.items) == 0 {
				delete(groups, k)
				continue
			}
			due := len(g.items) >= api.MaxAttendeesPerBatch || now.Sub(g.items[0].got) >= u.n.o.Linger
			if due && !now.Before(g.retryAt) {
				held -= u.deliver(g)
			}
			for _, it := range g.items {
				if now.Sub(it.touched) >= progressEvery {
					_ = it.msg.InProgress()
					it.touched = now
				}
			}
		}
	}
}

// queueCheck is how often the upstream desk asks whether its queue answers.
const queueCheck = time.Second

// bindQueue binds the courier to the venue's queue (the scans stream's
// consumer), making it when missing, or deleting it first when again; it
// tries until it succeeds or the desk stops sending upstream (nil). A
// queue this desk makes may deliver scans a queue before it delivered
// (unsureUpTo).
func (u *upstream) bindQueue(again bool) jetstream.Consumer {
	for u.ctx.Err() == nil {
		ctx, cancel := context.WithTimeout(u.ctx, 5*time.Second)
		cons, err := u.queue(ctx, again)
		cancel()
		if err == nil {
			return cons
		}
		u.n.trouble(fmt.Errorf("upstream: the queue: %w", err))
		if !sleep(u.ctx, time.Second) {
			return nil
		}
	}
	return nil
}

func (u *upstream) queue(ctx context.Context, again bool) (jetstream.Consumer, error) {
	s, err := u.n.js.Stream(ctx, scansStream)
	if err != nil {
		return nil, err
	}
	if !again {
		if cons, err := s.Consumer(ctx, courierName); !errors.Is(err, jetstream.ErrConsumerNotFound) {
			return cons, err
		}
	} else if err := s.DeleteConsumer(ctx, courierName); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return nil, err
	}
	in, err := s.Info(ctx)
	if err != nil {
		return nil, err
	}
	cons, err := s.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: courierName,
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait, MaxAckPending: maxHeld, MaxDeliver: -1})
	if err == nil {
		u.unsureUpTo = in.State.LastSeq
	}
	return cons, err
}

// queueAnswers reports whether the queue's leader answers.
func (u *upstream) queueAnswers(cons jetstream.Consumer) bool {
	ctx, cancel := context.WithTimeout(u.ctx, 2*time.Second)
	defer cancel()
	_, err := cons.Info(ctx)
	return err == nil
}

// hold takes a message into its group; it returns 1 when held.
func (u *upstream) hold(groups map[string]*group, msg jetstream.Msg) int {
	m, ok := decode[scanMsg](msg.Data())
	if !ok || m.Email == "" || m.Event == "" {
		_ = msg.Term() // not a scan: never deliver it again
		return 0
	}
	it := &item{m: m, msg: msg, key: keyOf(targetOf(m.Event, m.Session), m.Email), got: time.Now(), touched: time.Now()}
	if md, err := msg.Metadata(); err != nil || md.NumDelivered > 1 || md.Sequence.Stream <= u.unsureUpTo {
		it.unsure = true
	}
	k := m.Event + "\x00" + m.Session + "\x00" + m.Desk
	g := groups[k]
	if g == nil {
		g = &group{event: m.Event, session: m.Session, source: m.Desk}
		groups[k] = g
	}
	g.items = append(g.items, it)
	return 1
}

// deliver sends the oldest batch of a group, and writes the service's
// answers into the arrivals; it returns how many messages it settled.
func (u *upstream) deliver(g *group) int {
	if anyUnsure(g.items) && !u.walkedSince(targetOf(g.event, g.session), u.bound) {
		// A desk before this one may have sent these: read what the
		// service holds first (once since the queue was bound: what a
		// desk before sent is in it then), so none goes twice.
		if err := u.sync(g.event, g.session, true); err != nil {
			u.backoff(g, err)
			return 0
		}
	}
	settled := 0
	var batch, answered []*item
	keep := g.items[:0]
	for _, it := range g.items {
		rec, _, ok := u.get(it.key)
		switch {
		case it.answer != nil: // sent and answered; its answer not yet written
			answered = append(answered, it)
		case ok && (rec.Node != it.m.Node || rec.Scan != it.m.Scan || rec.State != stateAdmitted):
			// Answered already, or not this scan's admission (another desk
			// was first): nothing to send.
			_ = it.msg.Ack()
			settled++
		case len(batch) < api.MaxAttendeesPerBatch:
			batch = append(batch, it)
		default:
			keep = append(keep, it)
		}
	}
	g.items = keep
	if len(batch) > 0 {
		answered = append(answered, u.send(g, batch)...)
	}
	return settled + u.record(g, answered)
}

// send sends one batch of a group to the service and returns the scans it
// answered, each with its answer; the others go back into the group.
func (u *upstream) send(g *group, batch []*item) []*item {
	emails := make([]string, len(batch))
	for i, it := range batch {
		emails[i] = it.m.Email
	}
	u.sending.Lock()
	defer u.sending.Unlock()
	ctx, cancel := context.WithTimeout(u.ctx, sendTimeout)
	failed, err := u.n.cfg.CheckIn(ctx, g.event, g.session, emails, g.source)
	cancel()
	var refused map[int]string
	if err != nil {
		refused = scanqueue.RefusedAt(err, len(batch))
		if len(refused) == 0 {
			g.items = append(batch, g.items...)
			u.backoff(g, err)
			return nil
		}
	} else {
		byEmail := map[string]string{}
		for _, f := range failed {
			msg := f.Message
			if msg == "" {
				msg = "refused by the server"
			}
			byEmail[api.NormalizeEmail(f.Email)] = msg
		}
		refused = map[int]string{}
		for i, it := range batch {
			if msg, no := byEmail[it.m.Email]; no {
				refused[i] = msg
			}
		}
	}
	if g.failures > 0 {
		u.back.Store(true) // the service answers again: every waiting group goes now
	}
	g.failures, g.retryAt = 0, time.Time{}
	var answered []*item
	for i, it := range batch {
		msg, no := refused[i]
		switch {
		case no:
			it.answer = &answer{state: stateRejected, message: msg}
		case err != nil:
			g.items = append(g.items, it) // the rest of a refused batch goes again
			continue
		default:
			it.answer = &answer{state: stateCheckedIn}
		}
		answered = append(answered, it)
	}
	return answered
}

// record writes the service's answers into the arrivals side by side (one
// write each, replicated: a drain after an outage writes thousands) and
// acknowledges each scan whose answer is in; it returns how many. A scan
// whose answer could not be written stays in its group with the answer,
// to be written again, never sent again.
func (u *upstream) record(g *group, answered []*item) int {
	var mu sync.Mutex
	settled := 0
	each(len(answered), func(k int) {
		it := answered[k]
		a := *it.answer
		werr := u.write(it.key, u.fromMsg(it.m, a.state, a.message), func(rec *admission) bool {
			if rec.Node != it.m.Node || rec.Scan != it.m.Scan {
				return false
			}
			rec.State, rec.Message = a.state, a.message
			return true
		})
		mu.Lock()
		defer mu.Unlock()
		if werr != nil {
			u.n.trouble(werr)
			g.items = append(g.items, it)
			return
		}
		_ = it.msg.Ack()
		settled++
	})
	return settled
}

// writers is how many answers the upstream desk writes at once.
const writers = 32

func (u *upstream) fromMsg(m scanMsg, state, msg string) admission {
	return admission{Email: m.Email, Event: m.Event, Session: m.Session, Desk: m.Desk, Node: m.Node, Scan: m.Scan,
		At: m.At, State: state, Message: msg}
}

func anyUnsure(items []*item) bool {
	for _, it := range items {
		if it.unsure {
			return true
		}
	}
	return false
}

// backoff schedules a group's next try: the service's Retry-After when it
// gave one, else doubling waits from half a second up to 30 seconds.
func (u *upstream) backoff(g *group, err error) {
	u.n.trouble(fmt.Errorf("upstream: %w", err))
	wait := time.Duration(float64(500*time.Millisecond) * math.Pow(2, float64(min(g.failures, 10))))
	wait = min(wait, 30*time.Second)
	wait = wait/2 + time.Duration(rand.Float64()*float64(wait/2))
	var ae *api.Error
	if errors.As(err, &ae) && ae.Status == http.StatusTooManyRequests && ae.RetryAfter > 0 {
		wait = min(ae.RetryAfter, scanqueue.DefaultMaxRetryAfter)
	}
	g.failures++
	g.retryAt = time.Now().Add(wait)
}

// reader reads the service for every desk of the venue: each target's
// history every SyncEvery, and each event's roster when it is due.
func (u *upstream) reader() {
	u.synced, u.shared, u.rosters = map[string]time.Time{}, map[string]time.Time{}, map[string]*roster.Roster{}
	failing := false
	for u.ctx.Err() == nil {
		for _, t := range u.n.targets() {
			if time.Since(u.synced[t.key()]) >= u.n.o.SyncEvery {
				err := u.sync(t.event, t.session, false)
				if err != nil {
					u.n.trouble(fmt.Errorf("upstream: read the check-in history: %w", err))
				} else if failing {
					u.back.Store(true)
				}
				failing = err != nil
				u.synced[t.key()] = time.Now()
			}
			if time.Since(u.shared[t.event]) >= u.n.o.RefreshEvery/4 {
				u.shared[t.event] = time.Now()
				if err := u.shareRoster(t.event); err != nil {
					u.n.trouble(fmt.Errorf("upstream: share the roster: %w", err))
					// Again in a few seconds, not at the next turn.
					u.shared[t.event] = time.Now().Add(rosterRetry - u.n.o.RefreshEvery/4)
				}
			}
		}
		if !sleep(u.ctx, min(u.n.o.SyncEvery, time.Second)) {
			return
		}
	}
}

type targetRef struct{ event, session string }

func (t targetRef) key() string { return t.event + "\x00" + t.session }

// targets are the events and sessions the venue's desks check in to.
func (n *Node) targets() []targetRef {
	n.mu.Lock()
	defer n.mu.Unlock()
	seen := map[targetRef]bool{{n.cfg.EventID, n.cfg.SessionID}: true}
	out := []targetRef{{n.cfg.EventID, n.cfg.SessionID}}
	for _, p := range n.desks {
		t := targetRef{p.Event, p.Session}
		if p.Event != "" && !seen[t] && time.Since(p.At) < time.Minute {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// sync reads a target's history from the service: one small request tells
// the service's count; only when it differs from the check-ins the venue
// knows the service holds (someone checked in elsewhere, or a send's
// outcome was unknown), or when asked, is the history walked. What the
// service holds and the venue did not know is entered into the arrivals.
func (u *upstream) sync(eventID, sessionID string, force bool) error {
	c := u.n.cfg.Client
	target := targetOf(eventID, sessionID)
	if !force {
		u.sending.Lock()
		probe, err := c.Attendees.ListPage(u.ctx, eventID, sessionID, api.ListAttendeeActionsOptions{PageSize: 1}, "")
		same := err == nil && probe.TotalRecords == u.atService(target)
		u.sending.Unlock()
		if err != nil || same {
			return err
		}
	}
	began := time.Now()
	pager := c.Attendees.Pager(eventID, sessionID, api.ListAttendeeActionsOptions{PageSize: api.MaxAttendeesPerBatch})
	now := u.n.cfg.Now().UTC() // the desk's clock, as the venue desk's own sync
	var found []admission
	for it, err := range pager.All(u.ctx) {
		if err != nil {
			return err
		}
		if it.Action != "" && !strings.EqualFold(it.Action, api.ActionCheckIn) {
			continue
		}
		email := api.NormalizeEmail(it.Email)
		found = append(found, admission{Email: email, Event: eventID, Session: sessionID, Desk: it.Source, At: now, By: true,
			State: stateService})
	}
	// What is new goes into the arrivals side by side: a venue's first
	// look finds thousands.
	var mu sync.Mutex
	var first error
	each(len(found), func(i int) {
		f := found[i]
		if u.known(keyOf(target, f.Email)) {
			return
		}
		err := u.write(keyOf(target, f.Email), f, func(a *admission) bool {
			switch a.State {
			case stateAdmitted: // sent before, its answer lost
				a.State = stateCheckedIn
			case stateRejected:
				*a = f
			default:
				return false
			}
			return true
		})
		mu.Lock()
		if err != nil && first == nil {
			first = err
		}
		mu.Unlock()
	})
	if first == nil {
		u.mu.Lock()
		u.walked[target] = began
		u.mu.Unlock()
	}
	return first
}

// walkedSince reports whether a target's history was read whole, and its
// finds written, from a moment after t on.
func (u *upstream) walkedSince(target string, t time.Time) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.walked[target].After(t)
}

// known reports whether the service's check-in behind key is in the view
// already, as the service's or the venue's confirmed one.
func (u *upstream) known(key string) bool {
	a, _, ok := u.get(key)
	return ok && a.atService()
}

// each runs f for 0..n-1, writers at a time.
func each(n int, f func(i int)) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, writers)
	for i := range n {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			f(i)
		})
	}
	wg.Wait()
}

// atService counts the check-ins at a target the venue knows the service
// holds.
func (u *upstream) atService(target string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	n := 0
	for k, a := range u.view {
		if strings.HasPrefix(k, target+".") && a.atService() {
			n++
		}
	}
	return n
}

// rosterRetry is the wait after a roster could not be shared.
const rosterRetry = 10 * time.Second

// shareRoster downloads an event's roster when the shared one is older
// than RefreshEvery, and puts it in the venue's object store.
func (u *upstream) shareRoster(eventID string) error {
	u.n.mu.Lock()
	obs := u.n.rosters
	u.n.mu.Unlock()
	if obs == nil {
		return errors.New("the venue's roster store is not bound yet")
	}
	name := "roster." + targetOf(eventID, "")
	ctx, cancel := context.WithTimeout(u.ctx, 2*time.Minute)
	defer cancel()
	if info, err := obs.GetInfo(ctx, name); err == nil && time.Since(info.ModTime) < u.n.o.RefreshEvery {
		return nil
	}
	// A roster at hand and fresh (this desk's own, or one downloaded for
	// a share that failed) is shared as it is: only a stale one is
	// downloaded again.
	ro := u.rosters[eventID]
	if own := u.n.d.Roster(); own != nil && own.EventID() == eventID && (ro == nil || own.Updated().After(ro.Updated())) {
		ro = own
	}
	// The roster's times are the desk's clock's, as the venue desk's.
	if ro == nil || u.n.cfg.Now().Sub(ro.Updated()) >= u.n.o.RefreshEvery {
		var err error
		if ro, err = roster.Download(ctx, u.n.cfg.Client, eventID, u.n.cfg.Now, nil); err != nil {
			return err
		}
		u.rosters[eventID] = ro
	}
	data, err := roster.Encode(ro)
	if err != nil {
		return err
	}
	_, err = obs.PutBytes(ctx, name, data)
	return err
}

// watchRosters takes the rosters the upstream desk shares.
func (n *Node) watchRosters(obs jetstream.ObjectStore) error {
	w, err := obs.Watch(n.ctx)
	if err != nil {
		return fmt.Errorf("venue: watch the rosters: %w", err)
	}
	name := "roster." + targetOf(n.cfg.EventID, "")
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		defer func() { _ = w.Stop() }()
		for {
			select {
			case info, ok := <-w.Updates():
				if !ok {
					return
				}
				if info == nil || info.Name != name || info.Deleted {
					continue
				}
				if err := n.fetchRoster(obs, name); err != nil {
					n.trouble(err)
				}
			case <-n.ctx.Done():
				return
			}
		}
	}()
	return nil
}

// fetchRoster reads the shared roster; a copy that is not complete yet
// on this desk is read again a moment later.
func (n *Node) fetchRoster(obs jetstream.ObjectStore, name string) error {
	var err error
	for try := 0; try < 10; try++ {
		ctx, cancel := context.WithTimeout(n.ctx, time.Minute)
		var data []byte
		data, err = obs.GetBytes(ctx, name)
		cancel()
		if err == nil {
			ro, derr := roster.Decode(data, n.cfg.EventID)
			if derr != nil {
				return derr
			}
			n.d.SetRoster(ro)
			return nil
		}
		if !sleep(n.ctx, 500*time.Millisecond) {
			return nil
		}
	}
	return fmt.Errorf("read the shared roster: %w", err)
}

// sleep waits d or until ctx ends; false when it ended.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
