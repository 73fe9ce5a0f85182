package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode"
)

// CoeditorsService covers the co-editors of an event and the sections each
// may edit (spec 2.6, 4.2).
type CoeditorsService struct{ c *Client }

// Co-editor operations and limits (spec 4.2; the provider's description caps
// a request, and an event's list, at 3 co-editors).
const (
	CoeditorAdd    = "add"
	CoeditorUpdate = "update"
	CoeditorDelete = "delete"
	// MaxCoeditorsPerRequest is how many co-editors one PATCH may carry;
	// CoeditorsService.Change splits longer lists.
	MaxCoeditorsPerRequest = 3
	// MaxCoeditorsPerEvent is how many co-editors an event may have; an add
	// that would pass it is refused before it is sent.
	MaxCoeditorsPerEvent = 3
)

// CoeditorOperations lists the operation values a PATCH accepts.
var CoeditorOperations = []string{CoeditorAdd, CoeditorUpdate, CoeditorDelete}

// Permission groups: the sections of an event a co-editor may edit (spec
// 2.6). The values are sent exactly as written, including the spaces and the
// ampersand of PermRegistrationJoin.
const (
	PermPublish            = "Publish"
	PermEventConfiguration = "EventConfiguration"
	PermEventBranding      = "EventBranding"
	PermRegistrationJoin   = "Registration & Join"
	PermVenue              = "Venue"
	PermEventExperience    = "EventExperience"
	PermEventPlanning      = "EventPlanning"
	PermSpecialRole        = "SpecialRole"
	PermPostEvent          = "PostEvent"
	PermAnalytics          = "Analytics"
	PermEmail              = "Email"
	PermIntegrations       = "Integrations"
)

// PermissionGroup describes one permission group: the value the API uses, a
// label for people and what it lets a co-editor do.
type PermissionGroup struct {
	Value  string
	Label  string
	Grants string
}

// PermissionGroups lists the twelve groups in the spec's order.
var PermissionGroups = []PermissionGroup{
	{PermPublish, "Publish", "publish the event"},
	{PermEventConfiguration, "Configuration", "edit the configuration page"},
	{PermEventBranding, "Branding", "edit the branding page"},
	{PermRegistrationJoin, "Registration & join", "edit the registration and join page"},
	{PermVenue, "Venue", "edit the venue on the event experience page"},
	{PermEventExperience, "Event experience", "edit the event experience page"},
	{PermEventPlanning, "Content", "edit the event content (planning) page"},
	{PermSpecialRole, "Special roles", "edit the special roles page"},
	{PermPostEvent, "Post-event", "edit the post-event page"},
	{PermAnalytics, "Analytics", "see and edit the analytics page"},
	{PermEmail, "Communications", "edit the communications (email) page"},
	{PermIntegrations, "Integrations", "edit the integrations page"},
}

// PermissionGroupValues lists the values of the twelve groups.
func PermissionGroupValues() []string {
	out := make([]string, len(PermissionGroups))
	for i, g := range PermissionGroups {
		out[i] = g.Value
	}
	return out
}

// LookupPermissionGroup returns the description of a group value.
func LookupPermissionGroup(value string) (PermissionGroup, bool) {
	for _, g := range PermissionGroups {
		if g.Value == value {
			return g, true
		}
	}
	return PermissionGroup{}, false
}

// PermissionLabel is a group's label for people, or the value itself when
// the group is unknown (a value the provider added later is still shown).
func PermissionLabel(value string) string {
	if g, ok := LookupPermissionGroup(value); ok {
		return g.Label
	}
	return value
}

// PermissionLabels joins the labels of groups in the spec's order, unknown
// values last: "Publish, Branding, Communications".
func PermissionLabels(values []string) string {
	if len(values) == 0 {
		return "none"
	}
	var known, unknown []string
	for _, g := range PermissionGroups {
		if slices.Contains(values, g.Value) {
			known = append(known, g.Label)
		}
	}
	for _, v := range values {
		if _, ok := LookupPermissionGroup(v); !ok {
			unknown = append(unknown, v)
		}
	}
	return strings.Join(append(known, unknown...), ", ")
}

// foldGroup reduces a group name to lower-case letters, so "registration &
// join", "Registration&Join" and "registration-join" compare equal.
func foldGroup(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// ParsePermissionGroup reads a group typed by a person: its value or its
// label, in any case, with or without spaces and punctuation. It returns the
// exact value the API expects.
func ParsePermissionGroup(s string) (string, error) {
	f := foldGroup(s)
	if f != "" {
		for _, g := range PermissionGroups {
			if f == foldGroup(g.Value) || f == foldGroup(g.Label) {
				return g.Value, nil
			}
		}
	}
	return "", fmt.Errorf("%q is not a permission group; use one of %s", strings.TrimSpace(s),
		strings.Join(PermissionGroupValues(), ", "))
}

// ParsePermissionGroups reads a comma-separated list of groups ("Publish,
// Email"); "all" selects every group and "" none.
func ParsePermissionGroups(s string) ([]string, error) {
	if strings.EqualFold(strings.TrimSpace(s), "all") {
		return PermissionGroupValues(), nil
	}
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		v, err := ParsePermissionGroup(part)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// Coeditor is a co-editor of an event and the sections they may edit (spec
// 2.6).
type Coeditor struct {
	Email            string   `json:"email"`
	PermissionGroups []string `json:"permission_groups,omitempty"`
}

// CoeditorList is the answer of the co-editors listing.
type CoeditorList struct {
	Coeditors    []Coeditor `json:"coeditors"`
	TotalRecords int        `json:"total_records"`
}

// CoeditorRequest is the body of a co-editors PATCH: an operation and up to
// three co-editors.
type CoeditorRequest struct {
	Operation string     `json:"operation"`
	Coeditors []Coeditor `json:"coeditors"`
}

// Validate checks the spec's rules for one request: a known operation, one
// to three co-editors, each with an email address and known permission
// groups (exact spelling), no address twice.
func (r *CoeditorRequest) Validate() error {
	var v validator
	if n := len(r.Coeditors); n > MaxCoeditorsPerRequest {
		v.add("coeditors", "holds %d co-editors; one request takes at most %d (CoeditorsService.Change splits longer lists)",
			n, MaxCoeditorsPerRequest)
	}
	r.validateItems(&v)
	return v.err()
}

// validateItems checks everything but the per-request limit.
func (r *CoeditorRequest) validateItems(v *validator) {
	v.required("operation", r.Operation)
	v.oneOf("operation", r.Operation, CoeditorOperations)
	if len(r.Coeditors) == 0 {
		v.add("coeditors", "is required: name at least one co-editor")
	}
	seen := map[string]int{}
	for i, c := range r.Coeditors {
		field := fmt.Sprintf("coeditors[%d]", i)
		if err := CheckEmail(c.Email); err != nil {
			v.add(field+".email", "%v", err)
		} else if first, dup := seen[NormalizeEmail(c.Email)]; dup {
			v.add(field+".email", "%s is listed twice (also coeditors[%d])", c.Email, first)
		} else {
			seen[NormalizeEmail(c.Email)] = i
		}
		if r.Operation == CoeditorDelete {
			continue // groups do not matter when removing
		}
		if len(c.PermissionGroups) > len(PermissionGroups) {
			v.add(field+".permission_groups", "holds %d groups; there are only %d", len(c.PermissionGroups), len(PermissionGroups))
		}
		for j, g := range c.PermissionGroups {
			if _, ok := LookupPermissionGroup(g); !ok {
				v.add(fmt.Sprintf("%s.permission_groups[%d]", field, j), "%q is not a permission group; use one of %s",
					g, strings.Join(PermissionGroupValues(), ", "))
			} else if slices.Index(c.PermissionGroups, g) < j {
				v.add(fmt.Sprintf("%s.permission_groups[%d]", field, j), "%q is listed twice", g)
			}
		}
	}
}

// List returns the co-editors of an event with their permission groups.
func (s *CoeditorsService) List(ctx context.Context, eventID string) ([]Coeditor, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	var out CoeditorList
	if err := s.c.do(ctx, call{op: "list co-editors", method: http.MethodGet,
		path: s.c.eventsPath("events", eventID, "coeditors"), repeatable: true}, &out); err != nil {
		return nil, err
	}
	if out.Coeditors == nil {
		out.Coeditors = []Coeditor{}
	}
	return out.Coeditors, nil
}

// Add makes each address a co-editor with the same permission groups.
func (s *CoeditorsService) Add(ctx context.Context, eventID string, emails, groups []string) ([]BatchError, error) {
	return s.Change(ctx, eventID, CoeditorAdd, sameGroups(emails, groups))
}

// Update sets the permission groups of each co-editor (replacing theirs).
func (s *CoeditorsService) Update(ctx context.Context, eventID string, emails, groups []string) ([]BatchError, error) {
	return s.Change(ctx, eventID, CoeditorUpdate, sameGroups(emails, groups))
}

// Remove takes each address off the event's co-editors.
func (s *CoeditorsService) Remove(ctx context.Context, eventID string, emails []string) ([]BatchError, error) {
	return s.Change(ctx, eventID, CoeditorDelete, sameGroups(emails, nil))
}

func sameGroups(emails, groups []string) []Coeditor {
	out := make([]Coeditor, len(emails))
	for i, e := range emails {
		out[i] = Coeditor{Email: e, PermissionGroups: slices.Clone(groups)}
	}
	return out
}

// Change applies one operation to a list of co-editors. Addresses are
// trimmed and lower-cased, the whole list is validated before anything is
// sent, exact repeats are sent once, and lists longer than the provider
// accepts (3) go out as several requests, in order. Co-editors the server
// refuses come back in failed with its message: that is data, not an error.
//
// When a later request fails, failed holds the refusals of the requests that
// went through and err names the request that failed and its co-editors. An
// update is retried after failures of unknown outcome (setting the same
// groups twice changes nothing); an add or a delete is not, since its repeat
// would be refused per address and hide that the first one worked.
func (s *CoeditorsService) Change(ctx context.Context, eventID, op string, coeditors []Coeditor) (failed []BatchError, err error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	all := CoeditorRequest{Operation: op, Coeditors: make([]Coeditor, 0, len(coeditors))}
	seen := map[string]bool{}
	for _, c := range coeditors {
		c.Email = NormalizeEmail(c.Email)
		if op == CoeditorDelete {
			c.PermissionGroups = nil
		}
		key := c.Email + "\x00" + strings.Join(c.PermissionGroups, "\x00")
		if seen[key] {
			continue // the very same entry twice: send it once
		}
		seen[key] = true
		all.Coeditors = append(all.Coeditors, c)
	}
	var v validator
	all.validateItems(&v)
	if err := v.err(); err != nil {
		return nil, err
	}
	if op == CoeditorAdd {
		if err := s.roomFor(ctx, eventID, all.Coeditors); err != nil {
			return nil, err
		}
	}
	path := s.c.eventsPath("events", eventID, "coeditors")
	n := len(all.Coeditors)
	batches := (n + MaxCoeditorsPerRequest - 1) / MaxCoeditorsPerRequest
	failed = []BatchError{}
	for i := range batches {
		lo := i * MaxCoeditorsPerRequest
		hi := min(lo+MaxCoeditorsPerRequest, n)
		req := CoeditorRequest{Operation: op, Coeditors: all.Coeditors[lo:hi]}
		var out batchResult
		err := s.c.do(ctx, call{op: op + " co-editors", method: http.MethodPatch, path: path, body: &req,
			repeatable: op == CoeditorUpdate}, &out)
		if err != nil {
			if batches > 1 {
				var names []string
				for _, c := range req.Coeditors {
					names = append(names, c.Email)
				}
				err = fmt.Errorf("request %d of %d (%s): %w", i+1, batches, strings.Join(names, ", "), err)
			}
			return failed, err
		}
		failed = append(failed, out.Errors...)
	}
	return failed, nil
}

// roomFor refuses an add that would give the event more co-editors than it
// may have, naming those it has: the server would refuse the extra ones
// one by one, after the others were added.
func (s *CoeditorsService) roomFor(ctx context.Context, eventID string, adding []Coeditor) error {
	current, err := s.List(ctx, eventID)
	if err != nil {
		return err
	}
	have := make([]string, len(current))
	for i, c := range current {
		have[i] = NormalizeEmail(c.Email)
	}
	var fresh []string
	for _, c := range adding {
		if !slices.Contains(have, c.Email) && !slices.Contains(fresh, c.Email) {
			fresh = append(fresh, c.Email)
		}
	}
	if len(have)+len(fresh) <= MaxCoeditorsPerEvent {
		return nil
	}
	var v validator
	switch room := MaxCoeditorsPerEvent - len(have); {
	case len(have) == 0:
		v.add("coeditors", "an event takes at most %d co-editors; %d were asked (%s)",
			MaxCoeditorsPerEvent, len(fresh), strings.Join(fresh, ", "))
	case room <= 0:
		v.add("coeditors", "the event already has %d co-editors (%s), the most an event may have: remove one before adding %s",
			len(have), strings.Join(have, ", "), strings.Join(fresh, ", "))
	default:
		v.add("coeditors", "the event has %d co-editors (%s) and takes at most %d: there is room for %d more, not the %d asked (%s)",
			len(have), strings.Join(have, ", "), MaxCoeditorsPerEvent, room, len(fresh), strings.Join(fresh, ", "))
	}
	return v.err()
}
