// Package scanqueue is the check-in desk's durable queue. Every scan is
// appended to a journal file and synced to disk before the desk confirms it;
// a background Sender delivers pending scans to the API in batches, retries
// through outages and records the server's answer in the same journal. A
// desk that crashes, loses power or goes offline loses no scan and checks no
// one in twice.
package scanqueue

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/atomicfile"
)

// Outcome is what became of a scan.
type Outcome string

// Outcomes of a scan.
const (
	// Pending: journaled, not yet answered by the server.
	Pending Outcome = ""
	// CheckedIn: the server checked the attendee in.
	CheckedIn Outcome = "checked-in"
	// Already: this desk had the attendee pending or checked in; nothing
	// was sent.
	Already Outcome = "already"
	// Rejected: the server refused the attendee; Message says why.
	Rejected Outcome = "rejected"
)

// Scan is one scanned attendee and what became of it.
type Scan struct {
	ID        string
	EventID   string
	SessionID string
	Email     string // normalised: trimmed, lower case
	Source    string
	At        time.Time // when it was scanned
	Outcome   Outcome
	// Message is the server's reason for Rejected, or what Already
	// refers to.
	Message string
	AckedAt time.Time // when the outcome was recorded; zero while pending
	// Expect is what the desk's roster said of the address when it was
	// scanned (the server has the last word: an outcome that differs is a
	// disagreement the desk shows).
	Expect Expect
}

// Expect is a roster's verdict on a scanned address.
type Expect string

// Roster verdicts.
const (
	// ExpectNothing: no roster was at hand.
	ExpectNothing Expect = ""
	// ExpectRegistered: the roster lists the address.
	ExpectRegistered Expect = "registered"
	// ExpectUnknown: the roster does not list the address.
	ExpectUnknown Expect = "not-registered"
)

// Disagrees reports whether the server's outcome contradicts the roster's
// verdict: someone the roster did not know was checked in, or someone it
// listed was refused.
func (sc Scan) Disagrees() bool {
	return (sc.Expect == ExpectUnknown && sc.Outcome == CheckedIn) ||
		(sc.Expect == ExpectRegistered && sc.Outcome == Rejected)
}

// Prior is what is known of an address beyond this journal when it is
// scanned: the roster's verdict, and a check-in the server already holds
// (made at another desk), which makes the scan Already with that message
// and sends nothing.
type Prior struct {
	Expect  Expect
	Already string
}

// Counts sums a journal's scans by outcome.
type Counts struct {
	Pending, CheckedIn, Already, Rejected int
}

// Total is the number of scans.
func (c Counts) Total() int { return c.Pending + c.CheckedIn + c.Already + c.Rejected }

// Ack is the outcome the server gave one pending scan, or Already when
// another desk of the venue admitted the person first.
type Ack struct {
	ID      string
	Outcome Outcome // CheckedIn, Rejected or Already
	Message string
}

// Errors of the journal.
var (
	// ErrLocked: another process (or another Journal in this one) has the
	// journal open.
	ErrLocked = errors.New("check-in journal is in use")
	// ErrClosed: the journal was closed.
	ErrClosed = errors.New("check-in journal is closed")
	// ErrNotAnEmail: a scan that is not an email address; nothing was
	// recorded.
	ErrNotAnEmail = errors.New("not an email address")
)

// record is one line of the journal file.
type record struct {
	Type    string     `json:"t"` // recHeader, recScan or recAck
	Version int        `json:"v,omitempty"`
	ID      string     `json:"id,omitempty"`
	Event   string     `json:"event,omitempty"`
	Session string     `json:"session,omitempty"`
	Email   string     `json:"email,omitempty"`
	Source  string     `json:"source,omitempty"`
	At      time.Time  `json:"at,omitzero"`
	Outcome Outcome    `json:"outcome,omitempty"`
	Message string     `json:"message,omitempty"`
	AckedAt *time.Time `json:"acked_at,omitempty"` // on a scan that was settled when written
	Expect  Expect     `json:"expect,omitempty"`
	// Folded, on the header, counts the "already" scans compaction folded
	// away: they still count in Counts.
	Folded int `json:"folded,omitempty"`
}

const (
	recHeader     = "journal"
	recScan       = "scan"
	recAck        = "ack"
	formatVersion = 1
)

// Journal is the append-only record of one desk's scans for an event or one
// of its sessions. It is safe for concurrent use.
type Journal struct {
	mu        sync.Mutex
	path      string
	dir       string
	f         *os.File
	lock      *flock.Flock
	eventID   string
	sessionID string
	now       func() time.Time

	scans   []*Scan
	byID    map[string]*Scan
	active  map[string]*Scan // email -> its pending or checked-in scan
	latest  map[string]*Scan // email -> its latest scan
	pending []*Scan          // oldest first
	counts  Counts
	seq     uint64
	folded  int       // "already" scans no longer kept (see fold)
	damaged *sideFile // lines replay could not use, set aside as they are read
	notes   []string  // what opening did that a person should know
	size    int64     // the file's length: a failed append is cut back to it
	err     error     // sticky: a failed write that could not be undone
	closed  bool

	// arrived is closed, and replaced, whenever a scan becomes pending: a
	// waiter holding the channel of one moment learns of every scan after
	// it, with no signal to lose or to find spent.
	arrived chan struct{}

	// space, in tests, is the room left on a make-believe disk: a write
	// beyond it is cut short and fails as a full disk does.
	space *int64
}

// JournalOption configures Open.
type JournalOption func(*Journal)

// WithClock sets the clock that stamps scans and acks.
func WithClock(now func() time.Time) JournalOption { return func(j *Journal) { j.now = now } }

// safeID is an id that can be a file name as it is.
var safeID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// FileName is the journal file of an event, or of one of its sessions when
// sessionID is not empty: the ids when they are plain, a hash otherwise, so
// no id can reach outside the directory. The header inside the file names
// both ids in full.
func FileName(eventID, sessionID string) string {
	part := func(id string) string {
		if safeID.MatchString(id) {
			return id
		}
		sum := sha256.Sum256([]byte(id))
		return "~" + hex.EncodeToString(sum[:12])
	}
	name := part(eventID)
	if sessionID != "" {
		name += "." + part(sessionID)
	}
	return name + ".jsonl"
}

// Open opens (creating it if needed) the journal of an event, or of one of
// its sessions, in dir. It takes a lock that keeps other processes out until
// Close; it replays the file to rebuild the state, drops a last line torn by
// a crash, and rewrites the file compactly when nothing is pending.
//
// In production dir is the journal folder of the XDG state directory,
// filepath.Join(config.StateDir(), "journal").
func Open(dir, eventID, sessionID string, opts ...JournalOption) (*Journal, error) {
	if eventID == "" {
		return nil, errors.New("check-in journal: an event id is required")
	}
	if dir == "" { // never fall back to the working directory
		return nil, errors.New("check-in journal: no journal directory configured")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("check-in journal: %w", err)
	}
	j := &Journal{
		dir: dir, path: filepath.Join(dir, FileName(eventID, sessionID)),
		eventID: eventID, sessionID: sessionID, now: time.Now,
		byID: map[string]*Scan{}, active: map[string]*Scan{}, latest: map[string]*Scan{},
		arrived: make(chan struct{}),
	}
	for _, o := range opts {
		o(j)
	}
	j.lock = flock.New(j.path+".lock", flock.SetPermissions(0o600))
	locked, err := j.lock.TryLock()
	if err != nil {
		return nil, fmt.Errorf("check-in journal %s: lock: %w", j.path, err)
	}
	if !locked {
		return nil, fmt.Errorf("%w: %s is open in another evdesk process (lock %s); close that desk first, or check in at another event or session",
			ErrLocked, j.path, j.lock.Path())
	}
	j.removeLeftovers()
	if err := j.load(); err != nil {
		_ = j.lock.Unlock()
		if j.f != nil {
			_ = j.f.Close()
		}
		return nil, err
	}
	return j, nil
}

// leftoverAge is how old a temporary file of the older naming must be to
// be taken for a leftover: a compaction takes milliseconds, and that naming
// does not tell which journal it was for.
const leftoverAge = 10 * time.Minute

// removeLeftovers deletes what a compaction cut short by a crash left:
// this journal's temporary files (the lock is held, so none is in use) and
// old ones of the earlier naming.
func (j *Journal) removeLeftovers() {
	own, _ := filepath.Glob(filepath.Join(j.dir, "."+filepath.Base(j.path)+".*.tmp"))
	old, _ := filepath.Glob(filepath.Join(j.dir, ".compact-*.tmp"))
	for _, p := range own {
		_ = os.Remove(p)
	}
	for _, p := range old {
		if fi, err := os.Stat(p); err == nil && j.now().Sub(fi.ModTime()) > leftoverAge {
			_ = os.Remove(p)
		}
	}
}

// load replays the file, repairs a torn tail and compacts when it can.
func (j *Journal) load() error {
	f, err := os.OpenFile(j.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("check-in journal: %w", err)
	}
	j.f = f
	good, lines, torn, err := j.replay(f)
	if err != nil {
		if j.damaged != nil && j.damaged.f != nil {
			_ = j.damaged.f.Close()
		}
		return err
	}
	j.fold()
	if lines == 0 {
		// New (or only a torn header): start the file with its header.
		if err := f.Truncate(0); err != nil {
			return fmt.Errorf("check-in journal %s: %w", j.path, err)
		}
		j.size = 0
		if err := j.append([]record{j.header()}); err != nil {
			return err
		}
		return syncDir(j.dir)
	}
	j.size = good
	if torn {
		if err := f.Truncate(good); err != nil {
			return fmt.Errorf("check-in journal %s: drop the torn last line: %w", j.path, err)
		}
		if err := f.Sync(); err != nil {
			return fmt.Errorf("check-in journal %s: %w", j.path, err)
		}
	}
	if j.damaged != nil {
		return j.setAside()
	}
	if lines > 1+len(j.scans) {
		// Only a tidier file: the journal as it is stays valid, so a
		// compaction that fails (a full disk) keeps it and goes on.
		_ = j.compact()
	}
	return nil
}

func (j *Journal) header() record {
	return record{Type: recHeader, Version: formatVersion, Event: j.eventID, Session: j.sessionID, Folded: j.folded}
}

// apply replays one record; n is its line number.
func (j *Journal) apply(rec record, n int) error {
	switch rec.Type {
	case recHeader:
		if n != 1 {
			return errors.New("a header after the first line")
		}
		if rec.Version != formatVersion {
			return foreignError{fmt.Errorf("format version %d; this evdesk reads version %d", rec.Version, formatVersion)}
		}
		if rec.Event != j.eventID || rec.Session != j.sessionID {
			return foreignError{fmt.Errorf("the file belongs to event %q session %q", rec.Event, rec.Session)}
		}
		j.folded = rec.Folded
		j.counts.Already += rec.Folded
	case recScan:
		if rec.ID == "" || j.byID[rec.ID] != nil || rec.Email == "" {
			return fmt.Errorf("scan %q has no id, a repeated id or no email", rec.ID)
		}
		sc := &Scan{ID: rec.ID, EventID: j.eventID, SessionID: j.sessionID, Email: rec.Email, Source: rec.Source,
			At: rec.At, Outcome: rec.Outcome, Message: rec.Message, Expect: rec.Expect}
		if rec.AckedAt != nil {
			sc.AckedAt = *rec.AckedAt
		}
		j.add(sc)
		if seq, err := strconv.ParseUint(rec.ID, 10, 64); err == nil {
			j.seq = max(j.seq, seq)
		}
	case recAck:
		sc := j.byID[rec.ID]
		if sc == nil {
			return fmt.Errorf("ack of unknown scan %q", rec.ID)
		}
		j.settle(sc, rec.Outcome, rec.Message, rec.At)
	default:
		return fmt.Errorf("unknown record type %q", rec.Type)
	}
	return nil
}

// add enters a scan into the state.
func (j *Journal) add(sc *Scan) {
	j.scans = append(j.scans, sc)
	j.byID[sc.ID] = sc
	j.latest[sc.Email] = sc
	switch sc.Outcome {
	case Pending:
		j.pending = append(j.pending, sc)
		j.active[sc.Email] = sc
		j.counts.Pending++
	case CheckedIn:
		j.active[sc.Email] = sc
		j.counts.CheckedIn++
	case Already:
		j.counts.Already++
	case Rejected:
		j.counts.Rejected++
	}
}

// settle records the outcome of a pending scan; a scan settled already is
// left as it is.
func (j *Journal) settle(sc *Scan, o Outcome, msg string, at time.Time) {
	if sc.Outcome != Pending {
		return
	}
	sc.Outcome, sc.Message, sc.AckedAt = o, msg, at
	j.counts.Pending--
	j.trimPending()
	switch o {
	case CheckedIn:
		j.counts.CheckedIn++
	case Rejected:
		// Refused: scanning the person again (after registering them at
		// the desk, say) sends again.
		j.counts.Rejected++
		if j.active[sc.Email] == sc {
			delete(j.active, sc.Email)
		}
	case Already:
		// Another desk of the venue admitted the person first: this
		// scan sends nothing.
		j.counts.Already++
		if j.active[sc.Email] == sc {
			delete(j.active, sc.Email)
		}
	}
}

// trimPending drops settled scans from the pending queue: from its head at
// once, from the middle when they are more than the pending ones.
func (j *Journal) trimPending() {
	for len(j.pending) > 0 && j.pending[0].Outcome != Pending {
		j.pending[0] = nil
		j.pending = j.pending[1:]
	}
	if len(j.pending) > 2*j.counts.Pending+64 {
		j.pending = slices.DeleteFunc(j.pending, func(sc *Scan) bool { return sc.Outcome != Pending })
	}
}

// compact rewrites the file with one line per scan, atomically (a
// temporary file renamed over the journal): a failure leaves the journal as
// it was. Call during Open only.
func (j *Journal) compact() error {
	var size int64
	err := atomicfile.Write(j.path, 0o600, func(w io.Writer) error {
		cw := &countWriter{w: w, space: j.space}
		enc := json.NewEncoder(cw)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(j.header()); err != nil {
			return err
		}
		for _, sc := range j.scans {
			rec := scanRecord(sc)
			if sc.Outcome != Pending {
				acked := sc.AckedAt
				rec.AckedAt = &acked
			}
			if err := enc.Encode(rec); err != nil {
				return err
			}
		}
		size = cw.n
		return nil
	})
	if err != nil {
		return fmt.Errorf("check-in journal %s: compact: %w", j.path, err)
	}
	// The open descriptor still points at the old file.
	f, err := os.OpenFile(j.path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		j.err = fmt.Errorf("check-in journal %s: reopen after compacting: %w", j.path, err)
		return j.err
	}
	_ = j.f.Close()
	j.f, j.size = f, size
	return nil
}

// errNoSpace is what a make-believe full disk (Journal.space) answers.
var errNoSpace = errors.New("no space left on device")

// countWriter counts what goes through it, and fails past space when set.
type countWriter struct {
	w     io.Writer
	n     int64
	space *int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	if c.space != nil && c.n+int64(len(b)) > *c.space {
		return 0, errNoSpace
	}
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

func scanRecord(sc *Scan) record {
	return record{Type: recScan, ID: sc.ID, Email: sc.Email, Source: sc.Source, At: sc.At,
		Outcome: sc.Outcome, Message: sc.Message, Expect: sc.Expect}
}

// append writes records as lines in one write and syncs the file. A write
// that fails (a full disk) is cut back off the file, so the records are
// written all or none and the journal goes on; only when that undo fails
// too does the journal refuse further writes, since what reached the disk
// is then unknown.
func (j *Journal) append(recs []record) error {
	if j.err != nil {
		return j.err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("check-in journal: encode: %w", err)
		}
	}
	n, err := j.write(buf.Bytes())
	if err == nil {
		err = j.f.Sync()
	}
	if err == nil {
		j.size += int64(n)
		return nil
	}
	if uerr := j.undo(int64(n)); uerr != nil {
		j.err = fmt.Errorf("check-in journal %s: a write failed (%v) and could not be undone (%v); nothing more is recorded until the journal is opened again",
			j.path, err, uerr)
		return j.err
	}
	return fmt.Errorf("check-in journal %s: nothing was recorded: %w", j.path, err)
}

// write appends b to the file (cut short past space, in tests) and
// returns how much of it was written.
func (j *Journal) write(b []byte) (int, error) {
	if j.space == nil {
		return j.f.Write(b)
	}
	room := int(min(int64(len(b)), *j.space))
	n, err := j.f.Write(b[:room])
	*j.space -= int64(n)
	if err == nil && n < len(b) {
		err = errNoSpace
	}
	return n, err
}

// undo cuts the file back to its length before a failed append that wrote
// n bytes.
func (j *Journal) undo(n int64) error {
	if err := j.f.Truncate(j.size); err != nil {
		return err
	}
	if j.space != nil {
		*j.space += n // what was cut off is free again
	}
	return j.f.Sync()
}

// syncDir makes a directory's entries (a new or renamed file) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err // some systems cannot sync a directory; that is not fatal
	}
	return nil
}

// Scan records one scanned attendee and returns it once it is on disk. An
// attendee this desk has pending or checked in already is recorded with
// outcome Already and not sent again. An input that is not an email address
// is refused with ErrNotAnEmail and nothing is recorded.
func (j *Journal) Scan(email, source string) (Scan, error) {
	out, err := j.ScanMany([]string{email}, source)
	if err != nil {
		return Scan{}, err
	}
	return out[0], nil
}

// ScanMany records several scans with one write and one sync (an imported
// list). Every address is checked first; if one is not an email address,
// nothing is recorded and the error names its position.
func (j *Journal) ScanMany(emails []string, source string) ([]Scan, error) {
	return j.ScanWith(emails, source, nil)
}

// ScanWith is ScanMany with what the desk knows of each address beyond the
// journal (prior may be nil): its roster's verdict, kept with the scan, and
// a check-in made at another desk, which records the scan as Already.
func (j *Journal) ScanWith(emails []string, source string, prior func(email string) Prior) ([]Scan, error) {
	norm := make([]string, len(emails))
	for i, e := range emails {
		norm[i] = api.NormalizeEmail(e)
		if err := api.CheckEmail(norm[i]); err != nil {
			if len(emails) == 1 {
				return nil, fmt.Errorf("%w: %v", ErrNotAnEmail, err)
			}
			return nil, fmt.Errorf("%w: entry %d: %v", ErrNotAnEmail, i+1, err)
		}
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil, ErrClosed
	}
	now := j.now().UTC()
	scans := make([]*Scan, len(norm))
	recs := make([]record, len(norm))
	fresh := map[string]*Scan{} // earlier scans of this call
	seq := j.seq
	for i, e := range norm {
		seq++
		sc := &Scan{ID: strconv.FormatUint(seq, 10), EventID: j.eventID, SessionID: j.sessionID,
			Email: e, Source: source, At: now}
		var pr Prior
		if prior != nil {
			pr = prior(e)
			sc.Expect = pr.Expect
		}
		prev := fresh[e]
		if prev == nil {
			prev = j.active[e]
		}
		switch {
		case pr.Already != "": // the server's record names the desk that was first
			sc.Outcome, sc.AckedAt, sc.Message = Already, now, pr.Already
		case prev != nil:
			sc.Outcome, sc.AckedAt = Already, now
			sc.Message = "already checked in at this desk"
			if prev.Outcome == Pending {
				sc.Message = "already scanned at this desk; waiting to be sent"
			}
		default:
			fresh[e] = sc
		}
		scans[i] = sc
		recs[i] = scanRecord(sc)
		if sc.Outcome != Pending {
			recs[i].AckedAt = &now
		}
	}
	if err := j.append(recs); err != nil {
		return nil, err
	}
	j.seq = seq
	out := make([]Scan, len(scans))
	pending := false
	for i, sc := range scans {
		j.add(sc)
		out[i] = *sc
		pending = pending || sc.Outcome == Pending
	}
	if pending {
		close(j.arrived)
		j.arrived = make(chan struct{})
	}
	return out, nil
}

// listChunk is how many scans of a list go in one write when the list as a
// whole does not fit.
const listChunk = 256

// ScanList records an imported list: all at once when it fits, else chunk
// by chunk for as long as they fit. It returns the scans recorded, in
// order, and the error that stopped it; recording the whole list again
// later records the rest (the recorded ones are found Already).
func (j *Journal) ScanList(emails []string, source string) ([]Scan, error) {
	out, err := j.ScanMany(emails, source)
	if err == nil || errors.Is(err, ErrNotAnEmail) || errors.Is(err, ErrClosed) || j.failed() {
		return out, err
	}
	out = nil
	for lo := 0; lo < len(emails); lo += listChunk {
		part, err := j.ScanMany(emails[lo:min(lo+listChunk, len(emails))], source)
		if err != nil {
			return out, err
		}
		out = append(out, part...)
	}
	return out, nil
}

// failed reports whether the journal refuses writes.
func (j *Journal) failed() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err != nil
}

// Ack records the server's answer for pending scans, with one write and one
// sync. Unknown ids and scans settled already are skipped.
func (j *Journal) Ack(acks []Ack) ([]Scan, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil, ErrClosed
	}
	now := j.now().UTC()
	var recs []record
	var hit []*Scan
	seen := map[string]bool{}
	for _, a := range acks {
		sc := j.byID[a.ID]
		if sc == nil || sc.Outcome != Pending || seen[a.ID] {
			continue
		}
		if a.Outcome != CheckedIn && a.Outcome != Rejected && a.Outcome != Already {
			return nil, fmt.Errorf("check-in journal: ack of scan %s with outcome %q", a.ID, a.Outcome)
		}
		seen[a.ID] = true
		recs = append(recs, record{Type: recAck, ID: a.ID, Outcome: a.Outcome, Message: a.Message, At: now})
		hit = append(hit, sc)
	}
	if len(recs) == 0 {
		return nil, nil
	}
	if err := j.append(recs); err != nil {
		return nil, err
	}
	out := make([]Scan, len(hit))
	for i, sc := range hit {
		j.settle(sc, recs[i].Outcome, recs[i].Message, now)
		out[i] = *sc
	}
	return out, nil
}

// Pending returns up to n of the oldest pending scans (all when n <= 0).
func (j *Journal) Pending(n int) []Scan {
	j.mu.Lock()
	defer j.mu.Unlock()
	if n <= 0 {
		n = j.counts.Pending
	}
	return j.collect(n, func(*Scan) bool { return true })
}

// batch returns up to n of the oldest pending scans that share the source
// of the oldest one (a request carries one source), leaving out those hold
// (when set) keeps back, and the channel that closes when a scan arrives
// after them. hold runs with the journal locked.
func (j *Journal) batch(n int, hold func(Scan) bool) ([]Scan, <-chan struct{}) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.counts.Pending == 0 {
		return nil, j.arrived
	}
	var src *string
	return j.collect(n, func(sc *Scan) bool {
		if hold != nil && hold(*sc) {
			return false
		}
		if src == nil {
			src = &sc.Source
		}
		return sc.Source == *src
	}), j.arrived
}

// collect copies up to n pending scans that keep accepts, oldest first.
// Call with mu held.
func (j *Journal) collect(n int, keep func(*Scan) bool) []Scan {
	out := make([]Scan, 0, min(n, j.counts.Pending))
	for _, sc := range j.pending {
		if len(out) == n {
			break
		}
		if sc.Outcome == Pending && keep(sc) {
			out = append(out, *sc)
		}
	}
	return out
}

// Counts sums the scans by outcome.
func (j *Journal) Counts() Counts {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.counts
}

// Scans returns every scan, oldest first.
func (j *Journal) Scans() []Scan {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Scan, len(j.scans))
	for i, sc := range j.scans {
		out[i] = *sc
	}
	return out
}

// Lookup returns the scan that checked an attendee in (or is pending), else
// the attendee's latest scan.
func (j *Journal) Lookup(email string) (Scan, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	e := api.NormalizeEmail(email)
	sc := j.active[e]
	if sc == nil {
		sc = j.latest[e]
	}
	if sc == nil {
		return Scan{}, false
	}
	return *sc, true
}

// Path is the journal file.
func (j *Journal) Path() string { return j.path }

// EventID and SessionID name what the journal checks attendees in to.
func (j *Journal) EventID() string   { return j.eventID }
func (j *Journal) SessionID() string { return j.sessionID }

// Close closes the file and releases the lock. Stop a Sender first.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil
	}
	j.closed = true
	err := j.f.Close()
	if uerr := j.lock.Unlock(); err == nil {
		err = uerr
	}
	return err
}
