package roster

import (
	"fmt"
	"strings"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/scancode"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// Found is a scan resolved through the roster: the address to check in and
// what the scanner read.
type Found struct {
	// Email is the address to check in, normalised.
	Email string
	// Scan is what the scanner's text read as (for a ticket, its id).
	Scan scancode.Scan
	// Person is the registrant when the roster lists them; nil otherwise
	// (an email not on the roster, or no roster at hand).
	Person *Person
	// Ticket is the ticket scanned, for a ticket link or id; nil for an
	// email in any form.
	Ticket *Ticket
}

// UnknownTicket is a ticket scan the roster cannot answer: the ticket is not
// on it, or there is no roster yet. Its email is unknown, so nothing may be
// checked in for it.
type UnknownTicket struct {
	// ID is the ticket id as read, safe for a terminal and shortened.
	ID string
	// Form is how it was read (ticket link or ticket id).
	Form scancode.Form
	// Updated is when the roster was taken; zero when there is none yet.
	Updated time.Time
}

func (e *UnknownTicket) Error() string { return e.Words(time.Local) }

// Words says what happened, with the roster's time in local.
func (e *UnknownTicket) Words(local *time.Location) string {
	if e.Updated.IsZero() {
		return "ticket " + e.ID + " cannot be looked up yet: the roster is still loading; scan again in a moment"
	}
	return fmt.Sprintf("ticket %s is not on this event's roster (updated %s)", e.ID, e.Updated.In(local).Format("15:04"))
}

// maxShownID is how much of a ticket id the desk shows: the provider's ids
// are 7 to 20 characters, the simulator's 12.
const maxShownID = 20

// ShortID is a ticket id made safe for a terminal, shortened with "…" past
// 20 characters.
func ShortID(id string) string {
	id = sanitize.Line(id)
	if r := []rune(id); len(r) > maxShownID {
		return string(r[:maxShownID-1]) + "…"
	}
	return id
}

// Resolve reads what a scanner typed (scancode.Read) and finds its person on
// ro, which may be nil while no roster is at hand. An email in any form
// resolves to itself, with the registrant when ro lists them. A ticket
// resolves through ro to its holder's email; a ticket ro does not list, or
// any ticket while ro is nil, is an *UnknownTicket. Text scancode refuses is
// still a ticket when ro holds a ticket of exactly that id: the bare-id rule
// refuses word-shaped ids, which do occur. Other errors are scancode's.
func Resolve(ro *Roster, raw string) (Found, error) {
	sc, err := scancode.Read(raw)
	if err != nil {
		if ro != nil && len(raw) <= scancode.MaxBytes {
			id := strings.TrimSpace(raw)
			if p, t, ok := ro.ByTicket(id); ok && t.ID == id {
				return Found{Email: p.Email, Scan: scancode.Scan{Kind: scancode.TicketID, Value: id, Form: scancode.BareTicket},
					Person: &p, Ticket: &t}, nil
			}
		}
		return Found{}, err
	}
	if sc.Kind == scancode.Email {
		f := Found{Email: sc.Value, Scan: sc}
		if ro != nil {
			if p, ok := ro.ByEmail(sc.Value); ok {
				f.Person = &p
			}
		}
		return f, nil
	}
	if ro == nil {
		return Found{}, &UnknownTicket{ID: ShortID(sc.Value), Form: sc.Form}
	}
	p, t, ok := ro.ByTicket(sc.Value)
	if !ok && sc.Link != "" {
		p, t, ok = ro.ByQRLink(sc.Link)
	}
	if !ok || t.ID == "" && t.QRCodeURL == "" {
		return Found{}, &UnknownTicket{ID: ShortID(sc.Value), Form: sc.Form, Updated: ro.Updated()}
	}
	return Found{Email: p.Email, Scan: sc, Person: &p, Ticket: &t}, nil
}

// ByQRLink finds the registrant whose ticket's QR link is link exactly: a
// provider's link may name the ticket in a token rather than by its id. It
// looks through every ticket, which is fast enough for the rare scan whose
// id the roster does not know (about 0.1 ms for 20,000).
func (r *Roster) ByQRLink(link string) (Person, Ticket, bool) {
	if link == "" {
		return Person{}, Ticket{}, false
	}
	for _, p := range r.people {
		for _, t := range p.Tickets {
			if t.QRCodeURL == link {
				return p, t, true
			}
		}
	}
	return Person{}, Ticket{}, false
}
