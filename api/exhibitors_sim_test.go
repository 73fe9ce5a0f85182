package api_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

func TestExhibitorsListConference(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	list, err := f.client.Exhibitors.List(context.Background(), f.ids.ConferenceEventID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) < 5 {
		t.Fatalf("only %d exhibitors", len(list))
	}
	tiers := f.sim.SponsorTiers(f.ids.ConferenceEventID)
	sponsors := 0
	for _, x := range list {
		if x.ExhibitorID == "" || x.Name == "" || x.ContactEmail == "" {
			t.Errorf("incomplete %+v", x)
		}
		if x.IsSponsor {
			sponsors++
			if !slices.ContainsFunc(tiers, func(tr sim.Tier) bool { return tr.ID == x.TierID }) {
				t.Errorf("%s: tier %q unknown", x.Name, x.TierID)
			}
		} else if x.TierID != "" {
			t.Errorf("%s: non-sponsor with tier", x.Name)
		}
		for _, l := range x.Links() {
			if err := api.CheckLink(l[1]); err != nil {
				t.Errorf("%s %s: %v", x.Name, l[0], err)
			}
		}
	}
	if sponsors == 0 || sponsors == len(list) {
		t.Errorf("%d sponsors of %d", sponsors, len(list))
	}
}

func TestExhibitorsErrors(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	_, err := f.client.Exhibitors.List(ctx, f.ids.UpcomingEventID)
	wantCode(t, err, http.StatusBadRequest, api.CodeUnsupportedEventType)
	_, err = f.client.Exhibitors.List(ctx, f.ids.AttendedEventID)
	wantCode(t, err, http.StatusForbidden, api.CodeNotHost)
	_, err = f.client.Exhibitors.List(ctx, f.ids.OtherHostEventID)
	wantCode(t, err, http.StatusForbidden, api.CodeEventAccessDenied)
	_, err = f.client.Exhibitors.List(ctx, "nosuchevent0000000000")
	if !api.IsStatus(err, http.StatusNotFound) {
		t.Fatalf("unknown event: %v", err)
	}
	_, err = f.client.Exhibitors.Create(ctx, f.ids.UpcomingEventID, api.ExhibitorCreate{Name: "A", ContactName: "B", ContactEmail: "b@example.org"})
	wantCode(t, err, http.StatusBadRequest, api.CodeUnsupportedEventType)
	if !strings.Contains(err.Error(), "not supported for this event type") {
		t.Errorf("message %v", err)
	}
	// A recurring series has several sessions: it takes exhibitors.
	if _, err := f.client.Exhibitors.List(ctx, f.ids.RecurringEventID); err != nil {
		t.Fatalf("recurring: %v", err)
	}
	tier := f.sim.SponsorTiers(f.ids.RecurringEventID)[0]
	x, err := f.client.Exhibitors.Create(ctx, f.ids.RecurringEventID, api.ExhibitorCreate{Name: "A", ContactName: "B",
		ContactEmail: "b@example.org", IsSponsor: true, TierID: tier.ID})
	if err != nil || x.TierID != tier.ID {
		t.Fatalf("recurring create: %+v %v", x, err)
	}

	ro := newFixture(t, sim.ReadOnlyToken)
	_, err = ro.client.Exhibitors.Create(ctx, ro.ids.ConferenceEventID, api.ExhibitorCreate{Name: "A", ContactName: "B", ContactEmail: "b@example.org"})
	if !api.IsStatus(err, http.StatusForbidden) {
		t.Fatalf("read-only create: %v", err)
	}
}

func TestExhibitorCreateValidate(t *testing.T) {
	cases := []struct {
		req  api.ExhibitorCreate
		want []string
	}{
		{api.ExhibitorCreate{}, []string{"name", "contact_name", "contact_email"}},
		{api.ExhibitorCreate{Name: "A", ContactName: "B", ContactEmail: "b@x.org", IsSponsor: true}, []string{"tier_id"}},
		{api.ExhibitorCreate{Name: "A", ContactName: "B", ContactEmail: "b@x.org", TierID: "t"}, []string{"tier_id"}},
		{api.ExhibitorCreate{Name: "A", ContactName: "B", ContactEmail: "b@x.org", Website: "www.x.org",
			TwitterURL: "ftp://x.org", FacebookURL: "https://localhost", LinkedInURL: "https://x .org"},
			[]string{"website", "linkedin_url", "twitter_url", "facebook_url"}},
		{api.ExhibitorCreate{Name: "A", ContactName: "B", ContactEmail: "b@x.org", AssociatedSessions: []string{"s1", "", "s1"}},
			[]string{"associated_sessions[1]", "associated_sessions[2]"}},
		{api.ExhibitorCreate{Name: "A", ContactName: "B", ContactEmail: "b@x.org", IsSponsor: true, TierID: "t",
			Website: "https://x.org/a?b=c"}, nil},
		{api.ExhibitorCreate{Name: "A", ContactName: "B", ContactEmail: "b@x.org", YouTubeURL: "youtube.com/@x"},
			[]string{"youtube_url"}},
		{api.ExhibitorCreate{Name: "A", ContactName: "B", ContactEmail: "b@x.org", YouTubeURL: "https://youtube.com/@x"}, nil},
	}
	for i, c := range cases {
		err := c.req.Validate()
		var ve *api.ValidationError
		if c.want == nil {
			if err != nil {
				t.Errorf("%d: %v", i, err)
			}
			continue
		}
		if !errors.As(err, &ve) {
			t.Fatalf("%d: %v", i, err)
		}
		var got []string
		for _, p := range ve.Problems {
			got = append(got, p.Field)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%d: fields %v, want %v (%v)", i, got, c.want, err)
		}
	}
}

func TestExhibitorCreateRoundTrip(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	id := f.ids.ConferenceEventID
	tier := f.sim.SponsorTiers(id)[1]
	sessions := f.sim.SessionIDs(id)
	req := api.ExhibitorCreate{Name: "Contoso Catering", ContactName: "Lee Park", ContactEmail: " Lee.Park@Contoso.example ",
		IsSponsor: true, TierID: tier.ID, AssociatedSessions: sessions[:2], Description: "Lunch for 1,400.",
		Website: "https://contoso.example", PrivacyPolicy: "https://contoso.example/privacy",
		LinkedInURL: "https://linkedin.com/company/contoso", InstagramURL: "https://instagram.com/contoso",
		FacebookURL: "https://facebook.com/contoso", TwitterURL: "https://twitter.com/contoso",
		YouTubeURL: "https://youtube.com/@contoso"}
	before := f.posts.Load()
	got, err := f.client.Exhibitors.Create(ctx, id, req)
	if err != nil {
		t.Fatal(err)
	}
	if f.posts.Load() != before+1 {
		t.Fatal("create sent more than one POST")
	}
	if got.ExhibitorID == "" || got.TierID != tier.ID || got.ContactEmail != "lee.park@contoso.example" ||
		!slices.Equal(got.AssociatedSessions, sessions[:2]) || got.YouTubeURL != req.YouTubeURL || got.FacebookURL == "" {
		t.Fatalf("created %+v", got)
	}
	list, err := f.client.Exhibitors.List(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(list, func(x api.Exhibitor) bool { return x.ExhibitorID == got.ExhibitorID }) {
		t.Fatal("the new exhibitor is not listed")
	}
	// The server's own checks: a second one by that name, an unknown tier
	// and session.
	req.TierID, req.AssociatedSessions = "notatier", []string{"nosuchsession"}
	_, err = f.client.Exhibitors.Create(ctx, id, req)
	var e *api.Error
	if !errors.As(err, &e) || e.Status != 400 || !strings.Contains(e.Message, "tier_id") ||
		!strings.Contains(e.Message, "associated_sessions[0]") || !strings.Contains(e.Message, "already exists") {
		t.Fatalf("duplicate create: %v", err)
	}
}
