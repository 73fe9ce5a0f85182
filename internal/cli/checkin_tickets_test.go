package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/checkin/roster"
	"github.com/evdesk/evdesk/internal/checkin/venue"
)

// firstRegistrants lists the first page of an event's registrants from the
// server at url, over HTTP.
func firstRegistrants(t *testing.T, url, eventID string) []api.Registrant {
	t.Helper()
	c, err := api.New(api.WithBaseURL(url), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.Attendees.RegistrantsPage(context.Background(), eventID, api.ListRegistrantsOptions{PageSize: 20}, "")
	if err != nil {
		t.Fatal(err)
	}
	return l.Registrants
}

// A list may hold what a scanner reads from tickets and badges: ticket
// links and ids are found on the roster (downloaded for the run, and
// cached for the desks), badges give their address; an unknown ticket is
// reported with its line and never sent.
func TestCheckinFileWithTicketsAndBadges(t *testing.T) {
	dir, url := startPhoneSim(t)
	t.Setenv("EVDESK_RATE_LIMIT", "1000") // the roster's 67 pages, not paced to the service's 30 a second
	ev := demoFixtures().LargeConferenceEventID
	regs := firstRegistrants(t, url, ev)
	list := filepath.Join(dir, "scans.txt")
	content := strings.Join([]string{
		regs[0].Tickets[0].QRCodeURL,                      // 1: a ticket link
		regs[1].Tickets[0].TicketID,                       // 2: a bare ticket id
		"mailto:" + strings.ToUpper(regs[2].Email),        // 3: a badge's mailto link
		"MECARD:N:Doe,Ann;EMAIL:" + regs[3].Email + ";;",  // 4
		"https://events.vendor.example/qr?t=ZZe4Eg74boQ9", // 5: not on the roster
		regs[4].Email,               // 6: a plain email
		"Registration desk",         // 7: garbage
		regs[0].Tickets[0].TicketID, // 8: the first ticket again
	}, "\n") + "\n"
	if err := os.WriteFile(list, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := execute(t, "checkin", ev, list, "-o", "json")
	if err == nil {
		t.Fatalf("the unknown ticket and the garbage must fail the run:\n%s%s", out, stderr)
	}
	var sum venue.ImportSummary
	if jerr := json.Unmarshal([]byte(out), &sum); jerr != nil {
		t.Fatalf("%v\n%s", jerr, out)
	}
	if sum.Recorded != 6 || sum.CheckedIn != 5 || sum.Already != 1 || len(sum.BadLines) != 2 {
		t.Fatalf("summary %+v", sum)
	}
	if b := sum.BadLines[0]; b.Line != 5 || b.Text != "ticket ZZe4Eg74boQ9" ||
		!strings.HasPrefix(b.Reason, "ticket ZZe4Eg74boQ9 is not on this event's roster (updated ") || !strings.HasSuffix(b.Reason, "; not sent") {
		t.Fatalf("unknown ticket %+v", b)
	}
	if b := sum.BadLines[1]; b.Line != 7 || !strings.Contains(b.Reason, `read "Registration desk"; expected an email, a ticket QR code or a ticket id`) {
		t.Fatalf("garbage %+v", b)
	}

	// The server holds each holder once, and nothing for the unknown ticket.
	out, _, err = execute(t, "checkin", "list", ev, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var list2 []api.AttendeeAction
	if err := json.Unmarshal([]byte(out), &list2); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	seen := map[string]int{}
	for _, a := range list2 {
		seen[a.Email]++
	}
	for _, r := range regs[:5] {
		if seen[api.NormalizeEmail(r.Email)] != 1 {
			t.Fatalf("%s checked in %d times; all: %v", r.Email, seen[r.Email], seen)
		}
	}
	if len(seen) != 5 {
		t.Fatalf("check-ins %v", seen)
	}
	// The roster the run downloaded is the desks' cache now.
	ro, err := roster.Load(roster.CachePath(serverDir(t), ev), ev)
	if err != nil || ro == nil || ro.Len() != 20000 {
		t.Fatalf("roster cache: %v", err)
	}

	// Text output names the line.
	out, _, _ = execute(t, "checkin", ev, list)
	if !strings.Contains(out, "line 5: ticket ZZe4Eg74boQ9 is not on this event's roster") {
		t.Fatalf("text summary:\n%s", out)
	}

	// A ticket sold after the cached roster was taken: the run asks the
	// server again and finds it.
	c, err := api.New(api.WithBaseURL(url), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Registration.CreateTickets(context.Background(), ev,
		&api.TicketsRequest{Tickets: []api.TicketRequest{{Email: "late.comer@example.org", FirstName: "Late", LastName: "Comer"}}})
	if err != nil || len(res.Tickets) != 1 || res.Tickets[0].QRCodeURL == "" {
		t.Fatalf("%+v %v", res, err)
	}
	if err := os.WriteFile(list, []byte(res.Tickets[0].QRCodeURL+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, stderr, err := execute(t, "checkin", ev, list); err != nil || !strings.Contains(out, "checked in:            1") {
		t.Fatalf("new ticket: %v\n%s%s", err, out, stderr)
	}
}

// The roster is downloaded only when a line may be a ticket; once cached,
// it answers for a run whose server cannot be reached: the ticket's holder
// is journaled, to be sent by a later run.
func TestCheckinFileRosterOnlyWhenNeededAndOffline(t *testing.T) {
	dir := isolateXDG(t)
	srv, err := sim.Start("127.0.0.1:0", sim.Options{NoRateLimit: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	t.Setenv("EVDESK_BASE_URL", srv.URL())
	t.Setenv("EVDESK_TOKEN", sim.DemoToken)
	t.Setenv("EVDESK_RATE_LIMIT", "1000")
	ev := demoFixtures().LargeConferenceEventID
	regs := firstRegistrants(t, srv.URL(), ev)
	cache := roster.CachePath(serverDir(t), ev)
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}

	if out, stderr, err := execute(t, "checkin", ev, write("emails.txt", regs[0].Email)); err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderr)
	}
	if _, err := os.Stat(cache); !os.IsNotExist(err) {
		t.Fatalf("a list of emails downloaded the roster: %v", err)
	}
	if out, stderr, err := execute(t, "checkin", ev, write("one.txt", regs[1].Tickets[0].QRCodeURL)); err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderr)
	}

	srv.Close()
	out, _, err := execute(t, "checkin", ev, write("two.txt", regs[2].Tickets[0].TicketID), "--wait", "100ms", "-o", "json")
	var sum venue.ImportSummary
	if jerr := json.Unmarshal([]byte(out), &sum); jerr != nil || err == nil {
		t.Fatalf("%v %v\n%s", jerr, err, out)
	}
	if sum.Recorded != 1 || sum.Pending != 1 || len(sum.BadLines) != 0 || sum.Failed[0].Email != api.NormalizeEmail(regs[2].Email) {
		t.Fatalf("offline summary %+v", sum)
	}
}

// `evdesk desk --help` says what the desk can scan.
func TestDeskHelpSaysWhatCanBeScanned(t *testing.T) {
	isolateXDG(t)
	out, _, err := execute(t, "desk", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"What the desk can scan", "QR link", "t=, ticket= or ticket_id=", "/qr/<id>",
		"bare ticket id", "mailto:", "vCard or MECARD", "email= parameter", "work offline too", "what the desk expects"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("desk --help lacks %q:\n%s", want, out)
		}
	}
}
