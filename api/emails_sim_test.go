package api_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

func emailTypes(t *testing.T, f *fixture, eventID string, opts api.ListEmailTypesOptions) map[string]api.EmailType {
	t.Helper()
	out := map[string]api.EmailType{}
	for et, err := range f.client.Emails.Types(context.Background(), eventID, opts) {
		if err != nil {
			t.Fatal(err)
		}
		if _, dup := out[et.Name]; dup {
			t.Fatalf("%s listed twice", et.Name)
		}
		out[et.Name] = et
	}
	return out
}

func TestEmailTypesFollowTheEvent(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	now := f.clock.Now()
	for _, tc := range []struct {
		event string
		want  map[string]string // name -> status
	}{
		{f.ids.UpcomingEventID, map[string]string{"Registration confirmation": api.EmailTypeOngoing,
			"Invitation": api.EmailTypeSent, "Reminder: 1 day before": api.EmailTypeScheduled,
			"Post-event survey": api.EmailTypeScheduled}},
		{f.ids.PastEventID, map[string]string{"Registration confirmation": api.EmailTypeSent,
			"Reminder: 1 day before": api.EmailTypeSent, "Post-event survey": api.EmailTypeSent}},
		{f.ids.DraftEventID, map[string]string{"Registration confirmation": api.EmailTypeScheduled,
			"Invitation": api.EmailTypeScheduled}},
		{f.ids.CancelledEventID, map[string]string{"Registration confirmation": api.EmailTypeDeactivated,
			"Reminder: 1 day before": api.EmailTypeDeactivated, "Event cancellation notice": api.EmailTypeSent}},
	} {
		got := emailTypes(t, f, tc.event, api.ListEmailTypesOptions{PageSize: 2})
		for name, st := range tc.want {
			et, ok := got[name]
			if !ok || et.Status != st {
				t.Errorf("%s: %q is %+v, want %s", tc.event, name, et, st)
			}
		}
		for _, et := range got {
			if et.EmailTypeID == "" || et.TriggerOverview == "" || et.TriggerDate == nil {
				t.Errorf("incomplete %+v", et)
			}
			if et.Status == api.EmailTypeSent && et.TriggerDate.After(now) {
				t.Errorf("%s sent in the future: %v", et.Name, et.TriggerDate)
			}
			if et.Status == api.EmailTypeScheduled && et.TriggerDate.Before(now) && tc.event != f.ids.DraftEventID {
				t.Errorf("%s scheduled in the past: %v", et.Name, et.TriggerDate)
			}
		}
	}
	// The status filter.
	sent := emailTypes(t, f, f.ids.UpcomingEventID, api.ListEmailTypesOptions{Status: api.EmailTypeSent})
	all := emailTypes(t, f, f.ids.UpcomingEventID, api.ListEmailTypesOptions{})
	if len(sent) == 0 || len(sent) >= len(all) {
		t.Fatalf("sent %d of %d", len(sent), len(all))
	}
	for _, et := range sent {
		if et.Status != api.EmailTypeSent {
			t.Fatalf("filter let through %+v", et)
		}
	}
}

func TestSendStatusListsEveryRecipientWithFilters(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	id := f.ids.PastEventID
	typeID := f.sim.EmailTypeIDs(id)["Reminder: 1 day before"]
	want := f.sim.SendStatusCounts(id, typeID)

	got := map[string]int{}
	var sample api.EmailSendRecord
	p := f.client.Emails.SendStatusPager(id, typeID, api.ListSendStatusOptions{PageSize: 100})
	for r, err := range p.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		got[r.Status]++
		if r.FailureReason != "" {
			got[r.Status+"/"+r.FailureReason]++
		}
		if r.Status == api.SendDelivered && sample.Email == "" {
			sample = r
		}
		if (r.Status == api.SendFailed) != (r.FailureReason != "") {
			t.Fatalf("failure reason on %+v", r)
		}
		if (r.Status == api.SendDelivered || r.Status == api.SendFailed) != (r.SentDate != nil) {
			t.Fatalf("sent date on %+v", r)
		}
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: listed %d, sim has %d", k, got[k], n)
		}
	}
	if p.Total() == 0 || p.Delivered() != p.Total() {
		t.Fatalf("delivered %d of %d", p.Delivered(), p.Total())
	}

	// Server-side status filter and search.
	failed, err := f.client.Emails.SendStatusPage(ctx, id, typeID, api.ListSendStatusOptions{Status: api.SendFailed, PageSize: 300}, "")
	if err != nil || failed.TotalRecords != want[api.SendFailed] {
		t.Fatalf("failed filter: %d, want %d (%v)", failed.TotalRecords, want[api.SendFailed], err)
	}
	first := strings.Fields(sample.Name)[0]
	found, err := f.client.Emails.SendStatusPage(ctx, id, typeID, api.ListSendStatusOptions{SearchText: strings.ToUpper(first)}, "")
	if err != nil || found.TotalRecords == 0 || found.TotalRecords >= p.Total() {
		t.Fatalf("search %q: %d of %d (%v)", first, found.TotalRecords, p.Total(), err)
	}
	for _, r := range found.Emails {
		if !strings.Contains(strings.ToLower(r.Name+" "+r.Email), strings.ToLower(first)) {
			t.Fatalf("search %q matched %+v", first, r)
		}
	}
}

func TestSendStatusErrors(t *testing.T) {
	f := newFixture(t, sim.DemoToken)
	ctx := context.Background()
	_, err := f.client.Emails.TypesPage(ctx, "NoSuchEvent000000000000", api.ListEmailTypesOptions{}, "")
	wantCode(t, err, 404, api.CodeEventNotFound)
	_, err = f.client.Emails.TypesPage(ctx, f.ids.OtherHostEventID, api.ListEmailTypesOptions{}, "")
	wantCode(t, err, 403, api.CodeEventAccessDenied)
	_, err = f.client.Emails.SendStatusPage(ctx, "NoSuchEvent000000000000", "x", api.ListSendStatusOptions{}, "")
	wantCode(t, err, 404, api.CodeEventNotFound)
	_, err = f.client.Emails.SendStatusPage(ctx, f.ids.OtherHostEventID, "x", api.ListSendStatusOptions{}, "")
	wantCode(t, err, 403, api.CodeEventAccessDenied)
	if _, err = f.client.Emails.SendStatusPage(ctx, f.ids.PastEventID, "NoSuchType", api.ListSendStatusOptions{}, ""); !api.IsStatus(err, 404) {
		t.Fatalf("unknown type: %v", err)
	}
	// Options are checked before sending; the server checks them too.
	var ve *api.ValidationError
	if _, err = f.client.Emails.SendStatusPage(ctx, f.ids.PastEventID, "x", api.ListSendStatusOptions{Status: "bounced"}, ""); !errors.As(err, &ve) {
		t.Fatalf("bad status: %v", err)
	}
	if _, err = f.client.Emails.TypesPage(ctx, f.ids.PastEventID, api.ListEmailTypesOptions{PageSize: 301}, ""); !errors.As(err, &ve) {
		t.Fatalf("bad size: %v", err)
	}
	if _, err = f.client.Emails.RawSendStatusPage(ctx, f.ids.BigEmailEventID, f.ids.BigEmailTypeID, "bounced"); !api.IsStatus(err, 400) {
		t.Fatalf("server took a bad status: %v", err)
	}
	if _, err = f.client.Emails.SendStatusPage(ctx, f.ids.PastEventID, "", api.ListSendStatusOptions{}, ""); !errors.Is(err, api.ErrNoEmailTypeID) {
		t.Fatalf("no type id: %v", err)
	}
	// No token: 401, as the spec lists for the email endpoints.
	anon, err := api.New(api.WithBaseURL(f.srv.URL+"/v2"), api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err = anon.Emails.TypesPage(ctx, f.ids.PastEventID, api.ListEmailTypesOptions{}, ""); !api.IsStatus(err, http.StatusUnauthorized) {
		t.Fatalf("no token: %v", err)
	}
}

// TestSendStatus100kAcrossTokenExpiry loads the big email's 100,000 records
// twice: once with the shared clock jumping past the token's life halfway
// (the pager starts over on its own), once with only the server's clock
// jumping (the server refuses the token, the pager starts over). Each record
// arrives exactly once either way.
func TestSendStatus100kAcrossTokenExpiry(t *testing.T) {
	if testing.Short() {
		t.Skip("loads 100,000 records twice")
	}
	t.Parallel() // alongside the paced rate tests
	for _, serverOnly := range []bool{false, true} {
		name := "shared clock"
		if serverOnly {
			name = "server clock only"
		}
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, sim.DemoToken)
			client := f.client
			if serverOnly {
				frozen := f.clock.Now()
				var err error
				client, err = api.New(api.WithBaseURL(f.srv.URL+"/v2"), api.WithToken(sim.DemoToken),
					api.WithClock(func() time.Time { return frozen }), api.WithRateLimit(0, 0))
				if err != nil {
					t.Fatal(err)
				}
			}
			p := client.Emails.SendStatusPager(f.ids.BigEmailEventID, f.ids.BigEmailTypeID, api.ListSendStatusOptions{PageSize: 300})
			seen := make(map[string]struct{}, sim.BigEmailRecipients)
			statuses := map[string]int{}
			for r, err := range p.All(context.Background()) {
				if err != nil {
					t.Fatal(err)
				}
				if _, dup := seen[r.Email]; dup {
					t.Fatalf("%s delivered twice", r.Email)
				}
				seen[r.Email] = struct{}{}
				statuses[r.Status]++
				if len(seen) == 50_100 {
					f.clock.Advance(16 * time.Minute)
				}
			}
			if len(seen) != sim.BigEmailRecipients || p.Total() != sim.BigEmailRecipients || p.Restarts() != 1 {
				t.Fatalf("delivered %d of %d, restarts %d", len(seen), p.Total(), p.Restarts())
			}
			if len(statuses) != len(api.SendStatuses) {
				t.Errorf("statuses %v: want all five", statuses)
			}
		})
	}
}

func TestEnumsHaveWords(t *testing.T) {
	for _, list := range [][]api.Enum{api.EmailTypeStatuses, api.SendStatuses, api.FailureReasons} {
		for _, e := range list {
			if e.Label == "" || e.Meaning == "" {
				t.Errorf("%q has no label or meaning", e.Value)
			}
		}
	}
	if got := api.LookupEnum(api.FailureReasons, "RATE_LIMITED"); got.Label != "Rate limited" || !strings.Contains(got.Meaning, "daily") {
		t.Errorf("lookup %+v", got)
	}
	if got := api.LookupEnum(api.SendStatuses, "queued"); got.Label != "queued" {
		t.Errorf("unknown %+v", got)
	}
}
