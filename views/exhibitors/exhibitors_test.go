package exhibitors

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/tiernames"
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

// newRig opens the screen on the event pick chooses, with a config
// directory of the test's own (no tier names unless the test writes them).
func newRig(t *testing.T, w, h int, pick func(sim.Fixtures) string) *rig {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	srv := viewtest.NewServer(t)
	s, client := srv.Sim, srv.Client(t, sim.DemoToken)
	id := pick(s.Fixtures())
	d := viewtest.Open(t, w, h, func(c *ui.Context) ui.Screen { return New(c, client, id, "Northwind Partner Summit") })
	return &rig{Driver: d, sim: s, client: client, id: id}
}

func TestListAndDetail(t *testing.T) {
	r := newRig(t, 100, 30, func(f sim.Fixtures) string { return f.ConferenceEventID })
	r.Contains("Exhibitors of Northwind Partner Summit", "Sponsor", "Contact", "Website")
	r.Contains("Sessions       Opening Keynote, ") // names, not ids
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
	r.Press("enter")
	// Sessions are chosen by name from the event's list.
	sessions, err := r.client.Attendees.Sessions(t.Context(), r.id)
	if err != nil || len(sessions) < 2 {
		t.Fatalf("sessions: %v %v", sessions, err)
	}
	r.Contains("Sessions", sessions[0].Name, "space chooses")
	r.Press("down", "space", "enter", "enter")
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
	if i < 0 || !list[i].IsSponsor || list[i].TierID != tier || list[i].Website != "https://contoso.example" ||
		!slices.Equal(list[i].AssociatedSessions, []string{sessions[1].SessionID}) {
		t.Fatalf("not added as asked: %+v", list)
	}
}

func TestNotAConference(t *testing.T) {
	r := newRig(t, 80, 24, func(f sim.Fixtures) string { return f.UpcomingEventID })
	r.Says("only conference (multi-session) events")
	r.Press("a")
	r.Lacks("Add an exhibitor")
	r.Golden("not_conference_80x24")
}

// nameTiers gives the event's tiers the simulator's names in the test's
// tiers file, as a user would have.
func (r *rig) nameTiers(t *testing.T) []sim.Tier {
	t.Helper()
	tiers := r.sim.SponsorTiers(r.id)
	names := tiernames.Names{}
	for _, tr := range tiers {
		names[tr.ID] = tr.Name
	}
	if err := tiernames.Save(tiernames.Path(), names); err != nil {
		t.Fatal(err)
	}
	return tiers
}

// newNamedRig is newRig at 80x24 on the conference, with its tiers named
// before the screen opens.
func newNamedRig(t *testing.T) (*rig, []sim.Tier) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	srv := viewtest.NewServer(t)
	id := srv.Fixtures().ConferenceEventID
	r := &rig{sim: srv.Sim, client: srv.Client(t, sim.DemoToken), id: id}
	tiers := r.nameTiers(t)
	r.Driver = viewtest.Open(t, 80, 24, func(c *ui.Context) ui.Screen { return New(c, r.client, id, "Northwind Partner Summit") })
	return r, tiers
}

// The Tier column shows the names the user gave; the detail pane shows the
// name with its id.
func TestNamedTiers(t *testing.T) {
	r, tiers := newNamedRig(t)
	r.Contains("Platinum", "Gold", "tier Platinum ("+tiers[0].ID+")")
	r.Lacks("VlktEmP…")
	r.Golden("named_tiers_80x24")
}

// e names the selected sponsor's tier (prefilled with its name; empty
// clears it), and refuses in words on a row with no tier.
func TestNameTierWithKeys(t *testing.T) {
	r := newRig(t, 100, 34, func(f sim.Fixtures) string { return f.ConferenceEventID })
	list, err := r.client.Exhibitors.List(t.Context(), r.id)
	if err != nil {
		t.Fatal(err)
	}
	first := list[0].TierID
	r.Contains("tier " + first)
	r.Press("e")
	r.Contains("Name the sponsor tier of "+list[0].Name, "Tier id "+first)
	r.Type("Diamond")
	r.Press("enter")
	r.Contains("Tier "+first+" is now named Diamond", "Diamond ", "tier Diamond ("+first+")")
	names, err := tiernames.Load(tiernames.Path())
	if err != nil || names[first] != "Diamond" {
		t.Fatalf("the file holds %v, %v", names, err)
	}

	// Prefilled: typing on adds to the name.
	r.Press("e")
	r.Type(" Plus")
	r.Press("enter")
	r.Contains("is now named Diamond Plus")
	// Emptied: the id shows again.
	r.Press("e")
	r.Press("ctrl+u", "enter")
	r.Contains("Tier "+first+" shows its id again", "tier "+first)
	r.Lacks("Diamond")
	if names, _ := tiernames.Load(tiernames.Path()); len(names) != 0 {
		t.Fatalf("cleared, yet the file holds %v", names)
	}

	// A row that is not a sponsor has no tier to name.
	i := slices.IndexFunc(list, func(x api.Exhibitor) bool { return !x.IsSponsor })
	for range i {
		r.Press("down")
	}
	r.Press("e")
	r.Contains(list[i].Name + " is an exhibitor, not a sponsor")
	r.Lacks("Name the sponsor tier")
}

// A tiers file evdesk cannot use is reported with its file and line; the
// screen still works, showing the ids, and naming refuses to overwrite it.
func TestHostileTierFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	path := tiernames.Path()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	bad := "[tiers]\nx = \"Gold\\u001b]52;c;aGk=\\u0007\"\n"
	if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := viewtest.NewServer(t)
	client, id := srv.Client(t, sim.DemoToken), srv.Fixtures().ConferenceEventID
	r := viewtest.Open(t, 160, 34, func(c *ui.Context) ui.Screen { return New(c, client, id, "Northwind Partner Summit") })
	r.Says("Reading tier names failed: ids show until it is fixed: " + path + ":2")
	r.Contains("VlktEmP…", "Tailspin Analytics")
	r.Press("e", "ctrl+u")
	r.Type("Gold")
	r.Press("enter")
	r.Says("fix or remove the file")
	if raw, _ := os.ReadFile(path); string(raw) != bad {
		t.Fatal("naming a tier rewrote a file it could not read")
	}
}

// The add form's tier field lists the tiers in use by their names, and
// takes a name for its id.
func TestAddFormNamesTiers(t *testing.T) {
	r, tiers := newNamedRig(t)
	r.Press("a")
	r.Type("Contoso Catering")
	r.Press("enter")
	r.Type("Lee Park")
	r.Press("enter")
	r.Type("lee@contoso.example")
	r.Press("enter", "left", "enter")
	r.Contains("Sponsor tier id", "In use:", "Platinum = "+tiers[0].ID, "A name stands")
	// A name typed in the field is sent as its id.
	r.Type("platinum")
	r.Press("enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter")
	r.Contains("Added Contoso Catering")
	list, err := r.client.Exhibitors.List(t.Context(), r.id)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(list, func(x api.Exhibitor) bool { return x.Name == "Contoso Catering" })
	if i < 0 || list[i].TierID != tiers[0].ID {
		t.Fatalf("the tier's name was not sent as its id %s: %+v", tiers[0].ID, list)
	}
}
