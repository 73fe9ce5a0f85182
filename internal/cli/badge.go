package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/atomicfile"
	"github.com/evdesk/evdesk/internal/checkin/badge"
	"github.com/evdesk/evdesk/internal/checkin/printing"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// addBadgeCommands adds `evdesk badge print|printers` and `evdesk roster
// names`.
func addBadgeCommands(root *cobra.Command, f *Factory) {
	b := &cobra.Command{
		Use:   "badge",
		Short: "Print attendees' badges, or write them to a PDF",
		Long: "Badges show the person's name (large), their company, the event, the ticket's role and the\n" +
			"ticket's QR code. The layout is the profile's badge_layout (4x3, 4x6, a6, 62mm, or a .toml\n" +
			"layout file); badges print over IPP through CUPS to the profile's badge_printer.",
	}
	b.AddCommand(newBadgePrintCmd(f), newBadgePrintersCmd(f))
	r := &cobra.Command{Use: "roster", Short: "What check-in desks know of an event's registrants"}
	r.AddCommand(newRosterNamesCmd(f))
	root.AddCommand(b, r)
}

func newBadgePrintCmd(f *Factory) *cobra.Command {
	var printer, outFile, layoutName string
	var all bool
	var wait time.Duration
	cmd := &cobra.Command{
		Use: "print EVENT_ID (EMAIL|TICKET | --all) [--printer URI] [--out badge.pdf]",
		Example: "  evdesk badge print Hb8d7l7QX88AmGvnKn9SMZ ana@example.org\n" +
			"  evdesk badge print Hb8d7l7QX88AmGvnKn9SMZ UASe4Eg74boZ --out ana.pdf\n" +
			"  evdesk badge print Hb8d7l7QX88AmGvnKn9SMZ --all --out badges.pdf",
		Short: "Print one attendee's badge, or write every registrant's badge to one PDF",
		Long: "Print the badge of one attendee, named by email, ticket id or the ticket's QR link, to\n" +
			"--printer (default: the profile's badge_printer), or write it to --out. With --all, every\n" +
			"registrant's badge goes into one PDF (a page each) for printing ahead of the event.\n" +
			"Names come from the names the desks learned (walk-ins, `evdesk roster names`); without a\n" +
			"name a badge shows the address's local part.",
		Args: cobra.RangeArgs(1, 2),
		RunE: f.withSession(func(cmd *cobra.Command, args []string, s *session) error {
			switch {
			case all && len(args) == 2:
				return errors.New("give EMAIL|TICKET or --all, not both")
			case !all && len(args) == 1:
				return errors.New("name the attendee (EMAIL or TICKET), or give --all for every registrant")
			}
			if printer == "" {
				printer = s.desk.BadgePrinter
			}
			if outFile == "" && printer == "" {
				return errors.New("nowhere to print: give --printer URI (or set badge_printer in the profile), or --out FILE.pdf")
			}
			if layoutName == "" {
				layoutName = s.desk.BadgeLayout
			}
			layout, err := badge.LoadLayout(layoutName)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			eventID := args[0]
			eventName, _, err := resolveTarget(ctx, s, eventID, "")
			if err != nil {
				return err
			}
			ro, err := roster.Download(ctx, s.client, eventID, time.Now, nil)
			if err != nil {
				return fmt.Errorf("list the registrants: %w", err)
			}
			names, _ := roster.LoadNames(roster.NamesPath(journalDir(s), eventID), eventID)
			ro = ro.WithNames(names, nil)
			var people []badge.Badge
			if all {
				for _, p := range ro.People() {
					people = append(people, badgeOf(p, nil, eventName))
				}
				if len(people) == 0 {
					return fmt.Errorf("event %s has no registrants", eventID)
				}
			} else {
				found, err := roster.Resolve(ro, args[1])
				if err != nil {
					return err
				}
				if found.Person == nil {
					return fmt.Errorf("%s is not on the event's registrants: register them first (evdesk register)", sanitize.Line(found.Email))
				}
				people = append(people, badgeOf(*found.Person, found.Ticket, eventName))
			}
			var pdf bytes.Buffer
			if err := layout.Render(&pdf, people...); err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if outFile != "" {
				if err := atomicfile.Write(outFile, 0o644, func(out io.Writer) error { _, err := out.Write(pdf.Bytes()); return err }); err != nil {
					return fmt.Errorf("write %s: %w", outFile, err)
				}
				fmt.Fprintf(w, "Wrote %s to %s (%s layout).\n", plural(len(people), "badge"), outFile, layout.Name)
				if !cmd.Flags().Changed("printer") {
					return nil // --out alone writes; with --printer it prints too
				}
			}
			return printPDF(ctx, w, printer, pdf.Bytes(), people, wait)
		}),
	}
	fl := cmd.Flags()
	fl.StringVar(&printer, "printer", "", "CUPS queue or ipp://host:631/printers/NAME (default: the profile's badge_printer)")
	fl.StringVar(&outFile, "out", "", "write the PDF to this file instead of printing")
	fl.StringVar(&layoutName, "layout", "", "4x3, 4x6, a6, 62mm or a .toml layout (default: the profile's badge_layout, else 4x3)")
	fl.BoolVar(&all, "all", false, "every registrant's badge, a page each")
	fl.DurationVar(&wait, "wait", 2*time.Minute, "how long to wait for the printer to finish")
	return cmd
}

// badgeOf is a registrant's badge: their name or their address's local
// part, company, the ticket scanned or their first, and its code.
func badgeOf(p roster.Person, t *roster.Ticket, eventName string) badge.Badge {
	b := badge.Badge{Name: badge.NameOrLocal(p.Name, p.Email), Company: p.Company, Event: eventName}
	if t == nil && len(p.Tickets) > 0 {
		t = &p.Tickets[0]
	}
	if t != nil {
		b.Role, b.Code = t.Role, t.QRCodeURL
		if b.Code == "" {
			b.Code = t.ID
		}
	}
	return b
}

// printPDF sends the PDF to the printer and waits until it printed.
func printPDF(ctx context.Context, w io.Writer, printer string, pdf []byte, people []badge.Badge, wait time.Duration) error {
	target, err := printing.ParseTarget(printer)
	if err != nil {
		return err
	}
	if err := printing.HaveCUPS(); err != nil {
		return err
	}
	done := make(chan printing.Job, 8)
	q := printing.NewQueue(printing.Options{Printer: &printing.CUPS{Target: target}, Timeout: wait,
		OnChange: func(j printing.Job) {
			if j.State == printing.Printed || j.State == printing.Failed {
				done <- j
			}
		}})
	defer q.Close()
	label := people[0].Name
	if len(people) > 1 {
		label = plural(len(people), "badge")
	}
	q.Print("cli", label, func() ([]byte, error) { return pdf, nil })
	select {
	case j := <-done:
		if j.State == printing.Failed {
			return fmt.Errorf("not printed on %s: %s", target, j.Reason)
		}
		fmt.Fprintf(w, "Printed %s on %s (job %s).\n", plural(len(people), "badge"), target, sanitize.Line(j.ServerID))
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func newBadgePrintersCmd(f *Factory) *cobra.Command {
	var server string
	out := newOutput("table", "json")
	cmd := &cobra.Command{
		Use:     "printers [--server HOST[:PORT]]",
		Example: "  evdesk badge printers\n  evdesk badge printers --server printhost.local:631",
		Short:   "List the printers CUPS offers (its queues and the printers it found on the network)",
		Long: "List the printers a CUPS server offers: its queues, and the IPP printers it found on the\n" +
			"network by DNS-SD. SETTING is what badge_printer takes to print there. Without --server,\n" +
			"the server of the profile's badge_printer, else this computer's CUPS.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if server == "" {
				if p, err := f.loadDeskSettings(); err == nil && p.BadgePrinter != "" {
					if t, err := printing.ParseTarget(p.BadgePrinter); err == nil {
						server = t.Server
					}
				}
			}
			if server != "" {
				if _, _, err := net.SplitHostPort(server); err != nil {
					server = net.JoinHostPort(server, "631")
				}
			}
			if err := printing.HaveCUPS(); err != nil {
				return err
			}
			list, err := printing.ListPrinters(cmd.Context(), printing.Exec, server)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if out.value == "json" {
				if list == nil {
					list = []printing.PrinterInfo{}
				}
				return writeJSON(w, list)
			}
			if len(list) == 0 {
				where := "this computer's CUPS"
				if server != "" {
					where = server
				}
				fmt.Fprintf(w, "No printers on %s. Add one with lpadmin, or name an IPP printer's queue.\n", where)
				return nil
			}
			rows := make([][]string, len(list))
			for i, p := range list {
				state := p.State
				if p.Reason != "" {
					state += ": " + p.Reason
				}
				rows[i] = []string{p.Name, state, p.Device, p.Setting}
			}
			return out.writeRows(w, []string{"PRINTER", "STATE", "DEVICE", "SETTING"}, rows)
		},
	}
	cmd.Flags().StringVar(&server, "server", "", "the CUPS server to ask (host or host:port)")
	cmd.Flags().VarP(out, "output", "o", "output format: table or json")
	return cmd
}

// loadDeskSettings reads the profile's desk settings without opening a
// session (listing printers needs no account).
func (f *Factory) loadDeskSettings() (deskSettings, error) {
	p, err := config.LoadProfile(f.flags.profile)
	if err != nil {
		return deskSettings{}, err
	}
	return deskSettings{BadgePrinter: p.Desk.BadgePrinter}, nil
}

type deskSettings struct{ BadgePrinter string }

func newRosterNamesCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "names EVENT_ID FILE|-",
		Example: "  evdesk roster names Hb8d7l7QX88AmGvnKn9SMZ attendees.csv",
		Short:   "Import attendees' names for the desks' search, result box and badges",
		Long: "Import names for an event's registrants (the registrants list carries none): a CSV of\n" +
			"email, first, last, company, as the provider's console exports it, with or without a header\n" +
			"(a header may order the columns otherwise: email, first name, last name, company or\n" +
			"organization). The names are kept beside the desks' roster on this computer; a later\n" +
			"name for an address replaces the earlier. Lines that cannot be read are listed with their\n" +
			"number, and make the exit status 1.",
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var in io.Reader = cmd.InOrStdin()
			if args[1] != "-" {
				fh, err := openCapped(args[1], roster.MaxNamesBytes)
				if err != nil {
					return err
				}
				defer fh.Close()
				in = fh
			}
			names, bad, err := roster.ReadNamesCSV(in)
			if err != nil {
				return fmt.Errorf("%s: %w", args[1], err)
			}
			dir, err := f.journalDirNoSession()
			if err != nil {
				return err
			}
			book, err := roster.AddNames(roster.NamesPath(dir, args[0]), args[0], names)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "Imported %s for event %s (%s known).\n", plural(len(names), "name"), sanitize.Line(args[0]), plural(book.Len(), "name"))
			for _, b := range bad {
				fmt.Fprintln(cmd.ErrOrStderr(), "evdesk: "+sanitize.Line(b.Error()))
			}
			if len(bad) > 0 {
				return fmt.Errorf("%s left out", plural(len(bad), "line"))
			}
			return nil
		},
	}
	return cmd
}

// openCapped opens a file that must be no larger than limit.
func openCapped(path string, limit int64) (io.ReadCloser, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if fi, err := fh.Stat(); err == nil && fi.Size() > limit {
		fh.Close()
		return nil, fmt.Errorf("%s is %d MiB: at most %d MiB is read", path, fi.Size()>>20, limit>>20)
	}
	return fh, nil
}

// journalDirNoSession is the journal folder for a command that needs no
// account (the demo keeps its journals only while it runs).
func (f *Factory) journalDirNoSession() (string, error) {
	if f.flags.demo {
		return "", errors.New("--demo keeps no names between runs: import names into a real profile's desks")
	}
	return filepath.Join(config.StateDir(), "journal"), nil
}
