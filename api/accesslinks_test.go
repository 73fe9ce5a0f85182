package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

func wantProblem(t *testing.T, err error, field string) {
	t.Helper()
	var ve *api.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want a validation error on %s, got %v", field, err)
	}
	for _, p := range ve.Problems {
		if p.Field == field {
			return
		}
	}
	t.Fatalf("no problem on %s in %v", field, err)
}

func domains(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("d%d.example.org", i)
	}
	return out
}

func TestAccessLinkValidate(t *testing.T) {
	ok := api.AccessLinkCreate{Name: "Partners", Type: api.LinkRegistration, AuthenticationMethod: api.AuthBypass}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		field string
		edit  func(*api.AccessLinkCreate)
	}{
		{"name", func(c *api.AccessLinkCreate) { c.Name = " " }},
		{"type", func(c *api.AccessLinkCreate) { c.Type = "" }},
		{"type", func(c *api.AccessLinkCreate) { c.Type = "open" }},
		{"authentication_method", func(c *api.AccessLinkCreate) { c.AuthenticationMethod = "" }},
		{"authentication_method", func(c *api.AccessLinkCreate) { c.AuthenticationMethod = "password" }},
		{"allow_domain_list", func(c *api.AccessLinkCreate) { c.AllowDomainList = domains(51) }},
		{"allow_domain_list[1]", func(c *api.AccessLinkCreate) { c.AllowDomainList = []string{"ok.org", "https://x.org"} }},
		{"allow_domain_list[0]", func(c *api.AccessLinkCreate) { c.AllowDomainList = []string{"localhost"} }},
		{"allow_domain_list[0]", func(c *api.AccessLinkCreate) { c.AllowDomainList = []string{"-bad.org"} }},
		{"email_restrict_list[1]", func(c *api.AccessLinkCreate) { c.EmailRestrictList = []string{"a@x.org", "A@x.org"} }},
		{"ticket_type_id", func(c *api.AccessLinkCreate) { c.TicketTypeID = "tt" }},
		{"idp_name", func(c *api.AccessLinkCreate) { c.IdPName = "okta" }},
		{"recurring_registration_option", func(c *api.AccessLinkCreate) { c.RecurringRegistrationOption = "some" }},
		{"recurring_registration_option", func(c *api.AccessLinkCreate) {
			c.RecurringRegistrationOption, c.EventType = api.RecurringAllSessions, api.EventTypeConference
		}},
		{"security_at_join.email_authentication", func(c *api.AccessLinkCreate) {
			c.Type, c.SecurityAtJoin = api.LinkGroupJoin, &api.SecurityAtJoin{EmailAuthentication: true}
		}},
	}
	for _, tc := range cases {
		c := ok
		tc.edit(&c)
		wantProblem(t, c.Validate(), tc.field)
	}
	c := ok
	c.AllowDomainList = domains(50)
	c.Type, c.TicketTypeID = api.LinkGroupJoin, "tt"
	c.RecurringRegistrationOption, c.EventType = api.RecurringSingleSession, api.EventTypeRecurring
	if err := c.Validate(); err != nil {
		t.Fatalf("50 domains, group-join ticket type, recurring option: %v", err)
	}
	c.EventType = "" // unknown: the server decides
	c.RecurringRegistrationOption = api.RecurringAllSessions
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}

	no := false
	wantProblem(t, (&api.AccessLinkUpdate{IsDefault: &no}).Validate(), "is_default")
	empty := ""
	wantProblem(t, (&api.AccessLinkUpdate{Name: &empty}).Validate(), "name")
	tt := "tt"
	wantProblem(t, (&api.AccessLinkUpdate{TicketTypeID: &tt, LinkType: api.LinkRegistration}).Validate(), "ticket_type_id")
	many := domains(51)
	wantProblem(t, (&api.AccessLinkUpdate{AllowDomainList: &many}).Validate(), "allow_domain_list")
	yes := true
	if err := (&api.AccessLinkUpdate{IsDefault: &yes}).Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestAccessLinksAgainstSimulator(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	ev := f.ids.RecurringEventID
	links, err := f.client.AccessLinks.List(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	if len(links) != 2 || !links[0].IsDefault || links[0].Type != api.LinkRegistration ||
		links[0].RecurringRegistrationOption != api.RecurringMultipleSessions || links[1].Type != api.LinkGroupJoin ||
		links[1].TicketTypeID != sim.TicketTypeID(ev, "Speaker") || links[1].AuthenticationMethod != api.AuthAccount ||
		!strings.HasPrefix(links[0].URL, "https://") {
		t.Fatalf("seeded links %+v", links)
	}
	if draft, err := f.client.AccessLinks.List(ctx, f.ids.DraftEventID); err != nil || len(draft) != 0 {
		t.Fatalf("draft links %v %v", draft, err)
	}

	in := &api.AccessLinkCreate{Name: "Partners", Type: api.LinkRegistration, AuthenticationMethod: api.AuthAccountOTP,
		IsDefault: true, AllowDomainList: domains(50), EmailRestrictList: []string{"Ana@Example.org"},
		RecurringRegistrationOption: api.RecurringSingleSession, EventType: api.EventTypeRecurring,
		SecurityAtJoin: &api.SecurityAtJoin{EmailAuthentication: true, SecurityCodeVerification: true}}
	made, err := f.client.AccessLinks.Create(ctx, ev, in)
	if err != nil {
		t.Fatal(err)
	}
	if made.AccessLinkID == "" || !made.IsDefault || made.AuthenticationMethod != api.AuthAccountOTP || len(made.AllowDomainList) != 50 ||
		made.EmailRestrictList[0] != "ana@example.org" || made.URL == "" {
		t.Fatalf("created %+v", made)
	}
	got, err := f.client.AccessLinks.Get(ctx, ev, made.AccessLinkID)
	if err != nil || got.Name != "Partners" || got.RecurringRegistrationOption != api.RecurringSingleSession ||
		!got.SecurityAtJoin.SecurityCodeVerification {
		t.Fatalf("get %+v %v", got, err)
	}
	// Only one default at a time.
	links, _ = f.client.AccessLinks.List(ctx, ev)
	defaults := 0
	for _, l := range links {
		if l.IsDefault {
			defaults++
		}
	}
	if defaults != 1 || len(links) != 3 {
		t.Fatalf("after create %+v", links)
	}
	yes := true
	if err := f.client.AccessLinks.Update(ctx, ev, links[0].AccessLinkID, &api.AccessLinkUpdate{IsDefault: &yes}); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.client.AccessLinks.Get(ctx, ev, made.AccessLinkID); got.IsDefault {
		t.Fatal("the old default is still default")
	}
	name, method := "Partners 2027", api.AuthBypass
	if err := f.client.AccessLinks.Update(ctx, ev, made.AccessLinkID,
		&api.AccessLinkUpdate{Name: &name, AuthenticationMethod: &method}); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.client.AccessLinks.Get(ctx, ev, made.AccessLinkID); got.Name != name || got.AuthenticationMethod != method {
		t.Fatalf("after update %+v", got)
	}
	// A POST is never repeated: one request reached the server per create.
	before := f.posts.Load()
	if _, err := f.client.AccessLinks.Create(ctx, ev, &api.AccessLinkCreate{Name: "Walk-ins", Type: api.LinkGroupJoin,
		AuthenticationMethod: api.AuthBypass, TicketTypeID: sim.TicketTypeID(ev, "VIP")}); err != nil {
		t.Fatal(err)
	}
	if n := f.posts.Load() - before; n != 1 {
		t.Fatalf("%d POSTs", n)
	}
	if err := f.client.AccessLinks.Delete(ctx, ev, made.AccessLinkID); err != nil {
		t.Fatal(err)
	}
	_, err = f.client.AccessLinks.Get(ctx, ev, made.AccessLinkID)
	wantCode(t, err, http.StatusNotFound, api.CodeAccessLinkNotFound)
}

func TestAccessLinkErrorCodes(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	ev := f.ids.ConferenceEventID
	links, err := f.client.AccessLinks.List(ctx, ev)
	if err != nil || len(links) == 0 {
		t.Fatal(links, err)
	}
	// 261201: unknown link on get, update and delete.
	_, err = f.client.AccessLinks.Get(ctx, ev, "NoSuchLink")
	wantCode(t, err, http.StatusNotFound, api.CodeAccessLinkNotFound)
	name := "x"
	wantCode(t, f.client.AccessLinks.Update(ctx, ev, "NoSuchLink", &api.AccessLinkUpdate{Name: &name}),
		http.StatusNotFound, api.CodeAccessLinkNotFound)
	wantCode(t, f.client.AccessLinks.Delete(ctx, ev, "NoSuchLink"), http.StatusNotFound, api.CodeAccessLinkNotFound)
	// 261202: unknown ticket type on create and update.
	_, err = f.client.AccessLinks.Create(ctx, ev, &api.AccessLinkCreate{Name: "Crew", Type: api.LinkGroupJoin,
		AuthenticationMethod: api.AuthBypass, TicketTypeID: "NoSuchType"})
	wantCode(t, err, http.StatusBadRequest, api.CodeTicketTypeNotFound)
	bad := "NoSuchType"
	wantCode(t, f.client.AccessLinks.Update(ctx, ev, links[1].AccessLinkID, &api.AccessLinkUpdate{TicketTypeID: &bad}),
		http.StatusBadRequest, api.CodeTicketTypeNotFound)
	// 261203: a name another link has (any case), on create and update.
	_, err = f.client.AccessLinks.Create(ctx, ev, &api.AccessLinkCreate{Name: strings.ToUpper(links[0].Name),
		Type: api.LinkRegistration, AuthenticationMethod: api.AuthBypass})
	wantCode(t, err, http.StatusBadRequest, api.CodeJoinLinkNameTaken)
	taken := links[0].Name
	wantCode(t, f.client.AccessLinks.Update(ctx, ev, links[1].AccessLinkID, &api.AccessLinkUpdate{Name: &taken}),
		http.StatusBadRequest, api.CodeJoinLinkNameTaken)
	// The server checks what the client checks: 51 domains, a missing
	// type, a recurring option on a conference.
	_, err = f.client.AccessLinks.RawCreateLink(ctx, ev, map[string]any{"name": "Big", "type": "registration",
		"authentication_method": "bypass_auth", "allow_domain_list": domains(51)})
	wantCode(t, err, http.StatusBadRequest, 300)
	if !strings.Contains(err.Error(), "allow_domain_list") {
		t.Fatal(err)
	}
	_, err = f.client.AccessLinks.RawCreateLink(ctx, ev, map[string]any{"name": "Typeless", "authentication_method": "bypass_auth"})
	wantCode(t, err, http.StatusBadRequest, 300)
	_, err = f.client.AccessLinks.RawCreateLink(ctx, ev, map[string]any{"name": "Rec", "type": "registration",
		"authentication_method": "bypass_auth", "recurring_registration_option": "all_sessions"})
	wantCode(t, err, http.StatusBadRequest, 300)
	// is_default false and a type on update are ignored, not errors.
	if err := f.client.AccessLinks.RawUpdateLink(ctx, ev, links[0].AccessLinkID,
		map[string]any{"is_default": false, "type": "group-join"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.client.AccessLinks.Get(ctx, ev, links[0].AccessLinkID); !got.IsDefault || got.Type != api.LinkRegistration {
		t.Fatalf("after ignored update %+v", got)
	}
	// Event errors: not found and another host's event.
	_, err = f.client.AccessLinks.List(ctx, "NoSuchEvent000000000000")
	wantCode(t, err, http.StatusNotFound, api.CodeEventNotFound)
	_, err = f.client.AccessLinks.List(ctx, f.ids.OtherHostEventID)
	wantCode(t, err, http.StatusForbidden, api.CodeEventAccessDenied)
	// The client refuses before sending.
	before := f.posts.Load()
	_, err = f.client.AccessLinks.Create(ctx, ev, &api.AccessLinkCreate{Name: "Big", Type: api.LinkRegistration,
		AuthenticationMethod: api.AuthBypass, AllowDomainList: domains(51)})
	wantProblem(t, err, "allow_domain_list")
	if f.posts.Load() != before {
		t.Fatal("an invalid create was sent")
	}
	// A read-only token may list but not create.
	ro := newFixture(t, sim.ReadOnlyToken)
	if _, err := ro.client.AccessLinks.List(ctx, ev); err != nil {
		t.Fatal(err)
	}
	_, err = ro.client.AccessLinks.Create(ctx, ev, &api.AccessLinkCreate{Name: "N", Type: api.LinkRegistration, AuthenticationMethod: api.AuthBypass})
	if !api.IsStatus(err, http.StatusForbidden) {
		t.Fatalf("read-only create: %v", err)
	}
}

func TestAccessLinkAuthMethodFollowsPathWord(t *testing.T) {
	s := sim.New(sim.Options{PathWord: "acme", NoRateLimit: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithPathWord("acme"), api.WithToken(sim.DemoToken), api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	ev := s.Fixtures().RecurringEventID
	made, err := c.AccessLinks.Create(context.Background(), ev, &api.AccessLinkCreate{Name: "Members",
		Type: api.LinkRegistration, AuthenticationMethod: api.AuthAccount})
	if err != nil {
		t.Fatal(err)
	}
	// What is read keeps the server's word; labels and forms map it back.
	if made.AuthenticationMethod != "acme_account" || api.NeutralAuthMethod(made.AuthenticationMethod) != api.AuthAccount ||
		api.AuthMethodLabel(made.AuthenticationMethod) != "account holder" {
		t.Fatalf("read back %q", made.AuthenticationMethod)
	}
	links, err := c.AccessLinks.List(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range links {
		if strings.HasPrefix(l.AuthenticationMethod, "vendor_") {
			t.Errorf("link %s reads %q: the server said acme_", l.Name, l.AuthenticationMethod)
		}
	}
}

func TestNeutralAuthMethod(t *testing.T) {
	for in, want := range map[string]string{
		"acme_account": api.AuthAccount, "acme_account_otp": api.AuthAccountOTP, api.AuthAccount: api.AuthAccount,
		api.AuthBypass: api.AuthBypass, "_account": "_account", "a_b_account": "a_b_account", "magic": "magic",
	} {
		if got := api.NeutralAuthMethod(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
