package policy

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

// demoSettings reads the demo account's phone settings from the simulator
// over HTTP.
func demoSettings(t *testing.T) *api.PhoneSettings {
	t.Helper()
	s := sim.New(sim.Options{NoRateLimit: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(sim.DemoToken))
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.Phone.AccountSettings(context.Background(), api.PhoneSettingsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestDescribeEveryDemoSetting(t *testing.T) {
	st := demoSettings(t)
	for _, k := range st.Keys() {
		if Title(k) == "" || About(k) == "" || Group(k) == "" {
			t.Errorf("%s: missing title, about or theme", k)
		}
		if _, ok := catalog[k]; ok != api.IsPhoneSettingType(k) {
			t.Errorf("%s: catalog and the spec's list disagree", k)
		}
		for _, l := range Describe(st, k) {
			if strings.Contains(l, "unknown value") || strings.Contains(l, "%!") {
				t.Errorf("%s: %q", k, l)
			}
		}
	}
	if len(catalog) != len(api.PhoneSettingTypes) {
		t.Errorf("catalog has %d keys", len(catalog))
	}
	if got := strings.Join(Describe(st, "call_park"), " "); !strings.Contains(got, "Parked calls expire after 10 minutes, then ring back the parker.") {
		t.Errorf("call_park: %q", got)
	}
}

func TestGroupsAndUnknownKeys(t *testing.T) {
	groups := Groups()
	if g := GroupIndex("voicemail"); groups[g] != "Voicemail" || Group("voicemail") != "Voicemail" {
		t.Errorf("voicemail is in %q", groups[g])
	}
	if Group("vendor_new_thing") != groups[len(groups)-1] || Title("vendor_new_thing") != "New thing" {
		t.Errorf("unknown key: %q %q", Group("vendor_new_thing"), Title("vendor_new_thing"))
	}
	// Keys spelt with another provider's word are the same settings.
	if Title("acme_phone_on_mobile") != Title("vendor_phone_on_mobile") || About("external_calling_on_acme_room_common_area") != About("external_calling_on_vendor_room_common_area") ||
		Group("acme_phone_on_pwa") == groups[len(groups)-1] {
		t.Errorf("a branded key: %q %q", Title("acme_phone_on_mobile"), Group("acme_phone_on_pwa"))
	}
	groups[0] = "changed"
	if Groups()[0] == "changed" {
		t.Error("Groups hands out its own slice")
	}
}
