package api

import (
	"fmt"
	"slices"
	"strings"
)

// What each feature of evdesk calls, and what each call needs: the one
// table login requests its scopes from, `auth status` checks a login
// against, a 403 explains itself with, and the README's scope table is
// generated from (a test fails when it is stale).
//
// Paths and scopes are written with the neutral word "vendor", as the spec
// writes them; the client puts its path word in their place.

// Plans a call needs besides its scopes (spec 1 and the phone document 1).
const (
	// PlanEvents is the spec's prerequisite of the attendee-action,
	// co-editor, access-link, event and exhibitor endpoints.
	PlanEvents = "a Pro or higher plan with a Webinars Plus / Events licence"
	// PlanPhone is the phone document's prerequisite.
	PlanPhone = "a Business or Enterprise plan with a phone licence"
)

// Endpoint is one call and what it needs: its scope or its granular scope
// (each also accepted with an :admin suffix, spec 5), and the plan.
type Endpoint struct {
	Method, Path string // Path as the spec writes it, {param} for parameters
	Scope        string // the classic scope (spec 4 tables; description's x-macro-scopes)
	Granular     string // the granular scope
	Plan         string // "" when neither document names one
	Source       string // where the scopes are written
}

// Key is "METHOD path", as Feature.Calls names an endpoint.
func (e Endpoint) Key() string { return e.Method + " " + e.Path }

const ev = "/vendor_events/events/{eventId}"

// Endpoints is every call evdesk makes with an OAuth token.
var Endpoints = []Endpoint{
	{"GET", "/vendor_events/events", "vendor_events_basic:read", "vendor_events:read:list_events", PlanEvents, "spec 4.4"},
	{"POST", "/vendor_events/events", "vendor_events_basic:write", "vendor_events:write:event", PlanEvents, "spec 4.4"},
	{"GET", ev, "vendor_events_basic:read", "vendor_events:read:event", PlanEvents, "spec 4.4"},
	{"PATCH", ev, "vendor_events_basic:write", "vendor_events:update:event", PlanEvents, "spec 4.4"},
	{"DELETE", ev, "vendor_events_basic:write", "vendor_events:delete:event", PlanEvents, "spec 4.4"},
	{"POST", ev + "/event_actions", "vendor_events_basic:write", "vendor_events:write:event", PlanEvents, "spec 4.4"},
	{"GET", ev + "/attendee_action", "vendor_events_attendee_actions:read", "vendor_events:read:list_attendee_actions", PlanEvents, "spec 4.1"},
	{"PATCH", ev + "/attendee_action", "vendor_events_attendee_actions:write", "vendor_events:update:batch_attendee_actions", PlanEvents, "spec 4.1"},
	{"GET", ev + "/sessions/{sessionId}/attendee_action", "vendor_events_attendee_actions:read", "vendor_events:read:list_session_attendee_actions", PlanEvents, "spec 4.1"},
	{"PATCH", ev + "/sessions/{sessionId}/attendee_action", "vendor_events_attendee_actions:write", "vendor_events:update:batch_session_attendee_actions", PlanEvents, "spec 4.1"},
	{"GET", ev + "/coeditors", "vendor_events_coeditors:read", "vendor_events:read:list_coeditors", PlanEvents, "spec 4.2"},
	{"PATCH", ev + "/coeditors", "vendor_events_coeditor:write", "vendor_events:write:coeditor", PlanEvents, "spec 4.2"},
	{"GET", ev + "/email_types", "vendor_events_email:read", "vendor_events:read:list_email_types", "", "spec 4.3"},
	{"GET", ev + "/email_types/{emailTypeId}/send_status", "vendor_events_email:read", "vendor_events:read:list_emails_status", "", "spec 4.3"},
	{"GET", ev + "/access_links", "vendor_events_access_links:read", "vendor_events:read:list_access_links", PlanEvents, "spec 4.3a"},
	{"POST", ev + "/access_links", "vendor_events_access_links:write", "vendor_events:write:access_links", PlanEvents, "spec 4.3a"},
	{"GET", ev + "/access_links/{accessLinkId}", "vendor_events_access_links:read", "vendor_events:read:access_links", PlanEvents, "spec 4.3a"},
	{"PATCH", ev + "/access_links/{accessLinkId}", "vendor_events_access_links:write", "vendor_events:update:access_links", PlanEvents, "spec 4.3a"},
	{"DELETE", ev + "/access_links/{accessLinkId}", "vendor_events_access_links:write", "vendor_events:delete:access_links", PlanEvents, "spec 4.3a"},
	{"GET", ev + "/exhibitors", "vendor_events_exhibitors:read", "vendor_events:read:list_exhibitors", PlanEvents, "spec 4.5"},
	{"POST", ev + "/exhibitors", "vendor_events_exhibitors:write", "vendor_events:write:exhibitor", PlanEvents, "spec 4.5"},
	{"GET", "/vendor_events/hubs", "vendor_events_hubs:read", "vendor_events:read:list_hubs", "", "description"},
	{"GET", ev + "/sessions", "vendor_events_sessions:read", "vendor_events:read:list_sessions", "", "description"},
	{"GET", ev + "/ticket_types", "vendor_events_ticket_types:read", "vendor_events:read:list_ticket_types", "", "description"},
	{"POST", ev + "/tickets", "vendor_events_tickets:write", "vendor_events:write:ticket", "", "description"},
	{"GET", ev + "/registrants", "vendor_events_registrants:read", "vendor_events:read:list_registrants", "", "description (not in the spec)"},
	{"GET", "/phone/account_settings", PhoneScope, PhoneGranularScope, PlanPhone, "phone document 4"},
}

// Feature is a part of evdesk and the calls it makes.
type Feature struct {
	Name  string
	Calls []string // Endpoint keys
}

// Features lists evdesk's features and their calls.
var Features = []Feature{
	{"Events: lists and details", []string{"GET /vendor_events/events", "GET " + ev}},
	{"Events: create, edit, publish, cancel, duplicate, delete", []string{"POST /vendor_events/events", "PATCH " + ev,
		"DELETE " + ev, "POST " + ev + "/event_actions"}},
	{"Hub picker (new event)", []string{"GET /vendor_events/hubs"}},
	{"Cancel count (who registered, before a cancel)", []string{"GET " + ev + "/registrants"}},
	{"Check-in desk and import: check in", []string{"PATCH " + ev + "/attendee_action", "PATCH " + ev + "/sessions/{sessionId}/attendee_action"}},
	{"Check-in history, arrivals and other desks' check-ins", []string{"GET " + ev + "/attendee_action", "GET " + ev + "/sessions/{sessionId}/attendee_action"}},
	{"Check-in roster: names, ticket scans, search", []string{"GET " + ev + "/registrants"}},
	{"Sessions (desk, registration, exhibitors)", []string{"GET " + ev + "/sessions"}},
	{"Co-editors", []string{"GET " + ev + "/coeditors", "PATCH " + ev + "/coeditors"}},
	{"Emails and send status", []string{"GET " + ev + "/email_types", "GET " + ev + "/email_types/{emailTypeId}/send_status"}},
	{"Access links", []string{"GET " + ev + "/access_links", "POST " + ev + "/access_links", "GET " + ev + "/access_links/{accessLinkId}",
		"PATCH " + ev + "/access_links/{accessLinkId}", "DELETE " + ev + "/access_links/{accessLinkId}"}},
	{"Exhibitors and sponsors", []string{"GET " + ev + "/exhibitors", "POST " + ev + "/exhibitors"}},
	{"Registration: ticket types", []string{"GET " + ev + "/ticket_types"}},
	{"Registration: tickets (register attendees)", []string{"POST " + ev + "/tickets"}},
	{"Phone settings", []string{"GET /phone/account_settings"}},
}

// endpointByKey finds an endpoint of the table.
func endpointByKey(key string) (Endpoint, bool) {
	i := slices.IndexFunc(Endpoints, func(e Endpoint) bool { return e.Key() == key })
	if i < 0 {
		return Endpoint{}, false
	}
	return Endpoints[i], true
}

// withWord writes a neutral scope or path with the path word.
func withWord(s, word string) string {
	if word == "" || word == DefaultPathWord {
		return s
	}
	s = strings.Replace(s, "/"+DefaultPathWord+"_", "/"+word+"_", 1)
	if strings.HasPrefix(s, DefaultPathWord+"_") {
		s = word + s[len(DefaultPathWord):]
	}
	return s
}

// Scopes are the scopes that each allow the call, with the path word: the
// scope, the granular scope and their :admin forms.
func (e Endpoint) Scopes(word string) []string {
	var out []string
	for _, s := range []string{e.Scope, e.Granular} {
		s = withWord(s, word)
		out = append(out, s)
		if !strings.HasSuffix(s, ":admin") {
			out = append(out, s+":admin")
		}
	}
	return out
}

// AllowedBy reports whether a token granted these scopes may make the call.
func (e Endpoint) AllowedBy(granted []string, word string) bool {
	for _, s := range e.Scopes(word) {
		if slices.Contains(granted, s) {
			return true
		}
	}
	return false
}

// Needs says what the call needs, for a person: "scope X (or Y)", and the
// plan when the documents name one.
func (e Endpoint) Needs(word string) string {
	s := fmt.Sprintf("scope %s (or %s)", withWord(e.Scope, word), withWord(e.Granular, word))
	if e.Plan != "" {
		s += ", on " + e.Plan
	}
	return s
}

// RequestedScopes are the scopes login asks for when a profile names none:
// the classic scope of every call of every feature, with the path word.
func RequestedScopes(word string) []string {
	var out []string
	for _, f := range Features {
		for _, key := range f.Calls {
			e, _ := endpointByKey(key)
			if s := withWord(e.Scope, word); !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// FeatureGap is a feature a login's scopes leave out, with a scope for
// each call it lacks.
type FeatureGap struct {
	Feature string
	Missing []string
}

// LeftOut lists the features the granted scopes do not allow in full.
func LeftOut(granted []string, word string) []FeatureGap {
	var out []FeatureGap
	for _, f := range Features {
		var missing []string
		for _, key := range f.Calls {
			e, _ := endpointByKey(key)
			if s := withWord(e.Scope, word); !e.AllowedBy(granted, word) && !slices.Contains(missing, s) {
				missing = append(missing, s)
			}
		}
		if len(missing) > 0 {
			out = append(out, FeatureGap{Feature: f.Name, Missing: missing})
		}
	}
	return out
}

// endpointFor finds the table's endpoint of a request the client made
// (method and path below the base, with the client's word).
func (c *Client) endpointFor(method, path string) (Endpoint, bool) {
	got := strings.Split(strings.Trim(path, "/"), "/")
	for _, e := range Endpoints {
		if e.Method != method {
			continue
		}
		want := strings.Split(strings.Trim(withWord(e.Path, c.word), "/"), "/")
		if len(want) != len(got) {
			continue
		}
		match := true
		for i := range want {
			if !strings.HasPrefix(want[i], "{") && want[i] != got[i] {
				match = false
				break
			}
		}
		if match {
			return e, true
		}
	}
	return Endpoint{}, false
}
