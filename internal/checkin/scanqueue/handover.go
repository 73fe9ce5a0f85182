package scanqueue

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// A journal kept aside (one written before evdesk recorded which server
// its scans belong to, or another server's) is read without being touched,
// to say how many scans wait in it, and handed over to this server's
// journal only when a person says it belongs there.

// PendingIn counts the scans waiting to be sent in the journal of an event
// (or session) in dir, reading the file without locking or changing it:
// 0 when there is none. Lines that cannot be read are skipped.
func PendingIn(dir, eventID, sessionID string) (int, error) {
	path := filepath.Join(dir, FileName(eventID, sessionID))
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("check-in journal: %w", err)
	}
	defer f.Close()
	j := &Journal{path: path, dir: dir, eventID: eventID, sessionID: sessionID, peek: true,
		byID: map[string]*Scan{}, active: map[string]*Scan{}, latest: map[string]*Scan{}}
	if _, _, _, err := j.replay(f); err != nil {
		return 0, err
	}
	return j.counts.Pending, nil
}

// Take records in j the scans still pending in from, as they were scanned
// (address, source, time, the roster's verdict), then settles them in from
// as handed over, with note as the reason: each is sent once, from j. An
// address j has pending or checked in already is recorded as Already and
// not sent again, so a take cut short by a crash and run again sends
// nothing twice. It returns how many scans j will send.
func (j *Journal) Take(from *Journal, note string) (int, error) {
	if from == j {
		return 0, errors.New("check-in journal: a journal cannot take its own scans")
	}
	if from.eventID != j.eventID || from.sessionID != j.sessionID {
		return 0, fmt.Errorf("check-in journal %s is of event %q session %q, not %q %q",
			from.path, from.eventID, from.sessionID, j.eventID, j.sessionID)
	}
	waiting := from.Pending(0)
	if len(waiting) == 0 {
		return 0, nil
	}
	sent, err := j.takeScans(waiting)
	if err != nil {
		return 0, err
	}
	acks := make([]Ack, len(waiting))
	for i, sc := range waiting {
		acks[i] = Ack{ID: sc.ID, Outcome: Already, Message: note}
	}
	if _, err := from.Ack(acks); err != nil {
		// Recorded in j already: a later take finds them Already there.
		return sent, fmt.Errorf("the scans are in %s; marking them handed over in %s failed: %w", j.path, from.path, err)
	}
	return sent, nil
}

// takeScans journals scans taken from another journal with one write.
func (j *Journal) takeScans(in []Scan) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return 0, ErrClosed
	}
	now := j.now().UTC()
	seq := j.seq
	scans := make([]*Scan, len(in))
	recs := make([]record, len(in))
	fresh := map[string]*Scan{}
	sent := 0
	for i, t := range in {
		seq++
		sc := &Scan{ID: strconv.FormatUint(seq, 10), EventID: j.eventID, SessionID: j.sessionID,
			Email: t.Email, Source: t.Source, At: t.At, Expect: t.Expect}
		prev := fresh[t.Email]
		if prev == nil {
			prev = j.active[t.Email]
		}
		if prev != nil {
			sc.Outcome, sc.AckedAt, sc.Message = Already, now, "already scanned at this desk"
		} else {
			fresh[t.Email] = sc
			sent++
		}
		scans[i], recs[i] = sc, scanRecord(sc)
		if sc.Outcome != Pending {
			recs[i].AckedAt = &now
		}
	}
	if err := j.append(recs); err != nil {
		return 0, err
	}
	j.seq = seq
	for _, sc := range scans {
		j.add(sc)
	}
	if sent > 0 {
		close(j.arrived)
		j.arrived = make(chan struct{})
	}
	return sent, nil
}
