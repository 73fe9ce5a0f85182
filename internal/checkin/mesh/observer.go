package mesh

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
)

// Observer watches a venue without being one of its desks: a supervisor's
// board (evdesk desk --board --venue). It takes no lease, claims no one and
// says nothing of itself; it reads the desks, the upstream lease and the
// admissions of one target.
type Observer struct {
	o      Options
	eng    *engine
	js     jetstream.JetStream
	target string
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	desks    map[string]presence
	up       lease
	view     map[string]admission
	replicas int
	err      string
	bound    bool
	// loaded: the admissions the venue held when the board bound it are
	// all in view.
	loaded bool
}

// Observe starts the board's engine in the venue and watches it in the
// background for eventID (and sessionID).
func Observe(o Options, eventID, sessionID string) (*Observer, error) {
	st, err := start(o, boardRole)
	if err != nil {
		return nil, err
	}
	ob := &Observer{o: o, eng: st.eng, js: st.js, target: targetOf(eventID, sessionID),
		desks: map[string]presence{}, view: map[string]admission{}}
	ob.ctx, ob.cancel = context.WithCancel(context.Background())
	ob.wg.Add(1)
	go ob.run()
	return ob, nil
}

// run binds the venue's buckets (retrying until the venue answers) and
// follows them.
func (ob *Observer) run() {
	defer ob.wg.Done()
	for ob.ctx.Err() == nil {
		if err := ob.bind(); err != nil {
			ob.mu.Lock()
			ob.err = err.Error()
			ob.mu.Unlock()
			if !sleep(ob.ctx, 2*time.Second) {
				return
			}
			continue
		}
		break
	}
	for ob.ctx.Err() == nil {
		ob.replicasNow()
		if !sleep(ob.ctx, 5*time.Second) {
			return
		}
	}
}

func (ob *Observer) bind() error {
	ctx, cancel := context.WithTimeout(ob.ctx, 5*time.Second)
	defer cancel()
	desks, err := ob.js.KeyValue(ctx, desksKV)
	if err != nil {
		return fmt.Errorf("the venue's desks: %w", err)
	}
	leases, err := ob.js.KeyValue(ctx, leaseKV)
	if err != nil {
		return fmt.Errorf("the venue's lease: %w", err)
	}
	arr, err := ob.js.KeyValue(ctx, arrivalsKV)
	if err != nil {
		return fmt.Errorf("the venue's arrivals: %w", err)
	}
	// take hears each entry; nil once those the bucket held are all in.
	follow := func(kv jetstream.KeyValue, keys string, take func(jetstream.KeyValueEntry)) error {
		w, err := kv.Watch(ob.ctx, keys)
		if err != nil {
			return err
		}
		ob.wg.Add(1)
		go func() {
			defer ob.wg.Done()
			defer func() { _ = w.Stop() }()
			for {
				select {
				case e, ok := <-w.Updates():
					if !ok {
						return
					}
					ob.mu.Lock()
					take(e)
					ob.mu.Unlock()
				case <-ob.ctx.Done():
					return
				}
			}
		}()
		return nil
	}
	if err := follow(desks, ">", func(e jetstream.KeyValueEntry) {
		if e == nil {
			return
		}
		if p, ok := decode[presence](e.Value()); ok && e.Operation() == jetstream.KeyValuePut {
			ob.desks[e.Key()] = p
		}
	}); err != nil {
		return err
	}
	if err := follow(leases, upstreamKey, func(e jetstream.KeyValueEntry) {
		if e == nil {
			return
		}
		ob.up = lease{}
		if l, ok := decode[lease](e.Value()); ok && e.Operation() == jetstream.KeyValuePut {
			ob.up = l
		}
	}); err != nil {
		return err
	}
	if err := follow(arr, ob.target+".>", func(e jetstream.KeyValueEntry) {
		if e == nil {
			ob.loaded = true
			return
		}
		if a, ok := decode[admission](e.Value()); ok && e.Operation() == jetstream.KeyValuePut {
			ob.view[e.Key()] = a
		}
	}); err != nil {
		return err
	}
	ob.mu.Lock()
	ob.bound, ob.err = true, ""
	ob.mu.Unlock()
	return nil
}

func (ob *Observer) replicasNow() {
	ctx, cancel := context.WithTimeout(ob.ctx, 3*time.Second)
	defer cancel()
	replicas := 0 // unknown while the venue does not answer
	if s, err := ob.js.Stream(ctx, scansStream); err == nil {
		replicas = s.CachedInfo().Config.Replicas
	}
	ob.mu.Lock()
	ob.replicas = replicas
	ob.mu.Unlock()
}

// Admissions are the check-ins the venue's desks made at the target, each
// at the time it was scanned, for a board's figures (the service's history
// carries no times). Those the service refused are left out. loaded says
// whether all the venue held when the board bound it are in.
func (ob *Observer) Admissions() (scanned []roster.Arrival, loaded bool) {
	ob.mu.Lock()
	defer ob.mu.Unlock()
	out := make([]roster.Arrival, 0, len(ob.view))
	for _, a := range ob.view {
		if a.held() && !a.By { // not one found in the history: its time is a scan's
			out = append(out, roster.Arrival{Email: a.Email, Desk: a.Desk, At: a.At})
		}
	}
	return out, ob.loaded
}

// Info is the venue as the board shows it. The lease lapses unrenewed
// without a delete the watch would see, so the upstream desk is the one
// the desks themselves say it is.
func (ob *Observer) Info() venue.Info {
	ob.mu.Lock()
	defer ob.mu.Unlock()
	state, up := observedState(ob.bound, ob.desks, ob.up.Node, time.Now())
	return infoOf(ob.o.Secret.Name, state, up, ob.replicas, ob.err, ob.desks, ob.view)
}

// observedState is the venue's state and upstream desk as a board can
// know them: from what the desks said lately. A split venue loses its
// quorum, so a desk's news of working alone may never reach the board;
// its silence must say it instead. A desk unheard for venue.SilentAfter
// counts for nothing.
func observedState(bound bool, desks map[string]presence, upNode string, now time.Time) (state, upstream string) {
	if !bound || len(desks) == 0 {
		return "joining", ""
	}
	heard, meshed := 0, false
	for _, p := range desks {
		if now.Sub(p.At) > venue.SilentAfter {
			continue
		}
		heard++
		meshed = meshed || !p.Alone
		if p.Upstream && (upstream == "" || p.Node == upNode) {
			upstream = p.Desk
		}
	}
	switch {
	case heard == 0:
		return "cutoff", ""
	case !meshed:
		return "alone", upstream
	}
	return "meshed", upstream
}

// infoOf puts a venue's state together for a board.
func infoOf(name, state, upstream string, replicas int, trouble string, desks map[string]presence, view map[string]admission) venue.Info {
	in := venue.Info{Name: name, State: state, Upstream: upstream, Replicas: replicas, Err: trouble}
	for _, p := range desks {
		if time.Since(p.At) > forgetDesk {
			continue // closed or gone long ago
		}
		in.Desks = append(in.Desks, venue.DeskInfo{Name: p.Desk, Upstream: p.Upstream, Alone: p.Alone,
			Scans: p.Scans, Pending: p.Pending, Seen: p.At})
	}
	slices.SortFunc(in.Desks, func(a, b venue.DeskInfo) int { return strings.Compare(a.Name, b.Name) })
	for _, a := range view {
		if a.State == stateAdmitted {
			in.Queue++
		}
		for _, t := range a.Twice {
			in.Twice = append(in.Twice, venue.Twice{Email: a.Email, First: a.Desk, Again: t.Desk, At: t.At})
		}
	}
	slices.SortFunc(in.Twice, func(a, b venue.Twice) int { return a.At.Compare(b.At) })
	return in
}

// Close leaves the venue.
func (ob *Observer) Close() error {
	ob.cancel()
	ob.wg.Wait()
	ob.eng.close()
	return nil
}
