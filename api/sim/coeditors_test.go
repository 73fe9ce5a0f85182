package sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
)

type coeditorResult struct {
	Errors []api.BatchError `json:"errors"`
}

func patchCoeditors(e *env, id, op string, cs ...api.Coeditor) reply {
	e.t.Helper()
	return e.do("PATCH", "/events/"+id+"/coeditors", DemoToken, map[string]any{"operation": op, "coeditors": cs})
}

func TestCoeditorsSeedIsStableAndValid(t *testing.T) {
	a := New(Options{Now: newFakeClock(testEpoch).Now})
	b := New(Options{Now: newFakeClock(testEpoch).Now})
	f := a.Fixtures()
	total := 0
	for _, id := range []string{f.UpcomingEventID, f.ConferenceEventID, f.PastEventID, f.DraftEventID, f.RecurringEventID,
		f.MonthlyEventID, f.CancelledEventID, f.NoRegistrantsEventID, f.LargeConferenceEventID, f.BigEmailEventID} {
		got := a.Coeditors(id)
		if len(got) > api.MaxCoeditorsPerRequest {
			t.Errorf("%s has %d seeded co-editors; the listing holds at most 3", id, len(got))
		}
		if !slices.EqualFunc(got, b.Coeditors(id), func(x, y api.Coeditor) bool {
			return x.Email == y.Email && slices.Equal(x.PermissionGroups, y.PermissionGroups)
		}) {
			t.Errorf("%s: seed differs between runs", id)
		}
		for _, c := range got {
			if c.Email == DemoHostEmail || api.CheckEmail(c.Email) != nil {
				t.Errorf("seeded co-editor %q", c.Email)
			}
			req := api.CoeditorRequest{Operation: api.CoeditorAdd, Coeditors: []api.Coeditor{c}}
			if err := req.Validate(); err != nil {
				t.Errorf("seeded co-editor %v: %v", c, err)
			}
		}
		total += len(got)
	}
	if total == 0 {
		t.Error("no event has co-editors")
	}
}

func TestCoeditorsRules(t *testing.T) {
	e := newEnv(t, Options{})
	f := e.sim.Fixtures()
	id := f.NoRegistrantsEventID
	var res coeditorResult
	// Start from none, so the event has room.
	if seeded := e.sim.Coeditors(id); len(seeded) > 0 {
		patchCoeditors(e, id, "delete", seeded...).decode(t, 201, &res)
	}
	before := e.sim.Coeditors(id)

	patchCoeditors(e, id, "add",
		api.Coeditor{Email: "Ana.Ribeiro@example.org", PermissionGroups: []string{api.PermRegistrationJoin, api.PermPublish, api.PermPublish}},
		api.Coeditor{Email: DemoHostEmail},
		api.Coeditor{Email: "no-reply@northwind.example"},
	).decode(t, 201, &res)
	if len(res.Errors) != 2 || res.Errors[0].Email != DemoHostEmail || !strings.Contains(res.Errors[1].Message, "not eligible") {
		t.Fatalf("errors %+v", res.Errors)
	}
	after := e.sim.Coeditors(id)
	if len(after) != len(before)+1 {
		t.Fatalf("co-editors %v", after)
	}
	added := after[len(after)-1]
	if added.Email != "ana.ribeiro@example.org" || !slices.Equal(added.PermissionGroups, []string{api.PermPublish, api.PermRegistrationJoin}) {
		t.Fatalf("stored %+v (groups in the spec's order, once each)", added)
	}
	// Adding again is refused for that address only.
	patchCoeditors(e, id, "add", api.Coeditor{Email: "ana.ribeiro@example.org"}, api.Coeditor{Email: "li.wei@example.org"}).decode(t, 201, &res)
	if len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "already") {
		t.Fatalf("re-add %+v", res.Errors)
	}
	// Update replaces the groups; delete ignores them.
	patchCoeditors(e, id, "update", api.Coeditor{Email: "ana.ribeiro@example.org", PermissionGroups: []string{api.PermEmail}}).decode(t, 201, &res)
	if len(res.Errors) != 0 {
		t.Fatalf("update %+v", res.Errors)
	}
	patchCoeditors(e, id, "delete", api.Coeditor{Email: "li.wei@example.org", PermissionGroups: []string{"Nonsense"}}).decode(t, 201, &res)
	if len(res.Errors) != 0 {
		t.Fatalf("delete %+v", res.Errors)
	}
	got := e.sim.Coeditors(id)
	if last := got[len(got)-1]; last.Email != "ana.ribeiro@example.org" || !slices.Equal(last.PermissionGroups, []string{api.PermEmail}) {
		t.Fatalf("after update/delete %+v", got)
	}

	// An event has at most three co-editors: a fourth is refused by address.
	patchCoeditors(e, id, "add", api.Coeditor{Email: "b@example.org"}, api.Coeditor{Email: "c@example.org"},
		api.Coeditor{Email: "d@example.org"}).decode(t, 201, &res)
	if len(res.Errors) != 1 || res.Errors[0].Email != "d@example.org" || !strings.Contains(res.Errors[0].Message, "the most an event may have") {
		t.Fatalf("fourth %+v", res.Errors)
	}
	var listed api.CoeditorList
	e.do("GET", "/events/"+id+"/coeditors", DemoToken, nil).decode(t, 200, &listed)
	if len(listed.Coeditors) != maxCoeditorsPerEvent || listed.TotalRecords != maxCoeditorsPerEvent {
		t.Fatalf("listed %+v", listed)
	}

	// Request-level problems are 400s naming the field.
	four := []api.Coeditor{{Email: "a@example.org"}, {Email: "b@example.org"}, {Email: "c@example.org"}, {Email: "d@example.org"}}
	if r := patchCoeditors(e, id, "add", four...); r.status != 400 || !r.hasField("coeditors") {
		t.Fatalf("four: %d %s", r.status, r.body)
	}
	if r := patchCoeditors(e, id, "add", api.Coeditor{Email: "a@example.org", PermissionGroups: []string{"registration & join"}}); r.status != 400 ||
		!r.hasField("coeditors[0].permission_groups[0]") {
		t.Fatalf("group spelling: %d %s", r.status, r.body)
	}
	if r := patchCoeditors(e, id, "grant", four[0]); r.status != 400 || !r.hasField("operation") {
		t.Fatalf("operation: %d %s", r.status, r.body)
	}
	if r := e.do("PATCH", "/events/"+id+"/coeditors", DemoToken, nil); r.status != 400 {
		t.Fatalf("no body: %d", r.status)
	}

	// Event-scoped errors.
	e.do("GET", "/events/NoSuchEvent000000000000/coeditors", DemoToken, nil).wantError(t, 404, api.CodeEventNotFound)
	e.do("GET", "/events/"+f.OtherHostEventID+"/coeditors", DemoToken, nil).wantError(t, 403, api.CodeEventAccessDenied)
	patchCoeditors(e, "NoSuchEvent000000000000", "add", four[0]).wantError(t, 404, api.CodeEventNotFound)
	patchCoeditors(e, f.OtherHostEventID, "add", four[0]).wantError(t, 403, api.CodeEventAccessDenied)
	// Scopes: the read-only token may list, not change.
	e.do("GET", "/events/"+id+"/coeditors", ReadOnlyToken, nil).decode(t, 200, nil)
	e.do("PATCH", "/events/"+id+"/coeditors", ReadOnlyToken, map[string]any{"operation": "add", "coeditors": four[:1]}).
		wantError(t, 403, CodeMissingScope)
}
