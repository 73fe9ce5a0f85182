package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/internal/fakeclock"
)

// coeditorLog records the co-editor PATCHes that reach the simulator.
type coeditorLog struct {
	mu   sync.Mutex
	reqs []api.CoeditorRequest
	// failOn, when set, answers that PATCH (1-based) with a 400.
	failOn int
}

func (l *coeditorLog) sizes() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]int, len(l.reqs))
	for i, r := range l.reqs {
		out[i] = len(r.Coeditors)
	}
	return out
}

// newCoeditorFixture is newFixture with a middleware that records every
// PATCH body, so tests can see how a list was split.
func newCoeditorFixture(t *testing.T, token string) (*fixture, *coeditorLog) {
	t.Helper()
	clk := fakeclock.New(time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC))
	s := sim.New(sim.Options{Now: clk.Now, NoRateLimit: true})
	log := &coeditorLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch && strings.HasSuffix(r.URL.Path, "/coeditors") {
			body, _ := io.ReadAll(r.Body)
			var req api.CoeditorRequest
			_ = json.Unmarshal(body, &req)
			log.mu.Lock()
			log.reqs = append(log.reqs, req)
			fail := len(log.reqs) == log.failOn
			log.mu.Unlock()
			if fail {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = w.Write([]byte(`{"code":300,"message":"Validation Failed."}`))
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(token), api.WithClock(clk.Now),
		api.WithRateLimit(0, 0), api.WithSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{sim: s, srv: srv, client: c, clock: clk, ids: s.Fixtures()}, log
}

func coeditorEmails(cs []api.Coeditor) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Email
	}
	return out
}

func failedEmails(fs []api.BatchError) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Email
	}
	return out
}

func TestCoeditorsListAddUpdateRemove(t *testing.T) {
	f, log := newCoeditorFixture(t, sim.DemoToken)
	ctx := context.Background()
	id := f.ids.UpcomingEventID

	before, err := f.client.Coeditors.List(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(coeditorEmails(before), coeditorEmails(f.sim.Coeditors(id))) {
		t.Fatalf("listed %v, sim has %v", before, f.sim.Coeditors(id))
	}
	for _, c := range before {
		for _, g := range c.PermissionGroups {
			if _, ok := api.LookupPermissionGroup(g); !ok {
				t.Errorf("seeded co-editor %s has unknown group %q", c.Email, g)
			}
		}
	}

	// An event holds at most three co-editors: with the seeded ones in
	// place, adding three more is refused before anything is sent.
	newcomers := []string{"Ines.Lopez@Example.org ", "kofi.mensah@example.org", "ravi.iyer@example.org"}
	groups := []string{api.PermRegistrationJoin, api.PermEmail}
	if len(before) > 0 {
		_, err := f.client.Coeditors.Add(ctx, id, newcomers, groups)
		var ve *api.ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), before[0].Email) || len(log.sizes()) != 0 {
			t.Fatalf("over the limit: %v (sent %v)", err, log.sizes())
		}
		if _, err := f.client.Coeditors.Remove(ctx, id, coeditorEmails(before)); err != nil {
			t.Fatal(err)
		}
		before = nil
	}
	// Three newcomers fit in one request; a fourth and fifth do not; with
	// room for one, the owner is refused per address.
	list := append(slices.Clone(newcomers), sim.DemoHostEmail, "noreply@northwind.example")
	failed, err := f.client.Coeditors.Add(ctx, id, list[:3], groups)
	if err != nil || len(failed) != 0 {
		t.Fatal(failed, err)
	}
	if got := log.sizes(); got[len(got)-1] != 3 {
		t.Fatalf("sent %v", got)
	}
	if _, err := f.client.Coeditors.Add(ctx, id, list[3:], groups); err == nil {
		t.Fatal("a fourth and fifth co-editor were accepted")
	}
	if _, err := f.client.Coeditors.Remove(ctx, id, []string{"ravi.iyer@example.org"}); err != nil {
		t.Fatal(err)
	}
	failed, err = f.client.Coeditors.Add(ctx, id, list[3:4], groups)
	if err != nil {
		t.Fatal(err)
	}
	wantFailed := []string{sim.DemoHostEmail}
	if got := failedEmails(failed); !slices.Equal(got, wantFailed) {
		t.Fatalf("refused %v, want %v (%+v)", got, wantFailed, failed)
	}
	for _, fe := range failed {
		if fe.Message == "" {
			t.Errorf("%s refused without a message", fe.Email)
		}
	}
	if _, err := f.client.Coeditors.Add(ctx, id, []string{"ravi.iyer@example.org"}, groups); err != nil {
		t.Fatal(err)
	}
	after := f.sim.Coeditors(id)
	if len(after) != len(before)+3 {
		t.Fatalf("co-editors now %v", coeditorEmails(after))
	}
	added := after[len(before):]
	if added[0].Email != "ines.lopez@example.org" || !slices.Equal(added[0].PermissionGroups, groups) {
		t.Fatalf("added %+v", added[0])
	}
	if got := api.PermissionLabels(added[0].PermissionGroups); got != "Registration & join, Communications" {
		t.Errorf("labels %q", got)
	}

	// Update replaces the groups; an address that is not a co-editor is
	// refused, the rest applied.
	failed, err = f.client.Coeditors.Update(ctx, id, []string{"kofi.mensah@example.org", "stranger@example.org"},
		[]string{api.PermPublish, api.PermAnalytics})
	if err != nil {
		t.Fatal(err)
	}
	if got := failedEmails(failed); !slices.Equal(got, []string{"stranger@example.org"}) {
		t.Fatalf("update refused %v", got)
	}
	listed, err := f.client.Coeditors.List(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(listed, func(c api.Coeditor) bool { return c.Email == "kofi.mensah@example.org" })
	if i < 0 || !slices.Equal(listed[i].PermissionGroups, []string{api.PermPublish, api.PermAnalytics}) {
		t.Fatalf("after update: %+v", listed)
	}

	// Remove sends no groups.
	n := len(log.sizes())
	failed, err = f.client.Coeditors.Remove(ctx, id, newcomers)
	if err != nil || len(failed) != 0 {
		t.Fatalf("remove: %v %v", failed, err)
	}
	log.mu.Lock()
	last := log.reqs[n]
	log.mu.Unlock()
	if last.Operation != api.CoeditorDelete || last.Coeditors[0].PermissionGroups != nil {
		t.Fatalf("delete request %+v", last)
	}
	if got := coeditorEmails(f.sim.Coeditors(id)); !slices.Equal(got, coeditorEmails(before)) {
		t.Fatalf("after remove %v, want %v", got, coeditorEmails(before))
	}
	// Removing again is refused per address, not as an error.
	failed, err = f.client.Coeditors.Remove(ctx, id, newcomers[1:2])
	if err != nil || len(failed) != 1 || !strings.Contains(failed[0].Message, "not a co-editor") {
		t.Fatalf("second remove: %+v %v", failed, err)
	}
}

func TestCoeditorsValidationSendsNothing(t *testing.T) {
	f, log := newCoeditorFixture(t, sim.DemoToken)
	ctx := context.Background()
	id := f.ids.UpcomingEventID
	for name, call := range map[string]func() error{
		"misspelt group": func() error {
			_, err := f.client.Coeditors.Add(ctx, id, []string{"a@example.org"}, []string{"Registration and Join"})
			return err
		},
		"lower-case group": func() error {
			_, err := f.client.Coeditors.Add(ctx, id, []string{"a@example.org"}, []string{"publish"})
			return err
		},
		"bad address": func() error {
			_, err := f.client.Coeditors.Add(ctx, id, []string{"a@example.org", "not an address"}, nil)
			return err
		},
		"no one": func() error { _, err := f.client.Coeditors.Remove(ctx, id, nil); return err },
		"bad operation": func() error {
			_, err := f.client.Coeditors.Change(ctx, id, "promote", []api.Coeditor{{Email: "a@example.org"}})
			return err
		},
		"same address, different groups": func() error {
			_, err := f.client.Coeditors.Change(ctx, id, api.CoeditorAdd, []api.Coeditor{
				{Email: "a@example.org", PermissionGroups: []string{api.PermEmail}},
				{Email: "A@example.org", PermissionGroups: []string{api.PermPublish}}})
			return err
		},
	} {
		var ve *api.ValidationError
		if err := call(); !errors.As(err, &ve) {
			t.Errorf("%s: want a validation error, got %v", name, err)
		}
	}
	if got := log.sizes(); len(got) != 0 {
		t.Fatalf("invalid requests were sent: %v", got)
	}
	// The very same entry twice is sent once.
	if _, err := f.client.Coeditors.Add(ctx, id, []string{"a@example.org", " A@example.org"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := log.sizes(); !slices.Equal(got, []int{1}) {
		t.Fatalf("sent %v", got)
	}
}

func TestCoeditorsServerRules(t *testing.T) {
	f, _ := newCoeditorFixture(t, sim.DemoToken)
	ctx := context.Background()
	id := f.ids.UpcomingEventID
	four := []api.Coeditor{{Email: "a@example.org"}, {Email: "b@example.org"}, {Email: "c@example.org"}, {Email: "d@example.org"}}

	// More than three in one request, an unknown group, a bad operation: 400.
	for name, body := range map[string]api.CoeditorRequest{
		"four":          {Operation: api.CoeditorAdd, Coeditors: four},
		"unknown group": {Operation: api.CoeditorAdd, Coeditors: []api.Coeditor{{Email: "a@example.org", PermissionGroups: []string{"Registration and Join"}}}},
		"operation":     {Operation: "promote", Coeditors: four[:1]},
		"empty":         {Operation: api.CoeditorAdd},
	} {
		_, err := f.client.Coeditors.RawCoeditorPatch(ctx, id, body)
		if !api.IsStatus(err, http.StatusBadRequest) {
			t.Errorf("%s: want 400, got %v", name, err)
		}
	}
	// A duplicate within one request is refused for the second copy.
	failed, err := f.client.Coeditors.RawCoeditorPatch(ctx, id, api.CoeditorRequest{Operation: api.CoeditorAdd,
		Coeditors: []api.Coeditor{{Email: "dup@example.org"}, {Email: "DUP@example.org"}}})
	if err != nil || len(failed) != 1 || failed[0].Email != "DUP@example.org" {
		t.Fatalf("duplicate: %+v %v", failed, err)
	}

	// Event-scoped errors, for the listing and the change.
	_, err = f.client.Coeditors.List(ctx, "NoSuchEvent000000000000")
	wantCode(t, err, 404, api.CodeEventNotFound)
	_, err = f.client.Coeditors.List(ctx, f.ids.OtherHostEventID)
	wantCode(t, err, 403, api.CodeEventAccessDenied)
	_, err = f.client.Coeditors.Add(ctx, "NoSuchEvent000000000000", []string{"a@example.org"}, nil)
	wantCode(t, err, 404, api.CodeEventNotFound)
	_, err = f.client.Coeditors.Update(ctx, f.ids.OtherHostEventID, []string{"a@example.org"}, nil)
	wantCode(t, err, 403, api.CodeEventAccessDenied)
	if _, err := f.client.Coeditors.List(ctx, ""); !errors.Is(err, api.ErrNoEventID) {
		t.Fatalf("no id: %v", err)
	}

	// A read-only token may list but not change.
	ro, _ := newCoeditorFixture(t, sim.ReadOnlyToken)
	if _, err := ro.client.Coeditors.List(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := ro.client.Coeditors.Add(ctx, id, []string{"a@example.org"}, nil); !api.IsStatus(err, http.StatusForbidden) {
		t.Fatalf("read-only add: %v", err)
	}
}

// TestCoeditorsLaterRequestFails: when the second of two requests fails,
// the refusals of the first are kept and the error names the second.
func TestCoeditorsLaterRequestFails(t *testing.T) {
	f, log := newCoeditorFixture(t, sim.DemoToken)
	ctx := context.Background()
	id := f.ids.UpcomingEventID
	log.mu.Lock()
	log.failOn = 2
	log.mu.Unlock()
	failed, err := f.client.Coeditors.Update(ctx, id, []string{sim.DemoHostEmail, "b@example.org", "c@example.org", "d@example.org"}, nil)
	if err == nil || !strings.Contains(err.Error(), "request 2 of 2 (d@example.org)") {
		t.Fatalf("err %v", err)
	}
	if len(failed) != 3 || failed[0].Email != sim.DemoHostEmail {
		t.Fatalf("failed %+v", failed)
	}
	if got := log.sizes(); !slices.Equal(got, []int{3, 1}) {
		t.Fatalf("requests %v", got)
	}
}

func TestPermissionGroupsParseAndValidate(t *testing.T) {
	if len(api.PermissionGroups) != 12 {
		t.Fatalf("%d groups", len(api.PermissionGroups))
	}
	for in, want := range map[string]string{
		"Publish": api.PermPublish, "registration & join": api.PermRegistrationJoin, "Registration&Join": api.PermRegistrationJoin,
		"registration-join": api.PermRegistrationJoin, " email ": api.PermEmail, "Communications": api.PermEmail,
		"eventconfiguration": api.PermEventConfiguration, "Special roles": api.PermSpecialRole, "post-event": api.PermPostEvent,
	} {
		got, err := api.ParsePermissionGroup(in)
		if err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	if _, err := api.ParsePermissionGroup("Catering"); err == nil || !strings.Contains(err.Error(), "Registration & Join") {
		t.Errorf("unknown group: %v", err)
	}
	all, err := api.ParsePermissionGroups("all")
	if err != nil || len(all) != 12 {
		t.Fatalf("all: %v %v", all, err)
	}
	got, err := api.ParsePermissionGroups("Publish, email,,Publish")
	if err != nil || !slices.Equal(got, []string{api.PermPublish, api.PermEmail}) {
		t.Fatalf("list: %v %v", got, err)
	}
	req := api.CoeditorRequest{Operation: api.CoeditorUpdate, Coeditors: []api.Coeditor{
		{Email: "a@example.org", PermissionGroups: []string{api.PermPublish, api.PermPublish}},
		{Email: "b@example.org", PermissionGroups: []string{"Registration and Join"}},
		{Email: "c@example.org"}, {Email: "d@example.org"},
	}}
	err = req.Validate()
	var ve *api.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("got %v", err)
	}
	var fields []string
	for _, p := range ve.Problems {
		fields = append(fields, p.Field)
	}
	want := []string{"coeditors", "coeditors[0].permission_groups[1]", "coeditors[1].permission_groups[0]"}
	if !slices.Equal(fields, want) {
		t.Fatalf("problems %v, want %v", fields, want)
	}
	// Groups do not matter for a delete.
	del := api.CoeditorRequest{Operation: api.CoeditorDelete, Coeditors: []api.Coeditor{{Email: "a@example.org", PermissionGroups: []string{"x"}}}}
	if err := del.Validate(); err != nil {
		t.Fatal(err)
	}
}

// FuzzParsePermissionGroups: whatever is typed, a parsed list holds only
// the twelve exact values, each once, and validates.
func FuzzParsePermissionGroups(f *testing.F) {
	for _, s := range []string{"Publish,Email", "registration & join", "all", "", ",,", "Registration and Join", "émail"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		groups, err := api.ParsePermissionGroups(s)
		if err != nil {
			return
		}
		req := api.CoeditorRequest{Operation: api.CoeditorUpdate,
			Coeditors: []api.Coeditor{{Email: "a@example.org", PermissionGroups: groups}}}
		if err := req.Validate(); err != nil {
			t.Fatalf("%q parsed to %v, which does not validate: %v", s, groups, err)
		}
	})
}
