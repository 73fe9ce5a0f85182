package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// ExhibitorsService covers the exhibitors and sponsors of multi-session
// events: conferences and recurring series (spec 2.10, 4.5); a
// single-session event answers 1006.
type ExhibitorsService struct{ c *Client }

// MaxExhibitorSessions is how many sessions one exhibitor may be associated
// with (the provider's description caps associated_sessions at 200).
const MaxExhibitorSessions = 200

// Exhibitor is an exhibitor or sponsor as the provider returns it.
type Exhibitor struct {
	ExhibitorID        string   `json:"exhibitor_id,omitempty"`
	Name               string   `json:"name,omitempty"`
	ContactName        string   `json:"contact_name,omitempty"`
	ContactEmail       string   `json:"contact_email,omitempty"`
	IsSponsor          bool     `json:"is_sponsor"`
	TierID             string   `json:"tier_id,omitempty"`
	AssociatedSessions []string `json:"associated_sessions,omitempty"`
	Description        string   `json:"description,omitempty" text:"multiline"`
	Website            string   `json:"website,omitempty"`
	PrivacyPolicy      string   `json:"privacy_policy,omitempty"`
	LinkedInURL        string   `json:"linkedin_url,omitempty"`
	TwitterURL         string   `json:"twitter_url,omitempty"`
	YouTubeURL         string   `json:"youtube_url,omitempty"`
	InstagramURL       string   `json:"instagram_url,omitempty"`
	FacebookURL        string   `json:"facebook_url,omitempty"`
}

// Links lists the exhibitor's non-empty links as label/URL pairs, in a
// fixed order.
func (e *Exhibitor) Links() [][2]string {
	var out [][2]string
	for _, l := range [][2]string{
		{"Website", e.Website}, {"Privacy policy", e.PrivacyPolicy}, {"LinkedIn", e.LinkedInURL},
		{"Twitter", e.TwitterURL}, {"YouTube", e.YouTubeURL}, {"Instagram", e.InstagramURL}, {"Facebook", e.FacebookURL},
	} {
		if strings.TrimSpace(l[1]) != "" {
			out = append(out, l)
		}
	}
	return out
}

// ExhibitorList is the list answer.
type ExhibitorList struct {
	Exhibitors   []Exhibitor `json:"exhibitors"`
	TotalRecords int         `json:"total_records"`
}

// ExhibitorCreate is the create request (spec 2.10, create column).
// is_sponsor and tier_id are always sent: the provider's description marks
// both required (is_sponsor is true when absent), and a non-sponsor carries
// an empty tier.
type ExhibitorCreate struct {
	Name               string   `json:"name"`
	ContactName        string   `json:"contact_name"`
	ContactEmail       string   `json:"contact_email"`
	IsSponsor          bool     `json:"is_sponsor"`
	TierID             string   `json:"tier_id"`
	AssociatedSessions []string `json:"associated_sessions,omitempty"`
	Description        string   `json:"description,omitempty" text:"multiline"`
	Website            string   `json:"website,omitempty"`
	PrivacyPolicy      string   `json:"privacy_policy,omitempty"`
	LinkedInURL        string   `json:"linkedin_url,omitempty"`
	TwitterURL         string   `json:"twitter_url,omitempty"`
	// YouTubeURL: the spec's table shows youtube_url in the list answer
	// only, but the provider's description of the create request takes it.
	YouTubeURL   string `json:"youtube_url,omitempty"`
	InstagramURL string `json:"instagram_url,omitempty"`
	FacebookURL  string `json:"facebook_url,omitempty"`
}

// urlFields pairs each link field's JSON name with its value.
func (c *ExhibitorCreate) urlFields() [][2]string {
	return [][2]string{
		{"website", c.Website}, {"privacy_policy", c.PrivacyPolicy}, {"linkedin_url", c.LinkedInURL},
		{"twitter_url", c.TwitterURL}, {"youtube_url", c.YouTubeURL}, {"instagram_url", c.InstagramURL},
		{"facebook_url", c.FacebookURL},
	}
}

// Validate checks the spec's rules: name, contact name and contact email
// required; a sponsor needs its tier and a tier applies only to sponsors;
// links are absolute http(s) URLs; associated sessions are non-empty,
// distinct ids, at most MaxExhibitorSessions.
func (c *ExhibitorCreate) Validate() error {
	var v validator
	v.required("name", c.Name)
	v.required("contact_name", c.ContactName)
	if err := CheckEmail(c.ContactEmail); err != nil {
		v.add("contact_email", "%v", err)
	}
	switch {
	case c.IsSponsor && strings.TrimSpace(c.TierID) == "":
		v.add("tier_id", "is required for a sponsor: name the event's sponsor tier")
	case !c.IsSponsor && strings.TrimSpace(c.TierID) != "":
		v.add("tier_id", "applies only to sponsors; leave it empty or mark the exhibitor as a sponsor")
	}
	for _, f := range c.urlFields() {
		if err := CheckLink(f[1]); err != nil {
			v.add(f[0], "%v", err)
		}
	}
	if n := len(c.AssociatedSessions); n > MaxExhibitorSessions {
		v.add("associated_sessions", "holds %d sessions; at most %d", n, MaxExhibitorSessions)
	}
	seen := map[string]int{}
	for i, id := range c.AssociatedSessions {
		field := fmt.Sprintf("associated_sessions[%d]", i)
		switch first, dup := seen[id]; {
		case strings.TrimSpace(id) == "":
			v.add(field, "is empty: give a session id")
		case dup:
			v.add(field, "%s is listed twice (also associated_sessions[%d])", id, first)
		default:
			seen[id] = i
		}
	}
	return v.err()
}

// CheckLink reports why s is not an absolute http or https URL, or nil for
// an empty s (links are optional).
func CheckLink(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	switch {
	case strings.TrimSpace(s) != s || strings.ContainsAny(s, " \t\r\n"):
		return fmt.Errorf("%q contains spaces; a URL has none", s)
	case err != nil:
		return fmt.Errorf("%q is not a URL", s)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q is not a web address: start it with https://", s)
	case u.Host == "" || !strings.Contains(strings.Trim(u.Hostname(), "."), "."):
		return fmt.Errorf("%q has no host name such as example.com", s)
	}
	return nil
}

// List returns the exhibitors and sponsors of a multi-session event. A
// single-session event answers 1006 (CodeUnsupportedEventType); a user who
// is not a host of the event gets 3011 (CodeNotHost).
func (s *ExhibitorsService) List(ctx context.Context, eventID string) ([]Exhibitor, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	var out ExhibitorList
	if err := s.c.do(ctx, call{op: "list exhibitors", method: http.MethodGet,
		path: s.c.eventsPath("events", eventID, "exhibitors"), repeatable: true}, &out); err != nil {
		return nil, err
	}
	if out.Exhibitors == nil {
		out.Exhibitors = []Exhibitor{}
	}
	return out.Exhibitors, nil
}

// Create adds an exhibitor or sponsor to a multi-session event after
// validating the request. The POST is not repeated after a failure of
// unknown outcome (it would create a second exhibitor): such errors wrap
// ErrOutcomeUnknown.
func (s *ExhibitorsService) Create(ctx context.Context, eventID string, req ExhibitorCreate) (*Exhibitor, error) {
	if eventID == "" {
		return nil, ErrNoEventID
	}
	req.ContactEmail = strings.TrimSpace(req.ContactEmail)
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out Exhibitor
	if err := s.c.do(ctx, call{op: "create exhibitor", method: http.MethodPost,
		path: s.c.eventsPath("events", eventID, "exhibitors"), body: &req}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
