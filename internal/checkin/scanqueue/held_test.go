package scanqueue

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A disk that fills under a running sender: the server's answers that
// cannot be recorded are held, nothing more is sent, the retries back off,
// Wake retries at once, and once space returns the answers are recorded
// and the sender goes on by itself. No scan is sent twice.
func TestASenderHealsWhenTheDiskHasSpaceAgain(t *testing.T) {
	room := int64(1 << 20)
	j := mustOpen(t, t.TempDir(), testEvent, "", withSpace(&room))
	if _, err := j.ScanMany(guests(3), "d"); err != nil {
		t.Fatal(err)
	}
	room = 0 // full before the answers come back
	waits := make(chan time.Duration)
	proceed := make(chan error)
	var f fakeAPI
	s, err := NewSender(j, SenderOptions{CheckIn: f.checkIn, BaseDelay: time.Second, MaxDelay: 4 * time.Second,
		Sleep: func(ctx context.Context, d time.Duration) error {
			select {
			case waits <- d:
			case <-ctx.Done():
				return ctx.Err()
			}
			select {
			case err := <-proceed:
				return err
			case <-ctx.Done(): // a Wake
				return ctx.Err()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second} {
		if d := <-waits; d != want {
			t.Fatalf("wait %d: %v, want %v", i+1, d, want)
		}
		st := s.Status()
		var ue *UnrecordedError
		if st.State != Unwritable || !errors.As(st.LastError, &ue) || ue.Answers != 3 || !DiskFull(st.LastError) || st.Pending != 3 {
			t.Fatalf("wait %d: %+v", i+1, st)
		}
		switch i {
		case 2:
			s.Wake() // ctrl+r: at once, and the backoff goes on
			continue
		case 3:
			room = 1 << 20 // space again (the sender waits: the channel orders it)
		}
		proceed <- nil
	}
	flush(t, s)
	if c := j.Counts(); c.CheckedIn != 3 || c.Pending != 0 {
		t.Fatalf("counts %+v", c)
	}
	if got := f.sizes(); len(got) != 1 {
		t.Fatalf("requests %v: a scan was sent again", got)
	}
	// The sender says it is idle once it has recorded the answers, which
	// Flush, waiting for none pending, can see first.
	if st := statusWhen(t, s, func(st Status) bool { return st.State != Unwritable }); st.State != Idle || st.LastError != nil {
		t.Fatalf("after: %+v", st)
	}
}
