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

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

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
	if apiErr.Message != msgInvalidSettingTypes || len(apiErr.Errors) != 2 ||
		!strings.Contains(apiErr.Errors[0].Message, `"voicemial"`) || !strings.Contains(apiErr.Errors[1].Message, `"online_fax"`) {
		t.Errorf("400 body: %s", r.body)
	}
	r = e.phoneGet(NoPhoneToken, nil)
	if apiErr := r.wantError(t, 403, api.CodePhoneNotSetUp); !strings.Contains(apiErr.Message, "not been set up") {
		t.Errorf("403 body: %s", r.body)
	}
	// The account check comes before the parameter check.
	e.phoneGet(NoPhoneToken, &bad).wantError(t, 403, api.CodePhoneNotSetUp)
	e.phoneGet("", nil).wantError(t, 401, codeInvalidToken)
	// The read-only token reads phone settings too.
	e.phoneGet(ReadOnlyToken, nil).decode(t, 200, nil)
}

func TestPhoneMissingScope(t *testing.T) {
	e := newEnv(t, Options{})
	e.sim.issueToken("no-phone-scope", DemoHostID, []string{"vendor_events_basic:read"}, testEpoch.Add(3600e9))
	e.phoneGet("no-phone-scope", nil).wantError(t, 403, codeMissingScope)
	e.sim.issueToken("granular-only", DemoHostID, []string{api.PhoneGranularScope}, testEpoch.Add(3600e9))
	e.phoneGet("granular-only", nil).decode(t, 200, nil)
}

func TestPhonePoliciesDifferByAccount(t *testing.T) {
	e := newEnv(t, Options{})
	var demo, other map[string]json.RawMessage
	e.phoneGet(DemoToken, nil).decode(t, 200, &demo)
	e.phoneGet(OtherHostToken, nil).decode(t, 200, &other)
	if string(demo["call_park"]) == string(other["call_park"]) {
		t.Error("the two accounts share a call park policy")
	}
	if _, ok := other["call_screening"]; ok {
		t.Error("the other account should lack call_screening")
	}
}

// phoneConformance checks exchanges with the phone endpoint against the
// provider's description of it.
type phoneConformance struct {
	t      *testing.T
	env    *env
	router routers.Router
	opts   *openapi3filter.Options
	checks int
}

func newPhoneConformance(t *testing.T) *phoneConformance {
	path := conformanceFile(t, "phone-account-settings-openapi.json")
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	e := newEnv(t, Options{})
	doc.Servers = openapi3.Servers{{URL: e.srv.URL + "/v2"}}
	if ss := doc.Components.SecuritySchemes["openapi_oauth"]; ss != nil && ss.Value != nil && ss.Value.Flows != nil {
		if f := ss.Value.Flows.AuthorizationCode; f != nil && f.TokenURL == "" {
			f.TokenURL = e.srv.URL + "/oauth/token"
		}
	}
	router, err := legacy.NewRouter(doc, openapi3.DisableExamplesValidation())
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	return &phoneConformance{t: t, env: e, router: router, opts: &openapi3filter.Options{
		IncludeResponseStatus: true,
		MultiError:            true,
		AuthenticationFunc:    func(context.Context, *openapi3filter.AuthenticationInput) error { return nil },
	}}
}

// get sends the request, checks the status and validates the answer. A
// status the description does not list (the spec's 403) is checked for the
// error body's shape instead.
func (c *phoneConformance) get(token, rawQuery string, want int) []byte {
	c.t.Helper()
	u := c.env.srv.URL + "/v2/phone/account_settings"
	if rawQuery != "" {
		u += "?" + rawQuery
	}
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		c.t.Fatalf("%s: not in the description: %v", u, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: c.opts}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		c.t.Errorf("request does not conform: %v", err)
	}
	resp, err := c.env.srv.Client().Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		c.t.Fatalf("%s: status %d, want %d: %s", rawQuery, resp.StatusCode, want, clip(body))
	}
	if route.Operation.Responses.Status(resp.StatusCode) == nil {
		var e struct {
			Code    *int    `json:"code"`
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(body, &e); err != nil || e.Code == nil || e.Message == nil {
			c.t.Errorf("%d body is not {code, message}: %s", resp.StatusCode, clip(body))
		}
		c.checks++
		return body
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: resp.StatusCode,
		Header: resp.Header, Options: c.opts}
	out.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil && !tolerated(err) {
		c.t.Errorf("%s: answer does not conform: %v\n%s", rawQuery, err, clip(body))
	}
	c.checks++
	return body
}

func TestConformancePhone(t *testing.T) {
	c := newPhoneConformance(t)
	c.get(DemoToken, "", 200)
	c.get(OtherHostToken, "", 200)
	for _, k := range api.PhoneSettingTypes {
		c.get(DemoToken, "setting_types="+k, 200)
		c.get(OtherHostToken, "setting_types="+k, 200)
	}
	c.get(DemoToken, "setting_types="+url.QueryEscape(strings.Join(api.PhoneSettingTypes, ",")), 200)
	c.get(DemoToken, "setting_types=call_park,not_a_setting", 400)
	c.get(NoPhoneToken, "", 403)
	c.env.sim.SetRPS(1)
	c.get(DemoToken, "setting_types=sms", 200)
	c.get(DemoToken, "setting_types=sms", 429)
	t.Logf("%d exchanges validated", c.checks)
}

// TestConformancePhoneCatchesShapeErrors proves the check is not vacuous.
func TestConformancePhoneCatchesShapeErrors(t *testing.T) {
	c := newPhoneConformance(t)
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
