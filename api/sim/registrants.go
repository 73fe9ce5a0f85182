package sim

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"

	"github.com/evdesk/evdesk/api"
)

// LargeConferenceRegistrants is how many people registered for the seed's
// large conference (Fixtures.LargeConferenceEventID).
const LargeConferenceRegistrants = 20000

// largeConferenceName names the seeded conference that gets the crowd.
const largeConferenceName = "Observability Summit APAC"

// registrantRoutes registers the registrants listing (from the provider's
// description; the spec does not list it).
func (s *Sim) registrantRoutes() {
	s.handle("GET", "/events/{eventId}/registrants",
		s.scopeFor("events_registrants:read", "events:read:list_registrants"), s.listRegistrants)
}

func (s *Sim) listRegistrants(w http.ResponseWriter, r *http.Request, p *principal) error {
	id := r.PathValue("eventId")
	s.st.mu.Lock()
	e, err := s.ownedEvent(p, id, api.CodeEventNotFound)
	var items []api.Registrant
	if err == nil {
		items = s.attendanceOf(e).registrants
	}
	s.st.mu.Unlock()
	if err != nil {
		return err
	}
	// The slice only ever grows by appending, so the page cut from this
	// header stays valid after the lock is released.
	page, next, total, err := paginate(s, r, "registrants|"+p.user.ID+"|"+id, items)
	if err != nil {
		return err
	}
	out := api.RegistrantList{Registrants: make([]api.Registrant, len(page)), NextPageToken: next, TotalRecords: total}
	for i, reg := range page {
		reg.Tickets = slices.Clone(reg.Tickets)
		out.Registrants[i] = reg
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// RegistrantEmails lists the addresses registered for an event, in
// registration order (nil for an unknown event). For tests and demos.
func (s *Sim) RegistrantEmails(eventID string) []string {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e := s.st.events[eventID]
	if e == nil {
		return nil
	}
	regs := s.attendanceOf(e).registrants
	out := make([]string, len(regs))
	for i, r := range regs {
		out[i] = r.Email
	}
	return out
}

// topUpRegistrants generates seed registrants until the event has as many as
// its count says. Generation is deterministic per event id: the same people
// on every run.
func (a *attendance) topUpRegistrants(s *Sim, e *eventRec) {
	if len(a.registrants) >= e.registrants {
		return
	}
	if a.rng == nil {
		sum := sha256.Sum256([]byte("registrants\x00" + e.ev.EventID))
		a.rng = rand.New(rand.NewPCG(binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])))
		// People the simulator knows come first: a host registered for
		// another host's event shows up in its list.
		var known []string
		for uid := range e.attendees {
			if u := s.st.users[uid]; u != nil {
				known = append(known, u.Email)
			}
		}
		slices.Sort(known)
		for _, em := range known {
			if len(a.registrants) < e.registrants {
				a.appendRegistrant(s, e, em, api.RegistrationRegistered, "ATTENDEE")
			}
		}
	}
	conference := e.ev.EventType == api.EventTypeConference
	// Room for all at once: a large event's 20,000 would otherwise grow
	// the slice and the index a dozen times.
	a.registrants = slices.Grow(a.registrants, e.registrants-len(a.registrants))
	if len(a.byEmail) == 0 {
		a.byEmail = make(map[string]int, e.registrants)
	}
	for len(a.registrants) < e.registrants {
		first := firstNames[a.rng.IntN(len(firstNames))]
		last := lastNames[a.rng.IntN(len(lastNames))]
		email := a.uniqueEmail(first, last)
		status := api.RegistrationRegistered
		switch x := a.rng.Float64(); {
		case x < 0.05:
			status = api.RegistrationGifted
		case x < 0.09:
			status = api.RegistrationInvited
		case x < 0.11:
			status = api.RegistrationDirectJoin
		}
		role := "ATTENDEE"
		if conference {
			switch x := a.rng.Float64(); {
			case x < 0.02:
				role = "SPEAKER"
			case x < 0.03:
				role = "SPONSOR"
			case x < 0.04:
				role = "EXPO_BOOTH_OWNER"
			}
		}
		a.appendRegistrant(s, e, email, status, role)
	}
}

// uniqueEmail makes a believable address for a person that no registrant of
// the event has yet.
func (a *attendance) uniqueEmail(first, last string) string {
	f, l := strings.ToLower(first), strings.ToLower(strings.ReplaceAll(last, " ", ""))
	domain := emailDomains[a.rng.IntN(len(emailDomains))]
	var local string
	switch x := a.rng.IntN(10); {
	case x < 6:
		local = f + "." + l
	case x < 7:
		local = f[:1] + "." + l
	case x < 8:
		local = f + l
	case x < 9:
		local = f + "_" + l
	default:
		local = l + "." + f
	}
	email := local + "@" + domain
	for n := 2; ; n++ {
		if _, taken := a.byEmail[email]; !taken {
			return email
		}
		email = fmt.Sprintf("%s%d@%s", local, n, domain)
	}
}

func (a *attendance) appendRegistrant(s *Sim, e *eventRec, email, status, role string) {
	ticketID := makeID("ticket", e.ev.EventID, email)[:12]
	t := api.RegistrantTicket{TicketID: ticketID, Role: role, AuthenticationMethod: authMethod(e)}
	if e.ev.AttendanceType != api.AttendanceVirtual {
		t.QRCodeURL = "https://events." + s.word + ".example/qr?t=" + ticketID
	}
	a.byEmail[email] = len(a.registrants)
	a.registrants = append(a.registrants, api.Registrant{Email: email, RegistrationStatus: status,
		Tickets: []api.RegistrantTicket{t}})
}

// authMethod is how an event's attendees sign in: by its access level.
func authMethod(e *eventRec) string {
	switch e.ev.AccessLevel {
	case api.AccessPrivateRestricted:
		return "corporate_idp"
	case api.AccessPublic:
		return "no_auth"
	}
	return "email_opt"
}

var firstNames = []string{
	"Aaliyah", "Adrian", "Aiko", "Alejandro", "Amara", "Amelia", "Ana", "Andrei", "Anika", "Arjun",
	"Astrid", "Beatriz", "Ben", "Bianca", "Carlos", "Chloe", "Chen", "Chidi", "Clara", "Daniel",
	"Diego", "Elena", "Elif", "Emma", "Ethan", "Fatima", "Felix", "Freya", "Gabriel", "Grace",
	"Hannah", "Haruto", "Hugo", "Ines", "Isaac", "Isla", "Ivan", "Jamal", "Jana", "Javier",
	"Jin", "Joao", "Julia", "Kai", "Karin", "Kofi", "Lara", "Leila", "Leon", "Liam",
	"Lina", "Lucas", "Luis", "Maya", "Mateo", "Mei", "Mia", "Mohammed", "Nadia", "Noah",
	"Nora", "Olivia", "Omar", "Oscar", "Priya", "Rafael", "Ravi", "Rosa", "Sakura", "Samuel",
	"Sara", "Sebastian", "Sofia", "Tariq", "Theo", "Valentina", "Victor", "Yara", "Yusuf", "Zoe",
}

var lastNames = []string{
	"Abe", "Adeyemi", "Ahmed", "Alvarez", "Andersen", "Bauer", "Becker", "Bianchi", "Brown", "Castro",
	"Chen", "Costa", "Da Silva", "Dubois", "Eriksson", "Fernandes", "Fischer", "Garcia", "Gomez", "Gupta",
	"Hansen", "Hernandez", "Hoffmann", "Ibrahim", "Ito", "Jansen", "Jensen", "Johnson", "Kaur", "Khan",
	"Kim", "Kowalski", "Kruger", "Larsen", "Lee", "Lopez", "Martin", "Martins", "Meyer", "Moreau",
	"Murphy", "Nakamura", "Nguyen", "Novak", "Nowak", "Okafor", "Olsen", "Oliveira", "Park", "Patel",
	"Pereira", "Petrov", "Popescu", "Rahman", "Ramos", "Reyes", "Ricci", "Rossi", "Santos", "Sato",
	"Schmidt", "Schneider", "Sharma", "Silva", "Singh", "Smith", "Suzuki", "Tanaka", "Taylor", "Thomas",
	"Tran", "Van Dijk", "Vargas", "Wagner", "Walsh", "Wang", "Weber", "Williams", "Yamamoto", "Zhang",
}

var emailDomains = []string{
	"example.org", "example.com", "example.net", "mail.example", "inbox.example", "corp.example",
}
