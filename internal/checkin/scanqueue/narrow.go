package scanqueue

import (
	"errors"
	"net/http"
	"strings"

	"github.com/evdesk/evdesk/api"
)

// A batch the server refuses as a whole (400, with the documented body
// { code, message } naming no attendee) may hold one scan the server will
// never take: an address it refuses. The sender narrows such a refusal by
// the documented answers alone: it sends the halves of the batch, then the
// halves of a refused half, until the refused scans are alone. A scan
// refused alone, when others of the same batch went through, is set aside
// as Rejected with the server's message; every other scan is checked in.
// One poisoned address among 300 costs about 2 * log2(300), some 17 or 18
// requests, and holds up no other scan.
//
// A refusal of the request itself (every scan refused alone, as a bad
// source or a closed event would give) must not reject good scans: when the
// first two scans refused alone come before any accepted one, the rest of
// the batch is sent at once as a probe; refused too, the batch stays
// pending as a refusal of the whole (state Refused, retried with backoff).

// refusedWhole reports whether err is a refusal of the whole request that
// narrowing can take apart: a 400.
func refusedWhole(err error) (*api.Error, bool) {
	var ae *api.Error
	if errors.As(err, &ae) && ae.Status == http.StatusBadRequest {
		return ae, true
	}
	return nil, false
}

// refusalMessage is what a scan refused alone is told: the server's message,
// else what its status means.
func refusalMessage(ae *api.Error) string {
	if msg := strings.TrimSpace(ae.Message); msg != "" {
		return msg
	}
	return ae.Meaning()
}

// acksFor turns a 201 answer to part into acks: each scan its errors name
// (by email) is Rejected with its message, every other one CheckedIn.
func acksFor(part []Scan, failed []api.BatchError) []Ack {
	refused := make(map[string]string, len(failed))
	for _, f := range failed {
		refused[api.NormalizeEmail(f.Email)] = f.Message
	}
	acks := make([]Ack, len(part))
	for i, sc := range part {
		acks[i] = Ack{ID: sc.ID, Outcome: CheckedIn}
		if msg, no := refused[sc.Email]; no {
			if msg == "" {
				msg = "refused by the server"
			}
			acks[i] = Ack{ID: sc.ID, Outcome: Rejected, Message: msg}
		}
	}
	return acks
}

// narrowing is one batch being taken apart after a refusal of the whole.
type narrowing struct {
	send func([]Scan) ([]api.BatchError, error)
	// todo holds the parts still to send, the next one last.
	todo     [][]Scan
	acks     []Ack
	accepted int // scans in parts the server answered 201
	alone    []refusedScan
	probed   bool
}

type refusedScan struct {
	scan Scan
	why  *api.Error
}

// narrow takes apart batch, which the server refused as a whole with
// first. It returns the acks it earned and nil when every scan of the batch
// is settled; first when the refusal is the request's, not a scan's (every
// scan stays pending); or the error that stopped it (a network failure, a
// 429), with the acks earned so far.
func (s *Sender) narrow(batch []Scan, first *api.Error) ([]Ack, error) {
	n := &narrowing{send: s.send}
	n.push(batch)
	for len(n.todo) > 0 {
		part := n.todo[len(n.todo)-1]
		n.todo = n.todo[:len(n.todo)-1]
		failed, err := n.send(part)
		if err == nil {
			n.acks = append(n.acks, acksFor(part, failed)...)
			n.accepted += len(part)
			continue
		}
		ae, whole := refusedWhole(err)
		if !whole {
			return n.acks, err
		}
		if len(part) > 1 {
			n.push(part)
			continue
		}
		n.alone = append(n.alone, refusedScan{scan: part[0], why: ae})
		if n.accepted == 0 && len(n.alone) == 2 && !n.probed {
			if err := n.probe(); err != nil {
				return n.acks, err
			}
		}
	}
	if n.accepted == 0 {
		return nil, first // nothing went through: the request itself is refused
	}
	for _, r := range n.alone {
		n.acks = append(n.acks, Ack{ID: r.scan.ID, Outcome: Rejected, Message: refusalMessage(r.why)})
	}
	return n.acks, nil
}

// push queues the two halves of part, the first half to go first.
func (n *narrowing) push(part []Scan) {
	half := (len(part) + 1) / 2
	n.todo = append(n.todo, part[half:], part[:half])
}

// probe sends every part still to send as one request, after two scans were
// refused alone and none accepted: accepted, the two are the scans at
// fault; refused too, the request is (narrowing ends, nothing rejected).
func (n *narrowing) probe() error {
	n.probed = true
	var rest []Scan
	for i := len(n.todo) - 1; i >= 0; i-- {
		rest = append(rest, n.todo[i]...)
	}
	if len(rest) == 0 {
		return nil
	}
	failed, err := n.send(rest)
	if err != nil {
		if _, whole := refusedWhole(err); whole {
			n.todo, n.accepted = nil, 0
			return nil
		}
		return err
	}
	n.todo = nil
	n.acks = append(n.acks, acksFor(rest, failed)...)
	n.accepted += len(rest)
	return nil
}
