package roster

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/checkin/scancode"
)

func TestResolve(t *testing.T) {
	at := time.Date(2026, 11, 23, 9, 12, 0, 0, time.UTC)
	ro := New("ev", at, 3, []Person{
		{Email: "ann@example.org", Name: "Ann Doe", Status: "REGISTERED",
			Tickets: []Ticket{{ID: "UASe4Eg74boZ", QRCodeURL: "https://events.vendor.example/qr?t=UASe4Eg74boZ", Role: "SPEAKER"}}},
		// A word-shaped id the bare-id rule refuses, and a ticket whose
		// link names a token rather than its id.
		{Email: "bo@example.org", Tickets: []Ticket{{ID: "Registration", Role: "ATTENDEE"},
			{ID: "Q77", QRCodeURL: "https://tix.example/badge?t=tok-9f8e7d", Role: "SPONSOR"}}},
		{Email: "cy@example.org"},
	})
	for _, tc := range []struct {
		name, raw      string
		email, ticket  string
		form           scancode.Form
		person         bool
		wantErr        string
		unknownTicket  bool
		unknownUpdated bool
	}{
		{name: "ticket link", raw: "https://events.vendor.example/qr?t=UASe4Eg74boZ",
			email: "ann@example.org", ticket: "UASe4Eg74boZ", form: scancode.TicketLink, person: true},
		{name: "bare id", raw: " UASe4Eg74boZ\r", email: "ann@example.org", ticket: "UASe4Eg74boZ", form: scancode.BareTicket, person: true},
		{name: "word-shaped id the roster knows", raw: "Registration", email: "bo@example.org", ticket: "Registration",
			form: scancode.BareTicket, person: true},
		{name: "link matched whole", raw: "https://tix.example/badge?t=tok-9f8e7d", email: "bo@example.org", ticket: "Q77",
			form: scancode.TicketLink, person: true},
		{name: "registered email in a vCard", raw: "BEGIN:VCARD\nEMAIL:Cy@Example.org\nEND:VCARD", email: "cy@example.org",
			form: scancode.VCard, person: true},
		{name: "email not on the roster", raw: "mailto:dee@example.org", email: "dee@example.org", form: scancode.Mailto},
		{name: "unknown ticket link", raw: "https://events.vendor.example/qr?t=ZZZe4Eg74boZ",
			wantErr: "ticket ZZZe4Eg74boZ is not on this event's roster (updated 09:12)", unknownTicket: true, unknownUpdated: true},
		{name: "unknown long id is shortened", raw: "a1B2c3D4e5F6g7H8i9J0k1L2",
			wantErr: "ticket a1B2c3D4e5F6g7H8i9J… is not on", unknownTicket: true, unknownUpdated: true},
		{name: "a word the roster does not know", raw: "garbage", wantErr: `read "garbage"; expected an email, a ticket QR code or a ticket id`},
		{name: "a word the roster knows only as an email's part", raw: "ann", wantErr: `read "ann"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Resolve(ro, tc.raw)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || f.Email != "" {
					t.Fatalf("got %+v, %v; want error %q", f, err, tc.wantErr)
				}
				var ut *UnknownTicket
				if errors.As(err, &ut) != tc.unknownTicket || tc.unknownTicket && ut.Updated.IsZero() == tc.unknownUpdated {
					t.Fatalf("error %T %v", err, err)
				}
				return
			}
			if err != nil || f.Email != tc.email || f.Scan.Form != tc.form || (f.Person != nil) != tc.person {
				t.Fatalf("got %+v, %v", f, err)
			}
			got := ""
			if f.Ticket != nil {
				got = f.Ticket.ID
			}
			if got != tc.ticket {
				t.Fatalf("ticket %q, want %q", got, tc.ticket)
			}
		})
	}
}

// Without a roster, an email still resolves (the server decides) and a
// ticket is answered in words, never taken for an email.
func TestResolveWithoutRoster(t *testing.T) {
	f, err := Resolve(nil, "ann@example.org")
	if err != nil || f.Email != "ann@example.org" || f.Person != nil {
		t.Fatalf("%+v %v", f, err)
	}
	_, err = Resolve(nil, "https://events.vendor.example/qr?t=UASe4Eg74boZ")
	var ut *UnknownTicket
	if !errors.As(err, &ut) || !strings.Contains(err.Error(), "the roster is still loading; scan again in a moment") {
		t.Fatalf("%v", err)
	}
}

// Every ticket of the simulator's large conference, downloaded over HTTP,
// resolves to its holder by link and by id (a word-shaped id too, through
// the roster); the role comes with it.
func TestResolveSimulatorTickets(t *testing.T) {
	r := newRig(t, nil)
	ro, err := Download(context.Background(), r.client, r.event, r.clk.Now, nil)
	if err != nil {
		t.Fatal(err)
	}
	roles := map[string]int{}
	for _, p := range ro.People() {
		tk := p.Tickets[0]
		for _, raw := range []string{tk.QRCodeURL, tk.ID} {
			f, err := Resolve(ro, raw)
			if err != nil || f.Email != p.Email || f.Ticket == nil || f.Ticket.ID != tk.ID {
				t.Fatalf("%q resolved to %+v, %v; want %s", raw, f, err, p.Email)
			}
		}
		roles[tk.Role]++
	}
	if roles["SPEAKER"] == 0 || roles["SPONSOR"] == 0 || roles["ATTENDEE"] == 0 {
		t.Fatalf("roles %v", roles)
	}
}

// BenchmarkResolveUnknownLink is the slowest answer: a ticket link the
// roster of 20,000 does not know, looked up by id and then by whole link.
func BenchmarkResolveUnknownLink(b *testing.B) {
	path, event, _ := cached20k(b)
	ro, err := Load(path, event)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := Resolve(ro, "https://events.vendor.example/qr?t=ZZZe4Eg74boZ"); err == nil {
			b.Fatal("resolved")
		}
	}
}

// FuzzResolve: whatever a scanner types, Resolve answers with an address
// that passes the client's check (with its ticket when one was scanned) or
// an error, never both, and never an address for an unknown ticket.
func FuzzResolve(f *testing.F) {
	ro := New("ev", time.Date(2026, 11, 23, 9, 12, 0, 0, time.UTC), 1, []Person{{Email: "ann@example.org",
		Tickets: []Ticket{{ID: "UASe4Eg74boZ", QRCodeURL: "https://events.vendor.example/qr?t=UASe4Eg74boZ", Role: "SPEAKER"}}}})
	for _, s := range []string{"ann@example.org", "UASe4Eg74boZ", "https://events.vendor.example/qr?t=UASe4Eg74boZ",
		"https://x.example/qr/ZZZ", "mailto:a@b.org", "BEGIN:VCARD\nEMAIL:a@b.org\nEND:VCARD", "MECARD:EMAIL:a@b.org;;", "garbage"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, r := range []*Roster{ro, nil} {
			got, err := Resolve(r, raw)
			var ut *UnknownTicket
			switch {
			case err != nil && got.Email != "":
				t.Fatalf("%q: both %+v and %v", raw, got, err)
			case errors.As(err, &ut) && (ut.ID == "" || strings.ContainsAny(ut.ID, "\x1b\n\r")):
				t.Fatalf("%q: unknown ticket %+v", raw, ut)
			case err == nil && api.CheckEmail(got.Email) != nil:
				t.Fatalf("%q: resolved to a bad address %q", raw, got.Email)
			case err == nil && got.Scan.Kind == scancode.TicketID && (got.Ticket == nil || got.Person == nil):
				t.Fatalf("%q: a ticket without its holder %+v", raw, got)
			}
		}
	})
}
