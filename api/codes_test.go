package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// specCodes are the codes of the spec's error table (events document,
// section 7), which is not kept in the repository.
var specCodes = []int{1001, 1002, 1003, 1006, 26202, 26203, 26204, 260207, 260210, 261202, 261203,
	26201, 260200, 3011, 2002, 2003, 2005, 261201}

// describedCodes reads every "Error Code" the provider's published
// descriptions list (the copies kept beside the simulator's tests).
func describedCodes(t *testing.T) map[int]bool {
	t.Helper()
	re := regexp.MustCompile("Error Code:\\*\\* `(\\d+)`")
	out := map[int]bool{}
	for _, name := range []string{"events-openapi.json", "phone-account-settings-openapi.json"} {
		b, err := os.ReadFile(filepath.Join("sim", "testdata", "conformance", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			n, _ := strconv.Atoi(m[1])
			out[n] = true
		}
	}
	return out
}

func TestEveryDocumentedCodeHasAMeaningAndNoOtherDoes(t *testing.T) {
	documented := describedCodes(t)
	if len(documented) < 20 {
		t.Fatalf("read only %d codes from the descriptions", len(documented))
	}
	for _, c := range specCodes {
		documented[c] = true
	}
	for c := range documented {
		if codeMeanings[c] == "" {
			t.Errorf("documented code %d has no meaning in the client", c)
		}
	}
	for c := range codeMeanings {
		if !documented[c] {
			t.Errorf("code %d has a meaning but neither the spec nor the descriptions document it", c)
		}
	}
}

func TestAnUndocumentedCodeFallsBackToTheStatus(t *testing.T) {
	for _, code := range []int{124, 300, 3003, 4711, 40101} {
		e := &Error{Status: 400, Code: code, Message: "Something the server says."}
		if e.Meaning() != statusMeanings[400] {
			t.Errorf("%d: meaning %q", code, e.Meaning())
		}
		if !strings.Contains(e.Error(), "(server: Something the server says.)") {
			t.Errorf("%d: the server's message is lost: %v", code, e)
		}
	}
}

// TestEndpointStatusMeaningsNeedNoCode: a 403 of the phone endpoint and a 401
// of the transcription endpoint mean what the spec says, whatever code (or
// none) the answer carries.
func TestEndpointStatusMeaningsNeedNoCode(t *testing.T) {
	for _, body := range []string{``, `{"code":0,"message":"no"}`, `{"code":98765,"message":"no"}`} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, phoneSettingsPath) {
				w.WriteHeader(http.StatusForbidden)
			} else {
				w.WriteHeader(http.StatusUnauthorized)
			}
			_, _ = w.Write([]byte(body))
		}))
		c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Phone.AccountSettings(t.Context(), PhoneSettingsOptions{})
		if !IsPhoneNotSetUp(err) || !strings.Contains(err.Error(), "phone service has not been set up") {
			t.Errorf("phone 403 %q: %v", body, err)
		}
		tr := &Transcriber{c: c}
		_, err = tr.Transcribe(t.Context(), TranscribeRequest{File: "https://media.example.org/a.mp3"})
		if !IsStatus(err, 401) || !strings.Contains(err.Error(), "check the API key and secret") {
			t.Errorf("AI 401 %q: %v", body, err)
		}
		// Elsewhere a 403 keeps the status's own meaning.
		if _, err := c.Events.Get(t.Context(), "abc"); IsPhoneNotSetUp(err) {
			t.Errorf("an events 401 reads as phone not set up: %v", err)
		}
		srv.Close()
	}
}

// findEnum returns the enum of the first property called name anywhere in v.
func findEnum(v any, name string) []string {
	switch x := v.(type) {
	case map[string]any:
		if p, ok := x[name].(map[string]any); ok {
			if e, ok := p["enum"].([]any); ok {
				out := make([]string, len(e))
				for i, s := range e {
					out[i], _ = s.(string)
				}
				return out
			}
		}
		for _, c := range x {
			if e := findEnum(c, name); e != nil {
				return e
			}
		}
	case []any:
		for _, c := range x {
			if e := findEnum(c, name); e != nil {
				return e
			}
		}
	}
	return nil
}

func TestEveryTicketErrorCodeOfTheDescriptionHasAMeaning(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("sim", "testdata", "conformance", "events-openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	enum := findEnum(doc, "error_code")
	if len(enum) != 8 {
		t.Fatalf("the description lists %d ticket error codes: %v", len(enum), enum)
	}
	for _, code := range enum {
		e := TicketError{ErrorCode: code, Message: "server text"}
		if _, ok := ticketErrMeanings[code]; !ok || e.Meaning() == "server text" {
			t.Errorf("%s has no meaning", code)
		}
	}
	if m := (TicketError{ErrorCode: "brand_new", Message: "Something new."}).Meaning(); m != "Something new." {
		t.Errorf("an unknown code should show the server's message, got %q", m)
	}
}
