package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMaxResponseMBReachesTheClient checks the wiring of the profile's
// answer-size cap: a 3 MiB listing fails under EVDESK_MAX_RESPONSE_MB=1,
// naming the endpoint and the cap, and passes under 8.
func TestMaxResponseMBReachesTheClient(t *testing.T) {
	t.Parallel()
	body := `{"events":[{"event_id":"e1","name":"Big","description":"` + strings.Repeat("a", 3<<19) + `"}],"total_records":1}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	env := append(isolatedEnv(t), "EVDESK_BASE_URL="+srv.URL+"/v2", "EVDESK_TOKEN=tok")
	out, err := runCLI(append(env, "EVDESK_MAX_RESPONSE_MB=1"), "events", "list")
	if err == nil || !strings.Contains(string(out), "the answer from /vendor_events/events is larger than 1 MiB") {
		t.Fatalf("cap 1: err=%v out=%.300s", err, out)
	}
	out, err = runCLI(append(env, "EVDESK_MAX_RESPONSE_MB=2"), "events", "list")
	if err != nil || !strings.Contains(string(out), "Big") {
		t.Fatalf("cap 2: err=%v out=%.300s", err, out)
	}
}
