package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/checkin/mesh"
	"github.com/evdesk/evdesk/internal/checkin/place"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
	"github.com/evdesk/evdesk/internal/sanitize"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
)

func newVenueCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "venue",
		Short: "Set up a venue whose desks work as one (its secret file)",
		Long: "A venue's desks form one system: they agree on who is checked in with the\n" +
			"internet up or down, and one of them talks to the service for all. Every desk\n" +
			"of a venue needs the venue's secret file: make it once with `evdesk venue init`,\n" +
			"copy it to each desk (or draw it as a QR code that each desk's scanner reads:\n" +
			"`evdesk venue qr`, `evdesk venue import`), and open each desk with\n" +
			"`evdesk desk EVENT --venue FILE`.",
	}
	cmd.AddCommand(newVenueInitCmd(f, nil), newVenueQRCmd(f, nil), newVenueImportCmd(f, nil))
	return cmd
}

// venueInitOptions are venue init's: the venue's name, the file, and the
// server its desks check in to ("" in --demo, or without a usable
// profile).
type venueInitOptions struct {
	deps
	Name, Out, QR string
	Force         bool
	Server        func() string
}

func newVenueInitCmd(f *Factory, runF runFunc[venueInitOptions]) *cobra.Command {
	o := &venueInitOptions{deps: f.deps(), Server: func() string {
		if f.flags.demo { // the demo's server lives for one run
			return ""
		}
		if p, err := f.Profile(f.flags.profile); err == nil && config.CheckHTTPURL(p.BaseURL) == nil {
			return config.ServerKey(p.BaseURL)
		}
		return ""
	}}
	cmd := &cobra.Command{
		Use:   "init NAME --out FILE",
		Short: "Make a venue's secret file (the desks' keys and credentials)",
		Long: "Make a venue's secret file: the authority and the certificate the desks of the\n" +
			"venue show each other over TLS, and the credentials of the links between them.\n" +
			"Copy the file to every desk of the venue (keep it as you would a password): a\n" +
			"desk without it cannot join the venue, read its check-ins or write any.\n\n" +
			"The file records the server of the profile in use (its base_url): the desks of a\n" +
			"venue check in to one server, and a desk of another server is refused. Desks of\n" +
			"different servers or accounts never form one venue, whatever file they share.",
		Example: "  evdesk venue init \"Lisbon Congress Centre\" --out venue.json --qr venue-qr.png\n" +
			"  evdesk desk Hb8d7l7QX88AmGvnKn9SMZ --venue venue.json --desk \"Door A\"",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(o.Out) == "" {
				return flagErrorf("--out is required: the file to write the venue's secret to, such as venue.json")
			}
			o.Name = strings.TrimSpace(args[0])
			return run(cmd, o, runF, venueInitRun)
		},
	}
	cmd.Flags().StringVar(&o.Out, "out", "", "the file to write the venue's secret to (required)")
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace the file if it exists (desks with the old file can no longer join)")
	cmd.Flags().StringVar(&o.QR, "qr", "", "also draw the file as a QR code in this PNG, for each desk's scanner (evdesk venue import)")
	return cmd
}

func venueInitRun(_ context.Context, o *venueInitOptions) error {
	sec, err := mesh.NewSecret(o.Name)
	if err != nil {
		return err
	}
	sec.Server = o.Server()
	if err := sec.Write(o.Out, o.Force); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	out := o.IO.Out
	fmt.Fprintf(out, "venue %q (fingerprint %s) written to %s (0600)\n", sec.Name, sec.Fingerprint(), o.Out)
	if sec.Server != "" {
		fmt.Fprintf(out, "its desks check in to %s\n", sanitize.Line(sec.Server))
	}
	if o.QR != "" {
		if err := writeVenueQR(sec, o.QR, o.Force); err != nil {
			return fmt.Errorf("--qr: %w", err)
		}
		fmt.Fprintf(out, "its QR code drawn in %s (0600): at each desk, evdesk venue import --out %s, then scan it\n", o.QR, filepath.Base(o.Out))
	}
	fmt.Fprintf(out, "copy it to every desk of the venue, then: evdesk desk EVENT --venue %s\n", o.Out)
	return nil
}

// venueFlags are the desk's flags that join it to its venue.
type venueFlags struct {
	file, listen string
	join         []string
	noMDNS       bool
	arrivals     bool
	// engineLog hears the venue engine's own log (config.EnvMeshDebug),
	// or nil.
	engineLog func(string, ...any)
}

// meshDebugLog is where a venue engine's own log goes: log, when
// config.EnvMeshDebug is "1", else nowhere (nil).
func meshDebugLog(log *slog.Logger) func(string, ...any) {
	if os.Getenv(config.EnvMeshDebug) != "1" || log == nil {
		return nil
	}
	return func(format string, args ...any) { log.Info(fmt.Sprintf(format, args...)) }
}

func (v *venueFlags) add(cmd *cobra.Command) {
	v.addCommon(cmd, "join the desks of a venue, with its secret file (evdesk venue init)")
	cmd.Flags().BoolVar(&v.arrivals, "arrivals", false, "with --venue --headless: also write a line for each check-in another desk makes, when this desk learns of it")
}

// addCommon adds the flags that reach a venue; venue says what --venue
// does.
func (v *venueFlags) addCommon(cmd *cobra.Command, venue string) {
	fl := cmd.Flags()
	fl.StringVar(&v.file, "venue", "", venue)
	fl.StringVar(&v.listen, "listen", "", fmt.Sprintf("with --venue: where to listen for the venue's desks (default 0.0.0.0:%d)", mesh.DefaultPort))
	fl.StringSliceVar(&v.join, "join", nil, "with --venue: HOST:PORT of desks to reach (where the network blocks discovery)")
	fl.BoolVar(&v.noMDNS, "no-mdns", false, "with --venue: do not look for the venue's desks on the local network")
}

// check says what is wrong with the flags before anything starts.
func (v *venueFlags) check(cmd *cobra.Command) error {
	if v.file == "" {
		for _, name := range []string{"listen", "join", "no-mdns", "arrivals"} {
			if cmd.Flags().Changed(name) {
				return flagErrorf("--%s goes with --venue FILE (the venue's secret file)", name)
			}
		}
		return nil
	}
	if _, _, err := mesh.CheckListen(v.listen); err != nil {
		return &usageError{msg: err.Error(), err: err}
	}
	if _, err := mesh.CheckJoin(v.join); err != nil {
		return &usageError{msg: err.Error(), err: err}
	}
	return nil
}

// opener returns what makes the desk's membership of its venue, or nil
// without --venue. The secret is read at once, so a bad file stops the
// desk before it opens.
func (v *venueFlags) opener(journal string, srv place.Server, logf func(string, ...any), onArrival func(email, desk string, at time.Time)) (func(eventID, sessionID string) (venue.Venue, error), error) {
	if v.file == "" {
		return nil, nil
	}
	sec, err := v.secret(srv)
	if err != nil {
		return nil, err
	}
	return func(string, string) (venue.Venue, error) {
		n, err := mesh.Join(mesh.Options{Secret: sec, Dir: filepath.Join(journal, "venue", sec.ID),
			Listen: v.listen, Join: v.join, Discover: !v.noMDNS && len(v.join) == 0, OnArrival: onArrival, Logf: logf,
			EngineLog: v.engineLog})
		if err != nil {
			return nil, err
		}
		return n, nil
	}, nil
}

// watcher returns what makes a board's watch of its venue, or nil without
// --venue.
func (v *venueFlags) watcher(journal string, srv place.Server, logf func(string, ...any)) (func(eventID, sessionID string) (views.VenueWatch, error), error) {
	if v.file == "" {
		return nil, nil
	}
	sec, err := v.secret(srv)
	if err != nil {
		return nil, err
	}
	return func(eventID, sessionID string) (views.VenueWatch, error) {
		ob, err := mesh.Observe(mesh.Options{Secret: sec, Dir: filepath.Join(journal, "venue", sec.ID, "board"),
			Listen: v.listen, Join: v.join, Discover: !v.noMDNS && len(v.join) == 0, Logf: logf,
			EngineLog: v.engineLog}, eventID, sessionID)
		if err != nil {
			return nil, err
		}
		return ob, nil
	}, nil
}

// secret reads the venue file as a desk of server srv uses it (bound to
// the server and account; refused when the file is another server's).
func (v *venueFlags) secret(srv place.Server) (*mesh.Secret, error) {
	sec, err := mesh.ReadSecret(v.file)
	if err != nil {
		return nil, err
	}
	sec, err = sec.ForServer(config.ServerKey(srv.BaseURL), srv.Short())
	if err != nil {
		return nil, fmt.Errorf("--venue %s: %s", v.file, sanitize.Line(err.Error()))
	}
	return sec, nil
}

// addWatch adds the flags of a command that watches a venue without being
// a desk of it (checkin stats).
func (v *venueFlags) addWatch(cmd *cobra.Command) {
	v.addCommon(cmd, "also show the venue's desks, with its secret file (evdesk venue init)")
}

// venueWait bounds how long a command waits to see its venue.
const venueWait = 30 * time.Second

// watchOnce joins the venue as a watcher, waits until it has heard from
// its desks and the upstream desk (at most venueWait), and leaves with the
// venue's state and its check-ins at their scan times; nil without
// --venue.
func (v *venueFlags) watchOnce(ctx context.Context, journal string, srv place.Server, eventID, sessionID string) (*venue.Info, []roster.Arrival, error) {
	open, err := v.watcher(filepath.Join(journal, "stats"), srv, nil)
	if err != nil || open == nil {
		return nil, nil, err
	}
	w, err := open(eventID, sessionID)
	if err != nil {
		return nil, nil, err
	}
	defer w.Close()
	ctx, cancel := context.WithTimeout(ctx, venueWait)
	defer cancel()
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		in := w.Info()
		scanned, loaded := w.Admissions()
		if in.State == "meshed" && in.Upstream != "" && len(in.Desks) > 0 && loaded {
			return &in, scanned, nil
		}
		select {
		case <-ctx.Done():
			if in.State != "meshed" {
				hint := "; if the network blocks discovery, name a desk with --join HOST:PORT (its --listen address)"
				if len(v.join) > 0 {
					hint = "; check that the desks named by --join are running and reachable from here"
				}
				return nil, nil, fmt.Errorf("--venue: no desk of venue %q answered within %v (%s)%s", in.Name, venueWait, ui.OrDash(in.Err), hint)
			}
			return &in, scanned, nil
		case <-t.C:
		}
	}
}
