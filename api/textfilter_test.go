package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// mark is a recognisable filter: it tags each string with how it was asked.
func mark(s string, multiline bool) string {
	if multiline {
		return "T(" + s + ")"
	}
	return "L(" + s + ")"
}

func TestStringFilterReachesEveryStringOfAnAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"event_id":"e1","name":"N\u001b]0;x\u0007","description":"a\nb",
			"tags":["t1"],"venue":{"name":"hall"}}`))
	}))
	defer srv.Close()
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0), WithStringFilter(mark))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := c.Events.Get(context.Background(), "e1")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name != "L(N\x1b]0;x\x07)" || ev.Description != "T(a\nb)" || ev.EventID != "L(e1)" {
		t.Errorf("name %q description %q id %q", ev.Name, ev.Description, ev.EventID)
	}
	if len(ev.Tags) != 1 || ev.Tags[0] != "L(t1)" {
		t.Errorf("tags %q", ev.Tags)
	}
	if ev.Venue == nil || ev.Venue.Name != "L(hall)" {
		t.Errorf("venue %+v", ev.Venue)
	}
}

func TestStringFilterReachesErrorsAndLooseJSON(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(400)
		_, _ = w.Write([]byte(`{"code":1,"message":"bad\u009b","errors":[{"field":"name","message":"m"}]}`))
	}))
	defer srv.Close()
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0), WithStringFilter(mark))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Events.Get(context.Background(), "e1")
	var e *Error
	if !errors.As(err, &e) || e.Message != "L(bad\u009b)" {
		t.Fatalf("error %#v", err)
	}

	// Loose JSON (maps, interfaces, slices of any) is rewritten too; raw
	// JSON is left to its displayer.
	var loose struct {
		M   map[string]any
		A   []any
		Raw json.RawMessage
	}
	if err := json.Unmarshal([]byte(`{"M":{"k\u001b":"v","n":{"x":["y"]}},"A":["s",1],"Raw":{"r":"\u001b"}}`), &loose); err != nil {
		t.Fatal(err)
	}
	filterStrings(&loose, mark)
	if loose.M["L(k\x1b)"] != "L(v)" || loose.M["L(n)"].(map[string]any)["L(x)"].([]any)[0] != "L(y)" || loose.A[0] != "L(s)" {
		t.Errorf("loose: %#v", loose)
	}
	if !strings.Contains(string(loose.Raw), `\u001b`) {
		t.Errorf("raw JSON was changed: %s", loose.Raw)
	}
}

func TestStringFilterRewritesRawJSON(t *testing.T) {
	var v struct {
		Extra map[string]json.RawMessage
	}
	if err := json.Unmarshal([]byte(`{"Extra":{"name":{"first":"a\u001b","n":12345678901234567890}}}`), &v); err != nil {
		t.Fatal(err)
	}
	filterStrings(&v, mark)
	if got := string(v.Extra["L(name)"]); got != `{"L(first)":"L(a\u001b)","L(n)":12345678901234567890}` {
		t.Errorf("raw = %s", got)
	}
}

func TestStringFilterReachesPhoneSettings(t *testing.T) {
	var p PhoneSettings
	if err := json.Unmarshal([]byte(`{"voicemail":{"enable":true,"locked_by":"acc\u001b[31m"}}`), &p); err != nil {
		t.Fatal(err)
	}
	filterStrings(&p, func(s string, _ bool) string { return strings.ReplaceAll(s, "\x1b", "?") })
	raw, _ := p.Raw("voicemail")
	if strings.Contains(string(raw), `\u001b`) || !strings.Contains(string(raw), `acc?[31m`) {
		t.Errorf("raw = %s", raw)
	}
	if c, ok := p.Common("voicemail"); !ok || c.LockedBy != "acc?[31m" {
		t.Errorf("common = %+v", c)
	}
}
