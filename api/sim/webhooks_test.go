package sim

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// TestFireNeedsAValidatedEndpoint: without a webhook URL, or with one that
// does not answer the challenge, nothing is delivered; a bad event name is
// a 400.
func TestFireNeedsAValidatedEndpoint(t *testing.T) {
	plain := httptest.NewServer(New(Options{}))
	defer plain.Close()
	if status, _, _ := Fire(plain.URL, ""); status != http.StatusConflict {
		t.Errorf("no webhook URL: %d, want 409", status)
	}
	mute := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK) // 200, but no encryptedToken
	}))
	defer mute.Close()
	s := New(Options{Webhook: WebhookOptions{URL: mute.URL, Secret: "s"}})
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	if status, _, _ := Fire(srv.URL, ""); status != http.StatusConflict {
		t.Errorf("an endpoint that fails the challenge: %d, want 409", status)
	}
	// An endpoint that answers the challenge right takes deliveries.
	good := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Payload struct {
				PlainToken string `json:"plainToken"`
			} `json:"payload"`
		}
		_ = json.NewDecoder(r.Body).Decode(&in)
		if in.Payload.PlainToken == "" {
			return
		}
		m := hmac.New(sha256.New, []byte("s"))
		m.Write([]byte(in.Payload.PlainToken))
		_ = json.NewEncoder(w).Encode(map[string]string{"plainToken": in.Payload.PlainToken,
			"encryptedToken": hex.EncodeToString(m.Sum(nil))})
	}))
	defer good.Close()
	s2 := New(Options{Webhook: WebhookOptions{URL: good.URL, Secret: "s"}})
	defer s2.Close()
	srv2 := httptest.NewServer(s2)
	defer srv2.Close()
	if status, _, _ := Fire(srv2.URL, "?event="+strings.Repeat("x", 201)); status != http.StatusBadRequest {
		t.Errorf("an event name of 201 bytes: %d, want 400", status)
	}
	if status, res, err := Fire(srv2.URL, "?event=session.recording_completed"); status != http.StatusOK || len(res) != 1 ||
		res[0].Status != http.StatusOK || err != nil {
		t.Errorf("validated: %d %+v %v", status, res, err)
	}
	for _, bad := range []string{"ftp://x/h", "http://u:p@x/h", "not a url"} {
		if CheckWebhookURL(bad) == nil {
			t.Errorf("CheckWebhookURL(%q) accepted", bad)
		}
	}
}

// TestTheFeedIsRSS: the change log is served without a token as RSS 2.0,
// with the change log document's dated entries.
func TestTheFeedIsRSS(t *testing.T) {
	srv := httptest.NewServer(New(Options{}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + ChangelogPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var feed rssFeed
	if err := xml.Unmarshal(b, &feed); err != nil || resp.StatusCode != 200 ||
		!strings.HasPrefix(resp.Header.Get("Content-Type"), "application/rss+xml") {
		t.Fatalf("%d %v\n%s", resp.StatusCode, err, b)
	}
	dates := map[string]bool{}
	for _, it := range feed.Channel.Items {
		dates[it.PubDate[5:16]] = true
	}
	for _, d := range []string{"15 Nov 2026", "18 May 2026", "28 Sep 2026", "21 Sep 2026", "17 Aug 2026"} {
		if !dates[d] {
			t.Errorf("no entry dated %s (section 9)", d)
		}
	}
}

// TestInventionsAreListed: doc.go names what the simulator invents for
// the change log and webhooks.
func TestInventionsAreListed(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ChangelogPath", "ChangelogSimCategory", "WebhookFirePath", "Options.Webhook",
		"invented", "simulator-only control endpoint"} {
		if !strings.Contains(string(doc), name) {
			t.Errorf("doc.go does not list %q", name)
		}
	}
}
