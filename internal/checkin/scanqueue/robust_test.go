package scanqueue

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
)

// withSpace puts the journal on a make-believe disk with *room bytes free.
func withSpace(room *int64) JournalOption { return func(j *Journal) { j.space = room } }

// TestSenderNoServerCanPark: a server that answers an endless Retry-After,
// then refuses a whole batch with a 400 that names no attendee (the
// sender narrows it: its first half), then fails the half with a 503 and
// its own Retry-After, then recovers. Nothing is rejected that the server
// did not refuse, every wait is capped, and the queue drains without
// anyone pressing a key.
func TestSenderNoServerCanPark(t *testing.T) {
	clk := newFakeClock()
	var mu sync.Mutex
	patches := 0
	script := []func(w http.ResponseWriter){
		func(w http.ResponseWriter) { // "come back in 30 years"
			w.Header().Set("Retry-After", "999999999")
			w.WriteHeader(http.StatusTooManyRequests)
		},
		func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"code":300,"message":"temporary validation outage"}`)
		},
		func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "999999999")
			w.WriteHeader(http.StatusServiceUnavailable)
		},
	}
	s, srv := startSim(t, sim.Options{Now: clk.Now, NoRateLimit: true}, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPatch {
				mu.Lock()
				n := patches
				patches++
				mu.Unlock()
				if n < len(script) {
					script[n](w)
					return
				}
			}
			h.ServeHTTP(w, r)
		})
	})
	f := s.Fixtures()
	regs := s.RegistrantEmails(f.LargeConferenceEventID)[:298]
	list := append(regs, "walk.in1@example.org", "walk.in2@example.org")
	client := newClient(t, srv.URL+"/v2", clk.Sleep, 1)
	j := mustOpen(t, t.TempDir(), f.LargeConferenceEventID, "", WithClock(clk.Now))
	if _, err := j.ScanMany(list, "Desk-1"); err != nil {
		t.Fatal(err)
	}
	// Each wait hands over to the test, which reads the status the
	// failure left; then the clock moves on by the wait.
	waits := make(chan time.Duration)
	proceed := make(chan struct{})
	snd, err := NewSender(j, SenderOptions{CheckIn: client.Attendees.CheckIn, Now: clk.Now,
		Sleep: func(ctx context.Context, d time.Duration) error {
			waits <- d
			<-proceed
			return clk.Sleep(ctx, d)
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer snd.Close()
	for i, want := range []State{Throttled, Offline} {
		d := <-waits
		st := snd.Status()
		if st.State != want || st.Pending != 300 || st.Rejected != 0 || d > DefaultMaxRetryAfter {
			t.Fatalf("failure %d: waits %v with %+v; want %v, at most %v", i+1, d, st, want, DefaultMaxRetryAfter)
		}
		proceed <- struct{}{}
	}
	flush(t, snd) // nobody calls Wake
	c := j.Counts()
	if c.CheckedIn != 298 || c.Rejected != 2 {
		t.Fatalf("counts %+v", c)
	}
	for _, sc := range j.Scans() {
		if sc.Outcome == Rejected && !strings.HasPrefix(sc.Email, "walk.in") {
			t.Fatalf("rejected though the server named no such refusal: %+v", sc)
		}
	}
	if patches != len(script)+1 {
		t.Fatalf("%d requests for one batch of 300; want %d", patches, len(script)+1)
	}
	if len(s.CheckIns(f.LargeConferenceEventID, "")) != 298 {
		t.Fatal("the server does not hold every registered scan")
	}
}

// The client's own validation naming attendees by position rejects those
// and sends the rest at once, in one more request.
func TestSenderRejectsOnlyTheAttendeesItsValidationNames(t *testing.T) {
	j := mustOpen(t, t.TempDir(), testEvent, "")
	j.ScanMany(guests(5), "d")
	f := fakeAPI{answer: func(n int, emails []string) ([]api.BatchError, error) {
		if n == 1 {
			return nil, &api.ValidationError{Problems: []api.FieldError{
				{Field: "attendees[1].email", Message: "is blocked."}, {Field: "attendees[3].email", Message: "is on a list."}}}
		}
		return nil, nil
	}}
	var sl sleepLog
	s, _ := NewSender(j, SenderOptions{CheckIn: f.checkIn, Sleep: sl.sleep})
	defer s.Close()
	flush(t, s)
	if got := f.sizes(); len(got) != 2 || got[1] != 3 {
		t.Fatalf("requests %v", got)
	}
	if sc, _ := j.Lookup(guests(5)[3]); sc.Outcome != Rejected || sc.Message != "is on a list." {
		t.Fatalf("named scan %+v", sc)
	}
	if c := j.Counts(); c.CheckedIn != 3 || c.Rejected != 2 || len(sl.waits()) != 0 {
		t.Fatalf("counts %+v, waits %v", c, sl.waits())
	}
}

// A new scan cuts a wait short: a desk that has work is never parked.
func TestANewScanWakesAWaitingSender(t *testing.T) {
	j := mustOpen(t, t.TempDir(), testEvent, "")
	j.Scan("ana@example.org", "d")
	f := fakeAPI{answer: func(n int, _ []string) ([]api.BatchError, error) {
		if n == 1 {
			return nil, &api.Error{Status: 429, RetryAfter: time.Hour}
		}
		return nil, nil
	}}
	waiting := make(chan time.Duration, 4)
	feed := newStatusFeed()
	s, _ := NewSender(j, SenderOptions{CheckIn: f.checkIn, OnStatus: feed.publish,
		Sleep: func(ctx context.Context, d time.Duration) error {
			waiting <- d
			<-ctx.Done() // the clock never moves: only a wake ends it
			return ctx.Err()
		}})
	defer s.Close()
	if d := <-waiting; d != DefaultMaxRetryAfter {
		t.Fatalf("waited %v for a Retry-After of an hour", d)
	}
	j.Scan("ben@example.org", "d")
	feed.waitFor(t, "both sent", func(st Status) bool { return st.CheckedIn == 2 && st.State == Idle })
}

// TestJournalOnAFullDisk: with room for one more scan, the journal opens
// (its compaction fails and is skipped), takes that scan, refuses the next
// one cleanly, and takes scans again once there is room.
func TestJournalOnAFullDisk(t *testing.T) {
	dir := t.TempDir()
	clk := newFakeClock()
	j := mustOpen(t, dir, testEvent, "", WithClock(clk.Now))
	scans, _ := j.ScanMany(guests(50), "d")
	var acks []Ack
	for _, sc := range scans {
		acks = append(acks, Ack{ID: sc.ID, Outcome: CheckedIn})
	}
	j.Ack(acks)
	j.Close()
	before := lines(t, j.Path())

	line := len(`{"t":"scan","id":"51","email":"last.one@example.org","source":"d","at":"2026-11-23T09:00:00Z"}` + "\n")
	room := int64(line * 3 / 2) // one more scan, not two
	j = mustOpen(t, dir, testEvent, "", withSpace(&room), WithClock(clk.Now))
	if got := lines(t, j.Path()); len(got) != len(before) {
		t.Fatalf("the failed compaction changed the file: %d lines, had %d", len(got), len(before))
	}
	if _, err := j.Scan("last.one@example.org", "d"); err != nil {
		t.Fatalf("the scan that fits: %v", err)
	}
	_, err := j.Scan("too.many@example.org", "d")
	if err == nil || !strings.Contains(err.Error(), "nothing was recorded") || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("the scan that does not fit: %v", err)
	}
	if strings.Contains(err.Error(), "restart") {
		t.Fatalf("the message speaks of restarting: %v", err)
	}
	if c := j.Counts(); c.Pending != 1 || c.CheckedIn != 50 {
		t.Fatalf("counts %+v", c)
	}
	room = 1 << 20 // space freed
	if sc, err := j.Scan("too.many@example.org", "d"); err != nil || sc.Outcome != Pending {
		t.Fatalf("after freeing space: %+v %v", sc, err)
	}
	j.Close()
	j = mustOpen(t, dir, testEvent, "")
	if c := j.Counts(); c.Pending != 2 || c.CheckedIn != 50 {
		t.Fatalf("after reopening %+v", c)
	}
}

func TestJournalRemovesLeftoversOnOpen(t *testing.T) {
	dir := t.TempDir()
	own := filepath.Join(dir, "."+FileName(testEvent, "")+".123.tmp")
	oldShared := filepath.Join(dir, ".compact-456.tmp")
	freshShared := filepath.Join(dir, ".compact-789.tmp") // another journal's, maybe at work
	other := filepath.Join(dir, "."+FileName("OtherEvent", "")+".1.tmp")
	for _, p := range []string{own, oldShared, freshShared, other} {
		if err := os.WriteFile(p, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-time.Hour)
	os.Chtimes(oldShared, long, long)
	mustOpen(t, dir, testEvent, "")
	for p, want := range map[string]bool{own: false, oldShared: false, freshShared: true, other: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", filepath.Base(p), err == nil, want)
		}
	}
}

// An import larger than the room left is recorded in part; the error says
// so, and recording the list again later finishes it.
func TestScanListRecordsWhatFitsAndARerunFinishes(t *testing.T) {
	dir := t.TempDir()
	room := int64(60_000)
	j := mustOpen(t, dir, testEvent, "", withSpace(&room))
	list := guests(1000)
	got, err := j.ScanList(list, "import")
	if err == nil || len(got) == 0 || len(got) >= len(list) || len(got)%listChunk != 0 {
		t.Fatalf("recorded %d, err %v", len(got), err)
	}
	if c := j.Counts(); c.Pending != len(got) {
		t.Fatalf("counts %+v for %d recorded", c, len(got))
	}
	j.Close()
	j = mustOpen(t, dir, testEvent, "")
	again, err := j.ScanList(list, "import")
	if err != nil || len(again) != len(list) {
		t.Fatalf("rerun: %d, %v", len(again), err)
	}
	if c := j.Counts(); c.Pending != len(list) || c.Already != len(got) {
		t.Fatalf("after the rerun %+v", c)
	}
}

func TestScanWithPriorKnowledge(t *testing.T) {
	dir := t.TempDir()
	j := mustOpen(t, dir, testEvent, "")
	prior := func(e string) Prior {
		switch e {
		case "ana@example.org":
			return Prior{Expect: ExpectRegistered, Already: "checked in at Desk 2, 09:14"}
		case "ben@example.org":
			return Prior{Expect: ExpectRegistered}
		}
		return Prior{Expect: ExpectUnknown}
	}
	out, err := j.ScanWith([]string{"ana@example.org", "ben@example.org", "cy@example.org"}, "Desk 1", prior)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].Outcome != Already || out[0].Message != "checked in at Desk 2, 09:14" || out[1].Outcome != Pending || out[2].Expect != ExpectUnknown {
		t.Fatalf("scans %+v", out)
	}
	settled, _ := j.Ack([]Ack{{ID: out[1].ID, Outcome: Rejected, Message: "no"}, {ID: out[2].ID, Outcome: CheckedIn}})
	if !settled[0].Disagrees() || !settled[1].Disagrees() {
		t.Fatalf("disagreements not seen: %+v", settled)
	}
	j.Close()
	j = mustOpen(t, dir, testEvent, "")
	if sc, _ := j.Lookup("cy@example.org"); sc.Expect != ExpectUnknown || !sc.Disagrees() {
		t.Fatalf("after replay %+v", sc)
	}
	if _, err := j.ScanWith([]string{"x"}, "d", prior); !errors.Is(err, ErrNotAnEmail) {
		t.Fatalf("not an email: %v", err)
	}
}
