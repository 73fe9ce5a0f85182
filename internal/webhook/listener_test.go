package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/internal/fakeclock"
)

const testSecret = "whsec-test-0123456789"

var t0 = time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)

// rig is a listener served over real HTTP, its accepted events on a
// channel and its refusals counted.
type rig struct {
	l       *Listener
	srv     *httptest.Server
	clock   *fakeclock.Clock
	events  chan Event
	refused chan Refusal
}

func newRig(t *testing.T, tweak func(*Options)) *rig {
	t.Helper()
	r := &rig{clock: fakeclock.New(t0), events: make(chan Event, 64), refused: make(chan Refusal, 64)}
	o := Options{Secret: testSecret, Now: r.clock.Now, Handle: func(e Event) { r.events <- e },
		Refused: func(f Refusal) { r.refused <- f }}
	if tweak != nil {
		tweak(&o)
	}
	l, err := NewListener(o)
	if err != nil {
		t.Fatal(err)
	}
	r.l = l
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go l.Run(ctx)
	r.srv = httptest.NewServer(l)
	t.Cleanup(r.srv.Close)
	return r
}

// post sends body signed at ts with secret (sig overrides the signature
// when not empty; "-" sends none).
func (r *rig) post(t *testing.T, body []byte, ts time.Time, sig string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, r.srv.URL+"/any/path/at/all", bytes.NewReader(body))
	stamp := strconv.FormatInt(ts.Unix(), 10)
	req.Header.Set(HeaderTimestamp, stamp)
	switch sig {
	case "":
		req.Header.Set(HeaderSignature, Sign(testSecret, stamp, body))
	case "-":
	default:
		req.Header.Set(HeaderSignature, sig)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func (r *rig) next(t *testing.T) Event {
	t.Helper()
	select {
	case e := <-r.events:
		return e
	case <-time.After(10 * time.Second): // a failed test's cap, not a timing
		t.Fatal("no event was handled")
		return Event{}
	}
}

func TestVerify(t *testing.T) {
	body := []byte(`{"event":"x"}`)
	ts := strconv.FormatInt(t0.Unix(), 10)
	good := Sign(testSecret, ts, body)
	if !strings.HasPrefix(good, "v0=") || len(good) != 3+64 {
		t.Fatalf("signature %q is not v0= and 64 hex digits", good)
	}
	cases := []struct {
		name      string
		ts, sig   string
		body      []byte
		now       time.Time
		want      error
		wantExact bool
	}{
		{"good", ts, good, body, t0, nil, true},
		{"good at the edge of the window", ts, good, body, t0.Add(MaxSkew), nil, true},
		{"no signature", ts, "", body, t0, ErrNoSignature, true},
		{"no timestamp", "", good, body, t0, ErrNoTimestamp, true},
		{"other secret", ts, Sign("other", ts, body), body, t0, ErrBadSignature, true},
		{"body changed", ts, good, []byte(`{"event":"y"}`), t0, ErrBadSignature, true},
		{"timestamp changed", strconv.FormatInt(t0.Unix()+1, 10), good, body, t0, ErrBadSignature, true},
		{"upper-case hex", ts, "v0=" + strings.ToUpper(good[3:]), body, t0, ErrBadSignature, true},
		{"stale", ts, good, body, t0.Add(MaxSkew + time.Second), ErrStale, false},
		{"from the future", ts, good, body, t0.Add(-MaxSkew - time.Second), ErrStale, false},
		{"timestamp not a number", "soon", Sign(testSecret, "soon", body), body, t0, ErrBadTimestamp, true},
		{"timestamp absurd", "99999999999999999", Sign(testSecret, "99999999999999999", body), body, t0, ErrBadTimestamp, true},
	}
	for _, c := range cases {
		err := Verify(testSecret, c.ts, c.sig, c.body, c.now)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("%s: Verify = %v, want %v", c.name, err, c.want)
		}
	}
}

func TestEncryptToken(t *testing.T) {
	// HMAC-SHA256("secret", "abc"), computed apart.
	const want = "9946dad4e00e913fc8be8e5d3f7e110a4a9e832f83fb09c345285d78638d8a0e"
	if got := EncryptToken("secret", "abc"); got != want {
		t.Errorf("EncryptToken = %s, want %s", got, want)
	}
}

func TestChallengeAnswered(t *testing.T) {
	validated := make(chan struct{}, 1)
	r := newRig(t, func(o *Options) { o.Validated = func() { validated <- struct{}{} } })
	body := []byte(`{"event":"endpoint.url_validation","payload":{"plainToken":"qgg8vlvZRS6UYooatFL8Aw"},"event_ts":1654503849680}`)
	status, answer := r.post(t, body, t0, "")
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, answer)
	}
	var got map[string]string
	if err := json.Unmarshal(answer, &got); err != nil {
		t.Fatal(err)
	}
	if got["plainToken"] != "qgg8vlvZRS6UYooatFL8Aw" || got["encryptedToken"] != EncryptToken(testSecret, "qgg8vlvZRS6UYooatFL8Aw") {
		t.Errorf("answer %v", got)
	}
	<-validated
	// An unsigned challenge is refused like any delivery.
	if status, _ := r.post(t, body, t0, "-"); status != http.StatusUnauthorized {
		t.Errorf("unsigned challenge: status %d, want 401", status)
	}
	// A challenge without its token says so.
	if status, msg := r.post(t, []byte(`{"event":"endpoint.url_validation","payload":{}}`), t0, ""); status != http.StatusBadRequest ||
		!strings.Contains(string(msg), "plainToken") {
		t.Errorf("challenge without plainToken: %d %s", status, msg)
	}
}

func TestRefusals(t *testing.T) {
	r := newRig(t, func(o *Options) { o.MaxBody = 1024 })
	body := []byte(`{"event":"meeting.started","payload":{}}`)
	for _, c := range []struct {
		name   string
		body   []byte
		ts     time.Time
		sig    string
		status int
		reason string
	}{
		{"no signature", body, t0, "-", 401, "no x-zm-signature"},
		{"bad signature", body, t0, "v0=00", 401, "does not match"},
		{"stale", body, t0.Add(-6 * time.Minute), "", 401, "more than 5 minutes"},
		{"not JSON", []byte("hello"), t0, "", 400, "not a JSON object"},
		{"no event name", []byte(`{"payload":{}}`), t0, "", 400, "not a JSON object"},
		{"too big", bytes.Repeat([]byte("x"), 2048), t0, "", 413, "over 1024 bytes"},
	} {
		status, _ := r.post(t, c.body, c.ts, c.sig)
		if status != c.status {
			t.Errorf("%s: status %d, want %d", c.name, status, c.status)
			continue
		}
		if f := <-r.refused; !strings.Contains(f.Reason, c.reason) {
			t.Errorf("%s: reason %q, want it to say %q", c.name, f.Reason, c.reason)
		}
	}
	resp, err := http.Get(r.srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d, want 405", resp.StatusCode)
	}
	select {
	case e := <-r.events:
		t.Errorf("a refused delivery was handled: %+v", e)
	default:
	}
}

func TestReplayRefused(t *testing.T) {
	r := newRig(t, nil)
	body := []byte(`{"event":"session.user_data","payload":{"object":{"rc_reason":"x"}}}`)
	if status, _ := r.post(t, body, t0, ""); status != http.StatusOK {
		t.Fatalf("first delivery: %d", status)
	}
	r.next(t)
	if status, _ := r.post(t, body, t0, ""); status != http.StatusConflict {
		t.Errorf("replay: %d, want 409", status)
	}
	if f := <-r.refused; !strings.Contains(f.Reason, "replay") {
		t.Errorf("replay refusal %q", f.Reason)
	}
	// The same event sent at another time is another delivery.
	if status, _ := r.post(t, body, t0.Add(time.Second), ""); status != http.StatusOK {
		t.Errorf("same body, new timestamp: %d", status)
	}
	// Past the window the replay is refused as stale, and forgotten.
	r.clock.Advance(MaxSkew + 2*time.Second)
	if status, _ := r.post(t, body, t0, ""); status != http.StatusUnauthorized {
		t.Errorf("old replay: %d, want 401 (stale)", status)
	}
}

func TestReplayMemoryIsBounded(t *testing.T) {
	g := newReplayGuard(2)
	if g.admit("a", t0, t0) != nil || g.admit("b", t0, t0) != nil {
		t.Fatal("first two refused")
	}
	if err := g.admit("c", t0, t0); !errors.Is(err, ErrReplayMemoryFull) {
		t.Errorf("third within the window: %v, want ErrReplayMemoryFull", err)
	}
	later := t0.Add(MaxSkew + 2*time.Second)
	if err := g.admit("c", later, later); err != nil {
		t.Errorf("after the window: %v (old entries should be dropped)", err)
	}
}

func TestBusyRefusesInsteadOfWaiting(t *testing.T) {
	r := newRig(t, func(o *Options) { o.MaxConcurrent = 1; o.Queue = 1 })
	// Every handler slot taken: the next request is refused at once.
	r.l.sem <- struct{}{}
	if status, _ := r.post(t, []byte(`{"event":"a"}`), t0, ""); status != http.StatusServiceUnavailable {
		t.Errorf("all slots busy: %d, want 503", status)
	}
	<-r.l.sem
	<-r.refused
	// The queue full (Run is not reading fast enough): refused, and not
	// remembered as seen, so the provider's retry is taken.
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	r2 := newRig(t, func(o *Options) { o.Queue = 1; o.Handle = func(Event) { <-release } })
	body1 := []byte(`{"event":"a"}`)
	r2.l.queue <- Event{} // Run takes this one and waits in Handle...
	r2.l.queue <- Event{} // ...so this one, once it goes in, fills the queue
	status, _ := r2.post(t, body1, t0, "")
	if status != http.StatusServiceUnavailable {
		t.Fatalf("queue full: %d, want 503", status)
	}
	if !strings.Contains((<-r2.refused).Reason, "busy") {
		t.Error("the refusal does not say busy")
	}
	if err := r2.l.replay.admit(Sign(testSecret, strconv.FormatInt(t0.Unix(), 10), body1), t0, t0); err != nil {
		t.Errorf("a delivery refused as busy was remembered: %v", err)
	}
}

func TestEventsTyped(t *testing.T) {
	r := newRig(t, nil)
	for _, c := range []struct {
		body   string
		named  bool
		fields map[string]string
	}{
		{`{"event":"session.recording_completed","payload":{"object":{"external_storage_url":"https://media.example/a.mp3"}}}`,
			true, map[string]string{FieldExternalStorageURL: "https://media.example/a.mp3"}},
		{`{"event":"meeting.participant_data","payload":{"object":{"participant":{"vendor_thin_client_plugin_version":"6.2.1","rc_reason":7}}}}`,
			true, map[string]string{FieldThinClientPluginVersion: "6.2.1", FieldRCReason: "7"}},
		{`{"event":"session.user_data_summary","payload":{"list":[{"a":1},{"rc_reason":"dropped"}]}}`,
			true, map[string]string{FieldRCReason: "dropped"}},
		{`{"event":"meeting.participant_phone_callout_failed","payload":{}}`, true, nil},
		{`{"event":"meeting.started","payload":{"object":{"rc_reason":"not read"}}}`, false, nil},
	} {
		if status, msg := r.post(t, []byte(c.body), t0, ""); status != http.StatusOK {
			t.Fatalf("%s: %d %s", c.body, status, msg)
		}
		e := r.next(t)
		if e.Named != c.named || len(e.Fields) != len(c.fields) || string(e.Body) != c.body {
			t.Errorf("%s: named %v fields %v body %s", c.body, e.Named, e.Fields, e.Body)
		}
		for k, v := range c.fields {
			if e.Fields[k] != v {
				t.Errorf("%s: %s = %q, want %q", c.body, k, e.Fields[k], v)
			}
		}
	}
}

func TestWordsAreSanitised(t *testing.T) {
	e := newEvent(envelope{Event: "session.recording_completed\x1b]0;PWNED\x07",
		Payload: json.RawMessage(`{}`)}, []byte("{}"), "", t0, t0)
	if strings.ContainsRune(e.Words(), 0x1b) {
		t.Errorf("words keep an escape: %q", e.Words())
	}
	e = newEvent(envelope{Event: EventRecordingCompleted,
		Payload: json.RawMessage(`{"external_storage_url":"https://x/\u009b31m\u202e.mp3"}`)}, []byte("{}"), "", t0, t0)
	if w := e.Words(); strings.ContainsAny(w, "\u009b\u202e") || !strings.Contains(w, "external_storage_url=https://x/") {
		t.Errorf("words %q", w)
	}
}

// TestDrainHandlesWhatWasAccepted: events accepted but not yet handled
// when the listener stops are handled, not dropped.
func TestDrainHandlesWhatWasAccepted(t *testing.T) {
	var handled []string
	l, err := NewListener(Options{Secret: testSecret, Handle: func(e Event) { handled = append(handled, e.Name) }})
	if err != nil {
		t.Fatal(err)
	}
	l.queue <- Event{Name: "a"}
	l.queue <- Event{Name: "b"}
	l.Drain()
	if len(handled) != 2 || handled[0] != "a" || handled[1] != "b" {
		t.Errorf("handled %v", handled)
	}
}
