package printing

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Target
	}{
		{"Badges", Target{URI: "Badges", Queue: "Badges"}},
		{"ipp://print.local/printers/Badges", Target{URI: "ipp://print.local/printers/Badges", Server: "print.local:631", Queue: "Badges"}},
		{"ipps://10.0.0.5:8631/classes/Front", Target{URI: "ipps://10.0.0.5:8631/classes/Front", Server: "10.0.0.5:8631", Queue: "Front", Encrypt: true}},
		{"ipp://printer.local:631/ipp/print", Target{URI: "ipp://printer.local:631/ipp/print", Server: "printer.local:631", Direct: true}},
	} {
		got, err := ParseTarget(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v", tc.in, got, err)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "badge_printer is empty"},
		{"-o evil", "is not a printer name"},
		{"http://x/printers/a", `the scheme is "http"`},
		{"ipp://printer.local/ipp print", "the path holds spaces"},
		{"ipp://u:p@h/printers/a", "give host[:port] and a path only"},
	} {
		_, err := ParseTarget(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
	// A hostile setting is named without its escapes.
	if _, err := ParseTarget("ipp://h/printers/a\x1b[2J"); err == nil || strings.Contains(err.Error(), "\x1b") {
		t.Fatalf("hostile: %q", err)
	}
}

// script is a printer whose answers the test sets: it stands for the
// print server in the queue's own tests (the real one is in real_test.go).
type script struct {
	mu        sync.Mutex
	submitErr error
	status    Status
	submitted []string
	cancelled []string
}

func (s *script) Submit(ctx context.Context, pdf []byte, title string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.submitErr != nil {
		return "", s.submitErr
	}
	s.submitted = append(s.submitted, title)
	return "Badges-" + string(rune('0'+len(s.submitted))), nil
}

func (s *script) Status(ctx context.Context, id string) (Status, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status, nil
}

func (s *script) Cancel(ctx context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancelled = append(s.cancelled, id)
	return nil
}

// follow collects a queue's changes on a channel.
func follow(p Printer, timeout time.Duration, wait func(ctx context.Context, d time.Duration) error) (*Queue, chan Job) {
	ch := make(chan Job, 64)
	q := NewQueue(Options{Printer: p, OnChange: func(j Job) { ch <- j }, Timeout: timeout, Wait: wait})
	return q, ch
}

func until(t *testing.T, ch chan Job, s State) Job {
	t.Helper()
	for {
		select {
		case j := <-ch:
			if j.State == s {
				return j
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no job reached %s", s.Word())
		}
	}
}

func pdf() ([]byte, error) { return []byte("%PDF-1.3"), nil }

func TestQueuePrintsAndRetries(t *testing.T) {
	p := &script{status: Status{Done: true}}
	q, ch := follow(p, time.Minute, nil)
	defer q.Close()
	j := q.Print("ana@example.org", "Ana", pdf)
	if j.State != Sending {
		t.Fatalf("queued as %v", j.State)
	}
	if got := until(t, ch, Printed); got.ServerID != "Badges-1" || got.Tries != 1 {
		t.Fatalf("printed job %+v", got)
	}
	if _, err := q.Retry(j.ID); !errors.Is(err, ErrNotFailed) {
		t.Fatalf("retry of a printed job: %v", err)
	}

	// A printer that refuses the job: failed with its words, retried
	// once it takes jobs again.
	p.mu.Lock()
	p.submitErr = errors.New(`Destination "Badges" is not accepting jobs.`)
	p.mu.Unlock()
	j = q.Print("bo@example.org", "Bo", pdf)
	f := until(t, ch, Failed)
	if !strings.Contains(f.Reason, "Destination \"Badges\" is not accepting jobs.") {
		t.Fatalf("reason %q", f.Reason)
	}
	if l, _ := q.Latest("bo@example.org"); l.ID != j.ID || l.State != Failed {
		t.Fatalf("latest %+v", l)
	}
	p.mu.Lock()
	p.submitErr = nil
	p.mu.Unlock()
	if _, err := q.Retry(j.ID); err != nil {
		t.Fatal(err)
	}
	if got := until(t, ch, Printed); got.ID != j.ID || got.Tries != 2 {
		t.Fatalf("retried job %+v", got)
	}
}

func TestAStoppedPrinterFailsTheJobAndWithdrawsIt(t *testing.T) {
	p := &script{status: Status{Stopped: true, Reason: "Out of paper"}}
	q, ch := follow(p, time.Minute, nil)
	defer q.Close()
	q.Print("ana@example.org", "Ana", pdf)
	f := until(t, ch, Failed)
	if f.Reason != "the printer stopped: Out of paper" || len(p.cancelled) != 1 {
		t.Fatalf("%+v, cancelled %v", f, p.cancelled)
	}
}

func TestAJobThatNeverPrintsTimesOut(t *testing.T) {
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	wait := func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		now = now.Add(d)
		mu.Unlock()
		return ctx.Err()
	}
	p := &script{} // neither done nor stopped
	ch := make(chan Job, 64)
	q := NewQueue(Options{Printer: p, OnChange: func(j Job) { ch <- j }, Timeout: 5 * time.Second, Wait: wait, Now: clock})
	defer q.Close()
	q.Print("ana@example.org", "Ana", pdf)
	if f := until(t, ch, Failed); f.Reason != "not printed after 5s" {
		t.Fatalf("reason %q", f.Reason)
	}
}

func TestADrawingThatFailsSaysSo(t *testing.T) {
	q, ch := follow(&script{}, time.Minute, nil)
	defer q.Close()
	q.Print("a@b.c", "A", func() ([]byte, error) { return nil, errors.New("qr code: too long") })
	if f := until(t, ch, Failed); f.Reason != "the badge could not be drawn: qr code: too long" {
		t.Fatalf("reason %q", f.Reason)
	}
}

func TestPrinterStateReading(t *testing.T) {
	st := printerState([]byte("printer Badges disabled since Thu Nov 26 05:51:25 2026 -\n\tOut of paper\x1b[31m\n"))
	if !st.Stopped || !strings.HasPrefix(st.Reason, "Out of paper") || strings.Contains(st.Reason, "\x1b") {
		t.Fatalf("%+v", st)
	}
	if st := printerState([]byte("printer Badges is idle.  enabled since Thu\n")); st.Stopped {
		t.Fatalf("%+v", st)
	}
}
