package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
)

// simFor serves a simulator that delivers to url with secret.
func simFor(t *testing.T, url, secret string, retries []time.Duration) *httptest.Server {
	t.Helper()
	s := sim.New(sim.Options{Webhook: sim.WebhookOptions{URL: url, Secret: secret, Retries: retries}})
	t.Cleanup(s.Close)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv
}

// fire asks the simulator to deliver now; query picks the events.
func fire(t *testing.T, simURL, query string) (int, []sim.DeliveryResult) {
	t.Helper()
	status, res, err := sim.Fire(simURL, query)
	if err != nil {
		t.Fatal(err)
	}
	return status, res
}

// TestListenerTakesTheSimulatorsDeliveries: the simulator validates the
// endpoint, then every event the change log names arrives typed with its
// new fields; sending the last one again is refused as a replay.
func TestListenerTakesTheSimulatorsDeliveries(t *testing.T) {
	var validations atomic.Int32
	forwarded := make(chan *http.Request, 64)
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(strings.NewReader(string(b)))
		forwarded <- req
	}))
	defer svc.Close()
	fwdErrs := make(chan error, 64)
	fwd := NewForwarder(svc.URL, func(ev Event, err error) {
		if err != nil {
			select {
			case fwdErrs <- fmt.Errorf("forward %s: %w", ev.Name, err):
			default:
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go fwd.Run(ctx)
	events := make(chan Event, 64)
	r := newRig(t, func(o *Options) {
		o.Now = time.Now // the simulator signs with the wall clock
		o.Validated = func() { validations.Add(1) }
		o.Handle = func(e Event) { events <- e; fwd.Send(e) }
	})
	r.events = events
	s := simFor(t, r.srv.URL+"/hooks/evdesk", testSecret, []time.Duration{})
	status, res := fire(t, s.URL, "")
	if status != http.StatusOK || len(res) != len(NamedEvents) {
		t.Fatalf("fire: %d %+v", status, res)
	}
	if validations.Load() != 1 {
		t.Errorf("%d validation challenges answered, want 1 before the first delivery", validations.Load())
	}
	var got []string
	for range res {
		e := r.next(t)
		got = append(got, e.Name)
		n, ok := LookupNamed(e.Name)
		if !ok || !e.Named || e.Change != n.Change {
			t.Errorf("%s: not typed as a named event: %+v", e.Name, e)
		}
		for _, f := range n.Fields {
			if e.Fields[f] == "" {
				t.Errorf("%s: new field %s not found in %s", e.Name, f, e.Body)
			}
		}
	}
	for _, n := range NamedEvents {
		if !slices.Contains(got, n.Event) {
			t.Errorf("%s was not delivered", n.Event)
		}
	}
	// Each went on to the local service, verifiable there.
	for range NamedEvents {
		select {
		case req := <-forwarded:
			b, _ := io.ReadAll(req.Body)
			if err := Verify(testSecret, req.Header.Get(HeaderTimestamp), req.Header.Get(HeaderSignature), b, time.Now()); err != nil {
				t.Errorf("forwarded %s: %v", b, err)
			}
		case err := <-fwdErrs:
			t.Fatal(err)
		}
	}
	if _, res := fire(t, s.URL, "?replay=1"); len(res) != 1 || res[0].Status != http.StatusConflict {
		t.Errorf("replay: %+v, want refused with 409", res)
	}
	// An event the change log does not name passes through whole.
	if _, res := fire(t, s.URL, "?event=meeting.started"); len(res) != 1 || res[0].Status != http.StatusOK {
		t.Fatalf("unnamed event: %+v", res)
	}
	if e := r.next(t); e.Named || e.Name != "meeting.started" || !json.Valid(e.Body) {
		t.Errorf("unnamed event: %+v", e)
	}
}

// TestSimulatorRefusesAnEndpointWithAnotherSecret: the validation
// challenge fails, so nothing is delivered.
func TestSimulatorRefusesAnEndpointWithAnotherSecret(t *testing.T) {
	r := newRig(t, func(o *Options) { o.Now = time.Now })
	s := simFor(t, r.srv.URL, "another-secret", nil)
	status, _ := fire(t, s.URL, "")
	if status != http.StatusConflict {
		t.Errorf("fire with a wrong secret: %d, want 409 (URL not validated)", status)
	}
	select {
	case e := <-r.events:
		t.Errorf("an event was accepted: %+v", e)
	default:
	}
}

// TestSimulatorRetriesAFailedDelivery: the endpoint refuses the first
// try; the retry is signed anew and taken.
func TestSimulatorRetriesAFailedDelivery(t *testing.T) {
	r := newRig(t, func(o *Options) { o.Now = time.Now })
	var deliveries atomic.Int32
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		if !strings.Contains(string(body), ValidationEvent) && deliveries.Add(1) == 1 {
			http.Error(w, "down for a moment", http.StatusServiceUnavailable)
			return
		}
		fwd, _ := http.NewRequest(http.MethodPost, r.srv.URL, strings.NewReader(string(body)))
		fwd.Header = req.Header.Clone()
		resp, err := http.DefaultClient.Do(fwd)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
	}))
	defer flaky.Close()
	s := simFor(t, flaky.URL, testSecret, []time.Duration{time.Millisecond})
	_, res := fire(t, s.URL, "?event="+EventRecordingCompleted)
	if len(res) != 1 || res[0].Status != http.StatusServiceUnavailable || !res[0].Retrying {
		t.Fatalf("first try: %+v, want refused and retrying", res)
	}
	if e := r.next(t); e.Name != EventRecordingCompleted || e.ExternalStorageURL() == "" {
		t.Errorf("retried event: %+v", e)
	}
}

// TestForwarder: a verified event goes on to a local service with its
// body and the headers it can verify.
func TestForwarder(t *testing.T) {
	got := make(chan *http.Request, 1)
	bodies := make(chan []byte, 1)
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		got <- req
		bodies <- b
	}))
	defer svc.Close()
	outcome := make(chan error, 1)
	f := NewForwarder(svc.URL+"/local", func(_ Event, err error) { outcome <- err })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go f.Run(ctx)

	r := newRig(t, func(o *Options) { o.Handle = f.Send })
	body := []byte(`{"event":"session.recording_completed","payload":{"object":{"external_storage_url":"https://m/a.mp3"}}}`)
	if status, _ := r.post(t, body, t0, ""); status != http.StatusOK {
		t.Fatal(status)
	}
	if err := <-outcome; err != nil {
		t.Fatal(err)
	}
	req, b := <-got, <-bodies
	if string(b) != string(body) || req.URL.Path != "/local" {
		t.Errorf("forwarded %s to %s", b, req.URL.Path)
	}
	if err := Verify(testSecret, req.Header.Get(HeaderTimestamp), req.Header.Get(HeaderSignature), b, t0); err != nil {
		t.Errorf("the forwarded delivery does not verify: %v", err)
	}
}
