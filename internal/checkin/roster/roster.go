// Package roster is what a check-in desk knows of an event without asking
// the server: its registrants with their tickets (the roster), and the
// check-ins the server holds (the arrivals), both kept in cache files beside
// the desk's journal so the desk answers at once, online or offline. The
// server stays the final word: the desk refreshes both in the background.
package roster

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/sanitize"
)

// Person is one registrant as the desk needs them.
type Person struct {
	// Email is normalised (trimmed, lower case).
	Email string `json:"email"`
	// Name is the person's name when the server sends one (the provider's
	// description shows none); "" otherwise.
	Name string `json:"name,omitempty"`
	// Company is where they work, from the names the desk learned.
	Company string `json:"company,omitempty"`
	// Status is the registration status, upper case ("REGISTERED").
	Status  string   `json:"status,omitempty"`
	Tickets []Ticket `json:"tickets,omitempty"`
}

// Ticket is one ticket of a registrant: what a ticket's QR code scans as.
type Ticket struct {
	ID        string `json:"ticket_id,omitempty"`
	QRCodeURL string `json:"qr_code_url,omitempty"`
	Role      string `json:"role,omitempty"` // ATTENDEE, SPEAKER, ...
}

// clean makes a person what the sanitiser lets through: a roster (and so
// its cache, whoever downloaded it, and one read back from an older file)
// never holds a character a terminal would act on. The email is normalised
// too.
func clean(p Person) Person {
	p.Email = sanitize.Line(api.NormalizeEmail(p.Email))
	p.Name, p.Status = sanitize.Line(p.Name), sanitize.Line(p.Status)
	var tickets []Ticket // a copy only when something changed
	for i, t := range p.Tickets {
		c := Ticket{ID: sanitize.Line(t.ID), QRCodeURL: sanitize.Line(t.QRCodeURL), Role: sanitize.Line(t.Role)}
		if c != t && tickets == nil {
			tickets = append([]Ticket(nil), p.Tickets...)
		}
		if tickets != nil {
			tickets[i] = c
		}
	}
	if tickets != nil {
		p.Tickets = tickets
	}
	return p
}

// Role is the role of the person's first ticket, or "".
func (p Person) Role() string {
	if len(p.Tickets) == 0 {
		return ""
	}
	return p.Tickets[0].Role
}

// Roster is an event's registrants as downloaded at one moment, indexed by
// email and by ticket id. It never changes once built, so it is safe for
// concurrent use; a refresh builds a new one.
type Roster struct {
	eventID string
	updated time.Time
	total   int
	people  []Person
	// The indexes hold positions in people: an int32 is half a pointer.
	byEmail  map[string]int32
	byTicket map[string]int32
}

// New indexes people, the registrants of eventID downloaded at updated;
// total is the server's count (total_records). A person listed twice is
// kept once, at the first place.
func New(eventID string, updated time.Time, total int, people []Person) *Roster {
	r := &Roster{eventID: eventID, updated: updated, total: total,
		people: make([]Person, 0, len(people)), byEmail: make(map[string]int32, len(people))}
	tickets := 0
	for _, p := range people {
		tickets += len(p.Tickets)
	}
	r.byTicket = make(map[string]int32, tickets)
	for _, p := range people {
		p = clean(p)
		if _, dup := r.byEmail[p.Email]; dup || p.Email == "" {
			continue
		}
		i := int32(len(r.people))
		r.people = append(r.people, p)
		r.byEmail[p.Email] = i
		for _, t := range p.Tickets {
			if t.ID != "" {
				if _, taken := r.byTicket[t.ID]; !taken {
					r.byTicket[t.ID] = i
				}
			}
		}
	}
	return r
}

// FromRegistrants turns the registrants listing into people.
func FromRegistrants(regs []api.Registrant) []Person {
	out := make([]Person, len(regs))
	for i, reg := range regs {
		out[i] = PersonOf(reg)
	}
	return out
}

// PersonOf is one registrant as a person.
func PersonOf(reg api.Registrant) Person {
	p := Person{Email: api.NormalizeEmail(reg.Email), Name: nameOf(reg), Status: reg.RegistrationStatus}
	if len(reg.Tickets) > 0 {
		p.Tickets = make([]Ticket, len(reg.Tickets))
		for i, t := range reg.Tickets {
			p.Tickets[i] = Ticket{ID: t.TicketID, QRCodeURL: t.QRCodeURL, Role: strings.ToUpper(t.Role)}
		}
	}
	return p
}

// nameOf reads a name from fields the description does not show, when the
// server sends one.
func nameOf(r api.Registrant) string {
	str := func(k string) string {
		var s string
		if raw, ok := r.Extra[k]; ok && json.Unmarshal(raw, &s) == nil {
			return strings.TrimSpace(s)
		}
		return ""
	}
	for _, k := range []string{"name", "full_name", "display_name"} {
		if s := str(k); s != "" {
			return s
		}
	}
	return strings.TrimSpace(str("first_name") + " " + str("last_name"))
}

// EventID is the event the roster lists.
func (r *Roster) EventID() string { return r.eventID }

// Updated is when the download finished.
func (r *Roster) Updated() time.Time { return r.updated }

// Total is the server's count of registrants; Len the people listed.
func (r *Roster) Total() int { return r.total }

// Len is how many people the roster lists.
func (r *Roster) Len() int { return len(r.people) }

// ByEmail finds a registrant by email address (any case, any spaces
// around).
func (r *Roster) ByEmail(email string) (Person, bool) {
	i, ok := r.byEmail[api.NormalizeEmail(email)]
	if !ok {
		return Person{}, false
	}
	return r.people[i], true
}

// ByTicket finds the registrant who holds a ticket, and the ticket.
func (r *Roster) ByTicket(id string) (Person, Ticket, bool) {
	i, ok := r.byTicket[strings.TrimSpace(id)]
	if !ok {
		return Person{}, Ticket{}, false
	}
	p := r.people[i]
	for _, t := range p.Tickets {
		if t.ID == strings.TrimSpace(id) {
			return p, t, true
		}
	}
	return p, Ticket{}, true
}

// People lists everyone, in the server's order. The slice is the roster's
// own: read it, never change it.
func (r *Roster) People() []Person { return r.people }
