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

// badgeOptions are `evdesk badge print`'s and `badge printers`' options.
type badgeOptions struct {
	deps
	Export *exporter
	// print
	EventID, Who      string // Who: an email, a ticket id or a ticket's QR link
	All               bool
	Printer, Out      string
	Layout            string
	Wait              time.Duration
	PrinterFlagChosen bool
	// printers
	Server string
	// Profile reads the profile's desk settings (badge_printer,
	// badge_layout) for commands that need no session.
	Profile func() (config.Desk, error)
}

func (f *Factory) badgeOptions() *badgeOptions {
	return &badgeOptions{deps: f.deps(), Profile: func() (config.Desk, error) {
		p, err := f.Profile(f.flags.profile)
		return p.Desk, err
	}}
}

// newBadgeCmd is `evdesk badge print|printers`.
func newBadgeCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "badge",
		Short: "Print attendees' badges, or write them to a PDF",
		Long: "Badges show the person's name (large), their company, the event, the ticket's role and the\n" +
			"ticket's QR code. The layout is the profile's badge_layout (4x3, 4x6, a6, 62mm, or a .toml\n" +
			"layout file); badges print over IPP through CUPS to the profile's badge_printer.",
	}
	cmd.AddCommand(newBadgePrintCmd(f, nil), newBadgePrintersCmd(f, nil))
	return cmd
}

func newBadgePrintCmd(f *Factory, runF runFunc[badgeOptions]) *cobra.Command {
	o := f.badgeOptions()
	cmd := &cobra.Command{
		Use: "print EVENT_ID (EMAIL|TICKET | --all) [--printer URI] [--out badge.pdf]",
		Example: "  evdesk badge print Hb8d7l7QX88AmGvnKn9SMZ ana@example.org\n" +
			"  evdesk badge print Hb8d7l7QX88AmGvnKn9SMZ UASe4Eg74boZ --out ana.pdf\n" +
			"  evdesk badge print Hb8d7l7QX88AmGvnKn9SMZ --all --out badges.pdf",
		Short: "Print one attendee's badge, or write every registrant's badge to one PDF",
		Long: "Print the badge of one attendee, named by email, ticket id or the ticket's QR link, to\n" +
			"--printer (default: the profile's badge_printer), or write it to --out (with --printer\n" +
			"too, both). With --all, every registrant's badge goes into one PDF (a page each) for\n" +
			"printing ahead of the event. Names come from the names the desks learned (walk-ins,\n" +
			"`evdesk roster names`); without a name a badge shows the address's local part.",
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.EventID = args[0]
			if len(args) == 2 {
				o.Who = args[1]
			}
			switch {
			case o.All && o.Who != "":
				return flagErrorf("give EMAIL|TICKET or --all, not both")
			case !o.All && o.Who == "":
				return flagErrorf("name the attendee (EMAIL or TICKET), or give --all for every registrant")
			}
			o.PrinterFlagChosen = cmd.Flags().Changed("printer")
			return run(cmd, o, runF, badgePrintRun)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.Printer, "printer", "", "CUPS queue, ipp://host:631/printers/NAME, or a printer's own ipp:// address (default: the profile's badge_printer)")
	fl.StringVar(&o.Out, "out", "", "write the PDF to this file (instead of printing, unless --printer is given too)")
	fl.StringVar(&o.Layout, "layout", "", "4x3, 4x6, a6, 62mm or a .toml layout (default: the profile's badge_layout, else 4x3)")
	fl.BoolVar(&o.All, "all", false, "every registrant's badge, a page each")
	fl.DurationVar(&o.Wait, "wait", 2*time.Minute, "how long to wait for the printer to finish")
	return cmd
}

func badgePrintRun(ctx context.Context, o *badgeOptions) error {
	return o.inSession(ctx, func(s *session) error {
		if o.Printer == "" && (o.Out == "" || o.PrinterFlagChosen) {
			o.Printer = s.desk.BadgePrinter
		}
		if o.Out == "" && o.Printer == "" {
			return flagErrorf("nowhere to print: give --printer URI (or set badge_printer in the profile), or --out FILE.pdf")
		}
		if o.Layout == "" {
			o.Layout = s.desk.BadgeLayout
		}
		layout, err := badge.LoadLayout(o.Layout)
		if err != nil {
			return err
		}
		eventName, _, err := resolveTarget(ctx, s, o.EventID, "")
		if err != nil {
			return err
		}
		ro, err := roster.Download(ctx, s.client, o.EventID, o.Now, nil)
		if err != nil {
			return fmt.Errorf("list the registrants: %w", err)
		}
		names, _ := roster.LoadNames(roster.NamesPath(journalDir(s), o.EventID), o.EventID)
		ro = ro.WithNames(names, nil)
		var people []badge.Badge
		if o.All {
			for _, p := range ro.People() {
				people = append(people, badgeOf(p, nil, eventName))
			}
			if len(people) == 0 {
				return fmt.Errorf("event %s has no registrants", o.EventID)
			}
		} else {
			found, err := roster.Resolve(ro, o.Who)
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
		w := o.IO.Out
		if o.Out != "" {
			if err := atomicfile.Write(o.Out, 0o644, func(out io.Writer) error { _, err := out.Write(pdf.Bytes()); return err }); err != nil {
				return fmt.Errorf("write %s: %w", o.Out, err)
			}
			fmt.Fprintf(w, "Wrote %s to %s (%s layout).\n", plural(len(people), "badge"), o.Out, layout.Name)
			if !o.PrinterFlagChosen {
				return nil
			}
		}
		return printPDF(ctx, w, o.Printer, pdf.Bytes(), people, o.Wait)
	})
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
func printPDF(ctx context.Context, w io.Writer, setting string, pdf []byte, people []badge.Badge, wait time.Duration) error {
	target, err := printing.ParseTarget(setting)
	if err != nil {
		return err
	}
	printer, err := printing.For(target, nil)
	if err != nil {
		return err
	}
	done := make(chan printing.Job, 8)
	q := printing.NewQueue(printing.Options{Printer: printer, Timeout: wait,
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

func newBadgePrintersCmd(f *Factory, runF runFunc[badgeOptions]) *cobra.Command {
	o := f.badgeOptions()
	cmd := &cobra.Command{
		Use:     "printers [--server HOST[:PORT]]",
		Example: "  evdesk badge printers\n  evdesk badge printers --server printhost.local:631",
		Short:   "List the printers CUPS offers (its queues and the printers it found on the network)",
		Long: "List the printers a CUPS server offers: its queues, and the IPP printers it found on the\n" +
			"network by DNS-SD. SETTING is what badge_printer takes to print there. Without --server,\n" +
			"the server of the profile's badge_printer, else this computer's CUPS.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return run(cmd, o, runF, badgePrintersRun) },
	}
	cmd.Flags().StringVar(&o.Server, "server", "", "the CUPS server to ask (host or host:port)")
	o.Export = addExporter(cmd, formatTable, formatJSON, formatCSV)
	return cmd
}

func badgePrintersRun(ctx context.Context, o *badgeOptions) error {
	server := o.Server
	if server == "" {
		// A profile that cannot be read only costs the default server.
		if d, err := o.Profile(); err == nil && d.BadgePrinter != "" {
			if t, err := printing.ParseTarget(d.BadgePrinter); err == nil {
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
	list, err := printing.ListPrinters(ctx, printing.Exec, server)
	if err != nil {
		return err
	}
	if list == nil {
		list = []printing.PrinterInfo{}
	}
	if len(list) == 0 && !o.Export.Is(formatJSON) {
		where := "this computer's CUPS"
		if server != "" {
			where = server
		}
		fmt.Fprintf(o.IO.Out, "No printers on %s. Add one with lpadmin, or name an IPP printer's queue.\n", where)
		return nil
	}
	return o.Export.Write(o.IO.Out, list, func(bool) rows {
		r := rows{header: []string{"PRINTER", "STATE", "DEVICE", "SETTING"}}
		for _, p := range list {
			state := p.State
			if p.Reason != "" {
				state += ": " + p.Reason
			}
			r.cells = append(r.cells, []string{p.Name, state, p.Device, p.Setting})
		}
		return r
	})
}

// rosterOptions are `evdesk roster names`' options.
type rosterOptions struct {
	deps
	EventID, File string
	// Dir is the journal folder the names are kept in.
	Dir func() (string, error)
}

// newRosterCmd is `evdesk roster names`.
func newRosterCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "roster", Short: "What this computer's check-in desks know of an event's registrants"}
	cmd.AddCommand(newRosterNamesCmd(f, nil))
	return cmd
}

func newRosterNamesCmd(f *Factory, runF runFunc[rosterOptions]) *cobra.Command {
	o := &rosterOptions{deps: f.deps(), Dir: func() (string, error) {
		if f.flags.demo {
			return "", flagErrorf("--demo keeps no names between runs: import names into a real profile's desks")
		}
		return filepath.Join(config.StateDir(), "journal"), nil
	}}
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
			o.EventID, o.File = args[0], args[1]
			return run(cmd, o, runF, rosterNamesRun)
		},
	}
	return cmd
}

func rosterNamesRun(_ context.Context, o *rosterOptions) error {
	var in io.Reader = o.IO.In
	if o.File != "-" {
		fh, err := os.Open(o.File)
		if err != nil {
			return err
		}
		defer fh.Close()
		if fi, err := fh.Stat(); err == nil && fi.Size() > roster.MaxNamesBytes {
			return fmt.Errorf("%s is %d MiB: at most %d MiB is read", o.File, fi.Size()>>20, roster.MaxNamesBytes>>20)
		}
		in = fh
	}
	names, bad, err := roster.ReadNamesCSV(in)
	if err != nil {
		return fmt.Errorf("%s: %w", o.File, err)
	}
	dir, err := o.Dir()
	if err != nil {
		return err
	}
	book, err := roster.AddNames(roster.NamesPath(dir, o.EventID), o.EventID, names)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.IO.Out, "Imported %s for event %s (%s known).\n", plural(len(names), "name"), sanitize.Line(o.EventID), plural(book.Len(), "name"))
	for _, b := range bad {
		fmt.Fprintln(o.IO.ErrOut, "evdesk: "+sanitize.Line(b.Error()))
	}
	if len(bad) > 0 {
		return errors.New(plural(len(bad), "line") + " left out")
	}
	return nil
}
