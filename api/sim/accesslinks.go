package sim

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/evdesk/evdesk/api"
)

// regBook is the registration side of every event: access links and ticket
// types, seeded on first use (see of). It is created by registrationRoutes
// and guarded by st.mu.
type regBook struct {
	byEvent map[*eventRec]*regState
}

// regState is one event's access links (authentication methods as on the
// wire, with the simulator's path word) and ticket types.
type regState struct {
	links []api.AccessLink
	types []api.TicketType
}

// registrationRoutes registers access links (spec 4.3a), ticket types and
// tickets (spec 4.6), which share one book.
func (s *Sim) registrationRoutes() {
	book := &regBook{byEvent: map[*eventRec]*regState{}}
	s.accessLinkRoutes(book)
	s.ticketRoutes(book)
}

func (s *Sim) accessLinkRoutes(b *regBook) {
	s.handle("GET", "/events/{eventId}/access_links",
		s.scopeFor("events_access_links:read", "events:read:list_access_links"), b.with(s.listLinks))
	s.handle("POST", "/events/{eventId}/access_links",
		s.scopeFor("events_access_links:write", "events:write:access_links"), b.with(s.createLink))
	s.handle("GET", "/events/{eventId}/access_links/{accessLinkId}",
		s.scopeFor("events_access_links:read", "events:read:access_links"), b.with(s.getLink))
	s.handle("PATCH", "/events/{eventId}/access_links/{accessLinkId}",
		s.scopeFor("events_access_links:write", "events:update:access_links"), b.with(s.updateLink))
	s.handle("DELETE", "/events/{eventId}/access_links/{accessLinkId}",
		s.scopeFor("events_access_links:write", "events:delete:access_links"), b.with(s.deleteLink))
}

// regHandler is a handler that reads or changes the book.
type regHandler func(b *regBook, w http.ResponseWriter, r *http.Request, p *principal) error

func (b *regBook) with(h regHandler) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error { return h(b, w, r, p) }
}

// Seeded ticket types of every event, the default first.
var seedTicketTypes = []struct {
	name, desc, price string
	quantity          int
}{
	{"General admission", "Access to every session and the recordings.", "", 500},
	{"VIP", "Reserved seating, the speakers' reception and early access.", "149.00", 50},
	{"Speaker", "For speakers and moderators: backstage and green-room access.", "", 40},
}

// TicketTypeID is the id of a seeded ticket type of an event ("General
// admission", "VIP" or "Speaker"): the same on every run. For tests and demos.
func TicketTypeID(eventID, name string) string { return makeID("tickettype", eventID, name) }

// of returns e's registration state, seeding it on first use: the three
// ticket types; for a published event a default registration link, and for a
// published conference or recurring series a group-join link for staff and
// speakers. Call with st.mu held.
func (b *regBook) of(s *Sim, e *eventRec) *regState {
	if st := b.byEvent[e]; st != nil {
		return st
	}
	st := &regState{links: []api.AccessLink{}}
	id := e.ev.EventID
	for i, t := range seedTicketTypes {
		tt := api.TicketType{TicketTypeID: TicketTypeID(id, t.name), Name: t.name, Description: t.desc,
			Currency: "USD", Free: t.price == "", Price: t.price, Quantity: t.quantity, Sessions: []string{"ALL"}}
		if tt.Free {
			tt.Price = "0"
		}
		if i == 0 {
			tt.SoldQuantity = min(e.registrants, t.quantity)
			tt.Quantity = max(t.quantity, e.registrants+t.quantity)
		}
		if e.ev.StartTime != nil && e.ev.EndTime != nil {
			// On sale from three months before the event until it ends (a
			// running series still sells its later sessions).
			start, end := e.ev.StartTime.UTC().AddDate(0, -3, 0), e.ev.EndTime.UTC()
			tt.StartTime, tt.EndTime = &start, &end
		}
		st.types = append(st.types, tt)
	}
	if e.ev.Status == api.StatusPublished {
		reg := api.AccessLink{AccessLinkID: makeID("link", id, "registration"), Name: "Registration",
			Type: api.LinkRegistration, AuthenticationMethod: s.word + "_account_otp", IsDefault: true,
			SecurityAtJoin: &api.SecurityAtJoin{EmailAuthentication: true}}
		if e.ev.AccessLevel == api.AccessPrivateRestricted {
			reg.AuthenticationMethod, reg.IdPName = api.AuthCorporateIdP, "okta"
		}
		if e.ev.EventType == api.EventTypeRecurring {
			reg.RecurringRegistrationOption = api.RecurringMultipleSessions
		}
		st.links = append(st.links, reg)
		if e.ev.EventType == api.EventTypeRecurring || e.ev.EventType == api.EventTypeConference {
			domain := "northwind.example"
			if u := s.st.users[e.hostID()]; u != nil {
				_, domain, _ = strings.Cut(u.Email, "@")
			}
			st.links = append(st.links, api.AccessLink{AccessLinkID: makeID("link", id, "group-join"),
				Name: "Staff and speakers", Type: api.LinkGroupJoin, AuthenticationMethod: s.word + "_account",
				AllowDomainList: []string{domain}, TicketTypeID: TicketTypeID(id, "Speaker"),
				SecurityAtJoin: &api.SecurityAtJoin{SecurityCodeVerification: true}})
		}
		for i := range st.links {
			st.links[i].URL = s.linkURL(st.links[i].AccessLinkID)
		}
	}
	b.byEvent[e] = st
	return st
}

func (s *Sim) linkURL(linkID string) string {
	return "https://events." + s.word + ".example/ev/" + linkID
}

func cloneLink(l api.AccessLink) api.AccessLink {
	c := l
	c.AllowDomainList = slices.Clone(l.AllowDomainList)
	c.EmailRestrictList = slices.Clone(l.EmailRestrictList)
	if l.SecurityAtJoin != nil {
		sj := *l.SecurityAtJoin
		c.SecurityAtJoin = &sj
	}
	c.Extra = nil
	return c
}

func (st *regState) link(id string) int {
	return slices.IndexFunc(st.links, func(l api.AccessLink) bool { return l.AccessLinkID == id })
}

func (st *regState) ticketType(id string) int {
	return slices.IndexFunc(st.types, func(t api.TicketType) bool { return t.TicketTypeID == id })
}

// nameTaken reports whether another link of the event has the name (any case).
func (st *regState) nameTaken(name, except string) bool {
	return slices.ContainsFunc(st.links, func(l api.AccessLink) bool {
		return l.AccessLinkID != except && strings.EqualFold(strings.TrimSpace(l.Name), strings.TrimSpace(name))
	})
}

// linkTarget finds the event and its registration state. Call with st.mu held.
func (s *Sim) linkTarget(b *regBook, p *principal, r *http.Request) (*eventRec, *regState, error) {
	e, err := s.ownedEvent(p, r.PathValue("eventId"), api.CodeEventNotFound)
	if err != nil {
		return nil, nil, err
	}
	return e, b.of(s, e), nil
}

func (s *Sim) listLinks(b *regBook, w http.ResponseWriter, r *http.Request, p *principal) error {
	s.st.mu.Lock()
	_, st, err := s.linkTarget(b, p, r)
	var out api.AccessLinkList
	if err == nil {
		out.AccessLinks = make([]api.AccessLink, len(st.links))
		for i, l := range st.links {
			out.AccessLinks[i] = cloneLink(l)
		}
	}
	s.st.mu.Unlock()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Sim) getLink(b *regBook, w http.ResponseWriter, r *http.Request, p *principal) error {
	s.st.mu.Lock()
	_, st, err := s.linkTarget(b, p, r)
	var out api.AccessLink
	if err == nil {
		if i := st.link(r.PathValue("accessLinkId")); i < 0 {
			err = errLinkNotFound()
		} else {
			out = cloneLink(st.links[i])
		}
	}
	s.st.mu.Unlock()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func errLinkNotFound() *apiError {
	return errf(http.StatusNotFound, api.CodeAccessLinkNotFound, "Event access link not found.")
}

// linkBody is a create or update body; nil fields were not sent.
type linkBody struct {
	Name                        *string             `json:"name"`
	Type                        *string             `json:"type"`
	AuthenticationMethod        *string             `json:"authentication_method"`
	IdPName                     *string             `json:"idp_name"`
	IsDefault                   *bool               `json:"is_default"`
	AllowDomainList             *[]string           `json:"allow_domain_list"`
	EmailRestrictList           *[]string           `json:"email_restrict_list"`
	RecurringRegistrationOption *string             `json:"recurring_registration_option"`
	SecurityAtJoin              *api.SecurityAtJoin `json:"security_at_join"`
	TicketTypeID                *string             `json:"ticket_type_id"`
}

// checkLink applies the access-link rules of the spec (2.9, section 8) to
// the fields sent: linkType and eventType are the link's and the event's.
func (s *Sim) checkLink(c *checks, in *linkBody, linkType, eventType string) {
	auth := make([]string, len(authMethods))
	for i, m := range authMethods {
		auth[i] = s.branded(m)
	}
	c.among("authentication_method", in.AuthenticationMethod, auth)
	c.among("recurring_registration_option", in.RecurringRegistrationOption, recurringOptions)
	if idp := str(in.IdPName); idp != "" && in.AuthenticationMethod != nil && *in.AuthenticationMethod != "corporate_idp" {
		c.add("idp_name", "applies only to the corporate_idp authentication method.")
	}
	if d := list(in.AllowDomainList); len(d) > 0 {
		c.atMost("allow_domain_list", len(d), maxAllowedDomains, "domains")
		for i, dom := range d {
			if !validDomain(dom) {
				c.add(fmt.Sprintf("allow_domain_list[%d]", i), "%q is not a domain such as example.org.", dom)
			}
		}
	}
	for i, e := range list(in.EmailRestrictList) {
		if !validEmail(strings.TrimSpace(e)) {
			c.add(fmt.Sprintf("email_restrict_list[%d]", i), "%q is not an email address.", e)
		}
	}
	if str(in.TicketTypeID) != "" && linkType != "group-join" {
		c.add("ticket_type_id", "applies only to group-join links.")
	}
	if in.SecurityAtJoin != nil && in.SecurityAtJoin.EmailAuthentication && linkType == "group-join" {
		c.add("security_at_join.email_authentication", "applies only to registration links.")
	}
	if str(in.RecurringRegistrationOption) != "" && eventType != "RECURRING" {
		c.add("recurring_registration_option", "applies only to recurring events.")
	}
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func list(p *[]string) []string {
	if p == nil {
		return nil
	}
	return *p
}

func (s *Sim) createLink(b *regBook, w http.ResponseWriter, r *http.Request, p *principal) error {
	var in linkBody
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e, st, err := s.linkTarget(b, p, r)
	if err != nil {
		return err
	}
	var c checks
	c.present("name", in.Name)
	c.present("type", in.Type)
	c.present("authentication_method", in.AuthenticationMethod)
	c.among("type", in.Type, linkTypes)
	s.checkLink(&c, &in, str(in.Type), e.ev.EventType)
	if err := c.err(); err != nil {
		return err
	}
	if t := str(in.TicketTypeID); t != "" && st.ticketType(t) < 0 {
		return errf(http.StatusBadRequest, api.CodeTicketTypeNotFound, "Ticket type could not be found.")
	}
	if st.nameTaken(str(in.Name), "") {
		return errf(http.StatusBadRequest, api.CodeJoinLinkNameTaken, "Each join link must have a unique name.")
	}
	id := s.st.newID("link", func(id string) bool { return st.link(id) >= 0 })
	l := api.AccessLink{AccessLinkID: id, Name: strings.TrimSpace(str(in.Name)), Type: str(in.Type), AuthenticationMethod: str(in.AuthenticationMethod),
		IdPName: str(in.IdPName), IsDefault: in.IsDefault != nil && *in.IsDefault, AllowDomainList: normDomains(list(in.AllowDomainList)),
		EmailRestrictList: normEmails(list(in.EmailRestrictList)), RecurringRegistrationOption: str(in.RecurringRegistrationOption),
		SecurityAtJoin: in.SecurityAtJoin, TicketTypeID: str(in.TicketTypeID), URL: s.linkURL(id)}
	if l.IsDefault {
		st.clearDefault()
	}
	st.links = append(st.links, l)
	writeJSON(w, http.StatusCreated, cloneLink(l))
	return nil
}

func (st *regState) clearDefault() {
	for i := range st.links {
		st.links[i].IsDefault = false
	}
}

func normDomains(in []string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, 0, len(in))
	for _, d := range in {
		d = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), ".")
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

func normEmails(in []string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, e := range in {
		out[i] = normEmail(e)
	}
	return out
}

func (s *Sim) updateLink(b *regBook, w http.ResponseWriter, r *http.Request, p *principal) error {
	var in linkBody
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e, st, err := s.linkTarget(b, p, r)
	if err != nil {
		return err
	}
	i := st.link(r.PathValue("accessLinkId"))
	if i < 0 {
		return errLinkNotFound()
	}
	cur := &st.links[i]
	// The type is not part of an update and is_default false is ignored
	// (spec 2.9): neither is an error.
	var c checks
	c.notBlank("name", in.Name)
	c.notBlank("authentication_method", in.AuthenticationMethod)
	checked := in
	if in.IdPName != nil && in.AuthenticationMethod == nil {
		m := cur.AuthenticationMethod
		checked.AuthenticationMethod = &m
	}
	s.checkLink(&c, &checked, cur.Type, e.ev.EventType)
	if err := c.err(); err != nil {
		return err
	}
	if t := str(in.TicketTypeID); t != "" && st.ticketType(t) < 0 {
		return errf(http.StatusBadRequest, api.CodeTicketTypeNotFound, "Ticket type could not be found.")
	}
	if in.Name != nil && st.nameTaken(*in.Name, cur.AccessLinkID) {
		return errf(http.StatusBadRequest, api.CodeJoinLinkNameTaken, "Each join link must have a unique name.")
	}
	if in.Name != nil {
		cur.Name = strings.TrimSpace(*in.Name)
	}
	if in.AuthenticationMethod != nil {
		cur.AuthenticationMethod = *in.AuthenticationMethod
		if cur.AuthenticationMethod != "corporate_idp" {
			cur.IdPName = ""
		}
	}
	if in.IdPName != nil {
		cur.IdPName = *in.IdPName
	}
	if in.AllowDomainList != nil {
		cur.AllowDomainList = normDomains(*in.AllowDomainList)
	}
	if in.EmailRestrictList != nil {
		cur.EmailRestrictList = normEmails(*in.EmailRestrictList)
	}
	if in.RecurringRegistrationOption != nil {
		cur.RecurringRegistrationOption = *in.RecurringRegistrationOption
	}
	if in.SecurityAtJoin != nil {
		sj := *in.SecurityAtJoin
		cur.SecurityAtJoin = &sj
	}
	if in.TicketTypeID != nil {
		cur.TicketTypeID = *in.TicketTypeID
	}
	if in.IsDefault != nil && *in.IsDefault {
		st.clearDefault()
		st.links[i].IsDefault = true
	}
	noContent(w)
	return nil
}

func (s *Sim) deleteLink(b *regBook, w http.ResponseWriter, r *http.Request, p *principal) error {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	_, st, err := s.linkTarget(b, p, r)
	if err != nil {
		return err
	}
	i := st.link(r.PathValue("accessLinkId"))
	if i < 0 {
		return errLinkNotFound()
	}
	st.links = slices.Delete(st.links, i, i+1)
	noContent(w)
	return nil
}
