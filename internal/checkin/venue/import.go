package venue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scancode"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// ImportOptions configure one import of a list of check-ins (`evdesk
// checkin EVENT_ID FILE`): a desk without a screen, on the same journal,
// roster cache and sender as the venue's desks.
type ImportOptions struct {
	// Dir is the journal folder (the caches sit beside the journals).
	Dir                string
	EventID, SessionID string
	// Source is recorded with each check-in.
	Source string
	// Wait bounds how long the import keeps trying while the server
	// cannot be reached; what is left stays journaled.
	Wait time.Duration
	// Input is the list; nil only sends what earlier runs left.
	Input *scanqueue.EmailList
	// Client reads the roster; CheckIn sends (a client with few retries of
	// its own: the sender retries).
	Client  *api.Client
	CheckIn scanqueue.CheckInFunc
	// OnResend hears how many scans earlier runs left, before they are
	// sent; OnShort that the list did not fit in the journal whole;
	// OnStatus the sender's progress; OnNote what opening the journal did
	// that a person should know. Each may be nil.
	OnResend func(n int)
	OnShort  func(error)
	OnNote   func(string)
	OnStatus func(scanqueue.Status)
	Log      *slog.Logger
	Now      func() time.Time
	Local    *time.Location
	// Register, when set, registers the list's addresses the event does
	// not hold before the list is journaled (evdesk checkin
	// --register-unknown); an address it could not register leaves the
	// list as a bad line. It returns how many people it registered.
	Register func(ctx context.Context, in *scanqueue.EmailList) (int, error)
}

// ImportSummary is the outcome of an import, as `evdesk checkin -o json`
// prints it.
type ImportSummary struct {
	EventID   string `json:"event_id"`
	SessionID string `json:"session_id,omitempty"`
	Journal   string `json:"journal"`
	Resent    int    `json:"resent"` // unsent scans of earlier runs
	Recorded  int    `json:"recorded"`
	// Registered counts the people Register registered.
	Registered int                 `json:"registered,omitempty"`
	CheckedIn  int                 `json:"checked_in"`
	Already    int                 `json:"already_checked_in"`
	Rejected   int                 `json:"rejected"`
	Pending    int                 `json:"not_sent"`
	BadLines   []scanqueue.BadLine `json:"bad_lines"`
	Failed     []FailedScan        `json:"failed"`
	// Notes say what opening the journal did that a person should know
	// (damaged lines set aside).
	Notes []string `json:"notes,omitempty"`
}

// FailedScan is a scan that was not checked in, and why.
type FailedScan struct {
	Email  string `json:"email"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// Import journals the list, sends it and what earlier runs left, and says
// what became of each line. Its error is a failure of the journal (what
// reached the server is unknown); a short record (ErrShort) comes with the
// summary of what was recorded.
func Import(ctx context.Context, o ImportOptions) (ImportSummary, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Local == nil {
		o.Local = time.Local
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	j, err := scanqueue.Open(o.Dir, o.EventID, o.SessionID)
	if err != nil {
		return ImportSummary{}, err
	}
	defer j.Close()
	sum := ImportSummary{EventID: o.EventID, SessionID: o.SessionID, Journal: j.Path(), Notes: j.Notes()}
	if o.OnNote != nil {
		for _, n := range sum.Notes {
			o.OnNote(n)
		}
	}
	var short error // the list did not fit in the journal whole
	// The scans this run answers for: what earlier runs left, then the list.
	watch := map[string]int{} // scan id -> line (0: an earlier run's)
	var order []string
	for _, sc := range j.Pending(0) {
		watch[sc.ID] = 0
		order = append(order, sc.ID)
	}
	sum.Resent = len(order)
	if sum.Resent > 0 && o.OnResend != nil {
		o.OnResend(sum.Resent)
	}
	if in := o.Input; in != nil {
		resolveScans(ctx, o, in)
		if o.Register != nil {
			n, err := o.Register(ctx, in)
			if err != nil {
				return sum, err
			}
			sum.Registered = n
		}
		sum.BadLines = in.Bad
		if len(in.Emails) > 0 {
			scans, err := j.ScanList(in.Emails, o.Source)
			for i, sc := range scans {
				watch[sc.ID] = in.Lines[i]
				order = append(order, sc.ID)
			}
			sum.Recorded = len(scans)
			if err != nil && len(scans) == 0 {
				return sum, fmt.Errorf("record the list in the journal: %w", err)
			}
			if err != nil {
				// What was recorded is sent; a rerun of the same list
				// records the rest (the recorded ones are found already).
				short = &ShortError{Recorded: len(scans), Of: len(in.Emails), Err: err}
				if o.OnShort != nil {
					o.OnShort(short)
				}
			}
		}
	}
	if err := sendAll(ctx, o, j); err != nil {
		return sum, err
	}
	tally(&sum, j, watch, order, o.EventID)
	return sum, short
}

// ShortError says the list was recorded only in part (a full disk).
type ShortError struct {
	Recorded, Of int
	Err          error
}

func (e *ShortError) Error() string {
	return fmt.Sprintf("%d of %d recorded (%v); run the same command again to finish", e.Recorded, e.Of, e.Err)
}

func (e *ShortError) Unwrap() error { return e.Err }

// tally counts each watched scan's outcome, in the list's order.
func tally(sum *ImportSummary, j *scanqueue.Journal, watch map[string]int, order []string, eventID string) {
	final := map[string]scanqueue.Scan{}
	for _, sc := range j.Scans() {
		if _, ok := watch[sc.ID]; ok {
			final[sc.ID] = sc
		}
	}
	for _, id := range order {
		sc, line := final[id], watch[id]
		switch sc.Outcome {
		case scanqueue.CheckedIn:
			sum.CheckedIn++
		case scanqueue.Already:
			sum.Already++
		case scanqueue.Rejected:
			sum.Rejected++
			sum.Failed = append(sum.Failed, FailedScan{Email: sc.Email, Line: line, Reason: sc.Message})
		default:
			sum.Pending++
			sum.Failed = append(sum.Failed, FailedScan{Email: sc.Email, Line: line,
				Reason: "not sent yet: kept in the journal; run evdesk checkin " + eventID + " again to send it"})
		}
	}
	if sum.BadLines == nil {
		sum.BadLines = []scanqueue.BadLine{}
	}
	if sum.Failed == nil {
		sum.Failed = []FailedScan{}
	}
}

// sendAll runs a sender until nothing is pending or o.Wait runs out.
func sendAll(ctx context.Context, o ImportOptions, j *scanqueue.Journal) error {
	if j.Counts().Pending == 0 {
		return nil
	}
	status := o.OnStatus
	if status == nil {
		status = func(scanqueue.Status) {}
	}
	wctx, cancel := context.WithTimeout(ctx, o.Wait)
	defer cancel()
	// A run has no one to free space while it waits: a journal that
	// cannot record the answers ends it at once.
	onStatus := func(st scanqueue.Status) {
		if st.State == scanqueue.Unwritable {
			cancel()
		}
		status(st)
	}
	snd, err := scanqueue.NewSender(j, scanqueue.SenderOptions{CheckIn: o.CheckIn, OnStatus: onStatus})
	if err != nil {
		return err
	}
	ferr := snd.Flush(wctx)
	st := snd.Status()
	_ = snd.Close()
	// The sender reports its status asynchronously and may not have
	// reported the last one yet: tell it, so a bar ends on the outcome.
	status(st)
	var unrecorded *scanqueue.UnrecordedError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(st.LastError, &unrecorded):
		return fmt.Errorf("the server answered %d check-ins, but the journal %s could not record the answers (%w); the %d scans stay pending, and the next run sends them again (the server takes a repeated check-in as done): free space and run this again",
			unrecorded.Answers, j.Path(), unrecorded.Err, st.Pending)
	case ferr != nil && st.State == scanqueue.Stopped && st.LastError != nil:
		// The journal failed: what reached the server is unknown.
		return fmt.Errorf("send check-ins: %w", ferr)
	}
	// Out of time: the summary counts what is still pending.
	return nil
}

// resolveScans reads every line of a list as a desk's scanner would
// (roster.Resolve): a plain email stays itself; a mailto: link, a MECARD or
// an email= link gives its address; a ticket link or id gives its holder's
// email from the event's roster. The roster is fetched only when some line
// may be a ticket: the desks' cache while it is fresh (as a desk does), else
// a download with the api pager, and a download too when the cache does not
// list a ticket; an older cache serves when the server cannot be reached. A
// ticket the roster does not list is a bad line, with its number, and is
// never sent; so is anything else that names nobody, in scancode's words.
func resolveScans(ctx context.Context, o ImportOptions, in *scanqueue.EmailList) {
	todo := make([]scanqueue.BadLine, 0, len(in.Emails)+len(in.Bad))
	for i, e := range in.Emails {
		todo = append(todo, scanqueue.BadLine{Line: in.Lines[i], Text: e})
	}
	var kept []scanqueue.BadLine
	for _, b := range in.Bad {
		if b.Text == "" {
			kept = append(kept, b) // a CSV line the parser could not split
			continue
		}
		todo = append(todo, b)
	}
	var rs rosterSource
	if slices.ContainsFunc(todo, func(l scanqueue.BadLine) bool { return needsRoster(l.Text) }) {
		rs = openRoster(ctx, o)
	}
	out, unknown := resolveLines(todo, rs, o.Local)
	if unknown > 0 && rs.cached && rs.err == nil {
		// The cache may predate the ticket: ask the server.
		if fresh := rs.download(ctx, o); fresh.err == nil {
			out, _ = resolveLines(todo, fresh, o.Local)
		}
	}
	in.Emails, in.Lines, in.Bad = out.Emails, out.Lines, append(kept, out.Bad...)
	slices.SortStableFunc(in.Bad, func(a, b scanqueue.BadLine) int { return a.Line - b.Line })
	sortByLine(in)
}

// resolveLines resolves each line through rs's roster; unknown counts the
// tickets it does not list.
func resolveLines(todo []scanqueue.BadLine, rs rosterSource, local *time.Location) (out scanqueue.EmailList, unknown int) {
	for _, l := range todo {
		f, err := roster.Resolve(rs.ro, l.Text)
		if err == nil {
			out.Emails = append(out.Emails, f.Email)
			out.Lines = append(out.Lines, l.Line)
			continue
		}
		b := scanqueue.BadLine{Line: l.Line, Text: l.Text, Reason: err.Error()}
		var ut *roster.UnknownTicket
		if errors.As(err, &ut) {
			unknown++
			b.Text = "ticket " + ut.ID
			b.Reason = ut.Words(local) + "; not sent"
			if rs.ro == nil && rs.err != nil {
				b.Reason = "ticket " + ut.ID + " cannot be looked up: the roster could not be downloaded (" +
					strings.Join(strings.Fields(rs.err.Error()), " ") + "); not sent"
				if roster.RegistrantsRefused(rs.err) {
					b.Reason = "ticket " + ut.ID + " cannot be looked up: " + roster.EmailOnly + "; not sent"
				}
			}
		}
		out.Bad = append(out.Bad, b)
	}
	return out, unknown
}

// needsRoster reports whether a line may be a ticket: scancode reads it as
// one, or it is one token that could be an id the bare-id rule refuses.
func needsRoster(text string) bool {
	if sc, err := scancode.Read(text); err == nil {
		return sc.Kind == scancode.TicketID
	}
	t := strings.TrimSpace(text)
	return t != "" && len(t) <= 64 && !strings.ContainsAny(t, " \t@:/")
}

// rosterSource is the roster a run resolves tickets with.
type rosterSource struct {
	ro     *roster.Roster // nil: none at hand
	cached bool           // ro is the desks' cache, not downloaded by this run
	err    error          // why the download failed
}

// openRoster takes the desks' cached roster of the event while it is
// fresh, else downloads it (and caches it for the desks); when the download
// fails, an older cache serves.
func openRoster(ctx context.Context, o ImportOptions) rosterSource {
	cached, _ := roster.Load(roster.CachePath(o.Dir, o.EventID), o.EventID)
	rs := rosterSource{ro: cached, cached: cached != nil}
	if cached != nil && o.Now().Sub(cached.Updated()) < DefaultRefreshEvery {
		return rs
	}
	return rs.download(ctx, o)
}

// download fetches the roster with the api pager; when that fails, rs
// stands, with the error.
func (rs rosterSource) download(ctx context.Context, o ImportOptions) rosterSource {
	ro, err := roster.Download(ctx, o.Client, o.EventID, o.Now, nil)
	if err != nil {
		o.Log.Warn("roster download failed", "event", o.EventID, "cached", rs.ro != nil, "err", err)
		rs.err = fmt.Errorf("list the registrants: %w", err)
		return rs
	}
	// A desk opened later starts from it; failing to save costs nothing.
	_ = roster.Save(roster.CachePath(o.Dir, o.EventID), ro)
	return rosterSource{ro: ro}
}

// sortByLine puts the list's emails back in the file's order.
func sortByLine(in *scanqueue.EmailList) {
	idx := make([]int, len(in.Emails))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return in.Lines[a] - in.Lines[b] })
	emails, lines := make([]string, len(idx)), make([]int, len(idx))
	for i, j := range idx {
		emails[i], lines[i] = in.Emails[j], in.Lines[j]
	}
	in.Emails, in.Lines = emails, lines
}
