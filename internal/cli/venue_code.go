package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	xterm "github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/evdesk/evdesk/internal/atomicfile"
	"github.com/evdesk/evdesk/internal/checkin/mesh"
	"github.com/evdesk/evdesk/internal/qrcode"
)

// A venue's file travels to a desk as a file, or as a QR code that the
// desk's own 2D scanner reads and types into `evdesk venue import`.

// qrScale is the pixels a module of a venue's QR code takes: about 8 cm
// across at 300 dpi for a code of 150 modules.
const qrScale = 6

// writeVenueQR writes the QR code of sec's code to path as a PNG (0600:
// it is the venue's secret).
func writeVenueQR(sec *mesh.Secret, path string, force bool) error {
	if _, err := os.Stat(path); err == nil && !force {
		return fmt.Errorf("%s exists: replace it with --force", path)
	}
	code, err := sec.Code()
	if err != nil {
		return err
	}
	m, err := qrcode.Encode(code, qrcode.Low)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, 0o600, func(w io.Writer) error { return qrcode.WritePNG(w, m, qrScale) })
}

type venueQROptions struct {
	deps
	File, Out string
	Force     bool
}

func newVenueQRCmd(f *Factory, runF runFunc[venueQROptions]) *cobra.Command {
	o := &venueQROptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:   "qr FILE --out IMAGE.png",
		Short: "Draw a venue's file as a QR code, for desks to scan",
		Long: "Draw a venue's secret file as a QR code (a PNG): at each desk, run\n" +
			"`evdesk venue import --out venue.json` and scan the code with the desk's 2D\n" +
			"scanner. The code is the venue's secret, as the file is: show it only to the\n" +
			"desks, and destroy a printed one after.",
		Example: "  evdesk venue qr venue.json --out venue-qr.png",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(o.Out) == "" {
				return flagErrorf("--out is required: the PNG to draw the code in, such as venue-qr.png")
			}
			o.File = args[0]
			return run(cmd, o, runF, venueQRRun)
		},
	}
	cmd.Flags().StringVar(&o.Out, "out", "", "the PNG to draw the code in (required)")
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace the PNG if it exists")
	return cmd
}

func venueQRRun(_ context.Context, o *venueQROptions) error {
	sec, err := mesh.ReadSecret(o.File)
	if err != nil {
		return err
	}
	if err := writeVenueQR(sec, o.Out, o.Force); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	fmt.Fprintf(o.IO.Out, "the QR code of venue %q written to %s (0600); at each desk: evdesk venue import --out venue.json, then scan it\n", sec.Name, o.Out)
	return nil
}

type venueImportOptions struct {
	deps
	Out   string
	Force bool
}

func newVenueImportCmd(f *Factory, runF runFunc[venueImportOptions]) *cobra.Command {
	o := &venueImportOptions{deps: f.deps()}
	cmd := &cobra.Command{
		Use:   "import --out FILE",
		Short: "Save a venue's file from its QR code, scanned at the desk",
		Long: "Read a venue's code from standard input, one line (scan the QR code that\n" +
			"`evdesk venue init --qr` or `evdesk venue qr` drew with the desk's 2D scanner,\n" +
			"or paste the code), check it and save it as the venue's file. On a terminal the\n" +
			"code is not shown as it is typed: it is the venue's secret.",
		Example: "  evdesk venue import --out venue.json\n" +
			"  evdesk desk Hb8d7l7QX88AmGvnKn9SMZ --venue venue.json --desk \"Door A\"",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if strings.TrimSpace(o.Out) == "" {
				return flagErrorf("--out is required: the file to save the venue's secret to, such as venue.json")
			}
			return run(cmd, o, runF, venueImportRun)
		},
	}
	cmd.Flags().StringVar(&o.Out, "out", "", "the file to save the venue's secret to (required)")
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace the file if it exists")
	return cmd
}

func venueImportRun(_ context.Context, o *venueImportOptions) error {
	if _, err := os.Stat(o.Out); err == nil && !o.Force {
		return fmt.Errorf("--out: %s exists: keep it, or replace it with --force", o.Out)
	}
	if o.IO.CanPrompt() {
		fmt.Fprintln(o.IO.ErrOut, "Scan the venue's QR code now (or paste its code, then Enter):")
	}
	line, err := readCodeLine(o.IO)
	if err != nil {
		return err
	}
	sec, err := mesh.SecretFromCode(line)
	if err != nil {
		return err
	}
	if err := sec.Write(o.Out, o.Force); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	fmt.Fprintf(o.IO.Out, "venue %q (fingerprint %s) saved to %s (0600)\n", sec.Name, sec.Fingerprint(), o.Out)
	fmt.Fprintf(o.IO.Out, "open this desk with: evdesk desk EVENT --venue %s --desk NAME\n", o.Out)
	return nil
}

// maxCodeLine bounds the line a code is read from.
const maxCodeLine = 16 << 10

// readCodeLine reads one line of standard input, not echoed when it is a
// terminal, and at most maxCodeLine bytes.
func readCodeLine(s *IOStreams) (string, error) {
	if f, ok := s.In.(*os.File); ok && s.CanPrompt() {
		b, err := xterm.ReadPassword(f.Fd())
		fmt.Fprintln(s.ErrOut)
		if err != nil {
			return "", fmt.Errorf("read the code: %w", err)
		}
		return checkedLine(string(b))
	}
	line, err := bufio.NewReaderSize(io.LimitReader(s.In, maxCodeLine+1), 4096).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read the code: %w", err)
	}
	return checkedLine(line)
}

// checkedLine refuses a line too long or empty to be a code.
func checkedLine(line string) (string, error) {
	if len(line) > maxCodeLine {
		return "", fmt.Errorf("the line is over %d bytes long: a venue's code is under %d", maxCodeLine, maxCodeLine)
	}
	if strings.TrimSpace(line) == "" {
		return "", errors.New("no code read: scan the venue's QR code, or give its code on standard input")
	}
	return line, nil
}
