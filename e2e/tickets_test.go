package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
)

// TestDeskScansATicketQRCode runs the desk against `evdesk sim`, scans the
// QR link of a speaker's ticket taken from the server's registrants (over
// HTTP), and again: the box names the ticket, the second scan is ALREADY
// CHECKED IN, and the server holds the holder's email once.
func TestDeskScansATicketQRCode(t *testing.T) {
	t.Parallel()
	requireCheckinCommands(t)
	id, _ := largeEvent()
	vars, _ := startSim(t)
	c, err := api.New(api.WithBaseURL(vars["EVDESK_BASE_URL"]), api.WithToken(vars["EVDESK_TOKEN"]))
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.Attendees.RegistrantsPage(context.Background(), id, api.ListRegistrantsOptions{PageSize: 300}, "")
	if err != nil {
		t.Fatal(err)
	}
	var who api.Registrant
	for _, r := range l.Registrants {
		if len(r.Tickets) > 0 && r.Tickets[0].Role == "SPEAKER" && r.Tickets[0].QRCodeURL != "" {
			who = r
			break
		}
	}
	if who.Email == "" {
		t.Fatal("no speaker with a QR code on the first page")
	}
	tk := who.Tickets[0]
	env := append(isolatedEnv(t), "EVDESK_BASE_URL="+vars["EVDESK_BASE_URL"], "EVDESK_TOKEN="+vars["EVDESK_TOKEN"])
	tm := startTermEnv(t, 100, 30, env, "desk", id, "--desk", "Door-T")
	tm.waitText("CHECK-IN DESK", "ONLINE", "roster 20,000")

	tm.scan(tk.QRCodeURL, "Enter")
	tm.waitText("[OK] CHECKED IN", who.Email, "ticket "+tk.TicketID+" · SPEAKER · via ticket link", "This desk today 1")
	tm.scan(tk.QRCodeURL, "Enter")
	tm.waitText("ALREADY CHECKED IN", "first scanned")
	tm.keys("C-c")
	if st := tm.exitStatus(); st != "0" {
		t.Fatalf("exit status %s", st)
	}

	out, err := runCLI(env, "checkin", "list", id, "-o", "json")
	if err != nil {
		t.Fatalf("checkin list: %v\n%s", err, out)
	}
	var all []struct {
		Email  string `json:"email"`
		Source string `json:"source"`
	}
	if err := json.Unmarshal(out, &all); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	n := 0
	for _, a := range all {
		if strings.EqualFold(a.Email, who.Email) {
			n++
			if a.Source != "Door-T" {
				t.Errorf("source %q", a.Source)
			}
		}
	}
	if n != 1 || len(all) != 1 {
		t.Fatalf("%s checked in %d times; %d check-ins in all", who.Email, n, len(all))
	}
}
