package checkin

import (
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/config"
	"github.com/evdesk/evdesk/internal/checkin/printing"
	"github.com/evdesk/evdesk/internal/checkin/printing/cupstest"
)

// withPrinter prints to uri, and follows jobs every 50 ms.
func withPrinter(uri, mode string) rigOpt {
	return func(c *rigConfig) {
		c.extras.Printer, c.extras.PrintBadges = uri, mode
		c.printPoll = 50 * time.Millisecond
	}
}

// TestDeskPrintsBadgesOnARealPrinter: with print_badges = "always", each
// confirmed check-in prints the person's badge on a real CUPS server over
// IPP; the job arrives and reads as their name. A printer that stops
// (out of paper) fails the job with its reason while the desk goes on
// checking people in; F7 retries it once the printer is back; a printer
// that is switched off fails the next job, and the desk still scans.
func TestDeskPrintsBadgesOnARealPrinter(t *testing.T) {
	srv := cupstest.Start(t)
	cupstest.Need(t, "pdftotext")
	r := newRig(t, withSize(100, 30), withPrinter(srv.QueueURI(), config.PrintAlways))
	r.settle("ONLINE", "roster 20,000")
	speaker := r.holderWith("SPEAKER", 0)
	r.scan(speaker.ticket.QRCodeURL)
	r.settle("[OK] CHECKED IN", "badge: PRINTED")
	docs := srv.WaitDocuments(1)
	local := strings.Split(speaker.email, "@")[0]
	if text := cupstest.PDFText(t, docs[0]); !strings.Contains(text, local) || !strings.Contains(text, "Speaker") {
		t.Fatalf("the badge reads:\n%s", text)
	}

	srv.Disable("Out of paper")
	second := r.holderWith("ATTENDEE", 0)
	r.scan(second.email)
	r.settle("[OK] CHECKED IN", "badge: PRINT FAILED (F7 retries): the printer stopped: Out of paper")
	third := r.holderWith("ATTENDEE", 1)
	r.scan(third.email) // the desk goes on
	r.settle("[OK] CHECKED IN", third.email)
	srv.Enable()
	r.scan(second.email)
	r.settle("ALREADY CHECKED IN", "PRINT FAILED")
	r.Send(fkey(7))
	r.settle("badge: PRINTED")
	if r.checkIns(second.email) != 1 {
		t.Fatalf("%s checked in %d times", second.email, r.checkIns(second.email))
	}

	// Offline, a person the roster lists gets their badge at once: the
	// desk admits them, and the badge does not wait for the network.
	offline := r.holderWith("ATTENDEE", 4)
	r.srv.down()
	r.scan(offline.email)
	r.settle("QUEUED OFFLINE", "badge: PRINTED")
	r.srv.up()
	r.Send(ctrl('r'))
	r.settle("[OK] CHECKED IN", "badge: PRINTED")
	if n := len(srv.Documents()); n != 5 {
		t.Fatalf("%d documents at the server, want 5 (printed once each, the withdrawn one kept)", n)
	}

	srv.Stop()
	fourth := r.holderWith("ATTENDEE", 2)
	r.scan(fourth.email)
	r.settle("[OK] CHECKED IN", "PRINT FAILED (F7 retries): print server "+srv.Addr+" does not answer")
	r.scan(r.holderWith("ATTENDEE", 3).email)
	r.settle("[OK] CHECKED IN")
}

// With print_badges = "ask" the result box offers F7; without a printer F7
// says how to name one.
func TestPrintingAsksAndExplains(t *testing.T) {
	r := newRig(t, withSize(100, 30))
	r.settle("ONLINE")
	h := r.holderWith("ATTENDEE", 0)
	r.scan(h.email)
	r.settle("[OK] CHECKED IN")
	r.Lacks("F7")
	r.Send(fkey(7))
	r.Contains("No badge printer: set badge_printer in the profile")

	// A printer nobody answers at: with CUPS here the job fails with the
	// reason; without it, the desk says what to install.
	r2 := newRig(t, withSize(100, 30), withPrinter("ipp://127.0.0.1:9/printers/Badges", config.PrintAsk))
	r2.settle("ONLINE")
	r2.scan(h.email)
	r2.settle("[OK] CHECKED IN", "F7: print their badge")
	r2.Send(fkey(7))
	if printing.HaveCUPS() != nil {
		r2.Contains("Badges cannot print: printing needs the CUPS client commands")
		return
	}
	r2.settle("PRINT FAILED (F7 retries): print server 127.0.0.1:9 does not answer")
}
