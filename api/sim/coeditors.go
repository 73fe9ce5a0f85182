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

// coeditorSet is the co-editors of one event, in the order they were added.
// It is built on first use (see coeditorsOf) and guarded by st.mu.
type coeditorSet struct {
	list []api.Coeditor
}

func (c *coeditorSet) index(email string) int {
	return slices.IndexFunc(c.list, func(x api.Coeditor) bool { return x.Email == email })
}

func (s *Sim) coeditorRoutes() {
	s.handle("GET", "/events/{eventId}/coeditors",
		s.scopeFor("events_coeditors:read", "events:read:list_coeditors"), s.listCoeditors)
	s.handle("PATCH", "/events/{eventId}/coeditors",
		s.scopeFor("events_coeditor:write", "events:write:coeditor"), s.changeCoeditors)
}

// seedColleagues are the people seeded as co-editors of each host's events.
var seedColleagues = map[string][]string{
	DemoHostID: {"jamie.chen@northwind.example", "sofia.alves@northwind.example", "marcus.weber@northwind.example",
		"hana.sato@northwind.example", "tom.okafor@northwind.example", "lena.fischer@northwind.example"},
	OtherHostID: {"daniel.kim@contoso.example", "ana.costa@contoso.example"},
}

// seedGroupSets are believable permission sets for seeded co-editors.
var seedGroupSets = [][]string{
	{api.PermEventConfiguration, api.PermEventBranding, api.PermRegistrationJoin, api.PermEventPlanning},
	{api.PermEmail, api.PermPostEvent, api.PermAnalytics},
	{api.PermVenue, api.PermEventExperience, api.PermSpecialRole},
	{api.PermPublish, api.PermEventConfiguration, api.PermEventBranding, api.PermRegistrationJoin, api.PermVenue,
		api.PermEventExperience, api.PermEventPlanning, api.PermSpecialRole, api.PermPostEvent, api.PermAnalytics,
		api.PermEmail, api.PermIntegrations},
	{api.PermIntegrations, api.PermAnalytics},
}

// coeditorsOf returns e's co-editors, seeding up to three colleagues of the
// host on first use (the same ones on every run). Call with st.mu held.
func (s *Sim) coeditorsOf(e *eventRec) *coeditorSet {
	if s.st.coeditors == nil {
		s.st.coeditors = map[*eventRec]*coeditorSet{}
	}
	if c := s.st.coeditors[e]; c != nil {
		return c
	}
	c := &coeditorSet{list: []api.Coeditor{}}
	sum := sha256.Sum256([]byte("coeditors\x00" + e.ev.EventID))
	rng := rand.New(rand.NewPCG(binary.BigEndian.Uint64(sum[:8]), binary.BigEndian.Uint64(sum[8:16])))
	people := slices.Clone(seedColleagues[e.hostID()])
	rng.Shuffle(len(people), func(i, j int) { people[i], people[j] = people[j], people[i] })
	for _, p := range people[:min(len(people), rng.IntN(4))] {
		c.list = append(c.list, api.Coeditor{Email: p, PermissionGroups: slices.Clone(seedGroupSets[rng.IntN(len(seedGroupSets))])})
	}
	s.st.coeditors[e] = c
	return c
}

func (s *Sim) listCoeditors(w http.ResponseWriter, r *http.Request, p *principal) error {
	s.st.mu.Lock()
	e, err := s.ownedEvent(p, r.PathValue("eventId"), api.CodeEventNotFound)
	var out api.CoeditorList
	if err == nil {
		list := s.coeditorsOf(e).list
		out.Coeditors = make([]api.Coeditor, len(list))
		for i, c := range list {
			out.Coeditors[i] = api.Coeditor{Email: c.Email, PermissionGroups: slices.Clone(c.PermissionGroups)}
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

// coeditorBody is the PATCH body.
type coeditorBody struct {
	Operation string         `json:"operation"`
	Coeditors []api.Coeditor `json:"coeditors"`
}

// validateCoeditors applies the request-level rules: a known operation, one
// to three co-editors (the description's maxItems), known permission
// groups. Problems with one address (not an address, the owner, already or
// not a co-editor, no room left) are answered per address instead.
func validateCoeditors(in *coeditorBody) error {
	var c checks
	c.among("operation", &in.Operation, coeditorOperations)
	if in.Operation == "" {
		c.add("operation", "is required; use add, update or delete.")
	}
	if len(in.Coeditors) == 0 {
		c.add("coeditors", "is required: send 1 to %d co-editors.", maxCoeditorsPerEvent)
	}
	c.atMost("coeditors", len(in.Coeditors), maxCoeditorsPerEvent, "co-editors")
	if in.Operation != "delete" {
		for i, ce := range in.Coeditors {
			for j, g := range ce.PermissionGroups {
				if !slices.Contains(permissionGroups, g) {
					c.add(fmt.Sprintf("coeditors[%d].permission_groups[%d]", i, j), "%q is not a permission group.", g)
				}
			}
		}
	}
	return c.err()
}

// ineligible reports addresses the provider would refuse as co-editors:
// role and no-reply mailboxes cannot sign in.
func ineligible(email string) bool {
	local, _, _ := strings.Cut(email, "@")
	return strings.HasPrefix(local, "noreply") || strings.HasPrefix(local, "no-reply") || local == "events"
}

func (s *Sim) changeCoeditors(w http.ResponseWriter, r *http.Request, p *principal) error {
	var in coeditorBody
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e, err := s.ownedEvent(p, r.PathValue("eventId"), api.CodeEventNotFound)
	if err != nil {
		return err
	}
	if err := validateCoeditors(&in); err != nil {
		return err
	}
	set := s.coeditorsOf(e)
	owner := ""
	if u := s.st.users[e.hostID()]; u != nil {
		owner = u.Email
	}
	out := struct {
		Errors []api.BatchError `json:"errors"`
	}{Errors: []api.BatchError{}}
	refuse := func(email, msg string) { out.Errors = append(out.Errors, api.BatchError{Email: email, Message: msg}) }
	done := map[string]bool{}
	for _, c := range in.Coeditors {
		email := normEmail(c.Email)
		at := set.index(email)
		switch {
		case !validEmail(email):
			refuse(c.Email, "Invalid email address.")
		case done[email]:
			refuse(c.Email, "This address appears more than once in the request.")
		case email == owner:
			refuse(c.Email, "The event owner already has full access and cannot be a co-editor.")
		case in.Operation == "add" && at >= 0:
			refuse(c.Email, "User is already a co-editor of this event.")
		case in.Operation == "add" && ineligible(email):
			refuse(c.Email, "User not eligible for co-editor.")
		case in.Operation == "add" && len(set.list) >= maxCoeditorsPerEvent:
			refuse(c.Email, fmt.Sprintf("The event already has %d co-editors, the most an event may have.", len(set.list)))
		case in.Operation != "add" && at < 0:
			refuse(c.Email, "User is not a co-editor of this event.")
		case in.Operation == "add":
			set.list = append(set.list, api.Coeditor{Email: email, PermissionGroups: canonicalGroups(c.PermissionGroups)})
		case in.Operation == "update":
			set.list[at].PermissionGroups = canonicalGroups(c.PermissionGroups)
		default:
			set.list = slices.Delete(set.list, at, at+1)
		}
		done[email] = true
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// canonicalGroups de-duplicates groups and puts them in the spec's order.
func canonicalGroups(groups []string) []string {
	out := []string{}
	for _, g := range permissionGroups {
		if slices.Contains(groups, g) {
			out = append(out, g)
		}
	}
	return out
}

// Coeditors returns the co-editors of an event (nil for an unknown event).
// For tests and demos.
func (s *Sim) Coeditors(eventID string) []api.Coeditor {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e := s.st.events[eventID]
	if e == nil {
		return nil
	}
	list := s.coeditorsOf(e).list
	out := make([]api.Coeditor, len(list))
	for i, c := range list {
		out[i] = api.Coeditor{Email: c.Email, PermissionGroups: slices.Clone(c.PermissionGroups)}
	}
	return out
}
