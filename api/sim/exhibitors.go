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

// Tier is a sponsor tier of a conference event.
type Tier struct {
	ID   string
	Name string
}

// exhibitorTierNames are the tiers every conference offers, highest first.
var exhibitorTierNames = []string{"Platinum", "Gold", "Silver", "Community"}

// exhibitorBook is the exhibitors of every conference, seeded on first use.
// It is guarded by st.mu.
type exhibitorBook struct {
	byEvent map[*eventRec][]api.Exhibitor
}

// seedExhibitor is a believable company at a conference.
type seedExhibitor struct {
	name, contact, domain, blurb string
	sponsor                      bool
	social                       bool
}

var seedExhibitors = []seedExhibitor{
	{"Fabrikam Cloud", "Noah Williams", "fabrikam.example", "Managed Kubernetes and observability for regulated industries.", true, true},
	{"Tailspin Analytics", "Mei Tanaka", "tailspin.example", "Real-time dashboards for event and venue operations.", true, true},
	{"Litware Security", "Omar Haddad", "litware.example", "Zero-trust access for hybrid teams; live demos at booth 12.", true, false},
	{"Adventure Works Badges", "Clara Jensen", "adventureworks.example", "On-site badge printing and lanyards, printed while you wait.", false, false},
	{"Wide World Translation", "Diego Ramos", "wideworld.example", "Live captioning and interpretation in 40 languages.", true, true},
	{"Proseware Labs", "Aisha Bello", "proseware.example", "Developer tooling for API-first teams.", false, true},
	{"Coho Coffee Bar", "Ben Carter", "coho.example", "Espresso for every attendee, all day, at the main hall.", false, false},
	{"Margie's Travel", "Margie Olsen", "margiestravel.example", "Group travel and hotel blocks for conference delegates.", true, false},
	{"Trey Research", "Ivan Petrov", "treyresearch.example", "Independent market research on event technology.", false, true},
}

func (s *Sim) exhibitorRoutes() {
	book := &exhibitorBook{byEvent: map[*eventRec][]api.Exhibitor{}}
	s.handle("GET", "/events/{eventId}/exhibitors",
		s.scopeFor("events_exhibitors:read", "events:read:list_exhibitors"),
		func(w http.ResponseWriter, r *http.Request, p *principal) error {
			return s.listExhibitors(book, w, r, p)
		})
	s.handle("POST", "/events/{eventId}/exhibitors",
		s.scopeFor("events_exhibitors:write", "events:write:exhibitor"),
		func(w http.ResponseWriter, r *http.Request, p *principal) error {
			return s.createExhibitor(book, w, r, p)
		})
}

// tiersOf returns the sponsor tiers of a conference (the same ids on every
// run).
func tiersOf(eventID string) []Tier {
	out := make([]Tier, len(exhibitorTierNames))
	for i, n := range exhibitorTierNames {
		out[i] = Tier{ID: makeID("tier", eventID, n), Name: n}
	}
	return out
}

// SponsorTiers lists the sponsor tiers of a conference event, highest
// first; nil for other events. For tests, demos and the views' tier names.
func (s *Sim) SponsorTiers(eventID string) []Tier {
	s.st.mu.Lock()
	e := s.st.events[eventID]
	s.st.mu.Unlock()
	if e == nil || e.ev.EventType != api.EventTypeConference {
		return nil
	}
	return tiersOf(eventID)
}

// exhibitorEvent finds an event the caller may manage exhibitors of:
// unknown events are 404 (no code, as the spec lists for this endpoint), a
// registered attendee is not a host (3011), anyone else is denied (260200),
// and only conferences have exhibitors (1006). Call with st.mu held.
func (s *Sim) exhibitorEvent(p *principal, id string) (*eventRec, error) {
	e := s.st.events[id]
	if e == nil {
		return nil, errf(http.StatusNotFound, 0, "Event not found.")
	}
	if e.hostID() != p.user.ID {
		if e.attendees[p.user.ID] {
			return nil, errf(http.StatusForbidden, api.CodeNotHost, "User is not a host.")
		}
		return nil, errf(http.StatusForbidden, api.CodeEventAccessDenied, "Event access denied.")
	}
	if e.ev.EventType != api.EventTypeConference {
		return nil, errf(http.StatusBadRequest, api.CodeUnsupportedEventType, "Operation is not supported for this event type.")
	}
	return e, nil
}

// exhibitorsOf returns e's exhibitors, seeding five to eight companies on
// first use. Call with st.mu held.
func (s *Sim) exhibitorsOf(book *exhibitorBook, e *eventRec) []api.Exhibitor {
	if list, ok := book.byEvent[e]; ok {
		return list
	}
	sum := sha256.Sum256([]byte("exhibitors\x00" + e.ev.EventID))
	rng := rand.New(rand.NewPCG(binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])))
	people := slices.Clone(seedExhibitors)
	rng.Shuffle(len(people), func(i, j int) { people[i], people[j] = people[j], people[i] })
	sessions := s.sessionsOf(e).sessions
	tiers := tiersOf(e.ev.EventID)
	list := []api.Exhibitor{}
	sponsors := 0
	for _, se := range people[:5+rng.IntN(4)] {
		x := api.Exhibitor{
			ExhibitorID:  makeID("exhibitor", e.ev.EventID, se.name),
			Name:         se.name,
			ContactName:  se.contact,
			ContactEmail: strings.ToLower(strings.Fields(se.contact)[0]) + "@" + se.domain,
			IsSponsor:    se.sponsor,
			Description:  se.blurb,
			Website:      "https://www." + se.domain,
		}
		if se.sponsor {
			x.TierID = tiers[min(sponsors, len(tiers)-1)].ID
			sponsors++
			x.PrivacyPolicy = "https://www." + se.domain + "/privacy"
			for _, ss := range sessions {
				if rng.IntN(4) == 0 && len(x.AssociatedSessions) < 3 {
					x.AssociatedSessions = append(x.AssociatedSessions, ss.SessionID)
				}
			}
		}
		if se.social {
			slug := strings.ToLower(strings.NewReplacer(" ", "", "'", "").Replace(se.name))
			x.LinkedInURL = "https://www.linkedin.com/company/" + slug
			x.TwitterURL = "https://twitter.com/" + slug
			x.YouTubeURL = "https://www.youtube.com/@" + slug
		}
		list = append(list, x)
	}
	book.byEvent[e] = list
	return list
}

func cloneExhibitor(x api.Exhibitor) api.Exhibitor {
	x.AssociatedSessions = slices.Clone(x.AssociatedSessions)
	return x
}

func (s *Sim) listExhibitors(book *exhibitorBook, w http.ResponseWriter, r *http.Request, p *principal) error {
	s.st.mu.Lock()
	e, err := s.exhibitorEvent(p, r.PathValue("eventId"))
	var out api.ExhibitorList
	if err == nil {
		list := s.exhibitorsOf(book, e)
		out.Exhibitors = make([]api.Exhibitor, len(list))
		for i, x := range list {
			out.Exhibitors[i] = cloneExhibitor(x)
		}
		out.TotalRecords = len(list)
	}
	s.st.mu.Unlock()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// exhibitorBody is the create body; pointers tell a missing field from a
// zero one.
type exhibitorBody struct {
	api.ExhibitorCreate
	IsSponsor *bool   `json:"is_sponsor"`
	TierID    *string `json:"tier_id"`
}

func (s *Sim) createExhibitor(book *exhibitorBook, w http.ResponseWriter, r *http.Request, p *principal) error {
	var in exhibitorBody
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e, err := s.exhibitorEvent(p, r.PathValue("eventId"))
	if err != nil {
		return err
	}
	list := s.exhibitorsOf(book, e)
	var problems []api.FieldError
	bad := func(field, format string, args ...any) {
		problems = append(problems, api.FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	for _, f := range [][2]string{{"name", in.Name}, {"contact_name", in.ContactName}, {"contact_email", in.ContactEmail}} {
		if strings.TrimSpace(f[1]) == "" {
			bad(f[0], "is required.")
		}
	}
	if in.ContactEmail != "" {
		if err := api.CheckEmail(in.ContactEmail); err != nil {
			bad("contact_email", "%v.", err)
		}
	}
	sponsor := in.IsSponsor != nil && *in.IsSponsor
	tier := ""
	if in.TierID != nil {
		tier = strings.TrimSpace(*in.TierID)
	}
	switch {
	case in.IsSponsor == nil:
		bad("is_sponsor", "is required.")
	case in.TierID == nil:
		bad("tier_id", "is required.")
	case sponsor && tier == "":
		bad("tier_id", "is required for a sponsor.")
	case !sponsor && tier != "":
		bad("tier_id", "applies only to sponsors.")
	case sponsor && !slices.ContainsFunc(tiersOf(e.ev.EventID), func(t Tier) bool { return t.ID == tier }):
		bad("tier_id", "%q is not a sponsor tier of this event.", tier)
	}
	in.ExhibitorCreate.IsSponsor, in.ExhibitorCreate.TierID = sponsor, tier
	for _, f := range [][2]string{
		{"website", in.Website}, {"privacy_policy", in.PrivacyPolicy}, {"linkedin_url", in.LinkedInURL},
		{"twitter_url", in.TwitterURL}, {"youtube_url", in.YouTubeURL}, {"instagram_url", in.InstagramURL},
		{"facebook_url", in.FacebookURL},
	} {
		if err := api.CheckLink(f[1]); err != nil {
			bad(f[0], "%v.", err)
		}
	}
	if n := len(in.AssociatedSessions); n > api.MaxExhibitorSessions {
		bad("associated_sessions", "holds %d sessions; at most %d.", n, api.MaxExhibitorSessions)
	}
	known := s.sessionsOf(e).sessionIndex
	for i, id := range in.AssociatedSessions {
		if _, ok := known[id]; !ok {
			bad(fmt.Sprintf("associated_sessions[%d]", i), "%q is not a session of this event.", id)
		}
	}
	for _, x := range list {
		if strings.EqualFold(x.Name, strings.TrimSpace(in.Name)) {
			bad("name", "an exhibitor named %q already exists.", x.Name)
		}
	}
	if len(problems) > 0 {
		return fieldError(problems...)
	}
	c := in.ExhibitorCreate
	x := api.Exhibitor{
		ExhibitorID: s.st.newID("exhibitor", func(id string) bool {
			return slices.ContainsFunc(list, func(x api.Exhibitor) bool { return x.ExhibitorID == id })
		}),
		Name: strings.TrimSpace(c.Name), ContactName: strings.TrimSpace(c.ContactName),
		ContactEmail: api.NormalizeEmail(c.ContactEmail), IsSponsor: c.IsSponsor, TierID: c.TierID,
		AssociatedSessions: slices.Clone(c.AssociatedSessions), Description: c.Description,
		Website: c.Website, PrivacyPolicy: c.PrivacyPolicy, LinkedInURL: c.LinkedInURL, TwitterURL: c.TwitterURL,
		YouTubeURL: c.YouTubeURL, InstagramURL: c.InstagramURL, FacebookURL: c.FacebookURL,
	}
	book.byEvent[e] = append(list, x)
	writeJSON(w, http.StatusCreated, cloneExhibitor(x))
	return nil
}
