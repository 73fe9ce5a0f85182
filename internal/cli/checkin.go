package cli

import (
	"context"
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
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
)

// addCheckinCommands registers `evdesk desk` (the console opened on a
// check-in desk) and `evdesk checkin` (headless import and history).
func addCheckinCommands(root *cobra.Command, f *Factory) {
	root.AddCommand(newDeskCmd(f), newCheckinCmd(f))
}

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

func newCheckinCmd(f *Factory) *cobra.Command {
	var (
		sessionID, source, ticketType string
		wait                          time.Duration
		registerUnknown               bool
		out                           = newOutput("text", "json")
	)
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
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			var in *scanqueue.EmailList
			if len(args) == 2 {
				var err error
				if in, err = readImport(cmd.InOrStdin(), args[1]); err != nil {
					return err
				}
			}
			if wait <= 0 {
				return fmt.Errorf("--wait must be positive, such as 2m")
			}
			if cmd.Flags().Changed("ticket-type") && !registerUnknown {
				return fmt.Errorf("--ticket-type goes with --register-unknown: it is the ticket type of the people it registers")
			}
			if registerUnknown && in == nil {
				return fmt.Errorf("--register-unknown needs FILE: the list whose unknown addresses it registers")
			}
			if source == "" {
				source = hostSource("evdesk checkin")
			}
			terminal, _ := f.IOStreams.TerminalErr()
			return runImport(cmd.Context(), s, importJob{
				eventID: args[0], sessionID: sessionID, source: source, wait: wait, input: in,
				registerUnknown: registerUnknown, ticketType: ticketType,
				stdout: cmd.OutOrStdout(), stderr: cmd.ErrOrStderr(), terminal: terminal, json: out.value == "json",
			})
		}),
	}
	fl := cmd.Flags()
	fl.StringVar(&sessionID, "session", "", "check in to this session of the event (default: the whole event)")
	fl.StringVar(&source, "source", "", "source recorded with each check-in (default: evdesk checkin <hostname>)")
	fl.DurationVar(&wait, "wait", 2*time.Minute, "how long to keep trying while the server cannot be reached; what is left stays journaled")
	fl.VarP(out, "output", "o", "summary format: text or json")
	fl.BoolVar(&registerUnknown, "register-unknown", false, "register the addresses the event does not list (creating their tickets) before checking them in")
	fl.StringVar(&ticketType, "ticket-type", "", "with --register-unknown: the ticket type of the people it registers (default: the event's default)")
	cmd.AddCommand(newCheckinListCmd(f), newCheckinStatsCmd(f))
	return cmd
}

func newCheckinListCmd(f *Factory) *cobra.Command {
	var sessionID string
	out := newOutput("table", "json", "csv")
	cmd := &cobra.Command{
		Use:     "list EVENT_ID",
		Example: "  evdesk checkin list Hb8d7l7QX88AmGvnKn9SMZ\n  evdesk checkin list Hb8d7l7QX88AmGvnKn9SMZ -o csv > checkins.csv",
		Short:   "List the check-ins the server recorded for an event or session",
		Long: "List the check-ins the server recorded for an event or session.\n\n" +
			"The service records no time for a check-in; FIRST SEEN HERE is when a desk on this computer\n" +
			"(evdesk desk) first knew of it: its own scan's time, or the sync that found it (\"by\" a time\n" +
			"when it was found after a gap), and - when no desk here saw it. JSON keeps the service's records.",
		Args: cobra.ExactArgs(1),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			all := []api.AttendeeAction{}
			opts := api.ListAttendeeActionsOptions{PageSize: api.MaxAttendeesPerBatch}
			for a, err := range s.client.Attendees.List(cmd.Context(), args[0], sessionID, opts) {
				if err != nil {
					return err
				}
				all = append(all, a)
			}
			w := cmd.OutOrStdout()
			if out.value == "json" {
				return writeJSON(w, all)
			}
			// The service keeps no times: show when a desk on this computer
			// first knew of each check-in, from the desks' arrivals cache (a
			// cache that cannot be read only costs the times).
			seen, _ := roster.LoadArrivals(roster.ArrivalsPath(journalDir(s), args[0], sessionID), args[0], sessionID)
			now := time.Now()
			rows := make([][]string, len(all))
			for i, a := range all {
				when := "-"
				if ar, ok := seen.Lookup(a.Email); ok {
					when = ar.Seen(now, time.Local)
				}
				rows[i] = []string{a.Email, a.Action, a.Source, when}
			}
			return out.writeRows(w, []string{"EMAIL", "ACTION", "SOURCE", "FIRST SEEN HERE"}, rows)
		}),
	}
	cmd.Flags().StringVar(&sessionID, "session", "", "list the check-ins of this session (default: the whole event)")
	cmd.Flags().VarP(out, "output", "o", "output format: table, json or csv")
	return cmd
}

// readImport reads the list of emails in FILE (or standard input for "-").
func readImport(stdin io.Reader, name string) (*scanqueue.EmailList, error) {
	var data []byte
	var err error
	if name == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(name)
	}
	if err != nil {
		return nil, fmt.Errorf("read the list of emails: %w", err)
	}
	return scanqueue.ParseEmailList(data), nil
}

// importJob is one run of `evdesk checkin`.
type importJob struct {
	eventID, sessionID, source string
	wait                       time.Duration
	input                      *scanqueue.EmailList // nil: only send what is left
	stdout, stderr             io.Writer
	terminal                   io.Writer // standard error when a terminal, for the progress bar; else nil
	json                       bool
	// registerUnknown registers the list's unknown addresses first, with
	// ticketType (checkin_register.go).
	registerUnknown bool
	ticketType      string
}

// importSummary is the result of a run, as printed.
type importSummary struct {
	EventID   string `json:"event_id"`
	SessionID string `json:"session_id,omitempty"`
	Journal   string `json:"journal"`
	Resent    int    `json:"resent"` // unsent scans of earlier runs
	Recorded  int    `json:"recorded"`
	// Registered counts the people --register-unknown registered.
	Registered int                 `json:"registered,omitempty"`
	CheckedIn  int                 `json:"checked_in"`
	Already    int                 `json:"already_checked_in"`
	Rejected   int                 `json:"rejected"`
	Pending    int                 `json:"not_sent"`
	BadLines   []scanqueue.BadLine `json:"bad_lines"`
	Failed     []failedScan        `json:"failed"`
}

type failedScan struct {
	Email  string `json:"email"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

func runImport(ctx context.Context, s *session, job importJob) error {
	if _, _, err := resolveTarget(ctx, s, job.eventID, job.sessionID); err != nil {
		return err
	}
	j, err := scanqueue.Open(journalDir(s), job.eventID, job.sessionID)
	if err != nil {
		return err
	}
	defer j.Close()
	sum := importSummary{EventID: job.eventID, SessionID: job.sessionID, Journal: j.Path()}
	var short error // the list did not fit in the journal whole
	// The scans this run answers for: what earlier runs left, then the list.
	watch := map[string]int{} // scan id -> line (0: an earlier run's)
	var order []string
	for _, sc := range j.Pending(0) {
		watch[sc.ID] = 0
		order = append(order, sc.ID)
	}
	sum.Resent = len(order)
	if sum.Resent > 0 && !job.json {
		fmt.Fprintf(job.stderr, "Sending %d scans an earlier run or desk left unsent.\n", sum.Resent)
	}
	if in := job.input; in != nil {
		resolveScans(ctx, s, job.eventID, in)
		if job.registerUnknown {
			n, err := registerUnknown(ctx, s, job.eventID, job.sessionID, job.ticketType, in, job.stderr)
			if err != nil {
				return err
			}
			sum.Registered = n
		}
		sum.BadLines = in.Bad
		if len(in.Emails) > 0 {
			scans, err := j.ScanList(in.Emails, job.source)
			for i, sc := range scans {
				watch[sc.ID] = in.Lines[i]
				order = append(order, sc.ID)
			}
			sum.Recorded = len(scans)
			if err != nil && len(scans) == 0 {
				return fmt.Errorf("record the list in the journal: %w", err)
			}
			if err != nil {
				// What was recorded is sent; a rerun of the same list
				// records the rest (the recorded ones are found already).
				short = fmt.Errorf("%d of %d recorded (%v); run the same command again to finish", len(scans), len(in.Emails), err)
				fmt.Fprintln(job.stderr, "evdesk: "+short.Error())
			}
		}
	}
	if err := sendAll(ctx, s, j, job); err != nil {
		return err
	}
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
			sum.Failed = append(sum.Failed, failedScan{Email: sc.Email, Line: line, Reason: sc.Message})
		default:
			sum.Pending++
			sum.Failed = append(sum.Failed, failedScan{Email: sc.Email, Line: line,
				Reason: "not sent yet: kept in the journal; run evdesk checkin " + job.eventID + " again to send it"})
		}
	}
	if sum.BadLines == nil {
		sum.BadLines = []scanqueue.BadLine{}
	}
	if sum.Failed == nil {
		sum.Failed = []failedScan{}
	}
	if job.json {
		if err := writeJSON(job.stdout, sum); err != nil {
			return err
		}
	} else {
		printSummary(job.stdout, sum)
	}
	if short != nil {
		return short
	}
	if n := len(sum.BadLines) + sum.Rejected + sum.Pending; n > 0 {
		return fmt.Errorf("%d not checked in: %s, %d rejected, %d not sent", n,
			plural(len(sum.BadLines), "bad line"), sum.Rejected, sum.Pending)
	}
	return nil
}

// sendAll runs a sender until nothing is pending or job.wait runs out,
// showing progress on a terminal.
func sendAll(ctx context.Context, s *session, j *scanqueue.Journal, job importJob) error {
	total := j.Counts().Pending
	if total == 0 {
		return nil
	}
	bar := newProgressLine(job.terminal, total)
	client := s.senderClient
	if client == nil {
		client = s.client
	}
	snd, err := scanqueue.NewSender(j, scanqueue.SenderOptions{CheckIn: client.Attendees.CheckIn, OnStatus: bar.update})
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, job.wait)
	defer cancel()
	ferr := snd.Flush(wctx)
	st := snd.Status()
	_ = snd.Close()
	// The sender reports its status asynchronously and may not have
	// reported the last one yet: draw it, so the bar ends on the outcome.
	bar.update(st)
	bar.finish()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case ferr != nil && st.State == scanqueue.Stopped && st.LastError != nil:
		// The journal failed: what reached the server is unknown.
		return fmt.Errorf("send check-ins: %w", ferr)
	}
	// Out of time: the summary counts what is still pending.
	return nil
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

func printSummary(w io.Writer, sum importSummary) {
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
