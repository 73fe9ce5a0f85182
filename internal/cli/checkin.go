package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/internal/words"
	"github.com/evdesk/evdesk/ui"
)

// hostSource is the default source of imported check-ins: the tool and the
// machine.
func hostSource(tool string) string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return tool + " " + h
	}
	return tool
}

// resolveTarget names the event and session. An event or session the server
// does not know is an error; when the server cannot be asked (a desk that
// starts offline), the ids stand in for the names after a short wait: the
// names are a courtesy, and a desk or an import must not wait for them.
func resolveTarget(ctx context.Context, s *session, eventID, sessionID string) (eventName, sessionName string, err error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	client := s.client
	if s.senderClient != nil {
		client = s.senderClient // two quick tries: an outage shows at once
	}
	e, err := client.Events.Get(ctx, eventID)
	switch {
	case err == nil:
		eventName = e.Name
	case api.IsStatus(err, 404) || api.IsStatus(err, 400):
		return "", "", fmt.Errorf("event %q: %w", eventID, err)
	default:
		s.log.Warn("event name unavailable; using the id", "event", eventID, "err", err)
		return eventID, "", nil
	}
	if sessionID == "" {
		return eventName, "", nil
	}
	sessions, err := client.Attendees.Sessions(ctx, eventID)
	if err != nil {
		s.log.Warn("session names unavailable; using the id", "event", eventID, "err", err)
		return eventName, "", nil
	}
	var ids []string
	for _, ss := range sessions {
		if ss.SessionID == sessionID {
			return eventName, ss.Name, nil
		}
		ids = append(ids, ss.SessionID)
	}
	if len(ids) == 0 {
		return "", "", fmt.Errorf("--session %q: event %q has no sessions; leave --session out to check in to the whole event", sessionID, eventID)
	}
	return "", "", fmt.Errorf("--session %q: not a session of event %q; its sessions are %s", sessionID, eventID, strings.Join(ids, ", "))
}

// checkinOptions are `evdesk checkin`'s and its subcommands'.
type checkinOptions struct {
	deps
	Export             *exporter
	EventID, SessionID string
	File               string // "" : only send what is left; "-": standard input
	// Journal is a journal kept aside whose unsent scans go to this
	// profile's server first (--journal).
	Journal string
	Source  string
	Wait    time.Duration
	// RegisterUnknown registers the list's unknown addresses first, with
	// TicketType (checkin_register.go).
	RegisterUnknown bool
	TicketType      string
}

func newCheckinCmd(f *Factory, runF runFunc[checkinOptions]) *cobra.Command {
	o := &checkinOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "checkin EVENT_ID [FILE|-]",
		Example: "  evdesk checkin Hb8d7l7QX88AmGvnKn9SMZ badges.csv\n  printf 'ana@example.org\\nbo@example.org\\n' | evdesk checkin Hb8d7l7QX88AmGvnKn9SMZ -",
		Short:   "Check attendees in from a list of emails (for scripts), or list check-ins",
		Long: "Check attendees in to an event (or a session, with --session) from FILE, or from\n" +
			"standard input with -: one email per line, or a CSV file with an email column.\n" +
			"A line may also be what a desk's scanner reads from a ticket or badge: a ticket's\n" +
			"QR link or a bare ticket id (found on the event's roster, which is downloaded when\n" +
			"a line needs it), a mailto: link, a MECARD or a link with email=. A ticket the\n" +
			"roster does not list is reported with its line number and never sent.\n" +
			"Scans an earlier run or desk left unsent are sent first; without FILE that is all\n" +
			"it does. Every scan is journaled on this computer before it is sent, in batches of\n" +
			"300. The exit status is 1 when any line was bad or any attendee was not checked in.",
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			if len(args) == 2 {
				o.File = args[1]
			}
			if o.Wait <= 0 {
				return flagErrorf("--wait must be positive, such as 2m")
			}
			if o.Source == "" {
				o.Source = hostSource("evdesk checkin")
			}
			if cmd.Flags().Changed("ticket-type") && !o.RegisterUnknown {
				return flagErrorf("--ticket-type goes with --register-unknown: it is the ticket type of the people it registers")
			}
			if o.RegisterUnknown && o.File == "" {
				return flagErrorf("--register-unknown needs FILE: the list whose unknown addresses it registers")
			}
			return run(cmd, o, runF, checkinRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.SessionID, "session", "", "check in to this session of the event (default: the whole event)")
	fl.StringVar(&o.Journal, "journal", "", "first take the unsent scans of a journal kept aside (one written before evdesk recorded which server scans belong to) for this profile's server")
	fl.StringVar(&o.Source, "source", "", "source recorded with each check-in (default: evdesk checkin <hostname>)")
	fl.DurationVar(&o.Wait, "wait", 2*time.Minute, "how long to keep trying while the server cannot be reached; what is left stays journaled")
	fl.BoolVar(&o.RegisterUnknown, "register-unknown", false, "register the addresses the event does not list (creating their tickets) before checking them in")
	fl.StringVar(&o.TicketType, "ticket-type", "", "with --register-unknown: the ticket type (id or name) of the people it registers (default: the event's default)")
	o.Export = addExporter(cmd, "text", formatJSON)
	registerEventSessionCompletions(f, cmd)
	cmd.AddCommand(newCheckinListCmd(f, nil), newCheckinStatsCmd(f, nil))
	return cmd
}

func checkinRun(ctx context.Context, o *checkinOptions) error {
	var in *scanqueue.EmailList
	if o.File != "" {
		var err error
		if in, err = readImport(ctx, o.IO.In, o.File); err != nil {
			return err
		}
	}
	return o.inSession(ctx, func(s *session) error {
		if _, _, err := resolveTarget(ctx, s, o.EventID, o.SessionID); err != nil {
			return err
		}
		terminal, _ := o.IO.TerminalErr()
		var bar *progressLine
		sender := s.senderClient
		if sender == nil {
			sender = s.client
		}
		asJSON := o.Export.Is(formatJSON)
		dir, err := checkinDir(s)
		if err != nil {
			return err
		}
		placeNotes(s, o.IO.ErrOut, o.EventID, o.SessionID)
		if o.Journal != "" {
			n, err := takeJournal(s, dir, o.Journal, o.EventID, o.SessionID)
			if err != nil {
				return err
			}
			fmt.Fprintf(o.IO.ErrOut, "evdesk: %s taken from %s for %s.\n", words.Count(n, "unsent scan"), sanitize.Line(o.Journal), sanitize.Line(s.place.server.String()))
		}
		opts := venue.ImportOptions{Dir: dir, EventID: o.EventID, SessionID: o.SessionID, Source: o.Source,
			Wait: o.Wait, Input: in, Client: s.client, CheckIn: sender.Attendees.CheckIn, Log: s.log, Now: o.Now,
			OnResend: func(n int) {
				if !asJSON {
					fmt.Fprintf(o.IO.ErrOut, "Sending %s an earlier run or desk left unsent.\n", words.Count(n, "scan"))
				}
			},
			OnShort:  func(err error) { fmt.Fprintln(o.IO.ErrOut, "evdesk: "+err.Error()) },
			OnNote:   func(note string) { fmt.Fprintln(o.IO.ErrOut, "evdesk: "+note) },
			Register: o.register(s),
			OnStatus: func(st scanqueue.Status) {
				if bar == nil { // the total is known once the list is journaled
					bar = newProgressLine(terminal, st.Pending)
				}
				bar.update(st)
			},
		}
		sum, err := venue.Import(ctx, opts)
		if bar != nil {
			bar.finish()
		}
		var short *venue.ShortError
		if err != nil && !errors.As(err, &short) {
			return err
		}
		if err := o.Export.WriteText(o.IO.Out, sum, func(w io.Writer) error { printSummary(w, sum); return nil }); err != nil {
			return err
		}
		if short != nil {
			return short
		}
		if n := len(sum.BadLines) + sum.Rejected + sum.Pending; n > 0 {
			return fmt.Errorf("%d not checked in: %s, %d rejected, %d not sent", n,
				plural(len(sum.BadLines), "bad line"), sum.Rejected, sum.Pending)
		}
		return nil
	})
}

func newCheckinListCmd(f *Factory, runF runFunc[checkinOptions]) *cobra.Command {
	o := &checkinOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:     "list EVENT_ID",
		Example: "  evdesk checkin list Hb8d7l7QX88AmGvnKn9SMZ\n  evdesk checkin list Hb8d7l7QX88AmGvnKn9SMZ -o csv > checkins.csv",
		Short:   "List the check-ins the server recorded for an event or session",
		Long: "List the check-ins the server recorded for an event or session.\n\n" +
			"The service records no time for a check-in; FIRST SEEN HERE is when a desk on this computer\n" +
			"(evdesk desk) first knew of it: its own scan's time, or the sync that found it (\"by\" a time\n" +
			"when it was found after a gap), and - when no desk here saw it. CSV gives that time in full\n" +
			"(RFC 3339, empty when unknown). JSON keeps the service's records.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			return run(cmd, o, runF, checkinListRun)
		},
	}
	cmd.Flags().StringVar(&o.SessionID, "session", "", "list the check-ins of this session (default: the whole event)")
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	registerEventSessionCompletions(f, cmd)
	return cmd
}

func checkinListRun(ctx context.Context, o *checkinOptions) error {
	return o.inSession(ctx, func(s *session) error {
		all := []api.AttendeeAction{}
		opts := api.ListAttendeeActionsOptions{PageSize: api.MaxAttendeesPerBatch}
		for a, err := range s.client.Attendees.List(ctx, o.EventID, o.SessionID, opts) {
			if err != nil {
				return err
			}
			all = append(all, a)
		}
		// The service keeps no times: show when a desk on this computer
		// first knew of each check-in, from the desks' arrivals cache (a
		// cache that cannot be read only costs the times).
		seen := roster.NewArrivals()
		if dir, err := checkinDir(s); err == nil {
			seen, _ = roster.LoadArrivals(roster.ArrivalsPath(dir, o.EventID, o.SessionID), o.EventID, o.SessionID)
		}
		now := o.Now()
		return o.Export.Write(o.IO.Out, all, func(csv bool) rows {
			r := rows{header: []string{"EMAIL", "ACTION", "SOURCE", "FIRST SEEN HERE"}}
			for _, a := range all {
				when := "-"
				if csv {
					when = ""
				}
				if ar, ok := seen.Lookup(a.Email); ok {
					when = ar.Seen(now, time.Local)
					if csv {
						when = fullTime(ar.At)
					}
				}
				r.cells = append(r.cells, []string{a.Email, a.Action, a.Source, when})
			}
			return r
		})
	})
}

// readImport reads the list of emails in FILE (or standard input for "-").
// Standard input is read apart from the command, so ctrl+c or SIGTERM ends
// a wait on a pipe that never closes (a read cannot be interrupted; the
// process leaves it behind as it exits).
func readImport(ctx context.Context, stdin io.Reader, name string) (*scanqueue.EmailList, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = readAllUntil(ctx, stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, fmt.Errorf("read the list of emails: %w", err)
	}
	return scanqueue.ParseEmailList(data), nil
}

// readAllUntil reads r to its end, or gives up when ctx ends.
func readAllUntil(ctx context.Context, r io.Reader) ([]byte, error) {
	type answer struct {
		data []byte
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		data, err := io.ReadAll(r)
		done <- answer{data, err}
	}()
	select {
	case a := <-done:
		return a.data, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// progressLine draws a one-line progress bar on a terminal; elsewhere it
// stays silent. (bubbles' progress needs a module go.sum lacks, harmonica;
// a text bar does the job.)
type progressLine struct {
	mu      sync.Mutex
	w       io.Writer
	on      bool
	total   int
	drawn   bool
	lastOut string
}

// barWidth is the progress bar's width in cells.
const barWidth = 30

// newProgressLine draws on terminal, or stays silent when it is nil. The
// bar writes its own line-clearing sequence straight to the terminal, past
// the sanitising writer; the text it shows is sanitised itself.
func newProgressLine(terminal io.Writer, total int) *progressLine {
	return &progressLine{w: terminal, on: terminal != nil, total: total}
}

// update may run on the sender's goroutine after finish: finish turns it off
// under the same lock.
func (p *progressLine) update(st scanqueue.Status) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on {
		return
	}
	done := max(0, p.total-st.Pending)
	pct := float64(done) / float64(max(1, p.total))
	n := int(pct * barWidth)
	bar := "[" + strings.Repeat("#", n) + strings.Repeat(".", barWidth-n) + "]"
	state := "sending"
	switch {
	case st.Pending == 0:
		state = "done"
	case st.State == scanqueue.Offline:
		state = "offline, retrying " + ui.ClockAt(st.RetryAt, time.Now(), time.Local)
	case st.State == scanqueue.Throttled:
		state = "slowed down by the server"
	case st.State == scanqueue.Blocked:
		state = "refused: " + oneLineErr(st.LastError)
	case st.State == scanqueue.Idle, st.State == scanqueue.Stopped:
		state = "done"
	}
	line := fmt.Sprintf("%s %d/%d sent · %s", bar, done, p.total, sanitize.Line(state))
	if line == p.lastOut {
		return
	}
	p.lastOut = line
	p.drawn = true
	fmt.Fprint(p.w, "\r\x1b[2K"+line)
}

func (p *progressLine) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprintln(p.w)
	}
	p.on = false
}

func oneLineErr(err error) string {
	if err == nil {
		return "no reason given"
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}

func printSummary(w io.Writer, sum venue.ImportSummary) {
	target := "event " + sum.EventID
	if sum.SessionID != "" {
		target += " session " + sum.SessionID
	}
	fmt.Fprintf(w, "Check-in of %s\n", target)
	if sum.Resent > 0 {
		fmt.Fprintf(w, "  left by earlier runs:  %d\n", sum.Resent)
	}
	if sum.Registered > 0 {
		fmt.Fprintf(w, "  registered first:      %d\n", sum.Registered)
	}
	fmt.Fprintf(w, "  recorded from list:    %d\n", sum.Recorded)
	fmt.Fprintf(w, "  checked in:            %d\n", sum.CheckedIn)
	fmt.Fprintf(w, "  already checked in:    %d\n", sum.Already)
	fmt.Fprintf(w, "  rejected:              %d\n", sum.Rejected)
	fmt.Fprintf(w, "  not sent yet:          %d\n", sum.Pending)
	fmt.Fprintf(w, "  bad lines:             %d\n", len(sum.BadLines))
	if len(sum.BadLines)+len(sum.Failed) == 0 {
		return
	}
	// In the list's order: earlier runs' scans (line 0) first, then by line.
	type item struct {
		line int
		text string
	}
	var items []item
	for _, b := range sum.BadLines {
		items = append(items, item{b.Line, fmt.Sprintf("line %d: %s", b.Line, b.Reason)})
	}
	for _, f := range sum.Failed {
		where := "earlier run: "
		if f.Line > 0 {
			where = fmt.Sprintf("line %d: ", f.Line)
		}
		items = append(items, item{f.Line, where + f.Email + ": " + f.Reason})
	}
	slices.SortStableFunc(items, func(a, b item) int { return a.line - b.line })
	fmt.Fprintln(w, "\nNot checked in:")
	for _, it := range items {
		fmt.Fprintln(w, "  "+it.text)
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
