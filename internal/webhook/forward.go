package webhook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Forwarder posts each verified event on to a local service, as stripe
// listen's --forward-to does: the raw body, with the delivery's timestamp
// and signature headers so the service can verify it itself. It works on
// its own goroutine with a bounded queue, so a slow service never holds up
// the listener; what it cannot take is dropped and reported.
type Forwarder struct {
	url    string
	client *http.Client
	queue  chan Event
	report func(Event, error)
}

// forwardTimeout bounds one forward; forwardQueue is how many events may
// wait for the service.
const (
	forwardTimeout = 10 * time.Second
	forwardQueue   = 256
)

// NewForwarder forwards to url; report is told each outcome (nil error:
// delivered).
func NewForwarder(url string, report func(Event, error)) *Forwarder {
	return &Forwarder{url: url, report: report, queue: make(chan Event, forwardQueue),
		client: &http.Client{Timeout: forwardTimeout, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // the body goes to the address given, nowhere else
		}}}
}

// Send queues ev; when the queue is full it is reported and dropped.
func (f *Forwarder) Send(ev Event) {
	select {
	case f.queue <- ev:
	default:
		f.report(ev, fmt.Errorf("not forwarded: %d events already wait for %s", forwardQueue, f.url))
	}
}

// Run forwards queued events until ctx ends.
func (f *Forwarder) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-f.queue:
			f.report(ev, f.post(ctx, ev))
		}
	}
}

func (f *Forwarder) post(ctx context.Context, ev Event) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.url, bytes.NewReader(ev.Body))
	if err != nil {
		return err
	}
	ts := strconv.FormatInt(ev.Timestamp.Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(HeaderTimestamp, ts)
	req.Header.Set(HeaderSignature, ev.signature)
	resp, err := f.client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %s", f.url, resp.Status)
	}
	return nil
}
