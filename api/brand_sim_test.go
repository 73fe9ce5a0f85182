package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

// brandFixture is a client and a simulator that both use word, counting the
// requests that reach the simulator.
func brandFixture(t *testing.T, word string) (*api.Client, *atomic.Int32) {
	t.Helper()
	s := sim.New(sim.Options{PathWord: word, NoRateLimit: true})
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(sim.DemoToken), api.WithPathWord(word),
		api.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return c, &requests
}

// TestPhoneSettingNamesFollowThePathWord: the three settings that carry the
// provider's name are asked for, answered and decoded with the configured
// word, whichever it is.
func TestPhoneSettingNamesFollowThePathWord(t *testing.T) {
	for _, word := range []string{"vendor", "acme"} {
		t.Run(word, func(t *testing.T) {
			c, _ := brandFixture(t, word)
			mobile, pwa, room := word+"_phone_on_mobile", word+"_phone_on_pwa", "external_calling_on_"+word+"_room_common_area"
			if types := c.Phone.SettingTypes(); !slices.Contains(types, mobile) || !slices.Contains(types, room) || len(types) != 43 {
				t.Fatalf("setting types %v", types)
			}
			s, err := c.Phone.AccountSettings(context.Background(), api.PhoneSettingsOptions{Types: []string{room, mobile, pwa}})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Keys(); !slices.Equal(got, []string{room, mobile, pwa}) {
				t.Errorf("keys %v", got)
			}
			if s.PhoneOnMobile == nil || s.PhoneOnMobile.AllowCallingSMSMMS == nil || s.PhoneOnPWA == nil ||
				s.ExternalCallingOnRoomCommonArea == nil {
				t.Errorf("typed fields lost: %+v %+v %+v", s.PhoneOnMobile, s.PhoneOnPWA, s.ExternalCallingOnRoomCommonArea)
			}
			for _, k := range []string{mobile, pwa, room} {
				if api.KindOfPhoneSetting(k) != api.PhoneSettingTyped || !api.IsPhoneSettingType(k) || s.Typed(k) == nil {
					t.Errorf("%s is not a typed setting", k)
				}
			}
			all, err := c.Phone.AccountSettings(context.Background(), api.PhoneSettingsOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if keys := all.Keys(); !slices.Equal(keys[:43], c.Phone.SettingTypes()) {
				t.Errorf("full answer out of the spec's order: %v", keys[:43])
			}
		})
	}
}

func TestPhoneSettingTypesOfAnotherWordAreRefusedBeforeSending(t *testing.T) {
	c, requests := brandFixture(t, "acme")
	_, err := c.Phone.AccountSettings(context.Background(), api.PhoneSettingsOptions{Types: []string{"vendor_phone_on_mobile"}})
	if err == nil || requests.Load() != 0 {
		t.Fatalf("err=%v requests=%d", err, requests.Load())
	}
	if !strings.Contains(err.Error(), `use "acme_phone_on_mobile"`) {
		t.Errorf("message: %v", err)
	}
	// Without a word (the CLI checks --types before it has a client) any
	// word is a setting; the client then holds it to its own.
	if err := (api.PhoneSettingsOptions{Types: []string{"acme_phone_on_mobile", "vendor_phone_on_pwa"}}).Validate(); err != nil {
		t.Error(err)
	}
	if err := (api.PhoneSettingsOptions{Types: []string{"acme_phone_on_pwa"}, Word: "vendor"}).Validate(); err == nil {
		t.Error("another word accepted")
	}
}

func TestTheRoomExtensionTypeFollowsThePathWord(t *testing.T) {
	for _, v := range []string{"vendorRoom", "acmeRoom", api.PhoneExtensionRoom("zed")} {
		if w, ok := api.PhoneWord("extension_type", v); !ok || w != "room" {
			t.Errorf("%s: %q %v", v, w, ok)
		}
	}
	if w, _ := api.PhoneWord("extension_type", "thirdPartyRoom"); w != "third-party room" {
		t.Errorf("thirdPartyRoom: %q", w)
	}
	if _, ok := api.PhoneWord("extension_type", "Room"); ok {
		t.Error("a bare Room read as the provider's")
	}
	if got := api.NeutralPhoneSettingKey("external_calling_on_acme_room_common_area"); got != "external_calling_on_vendor_room_common_area" {
		t.Errorf("neutral key %q", got)
	}
	if got := api.PhoneSettingKeyFor("acme", "voicemail"); got != "voicemail" {
		t.Errorf("an unbranded key changed: %q", got)
	}
}
