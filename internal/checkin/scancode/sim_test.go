package scancode

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

// TestSimulatorTickets reads every ticket of the simulator's large
// conference as the desk's scanner would: its QR link, its bare id and its
// holder's email. A bare id that happens to be shaped like a word (about 1
// in 70,000) would be refused; its link would still read.
func TestSimulatorTickets(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC) }
	s := sim.New(sim.Options{Now: now, NoRateLimit: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0), api.WithClock(now))
	if err != nil {
		t.Fatal(err)
	}
	tickets, links, wordShaped := 0, 0, 0
	for r, err := range c.Attendees.Registrants(context.Background(), s.Fixtures().LargeConferenceEventID, api.ListRegistrantsOptions{PageSize: 300}) {
		if err != nil {
			t.Fatal(err)
		}
		if sc, err := Read(r.Email); err != nil || sc.Kind != Email || sc.Value != api.NormalizeEmail(r.Email) {
			t.Fatalf("email %q read as %+v, %v", r.Email, sc, err)
		}
		for _, tk := range r.Tickets {
			tickets++
			if tk.QRCodeURL != "" {
				links++
				want := Scan{Kind: TicketID, Value: tk.TicketID, Form: TicketLink, Link: tk.QRCodeURL}
				if sc, err := Read(tk.QRCodeURL); sc != want || err != nil {
					t.Fatalf("QR link %q read as %+v, %v", tk.QRCodeURL, sc, err)
				}
			}
			sc, err := Read(tk.TicketID)
			switch {
			case err == nil && sc == Scan{Kind: TicketID, Value: tk.TicketID, Form: BareTicket}:
			case err != nil && isWordShaped(tk.TicketID):
				wordShaped++
				t.Logf("bare id %s refused as word-shaped", tk.TicketID)
			default:
				t.Fatalf("ticket id %q read as %+v, %v", tk.TicketID, sc, err)
			}
		}
	}
	if tickets < sim.LargeConferenceRegistrants || links != tickets || wordShaped > 2 {
		t.Fatalf("%d tickets, %d QR links, %d bare ids refused", tickets, links, wordShaped)
	}
}
