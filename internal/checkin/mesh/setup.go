package mesh

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/evdesk/evdesk/internal/atomicfile"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// dupWindow is how long the scans stream remembers a scan's id: a desk
// that publishes a scan again within it (a restart, a rejoin) adds nothing.
const dupWindow = 2 * time.Hour

// loadWithin bounds the first read of the venue's arrivals; a binding
// that takes longer is dropped and made again at the next heartbeat.
const loadWithin = 15 * time.Second

// setup binds the venue's streams and buckets, creating those missing
// (which takes the venue's quorum: two desks at least) in as many copies as
// there are desks, up to three (see fewer), and starts the watches. The first full read of the arrivals ends it.
func (n *Node) setup() (err error) {
	// The watches of this binding live until the next: a watch that a
	// failed attempt started would otherwise go on beside the next
	// attempt's, and one that ended (lost) would have a live twin.
	n.mu.Lock()
	if n.unbind != nil {
		n.unbind()
	}
	bctx, unbind := context.WithCancel(n.ctx)
	n.unbind = unbind
	n.mu.Unlock()
	defer func() {
		if err != nil {
			unbind()
		}
	}()
	if n.o.failSetup != nil {
		if err := n.o.failSetup(); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(n.ctx, 5*time.Second)
	defer cancel()
	r := n.wantReplicas()
	desks, err := n.bucket(ctx, jetstream.KeyValueConfig{Bucket: desksKV, History: 1, TTL: 15 * time.Second, Replicas: r})
	if err != nil {
		return err
	}
	lease, err := n.bucket(ctx, jetstream.KeyValueConfig{Bucket: leaseKV, History: 1, TTL: n.o.LeaseTTL, Replicas: r})
	if err != nil {
		return err
	}
	arr, err := n.bucket(ctx, jetstream.KeyValueConfig{Bucket: arrivalsKV, History: 1, Replicas: r})
	if err != nil {
		return err
	}
	scans, err := n.js.Stream(ctx, scansStream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		cfg := jetstream.StreamConfig{Name: scansStream, Subjects: []string{scansSubject + ">"},
			Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: r, Duplicates: dupWindow}
		scans, err = n.js.CreateStream(ctx, cfg)
		if r, ok := n.fewer(err, cfg.Replicas); ok {
			cfg.Replicas = r
			scans, err = n.js.CreateStream(ctx, cfg)
		}
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			scans, err = n.js.Stream(ctx, scansStream)
		}
	}
	if err != nil {
		return fmt.Errorf("venue: the scans stream: %w", unplaced(err, r))
	}
	n.mu.Lock()
	n.arr, n.leaseKV, n.desksKV, n.scans = arr, lease, desks, scans
	n.replicas = scans.CachedInfo().Config.Replicas
	n.mu.Unlock()

	loaded := make(chan struct{})
	if err := n.watchArrivals(bctx, arr, loaded); err != nil {
		return err
	}
	if err := n.watchDesks(bctx, desks); err != nil {
		return err
	}
	select {
	case <-loaded:
	case <-time.After(loadWithin):
		// What was asked was answered, but what was watched never came
		// (seen with routes to every other desk up: the count says so);
		// the binding is made again, and a desk whose engine stays this
		// way starts it again (stuck).
		return fmt.Errorf("venue: the arrivals did not load within %v (this desk reaches %d other desks)", loadWithin, n.eng.peers())
	case <-n.ctx.Done():
		return n.ctx.Err()
	}
	n.mu.Lock()
	n.ready, n.boundOnce = true, true
	n.mu.Unlock()
	if !joinedBefore(n.o.Dir) {
		if err := atomicfile.WriteFile(filepath.Join(n.o.Dir, joinedMark), []byte(n.o.Secret.ID+"\n"), 0o600); err != nil {
			n.trouble(fmt.Errorf("venue: %w", err))
		}
	}
	return nil
}

// shareRosters binds the venue's roster store (creating it when missing)
// and follows it; the keeper tries until it succeeds, the desk meshes
// without it meanwhile.
func (n *Node) shareRosters() {
	n.mu.Lock()
	bound := n.rosters != nil
	n.mu.Unlock()
	if bound {
		return
	}
	ctx, cancel := context.WithTimeout(n.ctx, 5*time.Second)
	defer cancel()
	rosters, err := n.js.ObjectStore(ctx, rosterObjects)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		cfg := jetstream.ObjectStoreConfig{Bucket: rosterObjects, Replicas: n.wantReplicas(), Storage: jetstream.FileStorage}
		rosters, err = n.js.CreateObjectStore(ctx, cfg)
		if r, ok := n.fewer(err, cfg.Replicas); ok {
			cfg.Replicas = r
			rosters, err = n.js.CreateObjectStore(ctx, cfg)
		}
		if errors.Is(err, jetstream.ErrBucketExists) {
			rosters, err = n.js.ObjectStore(ctx, rosterObjects)
		}
	}
	if err == nil {
		err = n.watchRosters(rosters)
	}
	if err != nil {
		n.trouble(fmt.Errorf("the venue's roster store: %w", err))
		return
	}
	n.mu.Lock()
	n.rosters = rosters
	n.mu.Unlock()
}

// wantReplicas is how many copies of the venue's data the desks keep: one
// for each desk about, up to three (two desks keep two: either's loss
// stalls the venue, whose desks then work alone, but loses nothing).
func (n *Node) wantReplicas() int {
	n.mu.Lock()
	alive := 0
	for _, p := range n.desks {
		if time.Since(p.At) < 15*time.Second {
			alive++
		}
	}
	n.mu.Unlock()
	return replicasFor(max(alive, n.eng.peers()+1))
}

// replicasFor is the copies a venue of desks keeps.
func replicasFor(desks int) int { return min(max(desks, 1), 3) }

// errCodeNoPeers is the engine's refusal to place copies on desks it has
// not yet heard enough from (one that has just joined): "no suitable peers
// for placement".
const errCodeNoPeers jetstream.ErrorCode = 10005

func noPeers(err error) bool {
	var ae *jetstream.APIError
	return errors.As(err, &ae) && ae.ErrorCode == errCodeNoPeers
}

// placeGrace is how long a new venue waits for its engines to have room
// for its stores in full before it makes them in one copy.
const placeGrace = 10 * time.Second

// fewer is the copies a store the engine could not place in r copies is
// made with: none while the venue is new (the engines learn of each
// other's room within seconds, and a store made in full spares the move to
// more copies, which engines still joining make slowly and with replicas
// that lag), one once placeGrace has passed (the upstream desk adds copies
// as desks come).
func (n *Node) fewer(err error, r int) (int, bool) {
	if !noPeers(err) || r <= 1 {
		return 0, false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.unplacedSince.IsZero() {
		n.unplacedSince = time.Now()
	}
	return 1, time.Since(n.unplacedSince) >= placeGrace
}

// unplaced words the engine's refusal to place a store while the venue's
// desks are still joining.
func unplaced(err error, r int) error {
	if noPeers(err) {
		return fmt.Errorf("waiting for room for %d copies on the venue's desks", r)
	}
	return err
}

func (n *Node) bucket(ctx context.Context, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := n.js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		cfg.Storage = jetstream.FileStorage
		kv, err = n.js.CreateKeyValue(ctx, cfg)
		if r, ok := n.fewer(err, cfg.Replicas); ok {
			cfg.Replicas = r
			kv, err = n.js.CreateKeyValue(ctx, cfg)
		}
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = n.js.KeyValue(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("venue: the %s bucket: %w", cfg.Bucket, unplaced(err, cfg.Replicas))
	}
	return kv, nil
}

// watchArrivals follows this desk's target in the arrivals: the desk's
// arrivals learn every admission of the venue, and this desk's scans their
// answers from the service.
func (n *Node) watchArrivals(bctx context.Context, kv jetstream.KeyValue, loaded chan struct{}) error {
	// The last revision of this target's admissions before the watch:
	// once the watch has brought it, the initial values are in, even
	// should the watch's marker of that never come.
	last := n.lastRevision(bctx, n.target+".>")
	w, err := kv.Watch(bctx, n.target+".>")
	if err != nil {
		return fmt.Errorf("venue: watch the arrivals: %w", err)
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		defer func() { _ = w.Stop() }()
		var acks []scanqueue.Ack
		changed, initial := false, true
		flush := func() {
			if len(acks) > 0 {
				if _, err := n.d.Settle(acks); err != nil {
					n.trouble(err)
				}
				acks = nil
			}
			if changed {
				n.d.Changed()
				changed = false
			}
		}
		ups := w.Updates()
		for {
			var e jetstream.KeyValueEntry
			var ok bool
			select {
			case e, ok = <-ups:
			case <-bctx.Done():
				return
			}
			if !ok {
				n.lost(bctx, errors.New("the watch of the venue's arrivals ended"))
				return
			}
			if e == nil { // the initial values are in
				if initial {
					initial = false
					close(loaded)
				}
				flush()
				continue
			}
			if ack, ch := n.apply(e); ch {
				changed = true
				if ack != nil {
					acks = append(acks, *ack)
				}
			}
			if initial && last > 0 && e.Revision() >= last {
				initial = false
				close(loaded)
			}
			if !initial && len(ups) == 0 {
				flush()
			}
		}
	}()
	return nil
}

// apply takes one admission from the watch into the view and the desk's
// arrivals; it returns the answer for a scan of this desk's, if any.
func (n *Node) apply(e jetstream.KeyValueEntry) (*scanqueue.Ack, bool) {
	if e.Operation() != jetstream.KeyValuePut {
		return nil, false
	}
	rec, ok := decode[admission](e.Value())
	if !ok || rec.Email == "" {
		return nil, false
	}
	n.mu.Lock()
	prev, had := n.view[e.Key()]
	n.view[e.Key()] = rec
	n.mu.Unlock()
	if n.o.OnArrival != nil && rec.held() && rec.Node != n.id && (!had || !prev.held()) {
		n.o.OnArrival(rec.Email, rec.Desk, rec.At)
	}
	ar := n.d.Arrivals()
	if rec.held() {
		ar.Note(rec.Email, rec.Desk, rec.At)
	} else {
		ar.Forget(rec.Email)
	}
	if rec.Node != n.id || rec.Scan == "" {
		return nil, true
	}
	switch rec.State {
	case stateCheckedIn:
		return &scanqueue.Ack{ID: rec.Scan, Outcome: scanqueue.CheckedIn}, true
	case stateRejected:
		return &scanqueue.Ack{ID: rec.Scan, Outcome: scanqueue.Rejected, Message: rec.Message}, true
	}
	return nil, true
}

// watchDesks follows the presence of the venue's desks, and who holds the
// upstream lease.
func (n *Node) watchDesks(bctx context.Context, kv jetstream.KeyValue) error {
	w, err := kv.WatchAll(bctx)
	if err != nil {
		return fmt.Errorf("venue: watch the desks: %w", err)
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		defer func() { _ = w.Stop() }()
		var told time.Time
		for {
			select {
			case e, ok := <-w.Updates():
				if !ok {
					n.lost(bctx, errors.New("the watch of the venue's desks ended"))
					return
				}
				if e == nil {
					continue
				}
				n.mu.Lock()
				prev, had := n.desks[e.Key()]
				if e.Operation() == jetstream.KeyValuePut {
					if p, ok := decode[presence](e.Value()); ok {
						n.desks[e.Key()] = p
					}
				} else {
					delete(n.desks, e.Key())
				}
				cur, has := n.desks[e.Key()]
				n.mu.Unlock()
				// A heartbeat that changes only counts is told at most
				// every few seconds: twenty desks beat ten times a second.
				news := had != has || prev.Upstream != cur.Upstream || prev.Alone != cur.Alone
				if news || time.Since(told) >= 2*time.Second {
					told = time.Now()
					n.d.Changed()
				}
			case <-bctx.Done():
				return
			}
		}
	}()
	return nil
}

// lost notes that a watch of the binding bctx ended: the keeper sets the
// venue up again (unless that binding was dropped, or the desk closes).
func (n *Node) lost(bctx context.Context, err error) {
	if bctx.Err() != nil {
		return
	}
	n.trouble(err)
	n.mu.Lock()
	n.ready = false
	n.mu.Unlock()
	n.poke()
}

// lastRevision is the revision of the latest entry of the arrivals whose
// key matches keys, or 0 when there is none (or the venue does not say).
func (n *Node) lastRevision(ctx context.Context, keys string) uint64 {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	s, err := n.js.Stream(ctx, "KV_"+arrivalsKV)
	if err != nil {
		return 0
	}
	m, err := s.GetLastMsgForSubject(ctx, "$KV."+arrivalsKV+"."+keys)
	if err != nil {
		return 0
	}
	return m.Sequence
}
