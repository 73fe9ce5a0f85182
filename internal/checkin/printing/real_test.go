package printing

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/badge"
	"github.com/evdesk/evdesk/internal/checkin/printing/cupstest"
)

// TestRealPrintServer prints badges over IPP to a real CUPS scheduler on
// loopback, through a CUPS queue (lp) and straight to the printer's address
// (ipptool): each job arrives and reads as the person's name; a stopped
// printer, one that refuses jobs, and one switched off each leave the job
// failed with the server's reason, and a retry prints it once the printer
// is back.
func TestRealPrintServer(t *testing.T) {
	for _, via := range []string{"lp", "ipptool"} {
		t.Run(via, func(t *testing.T) {
			srv := cupstest.Start(t)
			cupstest.Need(t, "pdftotext")
			var printer Printer
			if via == "lp" {
				target, err := ParseTarget(srv.QueueURI())
				if err != nil {
					t.Fatal(err)
				}
				printer = &CUPS{Target: target}
			} else {
				cupstest.Need(t, "ipptool")
				printer = &IPPTool{URI: srv.QueueURI()}
			}
			exercise(t, srv, printer)
		})
	}
}

func exercise(t *testing.T, srv *cupstest.Server, printer Printer) {
	layout, err := badge.LoadLayout("4x3")
	if err != nil {
		t.Fatal(err)
	}
	render := func(name string) func() ([]byte, error) {
		return func() ([]byte, error) {
			var buf bytes.Buffer
			err := layout.Render(&buf, badge.Badge{Name: name, Event: "Launch", Code: "tk_" + strings.Fields(name)[0]})
			return buf.Bytes(), err
		}
	}
	ch := make(chan Job, 64)
	q := NewQueue(Options{Printer: printer, OnChange: func(j Job) { ch <- j },
		PollEvery: 100 * time.Millisecond, Timeout: 30 * time.Second})
	defer q.Close()

	q.Print("ana@example.org", "Ana Costa", render("Ana Costa"))
	if j := until(t, ch, Printed); j.ServerID == "" {
		t.Fatalf("printed %+v", j)
	}
	docs := srv.WaitDocuments(1)
	if text := cupstest.PDFText(t, docs[0]); !strings.Contains(text, "Ana Costa") {
		t.Fatalf("the job reads:\n%s", text)
	}

	// Out of paper: the job waits at the server, the queue reports the
	// printer's reason and withdraws the job; a retry prints it.
	srv.Disable("Out of paper")
	j := q.Print("bo@example.org", "Bo Li", render("Bo Li"))
	if f := until(t, ch, Failed); f.Reason != "the printer stopped: Out of paper" {
		t.Fatalf("stopped: %+v", f)
	}
	srv.Enable()
	if _, err := q.Retry(j.ID); err != nil {
		t.Fatal(err)
	}
	until(t, ch, Printed)
	docs = srv.WaitDocuments(3) // the withdrawn one is kept by the server too
	if text := cupstest.PDFText(t, docs[2]); !strings.Contains(text, "Bo Li") {
		t.Fatalf("the retried job reads:\n%s", text)
	}

	// A queue that refuses jobs.
	srv.Reject("Printer full")
	q.Print("cy@example.org", "Cy Ng", render("Cy Ng"))
	if f := until(t, ch, Failed); !strings.Contains(f.Reason, "not accepting jobs") {
		t.Fatalf("refused: %+v", f)
	}
	srv.Accept()

	// Switched off: the server does not answer.
	srv.Stop()
	q.Print("di@example.org", "Di Fox", render("Di Fox"))
	if f := until(t, ch, Failed); !strings.Contains(f.Reason, "does not answer") || !strings.Contains(f.Reason, srv.Addr) {
		t.Fatalf("off: %+v", f)
	}
}

// TestListPrintersOfARealServer lists the server's queue with the setting
// that prints to it.
func TestListPrintersOfARealServer(t *testing.T) {
	srv := cupstest.Start(t)
	list, err := ListPrinters(t.Context(), Exec, srv.Addr)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Setting != srv.QueueURI() || list[0].State != "idle" || list[0].Device == "" {
		t.Fatalf("%+v", list)
	}
	srv.Disable("Jammed")
	list, _ = ListPrinters(t.Context(), Exec, srv.Addr)
	if list[0].State != "stopped" || list[0].Reason != "Jammed" {
		t.Fatalf("%+v", list)
	}
}
