package mesh

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// The subjects whose interest an engine's state reports (engine.state):
// what a desk's writes to the arrivals and its heartbeats reach (the
// streams' leaders), and the venue's API.
var stateSubjects = []string{
	"$KV." + arrivalsKV + ".x",
	"$KV." + desksKV + ".x",
	"$JS.API.STREAM.INFO.KV_" + arrivalsKV,
	"$JS.API.CONSUMER.CREATE.KV_" + arrivalsKV,
}

// state describes the engine for a debugging log (Options.EngineLog): its
// routes and the interest each carried to it, who leads its JetStream, and
// who here or over which route listens on the subjects a desk uses. It
// names no secret.
func (e *engine) state() string {
	var b strings.Builder
	fmt.Fprintf(&b, "engine %s (%s)", e.ns.Name(), short(e.ns.ID()))
	heard := map[string][]string{} // subject -> the routes that carried interest in it
	if rz, err := e.ns.Routez(&server.RoutezOptions{SubscriptionsDetail: true}); err == nil {
		var rs []string
		for _, r := range rz.Routes {
			// A route of one account (the engine's own, $SYS) is named so.
			who := strings.TrimPrefix(r.RemoteName, deskEngine)
			if r.Account != "" {
				who += "(" + r.Account + ")"
			}
			rs = append(rs, fmt.Sprintf("%s/%s subs=%d pending=%d solicited=%v up=%s", who,
				short(r.RemoteID), r.NumSubs, r.Pending, r.DidSolicit, r.Uptime))
			for _, subj := range stateSubjects {
				for _, sd := range r.SubsDetail {
					if subjectMatches(sd.Subject, subj) {
						heard[subj] = append(heard[subj], who)
					}
				}
			}
		}
		slices.Sort(rs)
		fmt.Fprintf(&b, "; %d routes: %s", rz.NumRoutes, strings.Join(rs, ", "))
	}
	if jz, err := e.ns.Jsz(&server.JSzOptions{}); err != nil {
		fmt.Fprintf(&b, "; jetstream: %v", err)
	} else if m := jz.Meta; m != nil {
		var ps []string
		for _, p := range m.Replicas {
			ps = append(ps, fmt.Sprintf("%s current=%v offline=%v active=%v", strings.TrimPrefix(p.Name, deskEngine),
				p.Current, p.Offline, p.Active.Round(time.Millisecond)))
		}
		slices.Sort(ps)
		fmt.Fprintf(&b, "; meta leader %q size %d pending %d streams %d (leading %d) consumers %d; peers: %s",
			m.Leader, m.Size, m.Pending, jz.Streams, jz.StreamsLeader, jz.Consumers, strings.Join(ps, ", "))
	}
	for _, subj := range stateSubjects {
		var here []string
		if sz, err := e.ns.Subsz(&server.SubszOptions{Subscriptions: true, Test: subj, Limit: 4096}); err == nil {
			for _, s := range sz.Subs {
				here = append(here, s.Account+" "+s.Subject)
			}
		}
		slices.Sort(heard[subj])
		fmt.Fprintf(&b, "; %s: here %d %v, routes %d %v", subj, len(here), here, len(heard[subj]), heard[subj])
	}
	return b.String()
}

// subjectMatches reports whether a subscription to filter (with * and >)
// hears subj.
func subjectMatches(filter, subj string) bool {
	f, s := strings.Split(filter, "."), strings.Split(subj, ".")
	for i, t := range f {
		switch {
		case t == ">":
			return len(s) > i
		case i >= len(s):
			return false
		case t != "*" && t != s[i]:
			return false
		}
	}
	return len(f) == len(s)
}

// short is the start of a server's ID: enough to tell two engines of one
// desk apart.
func short(id string) string { return id[:min(len(id), 8)] }

// debugState logs the engine's state when the engine's log is wanted
// (Options.EngineLog), saying why; at most every stateEvery but when
// the desk acts on it (always).
func (n *Node) debugState(always bool, why string) {
	every := stateEvery
	if always {
		every = 0
	}
	n.debugStateEvery(every, why)
}

// debugStateEvery logs the engine's state, saying why, unless it was
// logged within every.
func (n *Node) debugStateEvery(every time.Duration, why string) {
	if n.o.EngineLog == nil {
		return
	}
	n.mu.Lock()
	eng := n.eng
	if every > 0 && time.Since(n.stateAt) < every {
		n.mu.Unlock()
		return
	}
	n.stateAt = time.Now()
	n.mu.Unlock()
	if eng == nil || eng.ns == nil {
		return
	}
	n.o.EngineLog("desk %s: %s", why, eng.state())
}

// stateEvery bounds how often a desk logs its engine's state while its
// binding fails; meshedStateEvery, while it works with its venue (a
// route or interest missing there shows before it hurts).
const (
	stateEvery       = 10 * time.Second
	meshedStateEvery = 30 * time.Second
)
