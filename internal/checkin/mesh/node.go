// Package mesh joins a check-in desk to the other desks of its venue on an
// embedded NATS JetStream: the desks form one cluster over TLS with the
// venue's credentials; scans go into a de-duplicated stream that one desk at
// a time (the upstream desk, holding a lease in a key-value bucket) drains
// to the service as a work queue; who is checked in lives in a watched
// key-value bucket, where a desk claims a person before admitting them;
// the roster is shared through the object store. The desk's journal stays
// the first write, and a desk cut off from the others works alone, as a
// desk without a venue does, and reconciles when it is back.
package mesh

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
)

// Options configures a desk's place in its venue.
type Options struct {
	Secret *Secret
	// Dir is this desk's folder for the venue (its share of the streams,
	// its identity); one per desk.
	Dir string
	// Listen is where the desk listens for the other desks (HOST:PORT;
	// default 0.0.0.0:DefaultPort); Join lists desks to reach first.
	Listen string
	Join   []string
	// Discover looks for the venue's desks on the local network (mDNS)
	// and announces this one.
	Discover bool
	// Timings; zero takes the defaults below.
	ClaimTimeout time.Duration // how long a scan waits for the venue's word
	LeaseTTL     time.Duration // how long the upstream desk's lease lasts unrenewed
	Linger       time.Duration // how long the upstream desk gathers a batch
	SyncEvery    time.Duration // the service's history, read by the upstream desk
	RefreshEvery time.Duration // the roster, downloaded again by the upstream desk
	Tick         time.Duration // the desk's heartbeat in the venue
	// JoinGrace is how long a desk that has not yet met its venue waits
	// for it before it works alone (sends and reads the service itself).
	JoinGrace time.Duration
	// CutOff is how long the venue may fail to answer before the desk
	// works alone: longer than an election of the engine (4 to 9 s), so a
	// desk's loss does not send every desk to the service on its own.
	CutOff time.Duration
	// QueueLost is how long the venue's queue may fail to answer the
	// upstream desk before it makes the queue again: longer than an
	// election of the engine.
	QueueLost time.Duration
	// StuckAfter is how long the desk's engine may reach other desks
	// without binding the venue before it is started again (stuck).
	StuckAfter time.Duration
	// Logf notes what happens (default: nothing).
	Logf func(format string, args ...any)
	// EngineLog, when set, hears the embedded engine's own notices,
	// warnings, errors and debug lines (never its protocol traces), with
	// the venue's link password and the engine's local one masked: a
	// debugging aid (EVDESK_MESH_DEBUG=1), off by default, as the engine
	// of a venue of twenty says a great deal.
	EngineLog func(format string, args ...any)
	// OnArrival, when set, hears of each admission another desk made, as
	// this desk learns of it (a gate's log; the tests' clock of how fast
	// desks know).
	OnArrival func(email, desk string, at time.Time)

	// failSetup, in tests, fails the binding of the venue while it says
	// so; failRecords, claims and reconciling.
	failSetup, failRecords func() error
}

// Defaults of Options.
const (
	DefaultClaimTimeout = 750 * time.Millisecond
	DefaultLeaseTTL     = 5 * time.Second
	DefaultLinger       = 2 * time.Second
	DefaultSyncEvery    = 5 * time.Second
	DefaultRefreshEvery = 15 * time.Minute
	DefaultTick         = time.Second
	DefaultJoinGrace    = 15 * time.Second
	DefaultCutOff       = 12 * time.Second
	DefaultQueueLost    = 20 * time.Second
	DefaultStuckAfter   = 45 * time.Second
)

// Node is a desk's membership of its venue; it implements venue.Venue.
type Node struct {
	o   Options
	id  string
	eng *engine
	js  jetstream.JetStream
	st  started
	// probe: the engine runs without its store (JetStream) until this
	// desk meets another desk of the venue. A desk alone would otherwise
	// found a venue of its own, and when it met the real one its empty
	// record could win the engine's election and wipe the venue's (the
	// engine's raft groups cannot merge). Once it has met a desk, its
	// engine starts again with the store, and joins theirs; a desk that
	// was part of the venue before (joinedBefore) starts with it.
	probe   bool
	meeting meeting
	size    int  // the venue's size its engine is given (storeSize)
	downAs  role // the role of the engine to start again when down

	d      *venue.Desk
	cfg    venue.Options
	target string

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	kick   chan struct{}
	closed sync.Once

	// meshed: the desk works with its venue.
	meshed atomic.Bool
	// started is when the desk was attached; graceFrom, when JoinGrace
	// began: then, or as the desk met its venue (extendGrace); graceOver,
	// once it has passed without the venue.
	started   time.Time
	graceFrom time.Time
	graceOver atomic.Bool

	// sending counts the desk's own requests under way (Guard).
	sendMu   sync.Mutex
	sendCond *sync.Cond
	sending  int

	// handed are the scans the venue may hold (marked before they are
	// published): a desk cut off never sends them itself.
	hmu    sync.Mutex
	handed map[string]bool
	hfile  *os.File

	mu       sync.Mutex
	ready    bool
	everMesh bool
	// engineSince is when the engine last started; boundOnce, whether
	// the venue was bound on it (see stuck).
	engineSince time.Time
	boundOnce   bool
	// stateAt is when the engine's state was last logged (debugState).
	stateAt time.Time
	down    bool // the engine was closed and has not started again
	// recordsSince is when the venue's records (the arrivals) last
	// stopped answering this desk's claims and reconciling (see
	// recordsLost); zero while they answer.
	recordsSince time.Time
	arr          jetstream.KeyValue
	leaseKV      jetstream.KeyValue
	desksKV      jetstream.KeyValue
	scans        jetstream.Stream
	rosters      jetstream.ObjectStore
	view         map[string]admission // this target's admissions, by key
	desks        map[string]presence  // by node
	up           lease
	upRev        uint64
	leader       bool
	upStop       func()
	// healthy is when a heartbeat last went through; doubt, until when
	// scans skip their claim after the venue failed to answer one.
	healthy  time.Time
	doubt    time.Time
	unsure   bool // scans were admitted here alone while meshed
	renewed  time.Time
	lastErr  string
	replicas int
	// unplacedSince is when the engine first had no room for the venue's
	// stores in full (fewer).
	unplacedSince time.Time
	unsent        map[string]scanqueue.Scan // handed, but the publish failed
	// watchers stop what runs beside the engine (the mDNS announcer);
	// unbind ends the current binding's watches (setup).
	watchers []func()
	unbind   context.CancelFunc
}

// Join starts the desk's engine and returns its membership of the venue;
// venue.Open attaches it to the desk.
func Join(o Options) (*Node, error) {
	setDefault(&o.ClaimTimeout, DefaultClaimTimeout)
	setDefault(&o.LeaseTTL, DefaultLeaseTTL)
	setDefault(&o.Linger, DefaultLinger)
	setDefault(&o.SyncEvery, DefaultSyncEvery)
	setDefault(&o.RefreshEvery, DefaultRefreshEvery)
	setDefault(&o.Tick, DefaultTick)
	setDefault(&o.JoinGrace, DefaultJoinGrace)
	setDefault(&o.CutOff, DefaultCutOff)
	setDefault(&o.QueueLost, DefaultQueueLost)
	setDefault(&o.StuckAfter, DefaultStuckAfter)
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	// A desk that has never been part of its venue starts without the
	// engine's store: see probe.
	as := probeRole
	if joinedBefore(o.Dir) {
		as = deskRole
	}
	st, err := start(o, as)
	if err != nil {
		return nil, err
	}
	n := &Node{o: o, id: st.id, eng: st.eng, js: st.js, st: st, probe: as == probeRole, kick: make(chan struct{}, 1),
		handed: map[string]bool{}, view: map[string]admission{}, desks: map[string]presence{},
		unsent: map[string]scanqueue.Scan{}}
	n.sendCond = sync.NewCond(&n.sendMu)
	n.ctx, n.cancel = context.WithCancel(context.Background())
	if o.Discover {
		if stop, err := announce(o.Secret, st.id, st.host, st.port); err != nil {
			o.Logf("venue: this desk cannot announce itself on the local network (mDNS: %v); other desks reach it with --join ADDRESS:%d", err, st.port)
		} else {
			n.watchers = append(n.watchers, stop)
		}
	}
	return n, nil
}

// started is an engine in the venue, with its identity, address and the
// desks it was told to reach.
type started struct {
	id   string
	host string
	port int
	join []string
	eng  *engine
	js   jetstream.JetStream
}

// start checks the options, finds the desks to join (the list, and mDNS
// when asked) and starts the engine.
func start(o Options, as role) (started, error) {
	if o.Secret == nil || o.Dir == "" {
		return started{}, errors.New("venue: a venue file and a folder are required")
	}
	host, port, err := CheckListen(o.Listen)
	if err != nil {
		return started{}, err
	}
	join, err := CheckJoin(o.Join)
	if err != nil {
		return started{}, err
	}
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return started{}, fmt.Errorf("venue: %w", err)
	}
	id, err := nodeID(o.Dir)
	if err != nil {
		return started{}, err
	}
	if o.Discover {
		join = append(join, discover(o.Secret, id, 1500*time.Millisecond)...)
	}
	eng, err := startEngine(o.Secret, o.Dir, id, host, port, join, as, 0, o.EngineLog)
	if err != nil {
		return started{}, err
	}
	js, err := jetstream.New(eng.nc)
	if err != nil {
		eng.close()
		return started{}, err
	}
	return started{id: id, host: host, port: port, join: join, eng: eng, js: js}, nil
}

func setDefault(d *time.Duration, v time.Duration) {
	if *d <= 0 {
		*d = v
	}
}

// Attach implements venue.Venue.
func (n *Node) Attach(d *venue.Desk) {
	n.d, n.cfg = d, d.Config()
	n.target = targetOf(n.cfg.EventID, n.cfg.SessionID)
	n.started = time.Now()
	n.engineSince, n.graceFrom = n.started, n.started
	if err := n.loadHanded(); err != nil {
		n.trouble(err)
	}
	n.wg.Add(1)
	go n.keep()
	if n.o.Discover {
		n.wg.Add(1)
		go n.seek()
	}
}

// seekEvery is how often a desk that has met no other looks for them on
// the local network.
const seekEvery = 5 * time.Second

// seek looks for the venue's desks on the local network every few seconds
// while this desk has met none, and has its engine reach those it finds:
// desks that start together each look once before the others announce
// themselves, and would otherwise never meet.
func (n *Node) seek() {
	defer n.wg.Done()
	known := map[string]bool{}
	n.mu.Lock()
	for _, a := range n.st.join {
		known[a] = true
	}
	n.mu.Unlock()
	for sleep(n.ctx, seekEvery) {
		n.mu.Lock()
		eng := n.eng
		n.mu.Unlock()
		if eng.peers() > 0 {
			continue
		}
		var fresh []string
		for _, a := range discover(n.o.Secret, n.id, 1500*time.Millisecond) {
			if !known[a] {
				known[a] = true
				fresh = append(fresh, a)
			}
		}
		if len(fresh) == 0 {
			continue
		}
		n.mu.Lock()
		n.st.join = append(n.st.join, fresh...)
		eng = n.eng
		n.mu.Unlock()
		n.o.Logf("venue: found %s on the local network", strings.Join(fresh, ", "))
		if err := eng.addRoutes(fresh); err != nil {
			n.trouble(fmt.Errorf("venue: reach the desks found on the local network: %w", err))
		}
	}
}

// Alone implements venue.Venue: cut off from the venue, or never met it
// within JoinGrace.
func (n *Node) Alone() bool { return !n.meshed.Load() && !n.waiting() }

// waiting reports whether the desk still waits to meet its venue for the
// first time.
func (n *Node) waiting() bool {
	if n.graceOver.Load() {
		return false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.inGrace()
}

// extendGrace has JoinGrace run from at (when the desk first reached
// another desk, then when it started its store), while the desk has yet
// to meet its venue for the first time.
func (n *Node) extendGrace(at time.Time) {
	if n.graceOver.Load() {
		return
	}
	n.mu.Lock()
	if at.After(n.graceFrom) {
		n.graceFrom = at
	}
	n.mu.Unlock()
}

// inGrace reports whether the desk is within JoinGrace of meeting its
// venue for the first time. The lock is held.
func (n *Node) inGrace() bool {
	return !n.everMesh && time.Since(n.graceFrom) < n.o.JoinGrace
}

// Hold implements venue.Venue: while meshed (or waiting to be) the venue
// sends everything; cut off, the desk sends what the venue cannot have.
func (n *Node) Hold(sc scanqueue.Scan) bool {
	if n.meshed.Load() || n.waiting() {
		return true
	}
	n.hmu.Lock()
	defer n.hmu.Unlock()
	return n.handed[handedKey(sc)]
}

// errVenueTookOver: the desk's own send found the venue back.
var errVenueTookOver = errors.New("the venue's upstream desk sends this desk's check-ins again")

// Guard implements venue.Venue.
func (n *Node) Guard(send scanqueue.CheckInFunc) scanqueue.CheckInFunc {
	return func(ctx context.Context, eventID, sessionID string, emails []string, source string) ([]api.BatchError, error) {
		n.sendMu.Lock()
		if n.meshed.Load() {
			n.sendMu.Unlock()
			return nil, errVenueTookOver
		}
		n.sending++
		n.sendMu.Unlock()
		defer func() {
			n.sendMu.Lock()
			n.sending--
			n.sendCond.Broadcast()
			n.sendMu.Unlock()
		}()
		return send(ctx, eventID, sessionID, emails, source)
	}
}

// Admit implements venue.Venue: each pending scan claims its person in
// the venue's arrivals; a scan that finds them claimed is Already, naming
// the desk and time of the first; a claim that gets no answer leaves the
// scan admitted here alone, to be reconciled.
func (n *Node) Admit(scans []scanqueue.Scan) []scanqueue.Scan {
	if !n.meshed.Load() {
		return scans
	}
	var acks []scanqueue.Ack
	var fresh []scanqueue.Scan
	for i, sc := range scans {
		if sc.Outcome != scanqueue.Pending {
			continue
		}
		if n.doubtful() {
			// The venue did not answer a moment ago (an election): the
			// desk answers at once, alone, and reconciles when it answers.
			n.setUnsure()
			continue
		}
		won, cur, err := n.claim(sc)
		n.noteRecords(err)
		switch {
		case err != nil:
			n.trouble(fmt.Errorf("the venue did not answer a claim: %w", err))
			n.mu.Lock()
			n.doubt, n.unsure = time.Now().Add(doubtFor), true
			n.mu.Unlock()
			n.poke()
		case won:
			fresh = append(fresh, sc)
		default:
			msg := n.d.CheckedInAt(roster.Arrival{Email: cur.Email, Desk: cur.Desk, At: cur.At, By: cur.By})
			acks = append(acks, scanqueue.Ack{ID: sc.ID, Outcome: scanqueue.Already, Message: msg})
			scans[i].Outcome, scans[i].Message, scans[i].AckedAt = scanqueue.Already, msg, n.cfg.Now().UTC()
		}
	}
	if len(acks) > 0 {
		if _, err := n.d.Settle(acks); err != nil {
			n.trouble(err)
		}
	}
	if len(fresh) > 0 {
		n.hand(fresh)
	}
	return scans
}

// doubtFor is how long scans skip their claim after one went unanswered.
const doubtFor = 2 * time.Second

func (n *Node) doubtful() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return time.Now().Before(n.doubt)
}

func (n *Node) setUnsure() {
	n.mu.Lock()
	n.unsure = true
	n.mu.Unlock()
}

// claim asks the venue's arrivals for a person on behalf of a scan: won,
// or the admission that was there first.
func (n *Node) claim(sc scanqueue.Scan) (bool, admission, error) {
	kv := n.arrivals()
	if kv == nil {
		return false, admission{}, errNoEngine
	}
	if err := n.recordsFault(); err != nil {
		return false, admission{}, err
	}
	ctx, cancel := context.WithTimeout(n.ctx, n.o.ClaimTimeout)
	defer cancel()
	key := keyOf(n.target, sc.Email)
	rec := n.admissionOf(sc, stateAdmitted)
	for range 3 {
		_, err := kv.Create(ctx, key, encode(rec))
		if err == nil {
			n.noteLocal(key, rec)
			return true, rec, nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return false, admission{}, err
		}
		e, err := kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return false, admission{}, err
		}
		cur, ok := decode[admission](e.Value())
		if ok && cur.held() {
			return false, cur, nil
		}
		// Refused by the service before: this scan tries again.
		if _, err := kv.Update(ctx, key, encode(rec), e.Revision()); err == nil {
			n.noteLocal(key, rec)
			return true, rec, nil
		}
	}
	return false, admission{}, errors.New("the person's record kept changing")
}

func (n *Node) admissionOf(sc scanqueue.Scan, state string) admission {
	return admission{Email: sc.Email, Event: n.cfg.EventID, Session: n.cfg.SessionID, Desk: n.cfg.Name,
		Node: n.id, Scan: sc.ID, At: sc.At, State: state}
}

// noteLocal enters an admission this desk just wrote, before the watch
// brings it back, so the next scan here knows it.
func (n *Node) noteLocal(key string, rec admission) {
	n.mu.Lock()
	n.view[key] = rec
	n.mu.Unlock()
	n.d.Arrivals().Note(rec.Email, rec.Desk, rec.At)
}

func (n *Node) arrivals() jetstream.KeyValue {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.arr
}

// hand marks scans as the venue's (on disk, first) and publishes them to
// the scans stream; a publish that fails is tried again by the keeper.
func (n *Node) hand(scans []scanqueue.Scan) {
	if err := n.markHanded(scans); err != nil {
		// Not marked: the scans stay this desk's own, sent by it when cut
		// off; the venue gets them at the next reconcile.
		n.trouble(err)
		return
	}
	var failed error
	for _, sc := range scans {
		if failed == nil {
			failed = n.publish(sc)
			if failed == nil {
				continue
			}
		}
		// The stream did not answer: the rest wait with this one for
		// the keeper, which publishes them again.
		n.mu.Lock()
		n.unsent[sc.ID] = sc
		n.mu.Unlock()
	}
	if failed != nil {
		n.trouble(fmt.Errorf("hand scans to the venue: %w", failed))
	}
}

func (n *Node) publish(sc scanqueue.Scan) error {
	m := scanMsg{Node: n.id, Desk: n.cfg.Name, Scan: sc.ID, Event: n.cfg.EventID, Session: n.cfg.SessionID,
		Email: sc.Email, At: sc.At, Expect: sc.Expect}
	ctx, cancel := context.WithTimeout(n.ctx, 2*time.Second)
	defer cancel()
	_, err := n.js.Publish(ctx, scansSubject+n.target, encode(m), jetstream.WithMsgID(m.msgID()))
	return err
}

// handedKey names a scan in the record of those handed to the venue: its
// id and time, so a journal begun afresh (ids from 1 again) is not taken
// for the old one.
func handedKey(sc scanqueue.Scan) string {
	return sc.ID + " " + strconv.FormatInt(sc.At.UnixNano(), 10)
}

// handedPath keeps the scans handed to the venue, one a line.
func (n *Node) handedPath() string { return filepath.Join(n.o.Dir, "handed."+n.target+".log") }

func (n *Node) loadHanded() error {
	f, err := os.OpenFile(n.handedPath(), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("venue: %w", err)
	}
	sc := bufio.NewScanner(f)
	n.hmu.Lock()
	for sc.Scan() {
		if key := strings.TrimSpace(sc.Text()); key != "" && len(key) <= 128 {
			n.handed[key] = true
		}
	}
	n.hfile = f
	n.hmu.Unlock()
	return nil
}

func (n *Node) markHanded(scans []scanqueue.Scan) error {
	n.hmu.Lock()
	defer n.hmu.Unlock()
	var b strings.Builder
	for _, sc := range scans {
		if !n.handed[handedKey(sc)] {
			b.WriteString(handedKey(sc) + "\n")
		}
	}
	if b.Len() == 0 {
		return nil
	}
	if n.hfile == nil {
		return errors.New("venue: the record of scans handed to the venue is not open")
	}
	if _, err := n.hfile.WriteString(b.String()); err != nil {
		return fmt.Errorf("venue: %w", err)
	}
	if err := n.hfile.Sync(); err != nil {
		return fmt.Errorf("venue: %w", err)
	}
	for _, sc := range scans {
		n.handed[handedKey(sc)] = true
	}
	return nil
}

func (n *Node) poke() {
	select {
	case n.kick <- struct{}{}:
	default:
	}
}

func (n *Node) trouble(err error) {
	n.mu.Lock()
	n.lastErr = err.Error()
	n.mu.Unlock()
	if n.ctx.Err() == nil {
		n.o.Logf("%v", err)
	}
}

// keep is the desk's heartbeat in the venue: it sets the venue up, tells
// the others about this desk (a write that needs the venue's quorum, so it
// is also the health check), takes part in choosing the upstream desk, and
// moves the desk between working with the venue and alone.
func (n *Node) keep() {
	defer n.wg.Done()
	t := time.NewTicker(n.o.Tick)
	defer t.Stop()
	for {
		n.step()
		select {
		case <-n.ctx.Done():
			return
		case <-t.C:
		case <-n.kick:
		}
	}
}

func (n *Node) step() {
	n.mu.Lock()
	ready := n.ready
	over := !n.everMesh && !n.inGrace()
	n.mu.Unlock()
	if over && !n.graceOver.Swap(true) {
		n.trouble(fmt.Errorf("no other desk of the venue answered within %v: working alone until one does", n.o.JoinGrace))
		n.d.VenueChanged()
	}
	n.mu.Lock()
	down := n.down
	n.mu.Unlock()
	if down {
		n.o.Logf("venue: starting this desk's engine again")
		n.mu.Lock()
		as := n.downAs
		n.mu.Unlock()
		if err := n.startAgain(as); err != nil {
			n.trouble(err)
		}
		return
	}
	if n.probe {
		met := n.meeting.met(n.eng.peers(), time.Now(), n.o.Tick)
		n.extendGrace(n.meeting.first)
		if !met {
			return // no other desk yet: the desk works alone meanwhile
		}
		n.mu.Lock()
		n.size = storeSize(n.id, n.eng.deskIDs(), n.eng.venueAnswers())
		n.mu.Unlock()
		n.extendGrace(time.Now()) // the engines' first election is part of meeting the venue
		if err := n.restartEngine("venue: met another desk; starting this desk's share of the venue"); err != nil {
			n.trouble(err)
			return
		}
	}
	if !ready {
		if n.stuck() {
			n.debugState(true, "stuck")
			var err error
			if joinedBefore(n.o.Dir) {
				err = n.restartEngine("venue: this desk's engine has had no answer from the venue's engines for %v; starting it again", n.o.StuckAfter)
			} else {
				err = n.reprobe()
			}
			if err != nil {
				n.trouble(err)
			}
			return
		}
		if err := n.setup(); err != nil {
			n.debugState(false, "binding failed ("+err.Error()+")")
			// While the venue is still forming, the engines choosing
			// their leader is expected and not worth a line on a gate's
			// log: the error is kept for the board only.
			n.mu.Lock()
			forming := n.inGrace()
			if forming {
				n.lastErr = err.Error()
			}
			n.mu.Unlock()
			if !forming {
				n.trouble(err)
			}
			return
		}
	}
	if err := n.announce(); err != nil {
		n.mu.Lock()
		n.doubt = time.Now().Add(doubtFor)
		silent := time.Since(n.healthy)
		n.mu.Unlock()
		if silent >= n.o.CutOff && n.meshed.Load() {
			n.debugState(true, "cut off")
			n.trouble(fmt.Errorf("cut off from the venue for %v (%v): working alone", silent.Round(time.Second), err))
			n.leave()
		}
		return
	}
	n.mu.Lock()
	n.healthy, n.doubt = time.Now(), time.Time{}
	unsure := n.unsure
	n.unsure = false
	n.mu.Unlock()
	if !n.meshed.Load() {
		n.rejoin()
	} else if unsure {
		err := n.reconcile()
		n.noteRecords(err)
		if err != nil {
			n.trouble(err)
			n.setUnsure()
		}
	}
	if n.recordsLost() {
		return
	}
	n.debugStateEvery(meshedStateEvery, "meshed")
	n.retryUnsent()
	n.shareRosters()
	n.lead()
}

// recordsFault is the test's failure of the venue's records, if any.
func (n *Node) recordsFault() error {
	if n.o.failRecords == nil {
		return nil
	}
	return n.o.failRecords()
}

// noteRecords notes whether the venue's records answered a claim or a
// reconciling (err nil) or not.
func (n *Node) noteRecords(err error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case err == nil:
		n.recordsSince = time.Time{}
	case n.recordsSince.IsZero():
		n.recordsSince = time.Now()
	}
}

// recordsLost handles a desk whose heartbeat goes through but whose
// claims and reconciling have had no answer for CutOff: seen in one of
// twenty-odd runs of twenty desks, for minutes ("no response from
// stream": its engine heard of the desks' bucket but not of the
// arrivals), while its scans, which the venue was taken to hold, went
// nowhere. The desk works alone (it sends its own scans), drops its
// binding and starts its engine again, which meets the others afresh; it
// reports whether it did.
func (n *Node) recordsLost() bool {
	n.mu.Lock()
	since := n.recordsSince
	lost := !since.IsZero() && time.Since(since) >= n.o.CutOff
	if lost {
		n.ready, n.rosters, n.recordsSince = false, nil, time.Time{}
	}
	n.mu.Unlock()
	if !lost {
		return false
	}
	n.debugState(true, "records lost")
	n.trouble(fmt.Errorf("the venue's records have not answered this desk for %v: working alone", time.Since(since).Round(time.Second)))
	n.leave()
	if err := n.restartEngine("venue: starting this desk's share of the venue again"); err != nil {
		n.trouble(err)
	}
	return true
}

// stuck reports whether the engine has reached other desks but never bound
// the venue for Options.StuckAfter: in two of twenty-odd runs of twenty
// desks switched on together, one desk's engine had routes to every other
// and no answer from the venue's stores for minutes (every request timed
// out, or a watch brought nothing). One cause is known and gone (a
// dedicated $SYS route missing: see PoolSize in startEngine); this stays
// for any other.
func (n *Node) stuck() bool {
	n.mu.Lock()
	since, bound := n.engineSince, n.boundOnce
	n.mu.Unlock()
	return !bound && !since.IsZero() && time.Since(since) >= n.o.StuckAfter && n.eng.peers() > 0
}

// restartEngine starts the desk's engine again, with its store, saying
// why: once the desk has met another desk of the venue (see probe), when it
// is stuck, or when the venue's records are lost to it. Nothing is bound to
// the engine it replaces: without a store there is no venue to bind, a
// stuck engine never bound it, and a desk that lost the records dropped
// its binding (recordsLost); the binding's watches end here. An engine
// that does not start (its port taken meanwhile) is tried again at the
// next heartbeat (down).
func (n *Node) restartEngine(why string, args ...any) error {
	n.o.Logf(why, args...)
	return n.startAgain(deskRole)
}

// reprobe handles a desk new to its venue whose engine started its store
// and never had an answer from the venue's: the desk it took for the
// founder (storeSize) went away before founding it, or the desks it
// counted are fewer now. Its store holds nothing of the venue, so the desk
// drops it and meets the venue again, as a probe.
func (n *Node) reprobe() error {
	n.o.Logf("venue: this desk's engine has had no answer from the venue's engines for %v; meeting the venue again", n.o.StuckAfter)
	return n.startAgain(probeRole)
}

// startAgain replaces the desk's engine with one in the role given (see
// restartEngine); a probe's starts without a store, the old one dropped.
func (n *Node) startAgain(as role) error {
	n.mu.Lock()
	if n.unbind != nil {
		n.unbind()
	}
	join := slices.Clone(n.st.join)
	n.down, n.downAs = true, as
	size := n.size
	n.mu.Unlock()
	n.eng.close()
	if as == probeRole {
		if err := os.RemoveAll(filepath.Join(n.o.Dir, "store")); err != nil {
			return fmt.Errorf("venue: %w", err)
		}
	}
	eng, err := startEngine(n.o.Secret, n.o.Dir, n.id, n.st.host, n.st.port, join, as, size, n.o.EngineLog)
	if err != nil {
		return err
	}
	js, err := jetstream.New(eng.nc)
	if err != nil {
		eng.close()
		return err
	}
	n.mu.Lock()
	n.eng, n.js, n.probe, n.down, n.meeting = eng, js, as == probeRole, false, meeting{}
	n.engineSince, n.boundOnce = time.Now(), false
	n.mu.Unlock()
	return nil
}

// storeSize is the venue's size a probe gives its engine as it starts its
// store (sizedRoutes), from the desks it met (their IDs) and whether a
// venue already answers. nats-server lets the desks of a new venue choose
// their first leader only with the votes of every desk of the size each
// was given: one desk founds the venue, the one of lowest ID among those
// that met when no venue answers, taking the engine's least size (two),
// so that the first other desk's vote elects it; every other desk counts
// the desks it met and itself, so that no group of new desks can choose a
// leader of their own, and they all follow the founder's. Desks switched
// on together, each sized two, chose two leaders (seen in the 20-desk
// benchmark): the venue split, and when one half's leader died the other
// half's won and wiped the venue's records.
func storeSize(self string, desks []string, venueAnswers bool) int {
	if !venueAnswers && (len(desks) == 0 || self < slices.Min(desks)) {
		return 0
	}
	return len(desks) + 1
}

// meeting is a probe's meeting with its venue (see Node.probe). Desks
// switched on together keep finding each other for a moment, and each
// counts the desks it reaches for the venue's size (sizedRoutes): a probe
// starts its store once the count has held for two heartbeats, or ten
// heartbeats after it first reached another desk.
type meeting struct {
	first, changed time.Time
	peers          int
}

// met notes the desks the probe reaches now and reports whether it has met
// its venue.
func (m *meeting) met(peers int, now time.Time, tick time.Duration) bool {
	if peers == 0 {
		*m = meeting{}
		return false
	}
	if m.first.IsZero() {
		m.first = now
	}
	if peers != m.peers {
		m.peers, m.changed = peers, now
	}
	return now.Sub(m.changed) >= 2*tick || now.Sub(m.first) >= 10*tick
}

// joinedMark names the file that says the desk has been part of its venue.
const joinedMark = "joined"

// joinedBefore reports whether the desk in dir has been part of its venue.
func joinedBefore(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, joinedMark))
	return err == nil
}

// announce writes this desk's presence.
func (n *Node) announce() error {
	n.mu.Lock()
	kv, leader := n.desksKV, n.leader
	n.mu.Unlock()
	c := n.d.Journal().Counts()
	p := presence{Node: n.id, Desk: n.cfg.Name, Event: n.cfg.EventID, Session: n.cfg.SessionID,
		Upstream: leader, Alone: !n.meshed.Load(), Scans: c.Total(), Pending: c.Pending, At: time.Now().UTC()}
	ctx, cancel := context.WithTimeout(n.ctx, n.o.Tick+n.o.Tick/2)
	defer cancel()
	_, err := kv.Put(ctx, n.id, encode(p))
	return err
}

// leave makes the desk work alone: it reads the service and sends what
// the venue does not hold itself.
func (n *Node) leave() {
	n.meshed.Store(false)
	n.stopUpstream()
	n.d.VenueChanged()
}

// rejoin makes the desk work with the venue again: once no request of its
// own is under way, it reconciles what it did alone and hands the venue
// its pending scans.
func (n *Node) rejoin() {
	n.sendMu.Lock()
	n.meshed.Store(true)
	for n.sending > 0 {
		n.sendCond.Wait()
	}
	n.sendMu.Unlock()
	n.mu.Lock()
	n.everMesh = true
	n.lastErr = ""
	n.mu.Unlock()
	n.graceOver.Store(true)
	err := n.reconcile()
	n.noteRecords(err)
	if err != nil {
		// A venue that has just grown (its streams moving to three
		// copies) may not answer in time: the next heartbeat tries again,
		// or what this desk admitted alone would never reach the venue.
		n.trouble(err)
		n.setUnsure()
	}
	n.d.VenueChanged()
}

// reconcile brings what this desk admitted (while alone, or before it
// restarted) into the venue: every pending or checked-in scan of its
// journal is claimed; a person another desk admitted meanwhile is noted as
// admitted twice, and a pending scan of theirs here sends nothing. Pending
// scans the venue holds as this desk's are published again (the stream
// stores a scan once).
func (n *Node) reconcile() error {
	if err := n.recordsFault(); err != nil {
		return err
	}
	kv := n.arrivals()
	var acks []scanqueue.Ack
	var resend []scanqueue.Scan
	for _, sc := range n.d.Journal().Scans() {
		if sc.Outcome != scanqueue.Pending && sc.Outcome != scanqueue.CheckedIn {
			continue
		}
		key := keyOf(n.target, sc.Email)
		n.mu.Lock()
		cur, ok := n.view[key]
		n.mu.Unlock()
		if ok && cur.Node == n.id && cur.Scan == sc.ID {
			if sc.Outcome == scanqueue.Pending && cur.State == stateAdmitted {
				resend = append(resend, sc)
			}
			continue
		}
		state := stateAdmitted
		if sc.Outcome == scanqueue.CheckedIn {
			state = stateCheckedIn
		}
		first, err := n.settleClaim(kv, key, n.admissionOf(sc, state))
		if err != nil {
			return fmt.Errorf("reconcile with the venue: %w", err)
		}
		switch {
		case first == nil && sc.Outcome == scanqueue.Pending:
			resend = append(resend, sc)
		case first != nil && sc.Outcome == scanqueue.Pending:
			msg := "admitted again while the venue was split; first " +
				n.d.CheckedInAt(roster.Arrival{Desk: first.Desk, At: first.At})
			acks = append(acks, scanqueue.Ack{ID: sc.ID, Outcome: scanqueue.Already, Message: msg})
		}
	}
	if len(acks) > 0 {
		if _, err := n.d.Settle(acks); err != nil {
			return err
		}
	}
	if len(resend) > 0 {
		n.hand(resend)
	}
	return nil
}

// settleClaim writes rec unless another desk holds the person; then it
// notes this desk's admission as a second one and returns the first.
func (n *Node) settleClaim(kv jetstream.KeyValue, key string, rec admission) (*admission, error) {
	ctx, cancel := context.WithTimeout(n.ctx, 5*time.Second)
	defer cancel()
	for range 5 {
		if _, err := kv.Create(ctx, key, encode(rec)); err == nil {
			n.noteLocal(key, rec)
			return nil, nil
		} else if !errors.Is(err, jetstream.ErrKeyExists) {
			return nil, err
		}
		e, err := kv.Get(ctx, key)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		cur, _ := decode[admission](e.Value())
		if !cur.held() {
			if _, err := kv.Update(ctx, key, encode(rec), e.Revision()); err == nil {
				n.noteLocal(key, rec)
				return nil, nil
			}
			continue
		}
		if cur.Node == rec.Node && cur.Scan == rec.Scan {
			return nil, nil
		}
		if !slices.ContainsFunc(cur.Twice, func(a again) bool { return a.Desk == rec.Desk && a.At.Equal(rec.At) }) {
			upd := cur
			upd.Twice = append(slices.Clone(cur.Twice), again{Desk: rec.Desk, At: rec.At})
			if _, err := kv.Update(ctx, key, encode(upd), e.Revision()); err != nil {
				continue
			}
		}
		return &cur, nil
	}
	return nil, errors.New("the person's record kept changing")
}

// retryUnsent publishes again the scans whose publish failed.
func (n *Node) retryUnsent() {
	n.mu.Lock()
	var todo []scanqueue.Scan
	for _, sc := range n.unsent {
		todo = append(todo, sc)
	}
	n.mu.Unlock()
	for _, sc := range todo {
		if n.publish(sc) != nil {
			return // the next heartbeat tries again
		}
		n.mu.Lock()
		delete(n.unsent, sc.ID)
		n.mu.Unlock()
	}
}

// Info implements venue.Venue.
func (n *Node) Info() venue.Info {
	n.mu.Lock()
	defer n.mu.Unlock()
	state := "joining"
	switch {
	case n.meshed.Load():
		state = "meshed"
	case n.everMesh || n.graceOver.Load():
		state = "alone"
	}
	return infoOf(n.o.Secret.Name, state, n.up.Desk, n.replicas, n.lastErr, n.desks, n.view)
}

// forgetDesk is how long a desk unheard from stays on the board.
const forgetDesk = 2 * time.Minute

// Close implements venue.Venue: an upstream desk gives its lease up, so
// another takes over at once.
func (n *Node) Close() error {
	n.closed.Do(func() {
		n.mu.Lock()
		leader, kv, rev := n.leader, n.leaseKV, n.upRev
		n.mu.Unlock()
		n.stopUpstream()
		if leader && kv != nil {
			// Only the lease as this desk last renewed it: one another desk
			// has taken meanwhile is that desk's.
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			_ = kv.Delete(ctx, upstreamKey, jetstream.LastRevision(rev))
			cancel()
		}
		n.cancel()
		n.wg.Wait()
		n.mu.Lock()
		stops := n.watchers
		n.mu.Unlock()
		for _, stop := range stops {
			stop()
		}
		n.eng.close()
		n.hmu.Lock()
		if n.hfile != nil {
			_ = n.hfile.Close()
		}
		n.hmu.Unlock()
	})
	return nil
}

// Shutdown stops a node that was never attached to a desk.
func (n *Node) Shutdown() {
	n.closed.Do(func() {
		n.cancel()
		n.eng.close()
	})
}
