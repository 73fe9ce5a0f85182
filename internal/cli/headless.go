package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// answer is one line a headless desk writes for a scan.
type answer struct {
	Kind string `json:"kind"` // "scan"
	// Scan is what was read (safe for a terminal, shortened).
	Scan string `json:"scan"`
	// Verdict is the desk's word: CHECKED IN, ALREADY CHECKED IN, NOT
	// REGISTERED, REJECTED, NOT RECOGNISED, UNKNOWN TICKET, NOT RECORDED.
	Verdict string `json:"verdict"`
	Email   string `json:"email,omitempty"`
	Person  string `json:"person,omitempty"`
	// Desk and At are the desk that admitted the person first, and when.
	Desk string    `json:"desk,omitempty"`
	At   time.Time `json:"at,omitzero"`
	// Confirmed: the service holds the check-in (false while it is on its
	// way).
	Confirmed bool   `json:"confirmed"`
	Detail    string `json:"detail,omitempty"`
	ID        string `json:"id,omitempty"`
}

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
// answers go as JSON lines to out, until in ends or ctx is cancelled.
func runHeadless(ctx context.Context, d *venue.Desk, in io.Reader, w *lineWriter) error {
	done := make(chan struct{})
	if v := d.Venue(); v != nil {
		go watchVenue(d, v, w, done)
	}
	defer close(done)
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
		select {
		case <-ctx.Done():
			return nil
		case err := <-readErr:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		case line := <-lines:
			if err := w.write(scanLine(d, line)); err != nil {
				return err
			}
		}
	}
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
		a.Verdict, a.Desk, a.At = "CHECKED IN", d.Name(), sc.At
		if sc.Expect == scanqueue.ExpectUnknown {
			a.Verdict, a.Desk, a.At = "NOT REGISTERED", "", time.Time{}
			a.Detail = "not on the roster; saved, and the service has the last word"
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
