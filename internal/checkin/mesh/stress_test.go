package mesh

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"
)

// TestVenueEnginesStartAgainTogether is the start of a venue of many
// desks without the desks: every engine starts as a probe, joins the
// first, and starts again with its store once it has met the venue (as
// Node.step does), all within a few seconds; then each binds a
// bucket of three copies, watches it to its end and writes to it, as a
// desk's setup does. An engine that cannot do so for a minute while it
// reaches every other is the fault seen in the venue benchmark; its state,
// and what the other engines hold of its interest, are logged. A second
// engine chosen the metadata leader, where none died, is a split venue
// (storeSize) and fails the round too.
//
// EVDESK_MESH_STRESS=ROUNDS runs it (20 engines; EVDESK_MESH_STRESS_ENGINES
// changes that): it takes the machine for about 20 s a round.
func TestVenueEnginesStartAgainTogether(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("EVDESK_MESH_STRESS"))
	if rounds <= 0 {
		t.Skip("set EVDESK_MESH_STRESS=ROUNDS to run it (20 engines a round)")
	}
	engines := 20
	if n, err := strconv.Atoi(os.Getenv("EVDESK_MESH_STRESS_ENGINES")); err == nil && n > 1 {
		engines = n
	}
	for r := range rounds {
		t.Logf("round %d: %s", r+1, restartTogether(t, engines))
	}
}

// restartTogether runs one round of TestVenueEnginesStartAgainTogether and
// says how long the engines took.
func restartTogether(t *testing.T, count int) string {
	sec, err := NewSecret("Test Hall")
	if err != nil {
		t.Fatal(err)
	}
	type slot struct {
		mu      sync.Mutex
		eng     *engine
		port    int
		bound   time.Duration
		lastErr error
	}
	slots := make([]*slot, count)
	for i := range slots {
		slots[i] = &slot{port: freePort(t)}
	}
	first := net.JoinHostPort("127.0.0.1", strconv.Itoa(slots[0].port))
	// No engine dies in a round: a second engine that becomes the
	// metadata leader was chosen beside the first (a split venue).
	var elected atomic.Int32
	logf := func(format string, args ...any) {
		if strings.Contains(fmt.Sprintf(format, args...), "Self is new JetStream cluster metadata leader") {
			elected.Add(1)
		}
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i, s := range slots {
		dir := t.TempDir()
		id := fmt.Sprintf("%016x", i+1)
		var join []string
		if i > 0 {
			join = []string{first}
		}
		eng, err := startEngine(sec, dir, id, "127.0.0.1", s.port, join, probeRole, 0, nil)
		for try := 0; err != nil && i > 0 && try < 3; try++ {
			// A port another program took meanwhile (testport) is no fault
			// of the venue's.
			s.port = freePort(t)
			eng, err = startEngine(sec, dir, id, "127.0.0.1", s.port, join, probeRole, 0, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		s.eng = eng
		wg.Go(func() {
			// The heartbeat that finds the probe has met its venue starts
			// the engine again, sized as Node.step sizes it.
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			var m meeting
			for !m.met(eng.peers(), time.Now(), time.Second) {
				select {
				case <-tick.C:
				case <-ctx.Done():
					return
				}
			}
			size := storeSize(id, eng.deskIDs(), eng.venueAnswers())
			eng.close()
			eng, err := startEngine(sec, dir, id, "127.0.0.1", s.port, join, deskRole, size, logf)
			if err != nil {
				s.mu.Lock()
				s.eng, s.lastErr = nil, err
				s.mu.Unlock()
				return
			}
			s.mu.Lock()
			s.eng = eng
			s.mu.Unlock()
			for {
				err := bindOnce(ctx, eng, id)
				s.mu.Lock()
				s.lastErr = err
				if err == nil {
					s.bound = time.Since(start)
				}
				s.mu.Unlock()
				if err == nil || ctx.Err() != nil {
					return
				}
				select {
				case <-tick.C:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	wg.Wait()
	var live []*engine
	for _, s := range slots {
		if s.eng != nil {
			live = append(live, s.eng)
		}
	}
	if n := elected.Load(); n > 1 {
		t.Errorf("%d engines were chosen the metadata leader, where no engine died (a split venue)", n)
	}
	if leaders := metaLeaders(live); len(leaders) > 1 {
		t.Errorf("the engines chose more than one metadata leader (a split venue): %v", leaders)
	}
	// Interest most engines hold of another's and one does not: the
	// suspected cause. Interest on its way settles within moments.
	var gaps []string
	settle := time.NewTicker(500 * time.Millisecond)
	defer settle.Stop()
	for end := time.Now().Add(15 * time.Second); ; {
		if gaps = interestGaps(live); len(gaps) == 0 || time.Now().After(end) {
			break
		}
		<-settle.C
	}
	for _, g := range gaps {
		t.Errorf("interest missing 15 s after the engines bound: %s", g)
	}
	var slowest time.Duration
	var failed bool
	for i, s := range slots {
		if s.bound == 0 {
			failed = true
			peers := 0
			if s.eng != nil {
				peers = s.eng.peers()
			}
			t.Errorf("engine %d never bound the venue (it reaches %d others): %v", i+1, peers, s.lastErr)
			if s.eng != nil {
				t.Logf("its state: %s", s.eng.state())
			}
		}
		slowest = max(slowest, s.bound)
	}
	for _, s := range slots {
		if failed && s.eng != nil && s.bound != 0 {
			t.Logf("a bound engine's state: %s", s.eng.state())
			failed = false
		}
		if s.eng != nil {
			s.eng.close()
		}
	}
	return fmt.Sprintf("%d engines bound within %v", count, slowest.Round(time.Millisecond))
}

// bindOnce binds (or makes) a bucket of three copies as a desk's setup
// does, watches it until its initial values are in (within loadWithin),
// and writes the engine's key.
func bindOnce(ctx context.Context, eng *engine, id string) error {
	js, err := jetstream.New(eng.nc)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cfg := jetstream.KeyValueConfig{Bucket: arrivalsKV, History: 1, Replicas: 3, Storage: jetstream.FileStorage}
	kv, err := js.KeyValue(cctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(cctx, cfg)
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = js.KeyValue(cctx, cfg.Bucket)
		}
	}
	if err != nil {
		return fmt.Errorf("bind: %w", err)
	}
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	w, err := kv.WatchAll(wctx)
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer func() { _ = w.Stop() }()
	limit := time.NewTimer(loadWithin)
	defer limit.Stop()
	for loaded := false; !loaded; {
		select {
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("the watch ended")
			}
			loaded = e == nil
		case <-limit.C:
			return fmt.Errorf("the watch did not load within %v", loadWithin)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	pctx, done := context.WithTimeout(ctx, 5*time.Second)
	defer done()
	if _, err := kv.Put(pctx, "k"+id, []byte("x")); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// interestGaps lists the interest (subscriptions) of one engine that most
// other engines hold over their routes to it and some do not: "ENGINE
// lacks OWNER's [account route] SUBJECT [QUEUE]".
func interestGaps(engines []*engine) []string {
	type key struct{ owner, sub string }
	held := map[key]map[string]bool{} // -> the engines that hold it
	names := map[string]string{}      // server ID -> name
	reach := map[string]map[string]bool{}
	for _, a := range engines {
		names[a.ns.ID()] = a.ns.Name()
		rz, err := a.ns.Routez(&server.RoutezOptions{SubscriptionsDetail: true})
		if err != nil {
			continue
		}
		reach[a.ns.ID()] = map[string]bool{}
		for _, r := range rz.Routes {
			reach[a.ns.ID()][r.RemoteID] = true
			for _, sd := range r.SubsDetail {
				k := key{r.RemoteID, "[" + r.Account + "] " + sd.Subject + " " + sd.Queue}
				if held[k] == nil {
					held[k] = map[string]bool{}
				}
				held[k][a.ns.ID()] = true
			}
		}
	}
	var gaps []string
	for k, by := range held {
		if len(by) <= (len(engines)-1)/2 {
			continue // one engine's own business, or on its way
		}
		for _, a := range engines {
			id := a.ns.ID()
			if id != k.owner && !by[id] && reach[id][k.owner] {
				gaps = append(gaps, fmt.Sprintf("%s lacks %s's %s (%d of %d others hold it)", a.ns.Name(), names[k.owner], k.sub, len(by), len(engines)-1))
			}
		}
	}
	slices.Sort(gaps)
	return gaps
}

// metaLeaders is, for each metadata leader an engine names, how many
// engines name it: one venue has one.
func metaLeaders(engines []*engine) map[string]int {
	out := map[string]int{}
	for _, e := range engines {
		jz, err := e.ns.Jsz(&server.JSzOptions{})
		if err != nil || jz.Meta == nil {
			out["(none)"]++
			continue
		}
		out[jz.Meta.Leader]++
	}
	return out
}
