package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/ui"
)

// statsLatest is how many of the latest arrivals `checkin stats` lists.
const statsLatest = 10

// checkinStats is what `evdesk checkin stats` prints: the arrivals board's
// figures.
type checkinStats struct {
	EventID   string `json:"event_id"`
	SessionID string `json:"session_id,omitempty"`
	roster.Stats
	// Sessions counts each session's check-ins (an event's stats only).
	Sessions []roster.SessionCount `json:"sessions,omitempty"`
	// Venue is the venue's desks, with --venue.
	Venue *venue.Info `json:"venue,omitempty"`
}

func newCheckinStatsCmd(f *Factory, runF runFunc[checkinOptions]) *cobra.Command {
	o := &checkinOptions{deps: f.deps()}
	var vf venueFlags
	cmd := &cobra.Command{
		Use: "stats EVENT_ID",
		Example: "  evdesk checkin stats Hb8d7l7QX88AmGvnKn9SMZ\n" +
			"  evdesk checkin stats Hb8d7l7QX88AmGvnKn9SMZ --session 9mSx2yUo1Jq3 -o json",
		Short: "Print the arrivals board's figures: checked in of registered, per desk, per 5 minutes",
		Long: "Print the figures of the arrivals board for scripts: check-ins against registrants,\n" +
			"check-ins per desk (the source each desk sends), arrivals per 5 minutes, the latest\n" +
			"arrivals and, for a whole event, each session's check-ins. The server's history\n" +
			"carries no times: a check-in is timed when a desk or board on this computer first\n" +
			"saw it, and counted as untimed otherwise. With --venue, the venue's check-ins take\n" +
			"the time their desk scanned them.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			return run(cmd, o, runF, func(ctx context.Context, o *checkinOptions) error {
				return o.inSession(ctx, func(s *session) error {
					dir, err := checkinDir(s)
					if err != nil {
						return err
					}
					placeNotes(s, o.IO.ErrOut, o.EventID, o.SessionID)
					// The venue first: it knows when its desks scanned.
					in, scanned, err := vf.watchOnce(ctx, dir, s.place.server, o.EventID, o.SessionID)
					if err != nil {
						return err
					}
					st, err := collectStats(ctx, s, o.EventID, o.SessionID, o.Now, scanned)
					if err != nil {
						return err
					}
					st.Venue = in
					return o.Export.WriteText(o.IO.Out, st, func(w io.Writer) error { printStats(w, st, time.Local); return nil })
				})
			})
		},
	}
	cmd.Flags().StringVar(&o.SessionID, "session", "", "the figures of this session (default: the whole event)")
	vf.addWatch(cmd)
	o.Export = addExporter(cmd, formatTable, formatJSON)
	registerEventSessionCompletions(f, cmd)
	return cmd
}

// collectStats syncs the check-in history (starting from the cache the desks
// on this computer keep, for its times, which it leaves as it is), takes the
// scan times of a venue's check-ins (scanned) and counts.
func collectStats(ctx context.Context, s *session, eventID, sessionID string, now func() time.Time, scanned []roster.Arrival) (checkinStats, error) {
	if _, _, err := resolveTarget(ctx, s, eventID, sessionID); err != nil {
		return checkinStats{}, err
	}
	dir, err := checkinDir(s)
	if err != nil {
		return checkinStats{}, err
	}
	arr, _ := roster.LoadArrivals(roster.ArrivalsPath(dir, eventID, sessionID), eventID, sessionID)
	if _, err := arr.Sync(ctx, s.client, eventID, sessionID, now); err != nil {
		return checkinStats{}, fmt.Errorf("read the check-in history: %w", err)
	}
	for _, a := range scanned {
		arr.Note(a.Email, a.Desk, a.At)
	}
	registered, err := roster.Registered(ctx, s.client, eventID)
	if err != nil {
		return checkinStats{}, fmt.Errorf("count the registrants: %w", err)
	}
	st := checkinStats{EventID: eventID, SessionID: sessionID, Stats: arr.Stats(now(), registered, statsLatest)}
	if sessionID == "" {
		if st.Sessions, err = roster.SessionCounts(ctx, s.client, eventID); err != nil {
			return checkinStats{}, err
		}
	}
	return st, nil
}

func printStats(w io.Writer, st checkinStats, local *time.Location) {
	target := "event " + st.EventID
	if st.SessionID != "" {
		target += " session " + st.SessionID
	}
	fmt.Fprintf(w, "Arrivals of %s\n", target)
	pct := ""
	if st.Registered > 0 {
		pct = " (" + ui.Percent(st.CheckedIn, st.Registered) + ")"
	}
	fmt.Fprintf(w, "  checked in:  %s of %s registered%s\n", ui.Thousands(st.CheckedIn), ui.Thousands(st.Registered), pct)
	if st.Untimed > 0 {
		fmt.Fprintf(w, "  untimed:     %s (found before this computer watched)\n", ui.Thousands(st.Untimed))
	}
	section := func(title string, header []string, rows [][]string) {
		fmt.Fprintf(w, "\n%s\n", title)
		if len(rows) == 0 {
			fmt.Fprintln(w, "  none")
			return
		}
		var buf strings.Builder
		_ = writeTable(&buf, rowsOf(header, rows))
		for _, l := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
			fmt.Fprintln(w, "  "+l)
		}
	}
	var rows [][]string
	for _, d := range st.PerDesk {
		rows = append(rows, []string{ui.OrDash(d.Desk), ui.Thousands(d.Count)})
	}
	section("Check-ins by desk", []string{"DESK", "CHECK-INS"}, rows)
	rows = nil
	for _, b := range st.Buckets {
		if b.Count > 0 {
			rows = append(rows, []string{b.Start.In(local).Format("2006-01-02 15:04"), ui.Thousands(b.Count)})
		}
	}
	section("Arrivals per 5 minutes (busy ones)", []string{"FROM", "ARRIVALS"}, rows)
	rows = nil
	for _, a := range st.Latest {
		rows = append(rows, []string{a.At.In(local).Format("15:04:05"), a.Email, ui.OrDash(a.Desk)})
	}
	section("Latest arrivals", []string{"AT", "EMAIL", "DESK"}, rows)
	if in := st.Venue; in != nil {
		up := ui.OrDash(in.Upstream)
		fmt.Fprintf(w, "\nVenue %s: %s, upstream %s, %d copies, %s to send\n", in.Name, in.State, up, in.Replicas, ui.Thousands(in.Queue))
		rows = nil
		for _, d := range in.Desks {
			role := ""
			switch {
			case d.Upstream:
				role = "upstream"
			case d.Alone:
				role = "alone"
			}
			rows = append(rows, []string{d.Name, ui.Thousands(d.Scans), ui.Thousands(d.Pending), ui.OrDash(role), d.Seen.In(local).Format("15:04:05")})
		}
		section("Desks of the venue", []string{"DESK", "SCANS", "WAITING", "ROLE", "LAST HEARD"}, rows)
		rows = nil
		for _, t := range in.Twice {
			rows = append(rows, []string{t.Email, t.First, t.Again, t.At.In(local).Format("15:04:05")})
		}
		if len(rows) > 0 {
			section("Admitted twice during a split", []string{"EMAIL", "FIRST", "AGAIN AT", "AT"}, rows)
		}
	}
	if st.SessionID == "" {
		rows = nil
		for _, ss := range st.Sessions {
			rows = append(rows, []string{ss.SessionID, ui.OrDash(ss.Name), ui.Thousands(ss.CheckedIn)})
		}
		section("Check-ins by session", []string{"SESSION", "NAME", "CHECK-INS"}, rows)
	}
}
