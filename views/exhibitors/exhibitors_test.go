package exhibitors

import (
	"context"
	"fmt"
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
	// The heading's two counts add up to the rows, as the Kind column has them.
	list, err := r.client.Exhibitors.List(t.Context(), r.id)
	if err != nil {
		t.Fatal(err)
	}
	sponsors := 0
	for _, x := range list {
		if x.IsSponsor {
			sponsors++
		}
	}
	r.Contains(fmt.Sprintf("%d exhibitors, %d sponsors", len(list)-sponsors, sponsors))
}

// Eight rows of which five are sponsors are three exhibitors and five
// sponsors, not "8 exhibitors, 5 sponsors".
func TestSummaryCountsByKind(t *testing.T) {
	var list []api.Exhibitor
	for i := range 8 {
		list = append(list, api.Exhibitor{IsSponsor: i < 5})
	}
	if got := summary(list); got != "3 exhibitors, 5 sponsors" {
		t.Fatalf("summary %q", got)
	}
	if got := summary(nil); got != "0 exhibitors, 0 sponsors" {
		t.Fatalf("summary of none %q", got)
	}
}

// The table grows with the rows a reload brings (it was sized once, for
// the rows there were when the screen opened).
func TestTableFollowsReload(t *testing.T) {
	r := newRig(t, 100, 40, func(f sim.Fixtures) string { return f.ConferenceEventID })
	names := []string{"Alpine Ski House", "Blue Yonder Airlines", "City Power & Light"}
	for i, n := range names {
		_, err := r.client.Exhibitors.Create(t.Context(), r.id, api.ExhibitorCreate{Name: n,
			ContactName: "Contact", ContactEmail: fmt.Sprintf("c%d@example.com", i)})
		if err != nil {
			t.Fatal(err)
		}
	}
	r.Press("r")
	list, err := r.client.Exhibitors.List(t.Context(), r.id)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range list {
		r.Contains(x.Name)
	}
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
