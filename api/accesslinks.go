package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// AccessLinksService covers an event's access links: registration links and
// group-join links (spec 2.9, 4.3a).
type AccessLinksService struct{ c *Client }

// Access-link types (spec 2.9).
const (
	LinkRegistration = "registration"
	LinkGroupJoin    = "group-join"
)

// Authentication methods (spec 2.9). The two account methods carry the
// provider's name; like paths and scopes they are written here with the
// neutral word "vendor", and the client puts its path word in their place
// when it sends one. What it reads keeps the server's word (JSON output
// shows exactly what the server sent); NeutralAuthMethod maps it back for
// labels and forms.
const (
	AuthAccount      = "vendor_account"
	AuthAccountOTP   = "vendor_account_otp"
	AuthCorporateIdP = "corporate_idp"
	AuthBypass       = "bypass_auth"
	AuthAccelerated  = "accelerated_auth"
)

// Recurring registration options (spec 2.9, 4.6 flow rules 3 and 4).
const (
	RecurringAllSessions      = "all_sessions"
	RecurringSingleSession    = "single_session"
	RecurringMultipleSessions = "multiple_sessions"
)

// MaxAllowedDomains is the most entries allow_domain_list may hold (spec 8).
const MaxAllowedDomains = 50

// AccessLinkTypes, AuthMethods and RecurringOptions list the allowed values.
var (
	AccessLinkTypes  = []string{LinkRegistration, LinkGroupJoin}
	AuthMethods      = []string{AuthAccount, AuthAccountOTP, AuthCorporateIdP, AuthBypass, AuthAccelerated}
	RecurringOptions = []string{RecurringAllSessions, RecurringSingleSession, RecurringMultipleSessions}
)

// NeutralAuthMethod writes an account method the server sent with its own
// word ("acme_account_otp") with the neutral word (AuthAccountOTP); other
// methods are returned as they are.
func NeutralAuthMethod(m string) string {
	for _, neutral := range []string{AuthAccountOTP, AuthAccount} {
		suffix := strings.TrimPrefix(neutral, DefaultPathWord) // "_account_otp", "_account"
		if word, ok := strings.CutSuffix(m, suffix); ok && word != "" && !strings.Contains(word, "_") {
			return neutral
		}
	}
	return m
}

// AuthMethodLabel is a short description of an authentication method for
// people, in the neutral or the server's word; an unknown value is returned
// as it is.
func AuthMethodLabel(m string) string {
	switch NeutralAuthMethod(m) {
	case AuthAccount:
		return "account holder"
	case AuthAccountOTP:
		return "account or email one-time code"
	case AuthCorporateIdP:
		return "corporate single sign-on"
	case AuthBypass:
		return "no authentication"
	case AuthAccelerated:
		return "vanity URL"
	}
	return m
}

// RecurringOptionLabel describes a recurring registration option.
func RecurringOptionLabel(o string) string {
	switch o {
	case RecurringAllSessions:
		return "one registration for all sessions"
	case RecurringSingleSession:
		return "one session per ticket"
	case RecurringMultipleSessions:
		return "one or more sessions per ticket"
	case "":
		return "not set"
	}
	return o
}

// SecurityAtJoin is what an attendee must show when joining.
type SecurityAtJoin struct {
	// EmailAuthentication requires the registration email at join
	// (registration links only).
	EmailAuthentication bool `json:"email_authentication"`
	// SecurityCodeVerification requires a security code.
	SecurityCodeVerification bool `json:"security_code_verification"`
}

// AccessLink is one access link of an event (spec 2.9). Fields the spec does
// not show are kept in Extra.
type AccessLink struct {
	AccessLinkID                string          `json:"access_link_id,omitempty"`
	Name                        string          `json:"name"`
	Type                        string          `json:"type"`
	AuthenticationMethod        string          `json:"authentication_method"`
	IdPName                     string          `json:"idp_name,omitempty"`
	IsDefault                   bool            `json:"is_default"`
	AllowDomainList             []string        `json:"allow_domain_list,omitempty"`
	EmailRestrictList           []string        `json:"email_restrict_list,omitempty"`
	RecurringRegistrationOption string          `json:"recurring_registration_option,omitempty"`
	SecurityAtJoin              *SecurityAtJoin `json:"security_at_join,omitempty"`
	TicketTypeID                string          `json:"ticket_type_id,omitempty"`
	URL                         string          `json:"url,omitempty"`

	// Extra holds fields the spec does not show, undecoded.
	Extra map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes a link, keeping unknown fields in Extra.
func (l *AccessLink) UnmarshalJSON(b []byte) error {
	type plain AccessLink
	return unmarshalKeeping(b, (*plain)(l), &l.Extra)
}

// MarshalJSON encodes a link with its Extra fields.
func (l AccessLink) MarshalJSON() ([]byte, error) {
	type plain AccessLink
	return marshalKeeping(plain(l), l.Extra)
}

// AccessLinkList is the answer of the access-links listing.
type AccessLinkList struct {
	AccessLinks []AccessLink `json:"access_links"`
}

// AccessLinkCreate is the body of a create (spec 2.9, create column).
type AccessLinkCreate struct {
	Name                        string          `json:"name"`
	Type                        string          `json:"type"`
	AuthenticationMethod        string          `json:"authentication_method"`
	IdPName                     string          `json:"idp_name,omitempty"`
	IsDefault                   bool            `json:"is_default,omitempty"`
	AllowDomainList             []string        `json:"allow_domain_list,omitempty"`
	EmailRestrictList           []string        `json:"email_restrict_list,omitempty"`
	RecurringRegistrationOption string          `json:"recurring_registration_option,omitempty"`
	SecurityAtJoin              *SecurityAtJoin `json:"security_at_join,omitempty"`
	TicketTypeID                string          `json:"ticket_type_id,omitempty"`

	// EventType is the event's type when the caller knows it (not sent): a
	// recurring registration option is refused for other types.
	EventType string `json:"-"`
}

// Validate checks the spec's rules: name, type and authentication method
// required, known enum values, at most 50 well-formed domains, a ticket type
// only on group-join links, the recurring option only for recurring events.
func (c *AccessLinkCreate) Validate() error {
	var v validator
	v.required("name", c.Name)
	v.required("type", c.Type)
	v.required("authentication_method", c.AuthenticationMethod)
	v.oneOf("type", c.Type, AccessLinkTypes)
	validateLinkFields(&v, linkFields{
		linkType: c.Type, auth: c.AuthenticationMethod, idp: c.IdPName, domains: c.AllowDomainList,
		emails: c.EmailRestrictList, option: c.RecurringRegistrationOption, security: c.SecurityAtJoin,
		ticketType: c.TicketTypeID, eventType: c.EventType,
	})
	return v.err()
}

// AccessLinkUpdate is the body of an update (spec 2.9, update column): nil
// fields are not sent, and the type is never sent.
type AccessLinkUpdate struct {
	Name                        *string         `json:"name,omitempty"`
	AuthenticationMethod        *string         `json:"authentication_method,omitempty"`
	IdPName                     *string         `json:"idp_name,omitempty"`
	IsDefault                   *bool           `json:"is_default,omitempty"`
	AllowDomainList             *[]string       `json:"allow_domain_list,omitempty"`
	EmailRestrictList           *[]string       `json:"email_restrict_list,omitempty"`
	RecurringRegistrationOption *string         `json:"recurring_registration_option,omitempty"`
	SecurityAtJoin              *SecurityAtJoin `json:"security_at_join,omitempty"`
	TicketTypeID                *string         `json:"ticket_type_id,omitempty"`

	// LinkType and EventType are the link's and the event's types when the
	// caller knows them (not sent), for the group-join and recurring rules.
	LinkType  string `json:"-"`
	EventType string `json:"-"`
}

// Validate checks an update: sent fields must be valid, and is_default may
// only be true (the provider ignores false: make another link the default
// instead).
func (u *AccessLinkUpdate) Validate() error {
	var v validator
	if u.Name != nil {
		v.required("name", *u.Name)
	}
	if u.AuthenticationMethod != nil {
		v.required("authentication_method", *u.AuthenticationMethod)
	}
	if u.IsDefault != nil && !*u.IsDefault {
		v.add("is_default", "can only be set to true; to move the default, make another link the default")
	}
	f := linkFields{linkType: u.LinkType, security: u.SecurityAtJoin, eventType: u.EventType}
	f.auth = deref(u.AuthenticationMethod)
	f.idp = deref(u.IdPName)
	f.option = deref(u.RecurringRegistrationOption)
	f.ticketType = deref(u.TicketTypeID)
	if u.AllowDomainList != nil {
		f.domains = *u.AllowDomainList
	}
	if u.EmailRestrictList != nil {
		f.emails = *u.EmailRestrictList
	}
	validateLinkFields(&v, f)
	return v.err()
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// linkFields are the fields create and update share.
type linkFields struct {
	linkType, auth, idp, option, ticketType, eventType string
	domains, emails                                    []string
	security                                           *SecurityAtJoin
}

func validateLinkFields(v *validator, f linkFields) {
	v.oneOf("authentication_method", f.auth, AuthMethods)
	v.oneOf("recurring_registration_option", f.option, RecurringOptions)
	if f.idp != "" && f.auth != "" && f.auth != AuthCorporateIdP {
		v.add("idp_name", "applies only to the %s authentication method", AuthCorporateIdP)
	}
	if n := len(f.domains); n > MaxAllowedDomains {
		v.add("allow_domain_list", "holds %d domains; at most %d are allowed", n, MaxAllowedDomains)
	}
	for i, d := range f.domains {
		if err := CheckDomain(d); err != nil {
			v.add(fmt.Sprintf("allow_domain_list[%d]", i), "%v", err)
		}
	}
	seen := map[string]bool{}
	for i, e := range f.emails {
		field := fmt.Sprintf("email_restrict_list[%d]", i)
		if err := CheckEmail(e); err != nil {
			v.add(field, "%v", err)
		} else if n := NormalizeEmail(e); seen[n] {
			v.add(field, "%q appears more than once", e)
		} else {
			seen[n] = true
		}
	}
	if f.ticketType != "" && f.linkType != "" && f.linkType != LinkGroupJoin {
		v.add("ticket_type_id", "applies only to %s links", LinkGroupJoin)
	}
	if f.security != nil && f.security.EmailAuthentication && f.linkType == LinkGroupJoin {
		v.add("security_at_join.email_authentication", "applies only to %s links", LinkRegistration)
	}
	if f.option != "" && f.eventType != "" && f.eventType != EventTypeRecurring {
		v.add("recurring_registration_option", "applies only to recurring events; this one is %s", f.eventType)
	}
}

// CheckDomain reports why s is not a domain name such as example.org, or nil.
func CheckDomain(s string) error {
	d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), ".")
	if d == "" {
		return errors.New("is empty; write a domain such as example.org")
	}
	if len(d) > 253 {
		return fmt.Errorf("%q is longer than 253 characters", s)
	}
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return fmt.Errorf("%q is not a domain (it needs a dot, as in example.org)", s)
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return fmt.Errorf("%q is not a domain (write it as example.org, no scheme, @ or path)", s)
		}
		for _, r := range l {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
				return fmt.Errorf("%q is not a domain (write it as example.org, no scheme, @ or path)", s)
			}
		}
	}
	if tld := labels[len(labels)-1]; strings.Trim(tld, "0123456789") == "" {
		return fmt.Errorf("%q is not a domain (its last part cannot be a number)", s)
	}
	return nil
}

// wireAuth puts the client's path word into an account method given in the
// neutral word (one given in the server's word passes as it is).
func (s *AccessLinksService) wireAuth(m string) string {
	if rest, ok := strings.CutPrefix(m, DefaultPathWord+"_"); ok && s.c.word != DefaultPathWord {
		return s.c.word + "_" + rest
	}
	return m
}

func linkIDs(eventID, linkID string) error {
	if eventID == "" {
		return ErrNoEventID
	}
	if linkID == "" {
		return errors.New("access link id is required")
	}
	return nil
}

// List returns the access links of an event.
func (s *AccessLinksService) List(ctx context.Context, eventID string) ([]AccessLink, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	var out AccessLinkList
	if err := s.c.do(ctx, call{op: "list access links", method: http.MethodGet,
		path: s.c.eventsPath("events", eventID, "access_links"), repeatable: true}, &out); err != nil {
		return nil, err
	}
	if out.AccessLinks == nil {
		out.AccessLinks = []AccessLink{}
	}
	return out.AccessLinks, nil
}

// Get returns one access link.
func (s *AccessLinksService) Get(ctx context.Context, eventID, linkID string) (*AccessLink, error) {
	if err := linkIDs(eventID, linkID); err != nil {
		return nil, err
	}
	var out AccessLink
	if err := s.c.do(ctx, call{op: "get access link", method: http.MethodGet,
		path: s.c.eventsPath("events", eventID, "access_links", linkID), repeatable: true}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Create validates and creates an access link. A create is never repeated
// after a failure of unknown outcome (it could make a second link).
func (s *AccessLinksService) Create(ctx context.Context, eventID string, in *AccessLinkCreate) (*AccessLink, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	body := *in
	body.AuthenticationMethod = s.wireAuth(in.AuthenticationMethod)
	var out AccessLink
	if err := s.c.do(ctx, call{op: "create access link", method: http.MethodPost,
		path: s.c.eventsPath("events", eventID, "access_links"), body: &body}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Update validates and changes an access link. Sending the same change
// twice gives the same link, so the call is repeated after failures.
func (s *AccessLinksService) Update(ctx context.Context, eventID, linkID string, in *AccessLinkUpdate) error {
	if err := linkIDs(eventID, linkID); err != nil {
		return err
	}
	if err := in.Validate(); err != nil {
		return err
	}
	body := *in
	if in.AuthenticationMethod != nil {
		m := s.wireAuth(*in.AuthenticationMethod)
		body.AuthenticationMethod = &m
	}
	return s.c.do(ctx, call{op: "update access link", method: http.MethodPatch,
		path: s.c.eventsPath("events", eventID, "access_links", linkID), body: &body, repeatable: true}, nil)
}

// Delete removes an access link.
func (s *AccessLinksService) Delete(ctx context.Context, eventID, linkID string) error {
	if err := linkIDs(eventID, linkID); err != nil {
		return err
	}
	return s.c.do(ctx, call{op: "delete access link", method: http.MethodDelete,
		path: s.c.eventsPath("events", eventID, "access_links", linkID), repeatable: true}, nil)
}
