package exhibitors

import (
	"context"
	"slices"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views/viewtest"
)

type rig struct {
	*uitest.Driver
	sim    *sim.Sim
	client *api.Client
	id     string
}

func newRig(t *testing.T, w, h int, pick func(sim.Fixtures) string) *rig {
	t.Helper()
	srv := viewtest.NewServer(t)
	s, client := srv.Sim, srv.Client(t, sim.DemoToken)
	id := pick(s.Fixtures())
	d := viewtest.Open(t, w, h, func(c *ui.Context) ui.Screen { return New(c, client, id, "Northwind Partner Summit") })
	return &rig{Driver: d, sim: s, client: client, id: id}
}

func TestListAndDetail(t *testing.T) {
	r := newRig(t, 100, 30, func(f sim.Fixtures) string { return f.ConferenceEventID })
	r.Contains("Exhibitors of Northwind Partner Summit", "Sponsor", "Contact", "Website")
	r.Golden("list")
}

func TestAddSponsor(t *testing.T) {
	r := newRig(t, 100, 34, func(f sim.Fixtures) string { return f.ConferenceEventID })
	tier := r.sim.SponsorTiers(r.id)[0].ID
	r.Press("a")
	r.Contains("Add an exhibitor", "Name", "Contact email")
	r.Press("enter")
	r.Contains("is required")
	r.Type("Contoso Catering")
	r.Press("enter")
	r.Type("Lee Park")
	r.Press("enter")
	r.Type("lee@contoso")
	r.Press("enter")
	r.Contains("the domain needs a dot")
	r.Type(".example")
	r.Press("enter")
	r.Press("left", "enter") // Yes, a sponsor
	r.Press("enter")
	r.Contains("is required for a sponsor")
	r.Type(tier)
	r.Press("enter", "enter", "enter")
	r.Type("contoso.example")
	r.Press("enter")
	r.Contains("start it with https://")
	r.Press("ctrl+u")
	r.Type("https://contoso.example")
	r.Golden("add_form")
	r.Press("enter", "enter", "enter", "enter", "enter", "enter", "enter")
	r.Contains("Added Contoso Catering")
	list, err := r.client.Exhibitors.List(context.Background(), r.id)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(list, func(x api.Exhibitor) bool { return x.Name == "Contoso Catering" })
	if i < 0 || !list[i].IsSponsor || list[i].TierID != tier || list[i].Website != "https://contoso.example" {
		t.Fatalf("not added as asked: %+v", list)
	}
}

func TestNotAConference(t *testing.T) {
	r := newRig(t, 80, 24, func(f sim.Fixtures) string { return f.UpcomingEventID })
	r.Contains("only conference (multi-session) events")
	r.Press("a")
	r.Lacks("Add an exhibitor")
	r.Golden("not_conference_80x24")
}
