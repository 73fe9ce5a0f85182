package api

import (
	"context"
	"net/http"
	"net/url"
)

// Hub is an event hub: events are created under one (spec 4.6). The spec
// shows only the id; the other fields follow the provider's published schema.
type Hub struct {
	HubID          string `json:"hub_id"`
	Name           string `json:"name,omitempty"`
	AccessLevel    string `json:"access_level,omitempty"`
	PublicURL      string `json:"public_url,omitempty"`
	HiddenHub      bool   `json:"hidden_hub,omitempty"`
	HubActive      bool   `json:"hub_active,omitempty"`
	AutoListEvents bool   `json:"auto_list_events,omitempty"`
	LandingHub     bool   `json:"landing_hub,omitempty"`
}

// HubList is the hubs listing.
type HubList struct {
	TotalRecords int   `json:"total_records"`
	Hubs         []Hub `json:"hubs"`
}

// HubsService lists hubs.
type HubsService struct{ c *Client }

// List returns the hubs the user hosts events in.
func (s *HubsService) List(ctx context.Context) ([]Hub, error) {
	var out HubList
	err := s.c.do(ctx, call{op: "list hubs", method: http.MethodGet, path: s.c.eventsPath("hubs"),
		query: url.Values{"role_type": {"host"}}, repeatable: true}, &out)
	return out.Hubs, err
}
