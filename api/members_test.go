package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

var memberNames = map[string]bool{"email": true, "tickets": true, "registration_status": true}

// slowOtherMembers is the question answered by a full decode.
func slowOtherMembers(b []byte) bool {
	var all map[string]json.RawMessage
	if json.Unmarshal(b, &all) != nil {
		return true
	}
	for k := range all {
		if !memberNames[k] {
			return true
		}
	}
	return false
}

func TestHasOtherMembers(t *testing.T) {
	for _, tc := range []struct {
		json string
		want bool
	}{
		{`{}`, false},
		{` { "email" : "a@b.c" } `, false},
		{`{"email":"a\"}{,@b.c","tickets":[{"x":"}"},[1,{"y":[]}]],"registration_status":null}`, false},
		{`{"email":"a@b.c","tickets":[],"name":"Ann"}`, true},
		{`{"tickets":{"email":{}},"nested_only":1}`, true},
		{`{"email":"a@b.c","registration_status":12.5e3}`, false},
		{`{"email":true,"tickets":false}`, false},
		{`{"em\u0061il":"a@b.c"}`, true}, // escaped: the full decode decides
		{`{"Email":"a@b.c"}`, true},
		{`[]`, true},
	} {
		if got := hasOtherMembers([]byte(tc.json), memberNames); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.json, got, tc.want)
		}
	}
}

// FuzzHasOtherMembers: on any object json accepts, the quick reading never
// misses a member the full decode finds.
//
//	go test ./api -run '^$' -fuzz FuzzHasOtherMembers -fuzztime 20s
func FuzzHasOtherMembers(f *testing.F) {
	for _, s := range []string{`{"email":"a","tickets":[{"b":"}"}]}`, `{"x":1}`, `{"email":"\\\"","y":[]}`, `{}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		if slowOtherMembers([]byte(s)) && !hasOtherMembers([]byte(s), memberNames) {
			t.Fatalf("missed another member in %q", s)
		}
	})
}

// BenchmarkDecodeRegistrantsPage decodes a page of 300 registrants, as a
// desk's roster download does 67 times for 20,000 people.
//
//	go test ./api -run '^$' -bench DecodeRegistrantsPage -benchmem
func BenchmarkDecodeRegistrantsPage(b *testing.B) {
	var page strings.Builder
	page.WriteString("[")
	for i := range 300 {
		if i > 0 {
			page.WriteString(",")
		}
		fmt.Fprintf(&page, `{"email":"person%d@example.org","registration_status":"REGISTERED","tickets":[{"ticket_id":"t%010d",`+
			`"role":"ATTENDEE","authentication_method":"email_opt","qr_code_url":"https://events.vendor.example/qr?t=t%010d"}]}`, i, i, i)
	}
	page.WriteString("]")
	data := []byte(page.String())
	b.ReportAllocs()
	for b.Loop() {
		var regs []Registrant
		if err := json.Unmarshal(data, &regs); err != nil || len(regs) != 300 {
			b.Fatal(err)
		}
	}
}
