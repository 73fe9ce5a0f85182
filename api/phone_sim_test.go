package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

// phoneFixture is a client on the simulator whose every phone answer is
// checked against the provider's description when it is at hand.
type phoneFixture struct {
	client *api.Client
	sim    *sim.Sim
	mu     sync.Mutex
	checks int
}

func newPhoneFixture(t *testing.T, token string) *phoneFixture {
	t.Helper()
	now := func() time.Time { return time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC) }
	s := sim.New(sim.Options{Now: now, NoRateLimit: true})
	f := &phoneFixture{sim: s}
	router := phoneRouter(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		if strings.HasPrefix(r.URL.Path, "/v2/phone/") {
			if err := validatePhoneAnswer(router, r, rec); err != nil {
				t.Errorf("%s: answer does not conform: %v\n%s", r.URL, err, rec.Body.Bytes())
			}
			f.mu.Lock()
			f.checks++
			f.mu.Unlock()
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	c, err := api.New(api.WithBaseURL(srv.URL+"/v2"), api.WithToken(token), api.WithRateLimit(0, 0),
		api.WithClock(now), api.WithSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	f.client = c
	return f
}

// phoneRouter loads the phone description kept beside the simulator's
// other conformance data.
func phoneRouter(t *testing.T) routers.Router {
	t.Helper()
	path := filepath.Join("sim", "testdata", "conformance", "phone-account-settings-openapi.json")
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	if ss := doc.Components.SecuritySchemes["openapi_oauth"]; ss != nil && ss.Value != nil && ss.Value.Flows != nil {
		if f := ss.Value.Flows.AuthorizationCode; f != nil && f.TokenURL == "" {
			f.TokenURL = "http://127.0.0.1/oauth/token"
		}
	}
	doc.Servers = openapi3.Servers{{URL: "/v2"}}
	router, err := legacy.NewRouter(doc, openapi3.DisableExamplesValidation())
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	return router
}

// validatePhoneAnswer checks one answer; statuses the description does not
// list (the spec's 403) must still carry {code, message}.
func validatePhoneAnswer(router routers.Router, r *http.Request, rec *httptest.ResponseRecorder) error {
	probe := r.Clone(context.Background())
	probe.URL.Scheme, probe.URL.Host, probe.Host = "", "", ""
	route, params, err := router.FindRoute(probe)
	if err != nil {
		return err
	}
	if route.Operation.Responses.Status(rec.Code) == nil {
		var e struct {
			Code    *int    `json:"code"`
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Code == nil || e.Message == nil {
			return errors.New("error body is not {code, message}")
		}
		return nil
	}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true,
		AuthenticationFunc: func(context.Context, *openapi3filter.AuthenticationInput) error { return nil }}
	in := &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route, Options: opts}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.Code,
		Header: rec.Header(), Options: opts, Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes()))}
	return openapi3filter.ValidateResponse(context.Background(), out)
}

func TestPhoneSettingsAllDecoded(t *testing.T) {
	f := newPhoneFixture(t, sim.DemoToken)
	s, err := f.client.Phone.AccountSettings(context.Background(), api.PhoneSettingsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range api.PhoneSettingTypes {
		if !s.Has(k) {
			t.Errorf("%s missing", k)
			continue
		}
		if err := s.DecodeError(k); err != nil {
			t.Errorf("%s: %v", k, err)
		}
		if _, ok := s.Common(k); !ok {
			t.Errorf("%s: no common fields", k)
		}
		switch api.KindOfPhoneSetting(k) {
		case api.PhoneSettingTyped:
			if v := s.Typed(k); v == nil || reflect.ValueOf(v).IsNil() {
				t.Errorf("%s: not decoded into its struct", k)
			}
		case api.PhoneSettingUnshown:
			if s.Typed(k) != nil {
				t.Errorf("%s: shape not shown, yet typed", k)
			}
		}
	}
	// Typed fields carry the extra fields.
	if s.CallPark == nil || *s.CallPark.ExpirationPeriod != 10 || *s.CallPark.CallNotPickedUpAction != api.ParkActionRingBackParker {
		t.Errorf("call park: %+v", s.CallPark)
	}
	if s.CallForwarding == nil || *s.CallForwarding.CallForwardingType != 2 || !s.CallForwarding.IsLocked() {
		t.Errorf("forwarding: %+v", s.CallForwarding)
	}
	if p := s.CallLiveTranscription.TranscriptionStartPrompt; p == nil || !p.Removed() {
		t.Errorf("live transcription prompt: %+v", p)
	}
	if len(s.SMSEtiquetteTool.SMSEtiquettePolicy) != 3 || len(s.AutoDeleteDataAfterRetentionDuration.Items) != 9 ||
		len(s.CallQueueOptOutReason.Reasons) != 4 {
		t.Error("lists not decoded")
	}
	if b := s.AutoCallRecording.PlayRecordingBeepTone; b == nil || *b.PlayBeepVolume != 60 || b.PlayBeepMember != "allMembers" {
		t.Errorf("beep: %+v", b)
	}
	// Keys beyond the spec's 43 are kept raw, after the known ones.
	keys := s.Keys()
	if !slices.Equal(keys[:len(api.PhoneSettingTypes)], api.PhoneSettingTypes) ||
		!slices.Equal(keys[len(api.PhoneSettingTypes):], []string{"call_screening", "online_fax"}) {
		t.Errorf("keys %v", keys)
	}
	if raw, ok := s.Raw("online_fax"); !ok || !bytes.Contains(raw, []byte("include_fax_as_attachment")) {
		t.Errorf("unknown setting dropped: %s", raw)
	}
	if got := s.Fields("override_default_port"); !slices.Equal(got, []string{"max_port", "min_port"}) {
		t.Errorf("raw fields of an unshown setting: %v", got)
	}
	if f.checks == 0 {
		t.Log("answers not checked against the description (not found)")
	}
}

func TestPhoneSettingsSubsetAndValidation(t *testing.T) {
	f := newPhoneFixture(t, sim.DemoToken)
	ctx := context.Background()
	s, err := f.client.Phone.AccountSettings(ctx, api.PhoneSettingsOptions{Types: []string{"call_park", " sms ", "call_park"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Keys(), []string{"sms", "call_park"}) {
		t.Errorf("subset keys %v", s.Keys())
	}
	// A bad type never reaches the server; the message names it.
	_, err = f.client.Phone.AccountSettings(ctx, api.PhoneSettingsOptions{Types: []string{"voicemial"}})
	var v *api.ValidationError
	if !errors.As(err, &v) || !strings.Contains(err.Error(), `"voicemial"`) || !strings.Contains(err.Error(), `did you mean "voicemail"`) {
		t.Fatalf("validation: %v", err)
	}
	if f.checks != 1 {
		t.Errorf("%d requests, want 1", f.checks)
	}
}

func TestPhoneSettingsServerErrors(t *testing.T) {
	f := newPhoneFixture(t, sim.DemoToken)
	ctx := context.Background()
	// The server's own 400, reached without the client's check.
	_, err := f.client.Phone.RawAccountSettings(ctx, "call_park,online_fax")
	wantCode(t, err, 400, api.CodeInvalidSettingTypes)
	if !strings.Contains(err.Error(), "online_fax") {
		t.Errorf("400 lacks the bad value: %v", err)
	}

	np := newPhoneFixture(t, sim.NoPhoneToken)
	_, err = np.client.Phone.AccountSettings(ctx, api.PhoneSettingsOptions{})
	wantCode(t, err, 403, sim.CodePhoneNotSetUp)
	if !api.IsPhoneNotSetUp(err) || !strings.Contains(err.Error(), "Business or Enterprise") {
		t.Errorf("403: %v", err)
	}
	// The phone-less host still reads events.
	if _, err := np.client.Hubs.List(ctx); err != nil {
		t.Errorf("events with the no-phone token: %v", err)
	}
}

func TestPhoneSettingsRoundTrip(t *testing.T) {
	f := newPhoneFixture(t, sim.DemoToken)
	s, err := f.client.Phone.AccountSettings(context.Background(), api.PhoneSettingsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := f.client.Phone.RawAccountSettings(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, out, raw)
}

func assertSameJSON(t *testing.T, got, want []byte) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("JSON differs:\n got %s\nwant %s", got, want)
	}
}
