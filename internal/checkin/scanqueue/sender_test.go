package scanqueue

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
)

// fakeAPI answers check-ins by script, recording each call.
type fakeAPI struct {
	mu     sync.Mutex
	calls  [][]string
	answer func(call int, emails []string) ([]api.BatchError, error)
}

func (f *fakeAPI) checkIn(ctx context.Context, eventID, sessionID string, emails []string, source string) ([]api.BatchError, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.calls = append(f.calls, slices.Clone(emails))
	n := len(f.calls)
	f.mu.Unlock()
	if f.answer == nil {
		return nil, nil
	}
	return f.answer(n, emails)
}

func (f *fakeAPI) sizes() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []int
	for _, c := range f.calls {
		out = append(out, len(c))
	}
	return out
}

// sleepLog records requested waits and returns at once.
type sleepLog struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *sleepLog) sleep(ctx context.Context, d time.Duration) error {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
	return ctx.Err()
}

func (l *sleepLog) waits() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.d)
}

func guests(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("guest%04d@example.org", i)
	}
	return out
}

func TestSenderCoalescesBatchesOf300(t *testing.T) {
	j := mustOpen(t, t.TempDir(), testEvent, "")
	if _, err := j.ScanMany(guests(1000), "Desk-1"); err != nil {
		t.Fatal(err)
	}
	var f fakeAPI
	s, err := NewSender(j, SenderOptions{CheckIn: f.checkIn})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	flush(t, s)
	if got := f.sizes(); !slices.Equal(got, []int{300, 300, 300, 100}) {
		t.Fatalf("batches %v", got)
	}
	var sent []string
	for _, c := range f.calls {
		sent = append(sent, c...)
	}
	if !slices.Equal(sent, guests(1000)) {
		t.Fatal("not every scan was sent once, in order")
	}
	if c := j.Counts(); c.CheckedIn != 1000 || c.Pending != 0 {
		t.Fatalf("counts %+v", c)
	}
}

func TestSenderBatchesShareASource(t *testing.T) {
	j := mustOpen(t, t.TempDir(), testEvent, "")
	j.ScanMany(guests(3)[:2], "Door A")
	j.Scan(guests(3)[2], "Door B")
	var mu sync.Mutex
	var sources []string
	s, _ := NewSender(j, SenderOptions{CheckIn: func(_ context.Context, _, _ string, emails []string, source string) ([]api.BatchError, error) {
		mu.Lock()
		sources = append(sources, fmt.Sprintf("%s:%d", source, len(emails)))
		mu.Unlock()
		return nil, nil
	}})
	defer s.Close()
	flush(t, s)
	if !slices.Equal(sources, []string{"Door A:2", "Door B:1"}) {
		t.Fatalf("requests %v", sources)
	}
}

func TestSenderBacksOffAndHonoursRetryAfter(t *testing.T) {
	j := mustOpen(t, t.TempDir(), testEvent, "")
	j.Scan("ana@example.org", "d")
	errs := []error{
		errors.New("dial tcp 127.0.0.1:9: connect: connection refused"),
		&api.Error{Status: 503},
		&api.Error{Status: 429, RetryAfter: 7 * time.Second},
		&api.Error{Status: 429, RetryAfter: 9_000_000_000 * time.Second}, // 285 years: capped
		errors.New("EOF"), errors.New("EOF"), errors.New("EOF"), errors.New("EOF"), errors.New("EOF"),
	}
	f := fakeAPI{answer: func(n int, _ []string) ([]api.BatchError, error) {
		if n <= len(errs) {
			return nil, errs[n-1]
		}
		return nil, nil
	}}
	// Each wait hands over to the test, which reads the status the
	// failure left, then lets the sender go on.
	waits := make(chan time.Duration)
	proceed := make(chan struct{})
	clk := newFakeClock()
	feed := newStatusFeed()
	s, _ := NewSender(j, SenderOptions{CheckIn: f.checkIn, Now: clk.Now, Jitter: func() float64 { return 1 }, OnStatus: feed.publish,
		BaseDelay: time.Second, MaxDelay: 8 * time.Second, MaxRetryAfter: time.Minute,
		Sleep: func(ctx context.Context, d time.Duration) error {
			waits <- d
			<-proceed
			return ctx.Err()
		}})
	defer s.Close()
	for i, want := range []struct {
		wait   time.Duration
		state  State
		online bool
	}{
		{time.Second, Offline, false}, {2 * time.Second, Offline, false}, {7 * time.Second, Throttled, true},
		{time.Minute, Throttled, true}, {8 * time.Second, Offline, false}, {8 * time.Second, Offline, false}, {8 * time.Second, Offline, false},
		{8 * time.Second, Offline, false}, {8 * time.Second, Offline, false},
	} {
		d := <-waits
		st := s.Status()
		if d != want.wait || st.State != want.state || st.Online != want.online || st.Failures != i+1 ||
			st.LastError != errs[i] || !st.RetryAt.Equal(clk.Now().Add(d)) || st.Pending != 1 {
			t.Fatalf("failure %d: waited %v with status %+v; want %v, %v", i+1, d, st, want.wait, want.state)
		}
		proceed <- struct{}{}
	}
	st := feed.waitFor(t, "idle after recovery", func(st Status) bool { return st.State == Idle && st.CheckedIn == 1 })
	if !st.Online || st.LastError != nil || st.Failures != 0 || !st.LastSent.Equal(clk.Now()) || st.CheckedIn != 1 {
		t.Fatalf("after recovery %+v", st)
	}
}

func TestSenderRecordsRefusalsAndIsolatesABadScan(t *testing.T) {
	j := mustOpen(t, t.TempDir(), testEvent, "")
	list := append(guests(10), "ghost@example.org", "poison@example.org")
	j.ScanMany(list, "d")
	f := fakeAPI{answer: func(_ int, emails []string) ([]api.BatchError, error) {
		if slices.Contains(emails, "poison@example.org") { // the documented shape: no attendee named
			return nil, &api.Error{Status: 400, Message: "is blocked."}
		}
		if slices.Contains(emails, "ghost@example.org") {
			return []api.BatchError{{Email: "ghost@example.org", Message: "Attendee is not registered for this event."}}, nil
		}
		return nil, nil
	}}
	acked := make(chan []Scan, 100)
	var sl sleepLog
	s, _ := NewSender(j, SenderOptions{CheckIn: f.checkIn, Sleep: sl.sleep, OnAck: func(sc []Scan) { acked <- sc }})
	flush(t, s)
	s.Close()
	if c := j.Counts(); c.CheckedIn != 10 || c.Rejected != 2 {
		t.Fatalf("counts %+v", c)
	}
	if sc, _ := j.Lookup("poison@example.org"); sc.Outcome != Rejected || sc.Message != "is blocked." {
		t.Errorf("poison %+v", sc)
	}
	if sc, _ := j.Lookup("ghost@example.org"); sc.Outcome != Rejected || !strings.Contains(sc.Message, "not registered") {
		t.Errorf("ghost %+v", sc)
	}
	if len(sl.waits()) != 0 {
		t.Errorf("refusals were retried: %v", sl.waits())
	}
	// Callbacks run on their own goroutine; Close does not wait for them,
	// but they are delivered.
	deadline := time.After(10 * time.Second)
	for n := 0; n < 12; {
		select {
		case sc := <-acked:
			n += len(sc)
		case <-deadline:
			t.Fatalf("%d scans reported acked", n)
		}
	}
}

func TestSenderBlockedKeepsScansUntilFixed(t *testing.T) {
	j := mustOpen(t, t.TempDir(), testEvent, "Ss1")
	j.Scan("ana@example.org", "d")
	var mu sync.Mutex
	fixed := false
	f := fakeAPI{answer: func(int, []string) ([]api.BatchError, error) {
		mu.Lock()
		defer mu.Unlock()
		if !fixed {
			return nil, &api.Error{Status: 404, Code: api.CodeSessionNotFound, Message: "Session not found."}
		}
		return nil, nil
	}}
	waits := make(chan time.Duration, 10)
	feed := newStatusFeed()
	s, _ := NewSender(j, SenderOptions{CheckIn: f.checkIn, OnStatus: feed.publish, MaxDelay: time.Minute,
		Sleep: func(ctx context.Context, d time.Duration) error {
			waits <- d
			<-ctx.Done() // until woken or closed
			return ctx.Err()
		}})
	defer s.Close()
	st := feed.waitFor(t, "blocked", func(st Status) bool { return st.State == Blocked })
	if !api.IsCode(st.LastError, api.CodeSessionNotFound) || st.Pending != 1 || !st.Online {
		t.Fatalf("blocked status %+v", st)
	}
	if d := <-waits; d < 30*time.Second {
		t.Errorf("blocked retries after %v; want the long wait", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Flush(ctx); err == nil || !strings.Contains(err.Error(), "1 scan still pending") || !strings.Contains(err.Error(), "blocked") {
		t.Fatalf("flush while blocked: %v", err)
	}
	mu.Lock()
	fixed = true
	mu.Unlock()
	s.Wake()
	flush(t, s)
	if c := j.Counts(); c.CheckedIn != 1 {
		t.Fatalf("counts %+v", c)
	}
}

func TestSenderCloseWhileWaiting(t *testing.T) {
	j := mustOpen(t, t.TempDir(), testEvent, "")
	j.Scan("ana@example.org", "d")
	waiting := make(chan struct{})
	f := fakeAPI{answer: func(int, []string) ([]api.BatchError, error) { return nil, errors.New("connection refused") }}
	s, _ := NewSender(j, SenderOptions{CheckIn: f.checkIn, Sleep: func(ctx context.Context, d time.Duration) error {
		close(waiting)
		<-ctx.Done()
		return ctx.Err()
	}})
	<-waiting
	s.Close()
	s.Close() // twice is fine
	if st := s.Status(); st.State != Stopped || st.Pending != 1 {
		t.Fatalf("after close %+v", st)
	}
	if err := s.Flush(context.Background()); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("flush after close: %v", err)
	}
	// The scan waits in the journal for the next sender.
	if p := j.Pending(0); len(p) != 1 {
		t.Fatalf("pending %+v", p)
	}
}

// TestSenderAtRest: the sender is at rest only while it waits with nothing
// new to look at and every status handed over; a scan or a wake ends the
// rest at once, before the sender's goroutine has even woken.
func TestSenderAtRest(t *testing.T) {
	j := mustOpen(t, t.TempDir(), testEvent, "")
	calls, answers := make(chan []string), make(chan error)
	statuses := make(chan Status) // unbuffered: a status is handed over only when read
	s, err := NewSender(j, SenderOptions{
		CheckIn: func(ctx context.Context, _, _ string, emails []string, _ string) ([]api.BatchError, error) {
			calls <- emails
			return nil, <-answers
		},
		OnStatus: func(st Status) { statuses <- st },
		Sleep:    func(ctx context.Context, _ time.Duration) error { <-ctx.Done(); return ctx.Err() },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	deadline := time.After(30 * time.Second)
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for !ok() {
			select {
			case <-tick.C:
			case <-deadline:
				t.Fatalf("timed out waiting until %s", what)
			}
		}
	}
	call := func() {
		t.Helper()
		select {
		case <-calls:
		case <-deadline:
			t.Fatal("timed out waiting for the sender's request")
		}
	}
	resting := func() bool { s.mu.Lock(); defer s.mu.Unlock(); return s.resting }
	// drain reads the statuses until the sender rests with none left.
	drain := func() {
		t.Helper()
		waitFor("the sender rests", func() bool {
			select {
			case <-statuses:
				return false
			default:
				return s.AtRest()
			}
		})
	}

	waitFor("the sender waits for a scan", resting)
	if s.AtRest() {
		t.Fatal("at rest with its Idle status not yet handed over")
	}
	drain()

	if _, err := s.Scan("ana@example.org", "d"); err != nil {
		t.Fatal(err)
	}
	if s.AtRest() {
		t.Fatal("at rest with a scan just journaled")
	}
	go func() {
		for range statuses { // the test only watches the rest from here
		}
	}()
	call()
	if s.AtRest() {
		t.Fatal("at rest with a request in flight")
	}
	answers <- errors.New("connection refused")
	waitFor("the sender rests in its backoff", s.AtRest)
	if st := s.Status(); st.State != Offline || st.Pending != 1 {
		t.Fatalf("resting in %+v", st)
	}

	s.Wake()
	if s.AtRest() {
		t.Fatal("at rest right after Wake")
	}
	call()
	answers <- nil
	waitFor("the sender rests with all sent", func() bool { return s.AtRest() && s.Status().Pending == 0 })
}
