package scanqueue

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api/sim"
)

// TestCrashMidSendLosesNothing runs a desk in a child process that journals
// scans and sends them to a simulator served here. One request is applied by
// the server but its answer held back; the child is killed (SIGKILL) while it
// waits for it and while it keeps scanning. Reopening the journal here and
// sending what it holds leaves the server with exactly the scanned set:
// nothing lost, nothing recorded twice.
func TestCrashMidSendLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	s := sim.New(sim.Options{NoRateLimit: true})
	defer s.Close()
	f := s.Fixtures()
	event := f.LargeConferenceEventID

	var patches atomic.Int32
	var holding atomic.Bool
	holding.Store(true)
	held := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch && patches.Add(1) == 3 && holding.Load() {
			s.ServeHTTP(httptest.NewRecorder(), r) // applied on the server...
			close(held)
			<-r.Context().Done() // ...but the answer never leaves
			return
		}
		s.ServeHTTP(w, r)
	}))
	defer srv.Close()

	dir := t.TempDir()
	emails := s.RegistrantEmails(event)[:3000]
	list := filepath.Join(t.TempDir(), "emails.txt")
	if err := os.WriteFile(list, []byte(strings.Join(emails, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), "EVDESK_CHECKIN_HELPER=crash", "EVDESK_HELPER_DIR="+dir,
		"EVDESK_HELPER_URL="+srv.URL+"/v2", "EVDESK_HELPER_EVENT="+event, "EVDESK_HELPER_EMAILS="+list)
	cmd.Stderr = os.Stderr
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var reported []string // scans the child said were recorded
	enough := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if e, ok := strings.CutPrefix(sc.Text(), "scanned "); ok {
				mu.Lock()
				reported = append(reported, e)
				if len(reported) == 1000 {
					close(enough)
				}
				mu.Unlock()
			}
		}
	}()
	for _, c := range []chan struct{}{held, enough} {
		select {
		case <-c:
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatal("the child made no progress")
		}
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no cleanup, no deferred code
		t.Fatal(err)
	}
	_ = cmd.Wait()
	holding.Store(false)
	mu.Lock()
	said := slices.Clone(reported)
	mu.Unlock()

	// Here the desk comes back.
	j, err := Open(dir, event, "")
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	scans := j.Scans()
	inJournal := map[string]bool{}
	for _, sc := range scans {
		if inJournal[sc.Email] {
			t.Fatalf("%s journaled twice", sc.Email)
		}
		inJournal[sc.Email] = true
	}
	for _, e := range said {
		if !inJournal[e] {
			t.Fatalf("%s was confirmed to the desk but is not in the journal", e)
		}
	}
	// The held batch is on the server but still pending here.
	onServer := map[string]bool{}
	for _, r := range s.CheckIns(event, "") {
		onServer[r.Email] = true
	}
	overlap := 0
	for _, sc := range j.Pending(0) {
		if onServer[sc.Email] {
			overlap++
		}
	}
	if overlap == 0 {
		t.Fatal("no pending scan was applied on the server before the crash: the test did not exercise a resend")
	}
	c := j.Counts()
	t.Logf("child confirmed %d scans, journal holds %d (%d pending, %d of them applied before the crash)",
		len(said), len(scans), c.Pending, overlap)

	client := newClient(t, srv.URL+"/v2", nil, 3)
	sender, err := NewSender(j, SenderOptions{CheckIn: client.Attendees.CheckIn})
	if err != nil {
		t.Fatal(err)
	}
	defer sender.Close()
	flush(t, sender)

	recs := s.CheckIns(event, "")
	got := make([]string, len(recs))
	for i, r := range recs {
		got[i] = r.Email
	}
	slices.Sort(got)
	want := slices.Sorted(func(yield func(string) bool) {
		for e := range inJournal {
			if !yield(e) {
				return
			}
		}
	})
	if !slices.Equal(got, want) {
		t.Fatalf("server has %d check-ins, the journal %d scans", len(got), len(want))
	}
	if c := j.Counts(); c.CheckedIn != len(want) || c.Pending != 0 {
		t.Fatalf("journal after recovery %+v", c)
	}
}

// crashHelper is the child of TestCrashMidSendLosesNothing: a desk that
// scans a list and reports each scan once it is recorded.
func crashHelper(t *testing.T) {
	dir, base, event := os.Getenv("EVDESK_HELPER_DIR"), os.Getenv("EVDESK_HELPER_URL"), os.Getenv("EVDESK_HELPER_EVENT")
	raw, err := os.ReadFile(os.Getenv("EVDESK_HELPER_EMAILS"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := Open(dir, event, "")
	if err != nil {
		t.Fatal(err)
	}
	client := newClient(t, base, nil, 3)
	sender, err := NewSender(j, SenderOptions{CheckIn: client.Attendees.CheckIn})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range strings.Split(string(raw), "\n") {
		if _, err := sender.Scan(e, "Desk-crash"); err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("scanned " + e + "\n")
	}
	_ = sender.Flush(context.Background()) // blocks: one answer never comes; the parent kills us
}
