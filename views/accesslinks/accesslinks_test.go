package accesslinks

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views/viewtest"
)

type rig struct {
	*uitest.Driver
	client *api.Client
	id     string
}

func newRig(t *testing.T, w, h int) *rig {
	t.Helper()
	srv := viewtest.NewServer(t)
	s, client := srv.Sim, srv.Client(t, sim.DemoToken)
	id := s.Fixtures().RecurringEventID
	d := viewtest.Open(t, w, h, func(c *ui.Context) ui.Screen { return New(c, client, id, "Pottery for Beginners", true) })
	return &rig{Driver: d, client: client, id: id}
}

func (r *rig) links(t *testing.T) []api.AccessLink {
	t.Helper()
	l, err := r.client.AccessLinks.List(t.Context(), r.id)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestListDetailAndCopy(t *testing.T) {
	r := newRig(t, 110, 30)
	r.Contains("Access links of Pottery for Beginners", "2 links", "Registration", "Staff and speakers",
		"* yes", "Recurring   one or more sessions per ticket")
	r.Lacks("multiple_sessions") // words, not the API's value
	r.Golden("list")
	r.Press("down")
	r.Contains("Speaker", "northwind.example")
	r.Press("y")
	r.Contains("URL https://events.vendor.example/ev/")
}

func TestCreateEditDefaultDelete(t *testing.T) {
	r := newRig(t, 110, 44)
	r.Press("a")
	r.Contains("New access link", "Sign-in", "Recurring registration")
	r.Type("Partners")
	r.Press("enter") // name
	r.Press("enter") // type: registration
	r.Press("enter") // auth: account or OTP
	r.Press("enter") // idp
	r.Press("enter") // ticket type: none
	r.Press("enter") // recurring: all sessions
	r.Type("contoso.example, bad..domain")
	r.Press("enter")
	r.Contains("not a domain")
	r.Press("ctrl+u")
	r.Type("contoso.example")
	r.Press("enter") // domains
	r.Press("enter") // emails
	r.Golden("create_form")
	r.Press("enter") // options: none
	r.Contains("OK Created Partners", "3 links")
	links := r.links(t)
	if len(links) != 3 || links[2].Name != "Partners" || links[2].AllowDomainList[0] != "contoso.example" ||
		links[2].RecurringRegistrationOption != api.RecurringAllSessions {
		t.Fatalf("links %+v", links)
	}
	// Select Partners, make it the default, then rename it.
	r.Press("down", "down", "*")
	r.Contains("OK Made Partners the default link")
	if l := r.links(t); !l[2].IsDefault || l[0].IsDefault {
		t.Fatalf("default not moved: %+v", l)
	}
	r.Press("e")
	r.Contains("Edit Partners (registration)")
	r.Press("ctrl+u")
	r.Type("Registration")
	for range 8 {
		r.Press("enter")
	}
	// The refused form stays open with every value, the reason at the
	// name; a new name and ctrl+s from the first field save it.
	r.Contains("Not saved: the reason is under the field marked ! (name)", "! Each join link must have a unique name",
		"> Registration", "> contoso.example", "Edit Partners (registration)")
	r.Golden("edit_refused")
	r.Press("ctrl+u")
	r.Type("Partners 2")
	r.Lacks("! update access link") // the mark goes with the value it was about
	r.Press("ctrl+s")
	r.Contains("OK Saved Partners 2")
	r.Lacks("Edit Partners")
	if l := r.links(t); l[2].Name != "Partners 2" || l[2].AllowDomainList[0] != "contoso.example" {
		t.Fatalf("after the second save %+v", l[2])
	}
	r.Press("x")
	r.Contains("DANGER", "Delete the access link")
	r.Press("y")
	r.Contains("OK Deleted Partners 2", "2 links")
	if l := r.links(t); len(l) != 2 || strings.Contains(l[0].Name+l[1].Name, "Partners") {
		t.Fatalf("after delete %+v", l)
	}
}

// Deleting the default link says the event is left without one; another
// link's question does not, and No (the default answer) deletes nothing.
func TestDeleteDefaultWarns(t *testing.T) {
	r := newRig(t, 110, 30)
	const warning = "the event will then have no default link"
	r.Press("x")
	r.Contains("DANGER", `Delete the access link "Registration"`, warning)
	r.Press("enter") // the default answer: no
	r.Press("down", "x")
	r.Contains(`Delete the access link "Staff and speakers"`)
	r.Lacks(warning)
	r.Press("n")
	if l := r.links(t); len(l) != 2 {
		t.Fatalf("deleted without a yes: %+v", l)
	}
}

// y copies (c, which cancels an event elsewhere, does not); * on the
// default link says so instead of sending anything.
func TestCopyAndDefaultKeys(t *testing.T) {
	r := newRig(t, 110, 30)
	r.Press("c")
	r.Lacks("URL https")
	r.Press("*")
	r.Contains("Registration is already the default link")
	r.Press("y")
	r.Contains("URL https://events.vendor.example/ev/", "Copied the URL of Registration")
}

// failTypes answers the ticket types with an error while on is set.
type failTypes struct {
	on   atomic.Bool
	next http.RoundTripper
}

func (f *failTypes) RoundTrip(req *http.Request) (*http.Response, error) {
	if f.on.Load() && strings.HasSuffix(req.URL.Path, "/ticket_types") {
		return &http.Response{StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"code":0,"message":"gone"}`)), Request: req}, nil
	}
	return f.next.RoundTrip(req)
}

// The ticket types that name group-join links' types load again with
// every load of the links: r brings the names back after a failure.
func TestTicketTypesReloadWithLinks(t *testing.T) {
	srv := viewtest.NewServer(t)
	ft := &failTypes{next: http.DefaultTransport}
	ft.on.Store(true)
	client := srv.Client(t, sim.DemoToken, api.WithHTTPClient(&http.Client{Transport: ft}))
	id := srv.Sim.Fixtures().RecurringEventID
	d := viewtest.Open(t, 110, 30, func(c *ui.Context) ui.Screen { return New(c, client, id, "Pottery for Beginners", true) })
	d.Press("down")
	speaker := sim.TicketTypeID(id, "Speaker")
	d.Contains("Ticket type " + speaker)
	ft.on.Store(false)
	d.Press("r")
	d.Contains("Ticket type Speaker")
	d.Lacks(speaker)
}

// A group-join link with email authentication is refused by the check
// before anything is sent: the form stays open at 80x24 with every value,
// the reason under the options it is about, focused there; unticking the
// option and ctrl+s creates the link.
func TestRefusedLinkFormStaysOpenAtItsField(t *testing.T) {
	r := newRig(t, 80, 24)
	r.createRefusedGroupJoin()
	r.Contains("Not saved: the reason is under the field marked ! (flags)",
		"! security_at_join.email_authentication applies only to registration",
		"[x] require the registration email at join", "field 9/9")
	r.Golden("refused_group_join_80x24")
	if l := r.links(t); len(l) != 2 {
		t.Fatalf("a refused link was created: %+v", l)
	}
	r.Press("space") // untick
	r.Press("ctrl+s")
	r.Contains("OK Created Team tables")
	l := r.links(t)
	if len(l) != 3 || l[2].Name != "Team tables" || l[2].Type != api.LinkGroupJoin || l[2].EmailRestrictList[0] != "ana@example.org" {
		t.Fatalf("links %+v", l)
	}
}

// A refused create says what failed ("Create link ..."), never the words of
// its success ("Created ..."), in the banner left when the form is closed.
func TestRefusedCreateSaysWhatFailed(t *testing.T) {
	r := newRig(t, 110, 44)
	r.createRefusedGroupJoin()
	r.Contains("Not saved")
	r.Press("esc")
	r.Contains("Discard what you typed in")
	r.Press("y")
	r.Contains("ERROR Create link Team tables: ")
	r.Lacks("Created Team tables")
}

// createRefusedGroupJoin fills in a group-join link "Team tables" that asks
// for the registration email at join, which the server refuses.
func (r *rig) createRefusedGroupJoin() {
	r.Press("a")
	r.Type("Team tables")
	r.Press("enter", "right", "enter") // name; type: group-join
	for range 5 {                      // sign-in, idp, ticket type, recurring, domains
		r.Press("enter")
	}
	r.Type("ana@example.org")
	r.Press("enter", "space", "enter") // addresses; options: email at join
}
