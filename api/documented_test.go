package api

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// The client reads only what the spec or the provider's published
// descriptions document. These tests walk every type an answer is decoded
// into and fail on a field neither shows: a client that depends on a
// field only the simulator sends would fail against the real service.

// schema is the part of an OpenAPI schema the walk needs.
type schema struct {
	Properties map[string]*schema `json:"properties"`
	Items      *schema            `json:"items"`
	AllOf      []*schema          `json:"allOf"`
	OneOf      []*schema          `json:"oneOf"`
	AnyOf      []*schema          `json:"anyOf"`
	Required   []string           `json:"required"`
}

// property finds name among s's properties, through allOf, oneOf and anyOf.
func (s *schema) property(name string) *schema {
	if s == nil {
		return nil
	}
	if p := s.Properties[name]; p != nil {
		return p
	}
	if slices.Contains(s.Required, name) {
		return &schema{} // required by name, its shape not shown
	}
	for _, group := range [][]*schema{s.AllOf, s.OneOf, s.AnyOf} {
		for _, sub := range group {
			if p := sub.property(name); p != nil {
				return p
			}
		}
	}
	return nil
}

// items is the item schema of an array, through allOf, oneOf and anyOf.
func (s *schema) items() *schema {
	if s == nil {
		return nil
	}
	if s.Items != nil {
		return s.Items
	}
	for _, group := range [][]*schema{s.AllOf, s.OneOf, s.AnyOf} {
		for _, sub := range group {
			if it := sub.items(); it != nil {
				return it
			}
		}
	}
	return nil
}

type openAPI struct {
	Paths map[string]map[string]struct {
		Responses map[string]struct {
			Content map[string]struct {
				Schema *schema `json:"schema"`
			} `json:"content"`
		} `json:"responses"`
	} `json:"paths"`
}

func loadOpenAPI(t *testing.T, name string) *openAPI {
	t.Helper()
	b, err := os.ReadFile("sim/testdata/conformance/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var doc openAPI
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

func (d *openAPI) response(t *testing.T, method, path, status string) *schema {
	t.Helper()
	op, ok := d.Paths[path][strings.ToLower(method)]
	if !ok {
		t.Fatalf("%s %s is not in the description", method, path)
	}
	s := op.Responses[status].Content["application/json"].Schema
	if s == nil {
		t.Fatalf("%s %s %s has no JSON body in the description", method, path, status)
	}
	return s
}

// leafTypes end the walk: their own decoding reads a single value.
var leafTypes = []reflect.Type{reflect.TypeFor[time.Time](), reflect.TypeFor[json.RawMessage]()}

// undocumented walks t against s and returns the JSON paths of the fields
// t reads that s does not show.
func undocumented(t reflect.Type, s *schema, at string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if slices.Contains(leafTypes, t) {
		return nil
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return undocumented(t.Elem(), s.items(), at+"[]")
	case reflect.Struct:
	default:
		return nil // a scalar, or a map kept loose (shown raw)
	}
	var out []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			out = append(out, undocumented(f.Type, s, at)...)
			continue
		}
		if name == "-" {
			continue // not decoded from JSON (Extra, derived fields)
		}
		if name == "" {
			name = f.Name
		}
		p := s.property(name)
		if p == nil {
			out = append(out, at+"."+name)
			continue
		}
		out = append(out, undocumented(f.Type, p, at+"."+name)...)
	}
	return out
}

// withSpec adds to s the fields the spec shows and the description lacks.
func withSpec(s *schema, fields map[string]*schema) *schema {
	return &schema{AllOf: []*schema{s, {Properties: fields}}}
}

// Fields of the spec that the description lacks, by the spec's section.
var (
	leaf = &schema{}
	// 2.1: contact_email (get and list), host_id and venue (get); one
	// Event type reads every event answer. 2.4: the venue's fields.
	specEventFields = map[string]*schema{"contact_email": leaf, "host_id": leaf, "venue": {Properties: map[string]*schema{
		"name": leaf, "street_address": leaf, "city": leaf, "state": leaf, "postal_code": leaf, "country": leaf}}}
	// 2.9: an access link's url, in responses.
	specLinkFields = map[string]*schema{"url": leaf}
	// 4: "List responses carry next_page_token and total_records."
	specListFields = map[string]*schema{"next_page_token": leaf, "total_records": leaf}
)

// TestTheClientReadsOnlyDocumentedFields: every answer type, against the
// response schema the provider's description gives its endpoint, with the
// fields the spec adds.
func TestTheClientReadsOnlyDocumentedFields(t *testing.T) {
	events := loadOpenAPI(t, "events-openapi.json")
	const p = "/vendor_events/events"
	spec := map[string]func(*schema) *schema{
		"GET " + p: func(s *schema) *schema {
			s.Properties["events"] = &schema{Items: withSpec(s.Properties["events"].items(), specEventFields)}
			return s
		},
		"POST " + p:                                           func(s *schema) *schema { return withSpec(s, specEventFields) },
		"GET " + p + "/{eventId}":                             func(s *schema) *schema { return withSpec(s, specEventFields) },
		"POST " + p + "/{eventId}/access_links":               func(s *schema) *schema { return withSpec(s, specLinkFields) },
		"GET " + p + "/{eventId}/access_links/{accessLinkId}": func(s *schema) *schema { return withSpec(s, specLinkFields) },
		"GET " + p + "/{eventId}/sessions":                    func(s *schema) *schema { return withSpec(s, specListFields) },
	}
	for _, c := range []struct {
		method, path, status string
		into                 any
	}{
		{"GET", p, "200", EventList{}},
		{"POST", p, "201", Event{}},
		{"GET", p + "/{eventId}", "200", Event{}},
		{"POST", p + "/{eventId}/event_actions", "201", ActionResult{}},
		{"GET", p + "/{eventId}/attendee_action", "200", AttendeeActionList{}},
		{"PATCH", p + "/{eventId}/attendee_action", "201", batchResult{}},
		{"GET", p + "/{eventId}/sessions/{sessionId}/attendee_action", "200", AttendeeActionList{}},
		{"PATCH", p + "/{eventId}/sessions/{sessionId}/attendee_action", "201", batchResult{}},
		{"GET", p + "/{eventId}/sessions", "200", SessionList{}},
		{"GET", p + "/{eventId}/registrants", "200", RegistrantList{}},
		{"GET", "/vendor_events/hubs", "200", HubList{}},
		{"GET", p + "/{eventId}/coeditors", "200", CoeditorList{}},
		{"PATCH", p + "/{eventId}/coeditors", "201", batchResult{}},
		{"GET", p + "/{eventId}/email_types", "200", EmailTypeList{}},
		{"GET", p + "/{eventId}/email_types/{emailTypeId}/send_status", "200", EmailSendList{}},
		{"GET", p + "/{eventId}/access_links", "200", AccessLinkList{}},
		{"POST", p + "/{eventId}/access_links", "201", AccessLink{}},
		{"GET", p + "/{eventId}/access_links/{accessLinkId}", "200", AccessLink{}},
		{"GET", p + "/{eventId}/ticket_types", "200", TicketTypeList{}},
		{"POST", p + "/{eventId}/tickets", "201", TicketsResult{}},
		{"GET", p + "/{eventId}/exhibitors", "200", ExhibitorList{}},
		{"POST", p + "/{eventId}/exhibitors", "201", Exhibitor{}},
	} {
		s := events.response(t, c.method, c.path, c.status)
		if add := spec[c.method+" "+c.path]; add != nil {
			s = add(s)
		}
		if bad := undocumented(reflect.TypeOf(c.into), s, ""); len(bad) > 0 {
			t.Errorf("%s %s: %T reads fields the description does not show: %v", c.method, c.path, c.into, bad)
		}
	}
}

// TestThePhoneSettingsReadOnlyDocumentedFields: each typed setting against
// its property of the phone description.
func TestThePhoneSettingsReadOnlyDocumentedFields(t *testing.T) {
	s := loadOpenAPI(t, "phone-account-settings-openapi.json").response(t, "GET", "/phone/account_settings", "200")
	var p PhoneSettings
	for key, decode := range p.decoders() {
		v, err := decode(json.RawMessage("{}"))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		prop := s.property(key)
		if prop == nil {
			t.Errorf("setting %s is not in the description", key)
			continue
		}
		if bad := undocumented(reflect.TypeOf(v), prop, key); len(bad) > 0 {
			t.Errorf("%s: reads fields the description does not show: %v", key, bad)
		}
	}
}

// specSchema writes a shape the spec documents in prose as a schema.
func specSchema(fields map[string]*schema) *schema { return &schema{Properties: fields} }

// TestAnswersOutsideTheDescriptionsReadOnlyWhatTheSpecShows: the
// transcription result (phone and scribe document 2.8) and the error body
// ({ code, message }: the descriptions' error responses and their README).
func TestAnswersOutsideTheDescriptionsReadOnlyWhatTheSpecShows(t *testing.T) {
	word := specSchema(map[string]*schema{"word": leaf, "start": leaf, "end": leaf})
	segment := specSchema(map[string]*schema{"start": leaf, "end": leaf, "channel": leaf, "speaker": leaf, "text": leaf,
		"words": {Items: word}})
	transcript := specSchema(map[string]*schema{"request_id": leaf, "duration_sec": leaf,
		"result": specSchema(map[string]*schema{"text_display": leaf, "text_lexical": leaf, "segments": {Items: segment}})})
	errorBody := specSchema(map[string]*schema{"code": leaf, "message": leaf})
	for _, c := range []struct {
		into any
		s    *schema
	}{{Transcript{}, transcript}, {Error{}, errorBody}} {
		if bad := undocumented(reflect.TypeOf(c.into), c.s, ""); len(bad) > 0 {
			t.Errorf("%T reads fields the spec does not show: %v", c.into, bad)
		}
	}
}

// TestTheWalkFindsAnUndocumentedField: the walk itself, on a type that
// reads a field the schema lacks (deep in an array).
func TestTheWalkFindsAnUndocumentedField(t *testing.T) {
	type item struct {
		Email string `json:"email"`
		Field string `json:"field"`
	}
	type answer struct {
		Errors []item `json:"errors"`
		Extra  string `json:"-"`
	}
	s := specSchema(map[string]*schema{"errors": {Items: specSchema(map[string]*schema{"email": {}})}})
	if bad := undocumented(reflect.TypeFor[answer](), s, ""); !slices.Equal(bad, []string{".errors[].field"}) {
		t.Fatalf("found %v", bad)
	}
}
