package sim

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/evdesk/evdesk/api"
)

// phoneGet asks the phone endpoint with a raw setting_types value (omitted
// when nil) and token.
func (e *env) phoneGet(token string, types *string) reply {
	e.t.Helper()
	u := e.srv.URL + "/v2/phone/account_settings"
	if types != nil {
		u += "?" + url.Values{"setting_types": {*types}}.Encode()
	}
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: b}
}

func keysOf(t *testing.T, body []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", clip(body))
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestPhoneFullAnswerCoversEverySettingInSpecOrder(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.phoneGet(DemoToken, nil)
	r.decode(t, 200, nil)
	keys := keysOf(t, r.body)
	want := append(slices.Clone(api.PhoneSettingTypes), phoneExtras...)
	if !slices.Equal(keys, want) {
		t.Fatalf("keys:\n%v\nwant:\n%v", keys, want)
	}
	var all map[string]map[string]any
	r.decode(t, 200, &all)
	for k, v := range all {
		if _, ok := v["enable"].(bool); !ok {
			t.Errorf("%s: no enable flag", k)
		}
		if lb, _ := v["locked_by"].(string); lb != api.LockedByAccount && lb != api.LockedByInvalid {
			t.Errorf("%s: locked_by %q", k, lb)
		}
	}
}

func TestPhoneSettingTypesFilterAndErrors(t *testing.T) {
	e := newEnv(t, Options{})
	q := " call_park ,voicemail,,call_park"
	r := e.phoneGet(DemoToken, &q)
	r.decode(t, 200, nil)
	if got := keysOf(t, r.body); !slices.Equal(got, []string{"call_park", "voicemail"}) {
		t.Errorf("subset keys %v", got)
	}
	empty := ""
	if got := keysOf(t, e.phoneGet(DemoToken, &empty).body); len(got) != len(api.PhoneSettingTypes)+len(phoneExtras) {
		t.Errorf("empty setting_types: %d keys", len(got))
	}
	bad := "voicemail,voicemial,online_fax"
	r = e.phoneGet(DemoToken, &bad)
	apiErr := r.wantError(t, 400, api.CodeInvalidSettingTypes)
	if !strings.HasPrefix(apiErr.Message, msgInvalidSettingTypes) ||
		!strings.Contains(apiErr.Message, `"voicemial", "online_fax"`) {
		t.Errorf("400 body: %s", r.body)
	}
	r = e.phoneGet(NoPhoneToken, nil)
	if apiErr := r.wantError(t, 403, CodePhoneNotSetUp); !strings.Contains(apiErr.Message, "not been set up") {
		t.Errorf("403 body: %s", r.body)
	}
	// The account check comes before the parameter check.
	e.phoneGet(NoPhoneToken, &bad).wantError(t, 403, CodePhoneNotSetUp)
	e.phoneGet("", nil).wantError(t, 401, CodeInvalidToken)
	// The read-only token reads phone settings too.
	e.phoneGet(ReadOnlyToken, nil).decode(t, 200, nil)
}

func TestPhoneMissingScope(t *testing.T) {
	e := newEnv(t, Options{})
	e.sim.issueToken("no-phone-scope", DemoHostID, []string{"vendor_events_basic:read"}, testEpoch.Add(3600e9))
	e.phoneGet("no-phone-scope", nil).wantError(t, 403, CodeMissingScope)
	e.sim.issueToken("granular-only", DemoHostID, []string{api.PhoneGranularScope}, testEpoch.Add(3600e9))
	e.phoneGet("granular-only", nil).decode(t, 200, nil)
}

func TestPhonePoliciesDifferByAccount(t *testing.T) {
	e := newEnv(t, Options{})
	var demo, other map[string]json.RawMessage
	e.phoneGet(DemoToken, nil).decode(t, 200, &demo)
	e.phoneGet(OtherHostToken, nil).decode(t, 200, &other)
	for _, k := range []string{"call_park", "voicemail", "international_calling"} {
		if string(demo[k]) == string(other[k]) {
			t.Errorf("the two accounts share a %s policy", k)
		}
	}
	if _, ok := other["call_screening"]; ok {
		t.Error("the other account should lack call_screening")
	}
}

// phoneGet checks one request to the phone endpoint as the holder of token.
func (c *conformance) phoneGet(token, rawQuery string, want int) []byte {
	c.t.Helper()
	c.token = token
	defer func() { c.token = DemoToken }()
	path := "/phone/account_settings"
	if rawQuery != "" {
		path += "?" + rawQuery
	}
	return c.do("GET", path, nil, want)
}

func TestConformancePhone(t *testing.T) {
	c := loadConformance(t, "phone-account-settings-openapi.json")
	c.phoneGet(DemoToken, "", 200)
	c.phoneGet(OtherHostToken, "", 200)
	for _, k := range api.PhoneSettingTypes {
		c.phoneGet(DemoToken, "setting_types="+k, 200)
		c.phoneGet(OtherHostToken, "setting_types="+k, 200)
	}
	c.phoneGet(DemoToken, "setting_types="+url.QueryEscape(strings.Join(api.PhoneSettingTypes, ",")), 200)
	c.phoneGet(DemoToken, "setting_types=call_park,not_a_setting", 400)
	c.phoneGet(NoPhoneToken, "", 403)
	c.env.sim.SetRPS(1)
	c.phoneGet(DemoToken, "setting_types=sms", 200)
	c.phoneGet(DemoToken, "setting_types=sms", 429)
	t.Logf("%d exchanges validated", c.checks)
}

// TestConformancePhoneCatchesShapeErrors proves the check is not vacuous.
func TestConformancePhoneCatchesShapeErrors(t *testing.T) {
	c := loadConformance(t, "phone-account-settings-openapi.json")
	req, _ := http.NewRequest("GET", c.env.srv.URL+"/v2/phone/account_settings", nil)
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		t.Fatal(err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: c.opts}
	for name, body := range map[string]string{
		"park expiry 11":   `{"call_park":{"enable":true,"expiration_period":11}}`,
		"locked_by admin":  `{"voicemail":{"enable":true,"locked_by":"admin"}}`,
		"forwarding 5":     `{"call_handling_forwarding_to_other_users":{"call_forwarding_type":5}}`,
		"enable as string": `{"sms":{"enable":"yes"}}`,
	} {
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: 200,
			Header: http.Header{"Content-Type": {"application/json"}}, Options: c.opts}
		out.SetBodyBytes([]byte(body))
		if err := openapi3filter.ValidateResponse(context.Background(), out); err == nil {
			t.Errorf("%s: not caught", name)
		}
	}
}

// TestPhoneKeysCarryTheWord: the keys that carry the provider's name carry
// the simulator's word, in answers and in setting_types.
func TestPhoneKeysCarryTheWord(t *testing.T) {
	e := newEnv(t, Options{PathWord: "acme"})
	keys := keysOf(t, e.phoneGet(DemoToken, nil).body)
	for _, k := range []string{"acme_phone_on_mobile", "acme_phone_on_pwa", "external_calling_on_acme_room_common_area"} {
		if !slices.Contains(keys, k) {
			t.Errorf("%s missing from %v", k, keys)
		}
		q := k
		e.phoneGet(DemoToken, &q).decode(t, 200, nil)
	}
	if slices.ContainsFunc(keys, func(k string) bool { return strings.Contains(k, "vendor") }) {
		t.Errorf("the default word leaks: %v", keys)
	}
	q := "vendor_phone_on_mobile"
	e.phoneGet(DemoToken, &q).wantError(t, 400, api.CodeInvalidSettingTypes)
	// The simulator's list and the client's are written apart; they agree.
	if got := newEnv(t, Options{}).sim.phoneKeys(); !slices.Equal(got, api.PhoneSettingTypes) {
		t.Errorf("simulator keys %v", got)
	}
}
