package sim

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/evdesk/evdesk/api"
)

// Hubs of the seed.
const (
	// HubID is the demo host's main hub; it accepts conference events.
	HubID = "Hb3kQ9vLmT2xWp7sNc4RzA"
	// NoConferenceHubID is a demo host hub that rejects CONFERENCE events (260207).
	NoConferenceHubID = "Hb8fJ2wYqE5nUa1dKg6VtM"
	// InternalHubID is the demo host's internal (INTERNAL access) hub.
	InternalHubID = "Hb5cX7rP0sLh3BzQm9WeFy"
	// OtherHostHubID belongs to the other host (26201 for the demo host).
	OtherHostHubID = "Hb1tG4yNk8VjR2oCq6ZuDs"
)

// hubJSON is a hub as the provider's description lists it.
type hubJSON struct {
	HubID          string `json:"hub_id"`
	Name           string `json:"name"`
	AccessLevel    string `json:"access_level"`
	PublicURL      string `json:"public_url,omitempty"`
	HiddenHub      bool   `json:"hidden_hub"`
	HubActive      bool   `json:"hub_active"`
	AutoListEvents bool   `json:"auto_list_events"`
	LandingHub     bool   `json:"landing_hub"`
}

type hubList struct {
	TotalRecords int       `json:"total_records"`
	Hubs         []hubJSON `json:"hubs"`
}

func (s *Sim) hubRoutes() {
	s.handle("GET", "/hubs", s.scopeFor("events_hubs:read", "events:read:list_hubs"), s.listHubs)
}

// listHubs answers role_type=host with the caller's hubs and
// role_type=attendee with the hubs of the events the caller is registered for.
func (s *Sim) listHubs(w http.ResponseWriter, r *http.Request, p *principal) error {
	role := strings.ToLower(r.URL.Query().Get("role_type"))
	switch role {
	case "host", "attendee":
	case "":
		return fieldError(api.FieldError{Field: "role_type", Message: "is required; use host or attendee."})
	default:
		return fieldError(api.FieldError{Field: "role_type", Message: fmt.Sprintf("%q is not allowed; use host or attendee.", r.URL.Query().Get("role_type"))})
	}
	s.st.mu.Lock()
	attending := map[string]bool{}
	if role == "attendee" {
		for _, e := range s.st.events {
			if e.attendees[p.user.ID] && e.hostID() != p.user.ID {
				attending[e.ev.HubID] = true
			}
		}
	}
	out := hubList{Hubs: []hubJSON{}}
	for _, h := range s.st.hubs {
		if (role == "host" && h.OwnerID == p.user.ID) || (role == "attendee" && attending[h.ID]) {
			out.Hubs = append(out.Hubs, hubJSON{HubID: h.ID, Name: h.Name, AccessLevel: h.AccessLevel,
				PublicURL: h.PublicURL, HiddenHub: h.Hidden, HubActive: h.Active, AutoListEvents: h.AutoList, LandingHub: h.Landing})
		}
	}
	s.st.mu.Unlock()
	out.TotalRecords = len(out.Hubs)
	writeJSON(w, http.StatusOK, out)
	return nil
}
