// Package walkin registers people who turn up at a check-in desk without a
// registration, and checks them in. A walk-in is written to its own
// append-only journal beside the desk's check-in journal (synced before the
// desk calls it saved), then sent in the background: first the
// registration (create tickets), and only once the server made the ticket,
// the check-in, which goes into the check-in journal and is sent in its
// turn. Offline, walk-ins wait in the journal in order; a registration the
// server refuses leaves its check-in unsent and says why; a registration
// whose answer was lost is never sent twice: a roster downloaded after it
// tells whether the person was registered.
package walkin

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// State is where a walk-in stands.
type State string

// States of a walk-in.
const (
	// Waiting: saved here; the registration is not sent yet (offline, or
	// its turn has not come).
	Waiting State = "waiting"
	// Uncertain: the registration was sent and no answer came; it is not
	// sent again until a roster downloaded since tells.
	Uncertain State = "uncertain"
	// Registered: the server made the ticket; the check-in is being
	// written to the check-in journal.
	Registered State = "registered"
	// Refused: the server refused the registration (Reason says why);
	// nothing was checked in.
	Refused State = "refused"
	// CheckedIn: the check-in is in the check-in journal (ScanID), which
	// sends it.
	CheckedIn State = "checked-in"
)

// Walkin is one person registered at the desk.
type Walkin struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`

	Email   string `json:"email"`
	First   string `json:"first,omitempty"`
	Last    string `json:"last,omitempty"`
	Company string `json:"company,omitempty"`
	// TicketTypeID and its name; Option is the access link's recurring
	// option and SessionIDs the sessions it requires.
	TicketTypeID   string            `json:"ticket_type_id,omitempty"`
	TicketTypeName string            `json:"ticket_type_name,omitempty"`
	Option         string            `json:"option,omitempty"`
	SessionIDs     []string          `json:"session_ids,omitempty"`
	Answers        map[string]string `json:"answers,omitempty"`

	State State `json:"-"`
	// Reason: why it was refused, or the last failure while waiting.
	Reason string `json:"-"`
	// Questions are required questions the server named in a refusal.
	Questions []string `json:"-"`
	// Tickets the server made, and when the desk heard so.
	Tickets      []api.Ticket `json:"-"`
	RegisteredAt time.Time    `json:"-"`
	// SentAt is when the registration last went out with no answer.
	SentAt time.Time `json:"-"`
	// ScanID is the check-in's scan in the check-in journal.
	ScanID string `json:"-"`
}

// Name is the walk-in's name: "Ana Costa".
func (w Walkin) Name() string { return strings.TrimSpace(w.First + " " + w.Last) }

// Request is the create-tickets request of the walk-in.
func (w Walkin) Request() *api.TicketsRequest {
	base := api.TicketRequest{Email: w.Email, TicketTypeID: w.TicketTypeID, FirstName: w.First, LastName: w.Last}
	if w.Company != "" {
		base.Organization = w.Company
	}
	keys := make([]string, 0, len(w.Answers))
	for q := range w.Answers {
		keys = append(keys, q)
	}
	slices.Sort(keys)
	for _, q := range keys {
		if a := strings.TrimSpace(w.Answers[q]); a != "" {
			base.SetAnswer(q, a)
		}
	}
	return &api.TicketsRequest{RegistrationSource: Source, Option: w.Option,
		Tickets: api.BuildTickets(w.Option, base, w.SessionIDs)}
}

// Source is the registration source the provider's reports show for
// walk-ins (at most 16 characters).
const Source = "evdesk walk-in"

// Validate checks the walk-in as the server would (the client's rules).
func (w Walkin) Validate() error {
	if err := api.CheckEmail(api.NormalizeEmail(w.Email)); err != nil {
		return fmt.Errorf("email %w", err)
	}
	if strings.TrimSpace(w.First) == "" && strings.TrimSpace(w.Last) == "" {
		return errors.New("a name is needed for the badge: give a first or a last name")
	}
	return w.Request().Validate()
}

// record is one line of the walk-in journal.
type record struct {
	Type      string       `json:"t"`
	Version   int          `json:"v,omitempty"`
	Event     string       `json:"event,omitempty"`
	Session   string       `json:"session,omitempty"`
	ID        string       `json:"id,omitempty"`
	Walkin    *Walkin      `json:"walkin,omitempty"`
	At        time.Time    `json:"at,omitzero"`
	Reason    string       `json:"reason,omitempty"`
	Questions []string     `json:"questions,omitempty"`
	Tickets   []api.Ticket `json:"tickets,omitempty"`
	Scan      string       `json:"scan,omitempty"`
}

const (
	recHeader     = "walkins"
	recWalkin     = "walkin"
	recSent       = "sent" // sent, no answer
	recRegistered = "registered"
	recRefused    = "refused"
	recCheckedIn  = "checked-in"
	formatVersion = 1
)

// Journal is the walk-ins of one desk (an event, or one of its sessions).
// It is safe for concurrent use.
type Journal struct {
	mu      sync.Mutex
	path    string
	f       *os.File
	lock    *flock.Flock
	event   string
	session string
	now     func() time.Time
	list    []*Walkin
	byID    map[string]*Walkin
	seq     int
	// questions are the required questions the server named, for the
	// next walk-in's form.
	questions []string
	closed    bool
	changed   chan struct{}
	// peek: the file is only read (UnsettledIn); anySession: of whichever
	// desk of the event its header names (RegistrantsIn).
	peek, anySession bool
}

// Path is the walk-in journal of an event (or session) in dir, beside its
// check-in journal.
func Path(dir, eventID, sessionID string) string {
	return filepath.Join(dir, strings.TrimSuffix(scanqueue.FileName(eventID, sessionID), ".jsonl")+".walkins.jsonl")
}

// maxJournalBytes bounds the file replayed: thousands of walk-ins.
const maxJournalBytes = 64 << 20

// UnsettledIn counts the walk-ins whose check-in is not yet in the check-in
// journal, in the walk-in journal of an event (or session) in dir, reading
// the file without locking or changing it: 0 when there is none.
func UnsettledIn(dir, eventID, sessionID string) (int, error) {
	j, err := peek(Path(dir, eventID, sessionID), eventID, sessionID, false)
	if j == nil || err != nil {
		return 0, err
	}
	return j.Unsettled(), nil
}

// RegistrantsIn are the walk-ins the server registered at every desk of an
// event whose journal is in dir (the whole event's and each session's),
// read without locking or changing the files, as UnsettledIn: a desk that
// opens puts them back on its roster. A journal that cannot be read is
// passed over.
func RegistrantsIn(dir, eventID string) []Walkin {
	whole := filepath.Base(Path(dir, eventID, ""))
	prefix := strings.TrimSuffix(whole, ".walkins.jsonl") + "."
	entries, _ := os.ReadDir(dir)
	var out []Walkin
	for _, e := range entries {
		name := e.Name()
		if name != whole && !(strings.HasPrefix(name, prefix) && strings.HasSuffix(name, ".walkins.jsonl")) {
			continue
		}
		if j, err := peek(filepath.Join(dir, name), eventID, "", true); j != nil && err == nil {
			out = append(out, j.Registrants()...)
		}
	}
	return out
}

// peek replays a walk-in journal of the event (of sessionID, or of any of
// its desks) without locking or changing it: nil when there is none.
func peek(path, eventID, sessionID string, anySession bool) (*Journal, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("walk-in journal: %w", err)
	}
	defer f.Close()
	j := &Journal{path: path, event: eventID, session: sessionID, anySession: anySession, f: f, peek: true,
		byID: map[string]*Walkin{}}
	if err := j.replay(); err != nil {
		return nil, err
	}
	return j, nil
}

// Open opens (creating) the walk-in journal in dir and replays it.
func Open(dir, eventID, sessionID string, now func() time.Time) (*Journal, error) {
	if dir == "" || eventID == "" {
		return nil, errors.New("walk-in journal: a folder and an event id are required")
	}
	if now == nil {
		now = time.Now
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("walk-in journal: %w", err)
	}
	j := &Journal{path: Path(dir, eventID, sessionID), event: eventID, session: sessionID, now: now,
		byID: map[string]*Walkin{}, changed: make(chan struct{})}
	j.lock = flock.New(j.path+".lock", flock.SetPermissions(0o600))
	if ok, err := j.lock.TryLock(); err != nil || !ok {
		return nil, fmt.Errorf("walk-in journal %s is open in another evdesk desk (%v)", j.path, err)
	}
	f, err := os.OpenFile(j.path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		_ = j.lock.Unlock()
		return nil, fmt.Errorf("walk-in journal: %w", err)
	}
	j.f = f
	if err := j.replay(); err != nil {
		_ = f.Close()
		_ = j.lock.Unlock()
		return nil, err
	}
	return j, nil
}

func (j *Journal) replay() error {
	fi, err := j.f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() > maxJournalBytes {
		return fmt.Errorf("walk-in journal %s is larger than %d MiB: move it aside", j.path, maxJournalBytes>>20)
	}
	b, err := io.ReadAll(io.NewSectionReader(j.f, 0, fi.Size()))
	if err != nil {
		return err
	}
	good := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		line := sc.Bytes()
		n++
		var rec record
		if err := json.Unmarshal(line, &rec); err != nil {
			if good+len(line)+1 >= len(b) { // the last line, torn by a crash
				break
			}
			return fmt.Errorf("walk-in journal %s: line %d is damaged; move the file aside", j.path, n)
		}
		if err := j.apply(rec, n); err != nil {
			return fmt.Errorf("walk-in journal %s: line %d: %w", j.path, n, err)
		}
		good += len(line) + 1
	}
	if j.peek {
		return nil
	}
	if good < len(b) {
		if err := j.f.Truncate(int64(good)); err != nil {
			return err
		}
	}
	if n == 0 || good == 0 {
		return j.append(record{Type: recHeader, Version: formatVersion, Event: j.event, Session: j.session})
	}
	return nil
}

func (j *Journal) apply(rec record, n int) error {
	if n == 1 {
		if j.anySession {
			j.session = rec.Session
		}
		if rec.Type != recHeader || rec.Version != formatVersion || rec.Event != j.event || rec.Session != j.session {
			return fmt.Errorf("not the walk-in journal of event %q session %q (version %d)", j.event, j.session, formatVersion)
		}
		return nil
	}
	if rec.Type == recWalkin {
		if rec.Walkin == nil || rec.Walkin.ID == "" || j.byID[rec.Walkin.ID] != nil {
			return errors.New("a walk-in without an id, or twice")
		}
		w := *rec.Walkin
		w.State = Waiting
		j.list = append(j.list, &w)
		j.byID[w.ID] = &w
		if s, err := strconv.Atoi(strings.TrimPrefix(w.ID, "w")); err == nil {
			j.seq = max(j.seq, s)
		}
		return nil
	}
	w := j.byID[rec.ID]
	if w == nil {
		return fmt.Errorf("a %s record of an unknown walk-in %q", rec.Type, rec.ID)
	}
	j.settle(w, rec)
	return nil
}

// settle applies an outcome to a walk-in. Call with mu held.
func (j *Journal) settle(w *Walkin, rec record) {
	switch rec.Type {
	case recSent:
		w.State, w.SentAt = Uncertain, rec.At
	case recRegistered:
		w.State, w.Tickets, w.Reason, w.RegisteredAt = Registered, rec.Tickets, "", rec.At
	case recRefused:
		w.State, w.Reason, w.Questions = Refused, rec.Reason, rec.Questions
		for _, q := range rec.Questions {
			if !slices.Contains(j.questions, q) {
				j.questions = append(j.questions, q)
			}
		}
	case recCheckedIn:
		w.State, w.ScanID = CheckedIn, rec.Scan
	}
}

// append writes records and syncs the file.
func (j *Journal) append(recs ...record) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	fi, err := j.f.Stat()
	if err != nil {
		return err
	}
	if _, err := j.f.Write(buf.Bytes()); err != nil {
		_ = j.f.Truncate(fi.Size()) // all or nothing
		return fmt.Errorf("walk-in journal %s: nothing was saved: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		_ = j.f.Truncate(fi.Size())
		return fmt.Errorf("walk-in journal %s: nothing was saved: %w", j.path, err)
	}
	return nil
}

// ErrWaiting: a walk-in for the address is already under way.
var ErrWaiting = errors.New("a walk-in registration for this address is already waiting")

// Add saves a walk-in (on disk before it returns) and returns it with its
// id. A second walk-in for an address whose first is not settled is
// refused.
func (j *Journal) Add(w Walkin) (Walkin, error) {
	w.Email = api.NormalizeEmail(w.Email)
	if err := w.Validate(); err != nil {
		return Walkin{}, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return Walkin{}, scanqueue.ErrClosed
	}
	for _, o := range j.list {
		if o.Email == w.Email && (o.State == Waiting || o.State == Uncertain || o.State == Registered) {
			return Walkin{}, fmt.Errorf("%w (%s, saved %s)", ErrWaiting, w.Email, o.At.Local().Format("15:04"))
		}
	}
	j.seq++
	w.ID, w.At, w.State = "w"+strconv.Itoa(j.seq), j.now().UTC(), Waiting
	w.Reason, w.Questions, w.Tickets, w.ScanID, w.RegisteredAt = "", nil, nil, "", time.Time{}
	if err := j.append(record{Type: recWalkin, Walkin: &w}); err != nil {
		j.seq--
		return Walkin{}, err
	}
	j.list = append(j.list, &w)
	j.byID[w.ID] = &w
	j.signal()
	return w, nil
}

// record saves an outcome of walk-in id.
func (j *Journal) record(rec record) (Walkin, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	w := j.byID[rec.ID]
	if w == nil {
		return Walkin{}, fmt.Errorf("no walk-in %q", rec.ID)
	}
	if j.closed {
		return *w, scanqueue.ErrClosed
	}
	if err := j.append(rec); err != nil {
		return *w, err
	}
	j.settle(w, rec)
	j.signal()
	return *w, nil
}

// signal wakes whoever waits on Changed. Call with mu held.
func (j *Journal) signal() {
	close(j.changed)
	j.changed = make(chan struct{})
}

// Changed is a channel that closes at the next change.
func (j *Journal) Changed() <-chan struct{} {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.changed
}

// All returns every walk-in, oldest first.
func (j *Journal) All() []Walkin {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]Walkin, len(j.list))
	for i, w := range j.list {
		out[i] = *w
	}
	return out
}

// Get returns a walk-in by id.
func (j *Journal) Get(id string) (Walkin, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	w := j.byID[id]
	if w == nil {
		return Walkin{}, false
	}
	return *w, true
}

// Latest returns the latest walk-in of an address.
func (j *Journal) Latest(email string) (Walkin, bool) {
	email = api.NormalizeEmail(email)
	j.mu.Lock()
	defer j.mu.Unlock()
	for i := len(j.list) - 1; i >= 0; i-- {
		if j.list[i].Email == email {
			return *j.list[i], true
		}
	}
	return Walkin{}, false
}

// Registrants are the walk-ins the server registered (their check-in sent
// or not), oldest first.
func (j *Journal) Registrants() []Walkin {
	var out []Walkin
	for _, w := range j.All() {
		if w.State == Registered || w.State == CheckedIn {
			out = append(out, w)
		}
	}
	return out
}

// Unsettled counts walk-ins whose check-in is not yet in the check-in
// journal (waiting, uncertain or registered).
func (j *Journal) Unsettled() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	for _, w := range j.list {
		if w.State == Waiting || w.State == Uncertain || w.State == Registered {
			n++
		}
	}
	return n
}

// Questions are the required registration questions the server has named
// for this event, for the walk-in form to ask.
func (j *Journal) Questions() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.questions)
}

// Close closes the file and releases the lock.
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
