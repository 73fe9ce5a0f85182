package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// answer is one line a headless desk writes for a scan ("scan", at once)
// or for the service's word on a scan it answered RECORDED or NOT
// REGISTERED ("verdict", when that word comes).
type answer struct {
	Kind string `json:"kind"` // "scan" or "verdict"
	// Scan is what was read (safe for a terminal, shortened); a verdict
	// line of a scan from before this run has none.
	Scan string `json:"scan,omitempty"`
	// Verdict is the desk's word. At once: RECORDED (saved here, and in
	// the venue; the service has not confirmed it yet), NOT REGISTERED
	// (the roster does not list them; saved, the service decides),
	// ALREADY CHECKED IN, REJECTED, NOT RECOGNISED, UNKNOWN TICKET, NOT
	// RECORDED. The service's word: CHECKED IN, ALREADY CHECKED IN (the
	// venue had admitted them elsewhere), NOT REGISTERED or REJECTED.
	Verdict string `json:"verdict"`
	Email   string `json:"email,omitempty"`
	Person  string `json:"person,omitempty"`
	// Roster is what the desk's roster says of the person when it
	// answers a scan at once: listed, not listed, or none (no roster at
	// hand yet).
	Roster string `json:"roster,omitempty"`
	// Desk and At are the desk that admitted the person first, and when.
	Desk string    `json:"desk,omitempty"`
	At   time.Time `json:"at,omitzero"`
	// Confirmed: the service holds the check-in.
	Confirmed bool   `json:"confirmed"`
	Detail    string `json:"detail,omitempty"`
	// ID is the scan's id in the desk's journal: a verdict line names
	// the scan line it follows by it.
	ID string `json:"id,omitempty"`
}

// Words of a roster in an answer.
const (
	rosterListed    = "listed"
	rosterNotListed = "not listed"
	rosterNone      = "none"
)

// venueLine is the line a headless desk writes when its venue changes.
type venueLine struct {
	Kind     string `json:"kind"` // "venue"
	Name     string `json:"name"`
	State    string `json:"state"`
	Upstream string `json:"upstream,omitempty"`
	Desks    int    `json:"desks"`
	Replicas int    `json:"replicas"`
	// Roster counts the people on the roster at this desk (0 while none).
	Roster int `json:"roster"`
}

// maxScanLine bounds a line of standard input: a scanner's code is far
// shorter; a longer line is read as far as scancode looks and the rest
// skipped.
const maxScanLine = 64 << 10

// runHeadless is `evdesk desk --headless`: scans come one a line on in,
// answers go as JSON lines to out, until in ends (nil) or ctx is cancelled
// (ctx's error: the command was interrupted). The service's word on each
// scan answered RECORDED or NOT REGISTERED follows as a verdict line when
// it comes (vs is the desk's, fed by its OnAck); once in ends, the desk
// waits up to wait for the words still to come (a file of scans piped in
// ends long before the service has answered them).
func runHeadless(ctx context.Context, d *venue.Desk, in io.Reader, w *lineWriter, vs *verdicts, wait time.Duration) error {
	done := make(chan struct{})
	if v := d.Venue(); v != nil {
		go watchVenue(d, v, w, done)
	}
	defer close(done)
	// Scans left waiting by an earlier run get their verdict lines too;
	// any that settled before this look are in vs already.
	for _, sc := range d.Journal().Scans() {
		if sc.Outcome == scanqueue.Pending {
			vs.await(sc.ID, "")
		}
	}
	vs.startAll()
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		r := bufio.NewReaderSize(in, 4096)
		for {
			line, err := readScanLine(r)
			if line != "" {
				select {
				case lines <- line:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				readErr <- err
				return
			}
		}
	}()
	for {
		if err := vs.flush(d, w); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-readErr:
			if errors.Is(err, io.EOF) {
				return drainVerdicts(ctx, d, w, vs, wait)
			}
			return err
		case <-vs.more:
		case line := <-lines:
			a := scanLine(d, line)
			if err := w.write(a); err != nil {
				return err
			}
			if a.ID != "" && !a.Confirmed && (a.Verdict == verdictRecorded || a.Verdict == verdictNotRegistered) {
				vs.await(a.ID, a.Scan)
			}
		}
	}
}

// drainVerdicts writes verdict lines as they come until none is awaited,
// wait has passed or ctx ends.
func drainVerdicts(ctx context.Context, d *venue.Desk, w *lineWriter, vs *verdicts, wait time.Duration) error {
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		if err := vs.flush(d, w); err != nil || vs.unanswered() == 0 {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return vs.flush(d, w)
		case <-vs.more:
		}
	}
}

// The desk's words for a scan the service has not answered yet.
const (
	verdictRecorded      = "RECORDED"
	verdictNotRegistered = "NOT REGISTERED"
)

// verdicts gathers the scans the service answered (the desk's OnAck,
// which must never wait on the headless loop: it runs inside a scan, too)
// for the loop to write as verdict lines after their scan lines.
type verdicts struct {
	more chan struct{}

	mu       sync.Mutex
	settled  []scanqueue.Scan
	awaiting map[string]string // scan id -> what was read
	all      bool              // before the first look: every answer is an earlier run's
}

func newVerdicts() *verdicts {
	return &verdicts{more: make(chan struct{}, 1), awaiting: map[string]string{}, all: true}
}

// onAck is the desk's OnAck.
func (vs *verdicts) onAck(scans []scanqueue.Scan) {
	vs.mu.Lock()
	vs.settled = append(vs.settled, scans...)
	vs.mu.Unlock()
	select {
	case vs.more <- struct{}{}:
	default:
	}
}

// await marks a scan whose verdict line is wanted.
func (vs *verdicts) await(id, scan string) {
	vs.mu.Lock()
	vs.awaiting[id] = scan
	vs.mu.Unlock()
}

// unanswered counts the scans whose verdict line is still awaited.
func (vs *verdicts) unanswered() int {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	return len(vs.awaiting)
}

// startAll ends the time when every answer was an earlier run's: from now
// on only the scans awaited get a line (not one answered at once as
// ALREADY CHECKED IN, which the venue settles inside the scan).
func (vs *verdicts) startAll() {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	for _, sc := range vs.settled {
		if _, ok := vs.awaiting[sc.ID]; !ok {
			vs.awaiting[sc.ID] = ""
		}
	}
	vs.all = false
}

// flush writes the verdict lines of the scans answered so far.
func (vs *verdicts) flush(d *venue.Desk, w *lineWriter) error {
	vs.mu.Lock()
	var out []answer
	keep := vs.settled[:0]
	for _, sc := range vs.settled {
		scan, ok := vs.awaiting[sc.ID]
		switch {
		case ok:
			delete(vs.awaiting, sc.ID)
			out = append(out, verdictLine(d, sc, scan))
		case vs.all:
			keep = append(keep, sc)
		}
	}
	vs.settled = keep
	vs.mu.Unlock()
	for _, a := range out {
		if err := w.write(a); err != nil {
			return err
		}
	}
	return nil
}

// verdictLine words the service's answer to a scan.
func verdictLine(d *venue.Desk, sc scanqueue.Scan, scan string) answer {
	a := answer{Kind: "verdict", Scan: scan, Email: sc.Email, ID: sc.ID, Detail: sanitize.Line(sc.Message)}
	if ro := d.Roster(); ro != nil {
		if p, ok := ro.ByEmail(sc.Email); ok {
			a.Person = sanitize.Line(p.Name)
		}
	}
	switch sc.Outcome {
	case scanqueue.CheckedIn:
		a.Verdict, a.Desk, a.At, a.Confirmed = "CHECKED IN", d.Name(), sc.At, true
		a.Detail = "the service confirmed the check-in"
	case scanqueue.Already:
		a.Verdict = "ALREADY CHECKED IN"
		if ar, ok := d.Arrivals().Lookup(sc.Email); ok {
			a.Desk, a.At = sanitize.Line(ar.Desk), ar.At
		}
	default:
		a.Verdict = "REJECTED"
		if strings.Contains(strings.ToLower(sc.Message), "not registered") {
			a.Verdict = verdictNotRegistered
		}
		if a.Detail == "" {
			a.Detail = "refused by the service"
		}
	}
	return a
}

// readScanLine reads one line, keeping at most maxScanLine bytes of it.
func readScanLine(r *bufio.Reader) (string, error) {
	var buf []byte
	for {
		part, err := r.ReadSlice('\n')
		if len(buf) < maxScanLine {
			buf = append(buf, part[:min(len(part), maxScanLine-len(buf))]...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return string(trimEOL(buf)), err
		}
	}
}

func trimEOL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// maxShownScan bounds the scan echoed in an answer.
const maxShownScan = 200

func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// scanLine answers one scan.
func scanLine(d *venue.Desk, raw string) answer {
	a := answer{Kind: "scan", Scan: shorten(sanitize.Line(raw), maxShownScan)}
	f, err := roster.Resolve(d.Roster(), raw)
	if err != nil {
		var ut *roster.UnknownTicket
		a.Verdict, a.Detail = "NOT RECOGNISED", sanitize.Line(err.Error())
		if errors.As(err, &ut) {
			a.Verdict = "UNKNOWN TICKET"
		}
		return a
	}
	a.Email = f.Email
	if f.Person != nil {
		a.Person = sanitize.Line(f.Person.Name)
	}
	scans, err := d.Scan([]string{f.Email})
	if err != nil {
		a.Verdict, a.Detail = "NOT RECORDED", sanitize.Line(err.Error())
		return a
	}
	sc := scans[0]
	a.ID, a.Detail = sc.ID, sanitize.Line(sc.Message)
	switch sc.Outcome {
	case scanqueue.Pending:
		a.Verdict, a.Desk, a.At = verdictRecorded, d.Name(), sc.At
		a.Detail = "saved here; the service has not confirmed it yet (its verdict follows)"
		if d.Venue() != nil && !d.Venue().Alone() {
			a.Detail = "saved here and at the venue's desks; the service has not confirmed it yet (its verdict follows)"
		}
		switch sc.Expect {
		case scanqueue.ExpectRegistered:
			a.Roster = rosterListed
		case scanqueue.ExpectUnknown:
			a.Verdict, a.Desk, a.At, a.Roster = verdictNotRegistered, "", time.Time{}, rosterNotListed
			a.Detail = "not on the roster; saved, and the service has the last word (its verdict follows)"
		default:
			a.Roster = rosterNone
			a.Detail = "no roster at hand yet: " + a.Detail
		}
	case scanqueue.CheckedIn:
		a.Verdict, a.Desk, a.At, a.Confirmed = "CHECKED IN", d.Name(), sc.At, true
	case scanqueue.Already:
		a.Verdict = "ALREADY CHECKED IN"
		if ar, ok := d.Arrivals().Lookup(f.Email); ok {
			a.Desk, a.At = sanitize.Line(ar.Desk), ar.At
		}
		if prev, ok := d.Journal().Lookup(f.Email); ok && prev.ID != sc.ID && prev.Outcome != scanqueue.Already {
			a.Desk, a.At, a.Confirmed = d.Name(), prev.At, prev.Outcome == scanqueue.CheckedIn
		}
	case scanqueue.Rejected:
		a.Verdict = "REJECTED"
	}
	return a
}

// watchVenue writes a line whenever the venue's state, upstream desk or
// number of desks, or the desk's roster, changes.
func watchVenue(d *venue.Desk, v venue.Venue, w *lineWriter, done <-chan struct{}) {
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	var last venueLine
	for {
		in := v.Info()
		cur := venueLine{Kind: "venue", Name: sanitize.Line(in.Name), State: in.State, Upstream: sanitize.Line(in.Upstream),
			Replicas: in.Replicas}
		if ro := d.Roster(); ro != nil {
			cur.Roster = ro.Len()
		}
		for _, dk := range in.Desks {
			if time.Since(dk.Seen) < 15*time.Second {
				cur.Desks++
			}
		}
		if cur != last {
			_ = w.write(cur)
			last = cur
		}
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
}

// arrivalLine is the line a headless desk writes, with --arrivals, when
// it learns of a check-in another desk of the venue made.
type arrivalLine struct {
	Kind  string    `json:"kind"` // "arrival"
	Email string    `json:"email"`
	Desk  string    `json:"desk"`
	At    time.Time `json:"at"`    // when that desk admitted them
	Known time.Time `json:"known"` // when this desk learned of it
}

// lineWriter writes JSON lines from several goroutines.
type lineWriter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func newLineWriter(out io.Writer) *lineWriter {
	w := &lineWriter{enc: json.NewEncoder(out)}
	w.enc.SetEscapeHTML(false)
	return w
}

func (w *lineWriter) write(v any) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.enc.Encode(v)
}
