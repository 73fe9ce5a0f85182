package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/checkin/place"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/checkin"
)

// hostName names a desk by default: the machine it runs on.
func hostName() string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return checkin.DefaultDesk
}

// checkinEnv builds what the check-in screens need from a session: the
// journals and caches live in the folder of its server (place.go). A folder
// refused as another server's stops the console; one that cannot be made
// (a read-only disk) is left to the desk to report when it opens.
func checkinEnv(s *session) (views.Env, error) {
	dir, err := checkinDir(s)
	if errors.Is(err, place.ErrOtherServer) {
		return views.Env{}, err
	}
	var elsewhere func(eventID, sessionID string) []string
	if err != nil {
		s.log.Warn("check-in folder", "err", err)
		dir = filepath.Join(place.ServersDir(checkinRoot(s)), place.FolderName(s.place.server))
	} else {
		elsewhere = s.place.place.Elsewhere
	}
	return views.Env{
		Client:     s.client,
		JournalDir: dir,
		Desks: views.Desks{
			SenderClient: s.senderClient,
			Elsewhere:    elsewhere,
			Desk:         hostName(),
			Extras: views.Extras{
				WalkIns: s.desk.WalkInsAllowed(false), Printer: s.desk.BadgePrinter, PrintBadges: s.desk.PrintBadges,
				BadgeLayout: s.desk.BadgeLayout, OnCheckin: s.desk.OnCheckin, Log: s.log,
			},
		},
	}, nil
}

// maxDeskName bounds a desk's name: it is shown on every desk's screen.
const maxDeskName = 40

// checkDeskName says what is wrong with a --desk value, or nil.
func checkDeskName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return flagErrorf("--desk is blank: name the desk, such as \"Door A\" (default: this computer's name)")
	case len([]rune(name)) > maxDeskName:
		return flagErrorf("--desk is %d characters long: keep it to %d, such as \"Door A\"", len([]rune(name)), maxDeskName)
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return flagErrorf("--desk holds a control character: use letters, digits, spaces and punctuation")
	}
	return nil
}

// deskOptions are the desk's: its flags, the console's session (opened
// when the run asks) and the console it runs in.
type deskOptions struct {
	deps
	EventID, SessionID string
	Desk               string // --desk, when given ("": this computer's name)
	Board, Kiosk       bool
	Headless           bool
	// Wait is how long a headless desk waits, once its input ends, for
	// the service's verdicts on the scans it sent.
	Wait  time.Duration
	Venue venueFlags
	// OpenConsole opens the console's session; RunConsole runs the console
	// on it with the desk's screen.
	OpenConsole func(context.Context) (*session, error)
	RunConsole  func(context.Context, *session, ...ui.Option) error
}

func newDeskCmd(f *Factory, runF runFunc[deskOptions]) *cobra.Command {
	o := &deskOptions{deps: f.deps(), RunConsole: f.runConsole,
		OpenConsole: func(ctx context.Context) (*session, error) { return f.OpenSession(ctx, f.flags, forConsole) }}
	var desk string
	cmd := &cobra.Command{
		Use: "desk EVENT_ID",
		Example: "  evdesk desk Hb8d7l7QX88AmGvnKn9SMZ --desk \"Door A\"\n" +
			"  evdesk desk Hb8d7l7QX88AmGvnKn9SMZ --session 9mSx2yUo1Jq3\n" +
			"  evdesk desk Hb8d7l7QX88AmGvnKn9SMZ --board\n" +
			"  EVDESK_KIOSK_PIN=246813 evdesk desk Hb8d7l7QX88AmGvnKn9SMZ --kiosk\n" +
			"  # then scan an email, a ticket's QR code (https://events.vendor.example/qr?t=UASe4Eg74boZ),\n" +
			"  # a bare ticket id (UASe4Eg74boZ), or a badge's mailto:, vCard or MECARD code",
		Short: "Open the console straight on the check-in desk of an event",
		Long: "Open the console on the check-in desk of an event, or of one of its sessions\n" +
			"with --session. Scans are journaled on this computer before they are shown as\n" +
			"recorded, and sent in the background. The desk keeps the event's registrants\n" +
			"(the roster) and the check-ins of every desk beside its journal, so it answers\n" +
			"at once, online or offline, and names the desk that checked a person in first.\n" +
			"Each desk has a name (--desk, default this computer's name), sent with its\n" +
			"check-ins. --board shows the arrivals board alone, for a supervisor's screen.\n" +
			"--kiosk keeps the desk on screen: leaving takes ctrl+k and the PIN, from the\n" +
			"profile's kiosk_pin or " + config.EnvKioskPIN + " (6 to 12 digits); five wrong PINs in a\n" +
			"row make it wait 30 s, doubling with each further one. A kiosk offers the public no\n" +
			"registrant search unless the profile says kiosk_search = true (then names only, partly\n" +
			"masked), and shows only the latest scan, for a few seconds.\n\n" +
			"What the desk can scan. Besides a typed or printed email, the desk reads what a\n" +
			"handheld scanner types from a ticket or badge: the ticket's QR link (any http(s)\n" +
			"link whose query holds t=, ticket= or ticket_id=, or whose path ends in /qr/<id>),\n" +
			"a bare ticket id, a mailto: link with one address, a vCard or MECARD contact with\n" +
			"an email in it, and any link with an email= parameter. Tickets are found through\n" +
			"the event's roster, so they work offline too; a ticket the roster does not list is\n" +
			"answered in words and never sent. Anything else is answered with what was read and\n" +
			"what the desk expects.",
		Args:        cobra.ExactArgs(1),
		Annotations: map[string]string{interactive: "yes"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkDeskName(desk); cmd.Flags().Changed("desk") && err != nil {
				return err
			}
			if cmd.Flags().Changed("desk") {
				o.Desk = strings.TrimSpace(desk)
			}
			if o.Board && o.Kiosk {
				return flagErrorf("--board and --kiosk do not go together: --kiosk locks a desk that scans; the board scans nothing")
			}
			if cmd.Flags().Changed("wait") && (!o.Headless || o.Wait < 0) {
				return flagErrorf("--wait goes with --headless, as a duration of 0 or more, such as 30s")
			}
			if o.Headless && (o.Board || o.Kiosk) {
				return flagErrorf("--headless goes alone: it reads scans on standard input and has no screen for --board or --kiosk")
			}
			if err := o.Venue.check(cmd); err != nil {
				return err
			}
			o.EventID = args[0]
			return run(cmd, o, runF, deskRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.SessionID, "session", "", "check in to this session of the event (default: the whole event)")
	fl.StringVar(&desk, "desk", "", "this desk's name, sent with its check-ins and shown to the other desks (default: this computer's name)")
	fl.BoolVar(&o.Board, "board", false, "show the arrivals board only (a supervisor's screen; records nothing)")
	fl.BoolVar(&o.Headless, "headless", false, "no screen: read scans on standard input, one a line, and write each answer as a JSON line")
	fl.DurationVar(&o.Wait, "wait", 30*time.Second, "with --headless: once standard input ends, how long to wait for the service's verdicts (0: exit at once)")
	o.Venue.add(cmd)
	fl.BoolVar(&o.Kiosk, "kiosk", false, "keep the desk on screen: leaving takes ctrl+k and the PIN ("+config.EnvKioskPIN+" or the profile's kiosk_pin)")
	return cmd
}

func deskRun(ctx context.Context, o *deskOptions) error {
	board, kiosk, sessionID, vf := o.Board, o.Kiosk, o.SessionID, &o.Venue
	s, err := o.OpenConsole(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	vf.engineLog = meshDebugLog(s.log)
	if s.readOnly != "" && !board {
		return fmt.Errorf("a desk records check-ins, and this session is read-only (%s): open the arrivals board with --board", s.readOnly)
	}
	if kiosk && s.kioskPIN == "" {
		return fmt.Errorf("--kiosk needs a PIN to unlock the desk: set %s, or kiosk_pin in profile %q of %s (6 to 12 digits)",
			config.EnvKioskPIN, s.profile, config.Path())
	}
	eventID := o.EventID
	eventName, sessionName, err := resolveTarget(ctx, s, eventID, sessionID)
	if err != nil {
		return err
	}
	deps, err := checkinEnv(s)
	if err != nil {
		return err
	}
	if o.Desk != "" {
		deps.Desk = o.Desk
	}
	if o.Headless {
		return openHeadless(ctx, o.IO, s, deps, vf, eventID, sessionID, o.Wait)
	}
	logf := func(format string, args ...any) { s.log.Info(fmt.Sprintf(format, args...)) }
	if board {
		deps.WatchVenue, err = vf.watcher(deps.JournalDir, s.place.server, logf)
	} else {
		deps.Venue, err = vf.opener(deps.JournalDir, s.place.server, logf, nil)
	}
	if err != nil {
		return err
	}
	if kiosk {
		deps.KioskPIN, deps.KioskSearch = s.kioskPIN, s.kioskSearch
		deps.Extras.WalkIns = s.desk.WalkInsAllowed(true)
	}
	open := func(c *ui.Context) ui.Screen {
		return checkin.NewDesk(c, deps, eventID, eventName, sessionID, sessionName)
	}
	if board {
		open = func(c *ui.Context) ui.Screen { return checkin.NewBoard(c, deps, eventID, eventName, sessionID) }
	}
	return o.RunConsole(ctx, s, ui.WithSection("Check-in"), ui.WithInitialScreen(open))
}

// openHeadless opens the desk without a screen and answers scans from
// standard input until it ends (or a signal): `evdesk desk --headless`.
func openHeadless(ctx context.Context, ios *IOStreams, s *session, deps views.Env, vf *venueFlags, eventID, sessionID string, wait time.Duration) error {
	vs := newVerdicts()
	o := venue.Options{Dir: deps.JournalDir, EventID: eventID, SessionID: sessionID, Name: deps.Desk,
		Client: s.client, CheckIn: s.senderClient.Attendees.CheckIn, OnAck: vs.onAck}
	out := newLineWriter(ios.Out)
	var tap func(email, desk string, at time.Time)
	if vf.arrivals {
		tap = func(email, desk string, at time.Time) {
			_ = out.write(arrivalLine{Kind: "arrival", Email: email, Desk: sanitize.Line(desk), At: at, Known: time.Now()})
		}
	}
	errOut := ios.ErrOut
	placeNotes(s, errOut, eventID, sessionID)
	logf := func(format string, args ...any) {
		s.log.Info(fmt.Sprintf(format, args...))
		fmt.Fprintf(errOut, "%s %s\n", time.Now().Format("15:04:05.000"), sanitize.Line(fmt.Sprintf(format, args...)))
	}
	open, err := vf.opener(deps.JournalDir, s.place.server, logf, tap)
	if err != nil {
		return err
	}
	if open != nil {
		v, err := open(eventID, sessionID)
		if err != nil {
			return err
		}
		o.Venue = v
	}
	d, err := venue.Open(o)
	if err != nil {
		if o.Venue != nil {
			_ = o.Venue.Close()
		}
		return err
	}
	defer d.Close()
	err = runHeadless(ctx, d, ios.In, out, vs, wait)
	if n := vs.unanswered(); err == nil && n > 0 {
		fmt.Fprintf(errOut, "%s not answered by the service yet: kept in this desk's journal, sent when the desk next runs\n",
			plural(n, "scan"))
	}
	return err
}
