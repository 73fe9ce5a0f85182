package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/printing/cupstest"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
)

// startSim serves a simulator that keeps its state across commands, and
// points the profile at it.
func startSim(t *testing.T) *sim.Server {
	t.Helper()
	srv, err := sim.Start("127.0.0.1:0", sim.Options{NoRateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	t.Setenv("EVDESK_BASE_URL", srv.URL())
	t.Setenv("EVDESK_TOKEN", sim.DemoToken)
	t.Setenv("EVDESK_RATE_LIMIT", "1000")
	return srv
}

// Names imported from a CSV are on the badge: `evdesk roster names`, then
// `evdesk badge print ... --out`; an address with no name gets its local
// part. `--all` writes a page per registrant.
func TestRosterNamesAndBadgeToFile(t *testing.T) {
	dir := isolateXDG(t)
	srv := startSim(t)
	ev := demoFixtures().UpcomingEventID
	regs := firstRegistrants(t, srv.URL(), ev)
	csv := filepath.Join(dir, "names.csv")
	content := "Email,First Name,Last Name,Company\n" + regs[0].Email + ",Zoë,Ångström,Fjord AS\nnot-an-email,X,Y,Z\n"
	if err := os.WriteFile(csv, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := execute(t, "roster", "names", ev, csv)
	if err == nil || !strings.Contains(out, "Imported 1 name") || !strings.Contains(stderr, "line 3: email") {
		t.Fatalf("names: %v\n%s%s", err, out, stderr)
	}
	pdf := filepath.Join(dir, "one.pdf")
	out, stderr, err = execute(t, "badge", "print", ev, regs[0].Email, "--out", pdf)
	if err != nil || !strings.Contains(out, "Wrote 1 badge to "+pdf+" (4x3 layout)") {
		t.Fatalf("print: %v\n%s%s", err, out, stderr)
	}
	b, _ := os.ReadFile(pdf)
	if !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Fatal("not a PDF")
	}
	if os.Getenv(cupstest.EnvRealPrint) != "" {
		if text := cupstest.PDFText(t, b); !strings.Contains(text, "Zoë Ångström") || !strings.Contains(text, "Fjord AS") {
			t.Fatalf("the badge reads:\n%s", text)
		}
	}
	all := filepath.Join(dir, "all.pdf")
	out, stderr, err = execute(t, "badge", "print", ev, "--all", "--out", all, "--layout", "62mm")
	if err != nil || !strings.Contains(out, "(62mm layout)") {
		t.Fatalf("--all: %v\n%s%s", err, out, stderr)
	}
	b, _ = os.ReadFile(all)
	if pages := bytes.Count(b, []byte("/Type /Page\n")); pages < len(regs) {
		t.Fatalf("%d pages for at least %d registrants", pages, len(regs))
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"badge", "print", ev, "nobody@example.org", "--out", pdf}, "is not on the event's registrants"},
		{[]string{"badge", "print", ev}, "name the attendee (EMAIL or TICKET), or give --all"},
		{[]string{"badge", "print", ev, regs[0].Email}, "nowhere to print: give --printer URI"},
		{[]string{"badge", "print", ev, regs[0].Email, "--printer", "http://x/printers/a"}, `the scheme is "http"`},
		{[]string{"badge", "print", ev, regs[0].Email, "--out", pdf, "--layout", "5x7"}, "not a built-in layout"},
	} {
		if _, _, err := execute(t, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.args, err, tc.want)
		}
	}
}

// `evdesk register --first --last` teaches this computer's desks the
// name: the badge shows it.
func TestRegisterTeachesTheDesksTheName(t *testing.T) {
	dir := isolateXDG(t)
	startSim(t)
	ev := demoFixtures().UpcomingEventID
	if out, stderr, err := execute(t, "register", ev, "--email", "yuki@example.org", "--first", "山田", "--last", "太郎"); err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderr)
	}
	book, err := roster.LoadNames(roster.NamesPath(filepath.Join(dir, "xdg_state_home", "evdesk", "journal"), ev), ev)
	if err != nil {
		t.Fatal(err)
	}
	if nm, _ := book.Lookup("yuki@example.org"); nm.Full() != "山田 太郎" {
		t.Fatalf("the desks learned %+v", nm)
	}
	pdf := filepath.Join(dir, "yuki.pdf")
	if out, stderr, err := execute(t, "badge", "print", ev, "yuki@example.org", "--out", pdf); err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderr)
	}
	if os.Getenv(cupstest.EnvRealPrint) != "" {
		b, _ := os.ReadFile(pdf)
		if text := cupstest.PDFText(t, b); !strings.Contains(text, "山田 太郎") {
			t.Fatalf("the badge reads:\n%s", text)
		}
	}
}

// `evdesk checkin --register-unknown` registers the addresses the event
// does not list, then checks everyone in.
func TestCheckinRegistersUnknownAddresses(t *testing.T) {
	dir := isolateXDG(t)
	srv := startSim(t)
	ev := demoFixtures().UpcomingEventID
	regs := firstRegistrants(t, srv.URL(), ev)
	list := filepath.Join(dir, "door.txt")
	if err := os.WriteFile(list, []byte(regs[0].Email+"\nnew.one@example.org\nnew.two@example.org\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := execute(t, "checkin", ev, list, "--ticket-type", "x"); err == nil || !strings.Contains(err.Error(), "--ticket-type goes with --register-unknown") {
		t.Fatalf("--ticket-type alone: %v", err)
	}
	out, stderr, err := execute(t, "checkin", ev, list, "--register-unknown", "-o", "json")
	var sum venue.ImportSummary
	if jerr := json.Unmarshal([]byte(out), &sum); jerr != nil || err != nil {
		t.Fatalf("%v %v\n%s%s", jerr, err, out, stderr)
	}
	if sum.Registered != 2 || sum.CheckedIn != 3 || !strings.Contains(stderr, "Registered 2 unknown addresses") {
		t.Fatalf("%+v\n%s", sum, stderr)
	}
	// A ticket type the event lacks is refused before anything is sent.
	if _, _, err := execute(t, "checkin", ev, list, "--register-unknown", "--ticket-type", "nope"); err == nil ||
		!strings.Contains(err.Error(), `--ticket-type "nope": no such ticket type`) {
		t.Fatalf("unknown type: %v", err)
	}
	// An event whose form requires answers refuses the registration:
	// nobody on the list is checked in.
	q := demoFixtures().QuestionsEventID
	if err := os.WriteFile(list, []byte(firstRegistrants(t, srv.URL(), q)[0].Email+"\nnew.three@example.org\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, err = execute(t, "checkin", q, list, "--register-unknown")
	if err == nil || !strings.Contains(err.Error(), "nothing was checked in") || strings.Contains(out, "checked in:            1") {
		t.Fatalf("refused: %v\n%s%s", err, out, stderr)
	}
}

// `evdesk badge printers` lists a real CUPS server's queue, and `evdesk
// badge print` prints on it.
func TestBadgeCommandsOnARealPrinter(t *testing.T) {
	cups := cupstest.Start(t)
	cupstest.Need(t, "pdftotext")
	isolateXDG(t)
	srv := startSim(t)
	ev := demoFixtures().UpcomingEventID
	regs := firstRegistrants(t, srv.URL(), ev)
	out, _, err := execute(t, "badge", "printers", "--server", cups.Addr)
	if err != nil || !strings.Contains(out, "Badges") || !strings.Contains(out, cups.QueueURI()) {
		t.Fatalf("printers: %v\n%s", err, out)
	}
	out, stderr, err := execute(t, "badge", "print", ev, regs[1].Email, "--printer", cups.QueueURI())
	if err != nil || !strings.Contains(out, "Printed 1 badge on Badges on "+cups.Addr) {
		t.Fatalf("print: %v\n%s%s", err, out, stderr)
	}
	docs := cups.WaitDocuments(1)
	local := strings.Split(regs[1].Email, "@")[0]
	if text := cupstest.PDFText(t, docs[0]); !strings.Contains(text, local) {
		t.Fatalf("the job reads:\n%s", text)
	}
}
