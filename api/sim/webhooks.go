package sim

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evdesk/evdesk/api"
)

// The simulator delivers the webhook events the change log names (its
// section 6) to one endpoint, as the provider would: it validates the
// endpoint URL first with the endpoint.url_validation challenge, then
// signs every delivery (x-zm-signature: "v0=" + hex HMAC-SHA256 of
// "v0:{x-zm-request-timestamp}:{body}") and retries a delivery the
// endpoint does not take. The payloads are its own invention (doc.go).
// Its signing is written here, apart from the client's verifier, so the
// two can catch each other.

// Webhook event names the simulator delivers on its timer, in turn: every
// event the change log names.
var WebhookEvents = []string{
	"meeting.participant_phone_callout_failed",
	"meeting.participant_data",
	"webinar.participant_data",
	"meeting.participant_data_summary",
	"webinar.participant_data_summary",
	"session.user_data",
	"session.user_data_summary",
	"session.recording_completed",
}

// WebhookFirePath is the simulator-only control endpoint that delivers
// events at once: POST, ?event=NAME (repeatable; default every named
// event), or ?replay=1 to send the last delivery again byte for byte.
const WebhookFirePath = "/__sim/webhooks/fire"

// WebhookOptions configure deliveries; the zero value delivers nothing.
type WebhookOptions struct {
	// URL is the endpoint; Secret its secret token.
	URL, Secret string
	// Every delivers the next event on a timer; 0 delivers only on the
	// fire endpoint.
	Every time.Duration
	// Retries are the waits before each new try of a failed delivery
	// (default 1s, 5s, 25s).
	Retries []time.Duration
	// Client sends the deliveries (default: a 3-second limit, as the
	// provider waits, and no redirects).
	Client *http.Client
}

// Timestamp header and signature of a delivery (spelled as the provider does).
const (
	webhookTimestampHeader = "x-zm-request-timestamp"
	webhookSignatureHeader = "x-zm-signature"
	webhookValidationEvent = "endpoint.url_validation"
	webhookAnswerTimeout   = 3 * time.Second
	maxPendingRetries      = 64
)

// CheckWebhookURL says what is wrong with an endpoint URL, or nil.
func CheckWebhookURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL such as http://127.0.0.1:8976/webhooks", s)
	}
	if u.User != nil {
		return errors.New("the webhook URL must not hold a user name or password")
	}
	return nil
}

// webhooks is the sender's state.
type webhooks struct {
	o      WebhookOptions
	now    func() time.Time
	client *http.Client
	// life ends when the simulator closes: the timer and retries stop.
	life context.Context

	mu        sync.Mutex
	validated bool
	next      int           // the timer's next event
	seq       int           // numbers deliveries (ids in payloads)
	last      *sentDelivery // for ?replay
	pending   chan struct{} // bounds retries waiting
}

type sentDelivery struct {
	event     string
	body      []byte
	timestamp string
	signature string
}

// DeliveryResult is one delivery's outcome, as the fire endpoint reports it.
type DeliveryResult struct {
	Event  string `json:"event"`
	Status int    `json:"status,omitempty"`
	Error  string `json:"error,omitempty"`
	// Retrying is true when a failed delivery will be tried again.
	Retrying bool `json:"retrying,omitempty"`
}

func newWebhooks(o WebhookOptions, now func() time.Time, stop <-chan struct{}) *webhooks {
	if o.Retries == nil {
		o.Retries = []time.Duration{time.Second, 5 * time.Second, 25 * time.Second}
	}
	c := o.Client
	if c == nil {
		c = &http.Client{Timeout: webhookAnswerTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	life, cancel := context.WithCancel(context.Background())
	go func() { <-stop; cancel() }()
	return &webhooks{o: o, now: now, client: c, life: life, pending: make(chan struct{}, maxPendingRetries)}
}

func (s *Sim) webhookRoutes() {
	s.mux.HandleFunc("POST "+WebhookFirePath, s.fireWebhooks)
}

// isSimControlPath reports whether p is one of the simulator's own
// control endpoints (no access token: they are test tools).
func isSimControlPath(p string) bool { return strings.HasPrefix(p, "/__sim/") }

// RunWebhooks validates the endpoint (trying again with backoff until it
// answers), then delivers the next event every Options.Webhook.Every until
// ctx ends. Start runs it when a webhook URL is set.
func (s *Sim) RunWebhooks(ctx context.Context) {
	w := s.hooks.Load()
	if w == nil {
		return
	}
	for wait := time.Second; ; wait = min(2*wait, 30*time.Second) {
		if w.validate(ctx) == nil {
			break
		}
		if api.SleepContext(ctx, wait) != nil {
			return
		}
	}
	if w.o.Every <= 0 {
		return
	}
	// The first event goes at once, the rest on the timer; the recording
	// (the event evdesk acts on) comes first.
	w.mu.Lock()
	w.next = len(WebhookEvents) - 1
	w.mu.Unlock()
	t := time.NewTicker(w.o.Every)
	defer t.Stop()
	for {
		w.mu.Lock()
		name := WebhookEvents[w.next%len(WebhookEvents)]
		w.next++
		w.mu.Unlock()
		w.deliver(ctx, name)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// DeliverWebhooks makes the simulator deliver to o.URL from now on, on
// its timer, until it closes (the demo's listener starts after it).
func (s *Sim) DeliverWebhooks(o WebhookOptions) {
	h := newWebhooks(o, s.now, s.stop)
	s.hooks.Store(h)
	go s.RunWebhooks(h.life)
}

// DemoWebhookSecret is the secret token `evdesk --demo webhooks listen`
// and the embedded simulator share.
const DemoWebhookSecret = "evdesk-demo-webhook-secret"

// fireWebhooks delivers events now: the simulator-only control endpoint.
func (s *Sim) fireWebhooks(w http.ResponseWriter, r *http.Request) {
	hooks := s.hooks.Load()
	if hooks == nil {
		writeError(w, errf(http.StatusConflict, 0, "No webhook URL is set: start the simulator with --webhook-url and --webhook-secret."))
		return
	}
	if err := hooks.validate(r.Context()); err != nil {
		writeError(w, errf(http.StatusConflict, 0, "The webhook URL is not validated: %v", err))
		return
	}
	q := r.URL.Query()
	var out []DeliveryResult
	if q.Get("replay") != "" {
		out = append(out, hooks.replay(r.Context()))
	} else {
		names := q["event"]
		if len(names) == 0 {
			names = WebhookEvents
		}
		for _, n := range names {
			if n == "" || len(n) > 200 {
				writeError(w, errf(http.StatusBadRequest, CodeValidation, "event must be an event name of at most 200 bytes."))
				return
			}
		}
		for _, n := range names {
			out = append(out, hooks.deliver(r.Context(), n))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"deliveries": out})
}

// validate sends the URL validation challenge once the endpoint has not
// yet answered it right; the endpoint must echo plainToken and its HMAC.
func (w *webhooks) validate(ctx context.Context) error {
	w.mu.Lock()
	done := w.validated
	w.mu.Unlock()
	if done {
		return nil
	}
	plain := randomToken("plain")
	body, _ := json.Marshal(map[string]any{"event": webhookValidationEvent,
		"event_ts": w.now().UnixMilli(), "payload": map[string]string{"plainToken": plain}})
	resp, err := w.post(ctx, body, w.sign(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the endpoint answered the validation challenge with %s", resp.Status)
	}
	var got struct {
		PlainToken     string `json:"plainToken"`
		EncryptedToken string `json:"encryptedToken"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&got); err != nil {
		return fmt.Errorf("the endpoint's answer to the validation challenge is not JSON: %v", err)
	}
	m := hmac.New(sha256.New, []byte(w.o.Secret))
	m.Write([]byte(plain))
	if got.PlainToken != plain || !hmac.Equal([]byte(got.EncryptedToken), []byte(hex.EncodeToString(m.Sum(nil)))) {
		return errors.New("the endpoint's encryptedToken is not the HMAC-SHA256 of plainToken under the secret token")
	}
	w.mu.Lock()
	w.validated = true
	w.mu.Unlock()
	return nil
}

// deliver signs and posts one event; a failure is retried in the
// background after each of the Retries waits.
func (w *webhooks) deliver(ctx context.Context, name string) DeliveryResult {
	w.mu.Lock()
	w.seq++
	seq := w.seq
	w.mu.Unlock()
	body := webhookBody(name, seq, w.now())
	res := w.send(ctx, name, body)
	if res.Error == "" || len(w.o.Retries) == 0 {
		return res
	}
	select {
	case w.pending <- struct{}{}:
		res.Retrying = true
		go func() {
			defer func() { <-w.pending }()
			for _, d := range w.o.Retries {
				if api.SleepContext(w.life, d) != nil {
					return
				}
				// A new try is a new request: a fresh timestamp and signature.
				if w.send(w.life, name, body).Error == "" {
					return
				}
			}
		}()
	default: // too many retries waiting: this one is given up
	}
	return res
}

// send posts body once, signed now.
func (w *webhooks) send(ctx context.Context, name string, body []byte) DeliveryResult {
	d := w.sign(body)
	d.event = name
	w.mu.Lock()
	w.last = &d
	w.mu.Unlock()
	return w.result(ctx, d)
}

// replay sends the last delivery again, timestamp and signature unchanged.
func (w *webhooks) replay(ctx context.Context) DeliveryResult {
	w.mu.Lock()
	last := w.last
	w.mu.Unlock()
	if last == nil {
		return DeliveryResult{Error: "nothing was delivered yet"}
	}
	return w.result(ctx, *last)
}

func (w *webhooks) result(ctx context.Context, d sentDelivery) DeliveryResult {
	res := DeliveryResult{Event: d.event}
	resp, err := w.post(ctx, d.body, d)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	res.Status = resp.StatusCode
	if resp.StatusCode/100 != 2 {
		res.Error = "the endpoint answered " + resp.Status
	}
	return res
}

// sign stamps body with the current time and its signature.
func (w *webhooks) sign(body []byte) sentDelivery {
	ts := strconv.FormatInt(w.now().Unix(), 10)
	m := hmac.New(sha256.New, []byte(w.o.Secret))
	fmt.Fprintf(m, "v0:%s:", ts)
	m.Write(body)
	return sentDelivery{body: body, timestamp: ts, signature: "v0=" + hex.EncodeToString(m.Sum(nil))}
}

func (w *webhooks) post(ctx context.Context, body []byte, d sentDelivery) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.o.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "evdesk-sim-webhooks")
	req.Header.Set(webhookTimestampHeader, d.timestamp)
	req.Header.Set(webhookSignatureHeader, d.signature)
	return w.client.Do(req)
}

// webhookBody is the simulator's own payload for an event: an envelope
// {event, event_ts, payload: {account_id, object}} whose object carries
// the fields the change log names for that event.
func webhookBody(name string, seq int, now time.Time) []byte {
	id := fmt.Sprintf("sim-%06d", seq)
	object := map[string]any{"id": id, "uuid": makeID("webhook", id), "topic": "Northwind Partner Summit"}
	participant := map[string]any{"user_id": "16778240", "user_name": DemoHostName, "email": DemoHostEmail}
	switch name {
	case "meeting.participant_phone_callout_failed":
		participant["phone_number"] = "+15550100"
		participant["reason_type"] = "busy"
		object["participant"] = participant
	case "meeting.participant_data", "webinar.participant_data",
		"meeting.participant_data_summary", "webinar.participant_data_summary":
		participant["vendor_thin_client_plugin_version"] = "6.2.1"
		participant["rc_reason"] = "network"
		object["participant"] = participant
	case "session.user_data", "session.user_data_summary":
		object["session_name"] = "Hybrid events panel"
		object["user"] = map[string]any{"id": "16778240", "name": DemoHostName, "rc_reason": "network"}
	case "session.recording_completed":
		object["session_name"] = "Keynote: welcome"
		object["external_storage_url"] = SampleAudioURLs[(seq-1)%len(SampleAudioURLs)]
	}
	b, _ := json.Marshal(map[string]any{"event": name, "event_ts": now.UnixMilli(),
		"payload": map[string]any{"account_id": DemoAccountID, "object": object}})
	return b
}

// Fire asks the simulator at root (scheme://host:port, its AuthURL) to
// deliver now through its control endpoint; query is "", "?event=NAME" or
// "?replay=1". It returns the answer's status and the deliveries made.
func Fire(root, query string) (int, []DeliveryResult, error) {
	resp, err := http.Post(root+WebhookFirePath+query, "", nil)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Deliveries []DeliveryResult `json:"deliveries"`
	}
	if resp.StatusCode == http.StatusOK {
		err = json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&out)
	}
	return resp.StatusCode, out.Deliveries, err
}
