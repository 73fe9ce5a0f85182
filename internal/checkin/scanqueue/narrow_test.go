package scanqueue

import (
	"context"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
)

// poisonRun journals list at the large conference of a simulator that
// refuses any batch holding one of poison with the documented 400 (no
// attendee named), sends it over real HTTP and returns the journal, the
// sender's final status and the number of PATCH requests.
func poisonRun(t *testing.T, list func(registrants []string) []string, poison ...string) (*Journal, Status, int64) {
	t.Helper()
	var st wireStats
	s, srv := startSim(t, sim.Options{NoRateLimit: true, PoisonedAddresses: poison},
		func(h http.Handler) http.Handler { return countRequests(h, &st) })
	f := s.Fixtures()
	scans := list(s.RegistrantEmails(f.LargeConferenceEventID))
	j := mustOpen(t, t.TempDir(), f.LargeConferenceEventID, "")
	if _, err := j.ScanMany(scans, "Door A"); err != nil {
		t.Fatal(err)
	}
	client := newClient(t, srv.URL+"/v2", nil, 1)
	// A wait means the sender gave up for now: the test ends there.
	waiting := make(chan struct{}, 1)
	snd, err := NewSender(j, SenderOptions{CheckIn: client.Attendees.CheckIn,
		Sleep: func(ctx context.Context, _ time.Duration) error {
			waiting <- struct{}{}
			<-ctx.Done()
			return ctx.Err()
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer snd.Close()
	flushed := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() { flushed <- snd.Flush(ctx) }()
	select {
	case err := <-flushed:
		if err != nil {
			t.Fatal(err)
		}
	case <-waiting:
	}
	return j, snd.Status(), st.patches.Load()
}

// TestOnePoisonedAddressIsFoundByHalving: one address the server refuses in
// a batch of 300, answered only as the provider documents (a 400 naming no
// attendee). The sender halves the batch until the address is alone: it is
// Rejected with the server's message, the 299 others are checked in, in
// about 2 log2(300) requests, and nothing waits.
func TestOnePoisonedAddressIsFoundByHalving(t *testing.T) {
	for _, at := range []int{0, 137, 299} {
		var poison string
		j, st, requests := poisonRun(t, func(regs []string) []string {
			poison = regs[at]
			return regs[:300]
		}, firstRegistrants(300)[at])
		t.Logf("poison at %d of 300: %d requests", at, requests)
		if c := j.Counts(); c.CheckedIn != 299 || c.Rejected != 1 || c.Pending != 0 {
			t.Fatalf("poison at %d: counts %+v, status %v (%v)", at, c, st.State, st.LastError)
		}
		sc, _ := j.Lookup(poison)
		if sc.Outcome != Rejected || sc.Message != "Invalid request." {
			t.Fatalf("the poisoned scan: %+v", sc)
		}
		if most := int64(1 + 2*math.Ceil(math.Log2(300))); requests > most {
			t.Fatalf("%d requests; at most %d", requests, most)
		}
	}
}

// Two poisoned addresses in one batch, the first two scans: nothing is
// accepted before both are refused alone, so the rest is probed at once;
// it goes through, and the two are Rejected.
func TestTwoPoisonedAddressesAtTheFront(t *testing.T) {
	var regs []string
	j, _, requests := poisonRun(t, func(r []string) []string { regs = r[:300]; return regs },
		firstRegistrants(2)...)
	t.Logf("two poisoned at the front: %d requests", requests)
	if c := j.Counts(); c.CheckedIn != 298 || c.Rejected != 2 {
		t.Fatalf("counts %+v", c)
	}
}

// A refusal of the request itself (every scan refused alone) rejects
// nothing: the batch stays pending, Refused, with the server's message,
// after a bounded number of requests.
func TestARefusalOfEveryScanRejectsNothing(t *testing.T) {
	j, st, requests := poisonRun(t, func(r []string) []string { return r[:300] }, firstRegistrants(300)...)
	t.Logf("every scan refused: %d requests", requests)
	if c := j.Counts(); c.Pending != 300 || c.Rejected != 0 {
		t.Fatalf("counts %+v", c)
	}
	if st.State != Refused || st.LastError == nil || !strings.Contains(strings.ToLower(st.LastError.Error()), "invalid request") {
		t.Fatalf("status %v: %v", st.State, st.LastError)
	}
	if requests > 16 {
		t.Fatalf("%d requests before giving up", requests)
	}
}

// firstRegistrants is the first n registrants of the large conference.
func firstRegistrants(n int) []string {
	s := sim.New(sim.Options{})
	defer s.Close()
	return s.RegistrantEmails(s.Fixtures().LargeConferenceEventID)[:n]
}
