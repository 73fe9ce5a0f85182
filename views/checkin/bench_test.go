package checkin

import (
	"context"
	"fmt"
	"testing"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/scanqueue"
)

// instantCheckIn answers every batch at once, keeping the network out of
// the measurement (the sender still acks into the same journal).
func instantCheckIn(context.Context, string, string, []string, string) ([]api.BatchError, error) {
	return nil, nil
}

// BenchmarkEnterToRecorded times the desk from the Enter key to the scan
// shown as recorded: Update, the journal append with its fsync (run as the
// command the desk returns), and the Update that takes the answer. Typing
// the address is not timed.
func BenchmarkEnterToRecorded(b *testing.B) {
	r := newRig(b, func(c *rigConfig) { c.checkIn = instantCheckIn })
	r.settle("ONLINE")
	emails := make([]string, b.N)
	for i := range emails {
		emails[i] = fmt.Sprintf("bench%d@example.org", i)
	}
	d := r.desk()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		r.Type(emails[i])
		b.StartTimer()
		r.Press("enter")
		if e := d.recent[0]; e.email != emails[i] || e.kind == kindSaving || e.kind == kindNotRecorded {
			b.Fatalf("after enter: %+v", e)
		}
	}
	b.StopTimer()
	if got := d.v.Journal().Counts().Total(); got < b.N {
		b.Fatalf("journal holds %d scans, want %d", got, b.N)
	}
}

// BenchmarkKeystroke times one typed character reaching the scan input.
func BenchmarkKeystroke(b *testing.B) {
	r := newRig(b, func(c *rigConfig) { c.checkIn = instantCheckIn })
	r.settle("ONLINE")
	b.ResetTimer()
	for i := range b.N {
		r.Type("a")
		if i%200 == 199 {
			b.StopTimer()
			r.Press("ctrl+u")
			b.StartTimer()
		}
	}
}

// BenchmarkJournalScan is the floor: one journal append with its fsync.
func BenchmarkJournalScan(b *testing.B) {
	j, err := scanqueue.Open(b.TempDir(), "bench-event", "")
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	b.ResetTimer()
	for i := range b.N {
		if _, err := j.Scan(fmt.Sprintf("bench%d@example.org", i), "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeskView renders a full desk (50 recent scans) at 100x30.
func BenchmarkDeskView(b *testing.B) {
	r := newRig(b, func(c *rigConfig) { c.checkIn = instantCheckIn })
	r.settle("ONLINE")
	for i := range recentMax {
		r.scan(fmt.Sprintf("view%d@example.org", i))
	}
	b.ResetTimer()
	for range b.N {
		_ = r.app.View()
	}
}
