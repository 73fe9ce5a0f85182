// Package checkin holds the check-in screens: the event and session picker,
// the desk (one scan input, a result box, counters, recent scans and a
// registrant search) and the check-in history. The durable queue behind the
// desk is the checkin package at the module root.
package checkin

import (
	"context"
	"time"

	"github.com/evdesk/evdesk/internal/checkin/printing"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/views"
)

// SendTimeout bounds one check-in request when Env.SenderClient is nil,
// so the long retries of a console client still show an outage quickly.
const SendTimeout = 8 * time.Second

// DefaultDesk names a desk when Env.Desk is empty.
const DefaultDesk = "evdesk desk"

// withDefaults is d with the wall clock, the machine's zone and the
// default desk name where none are set.
func withDefaults(d views.Env) views.Env {
	d = d.WithDefaults()
	if d.Desk == "" {
		d.Desk = DefaultDesk
	}
	return d
}

// checkInFunc sends check-ins with the sender's client.
func checkInFunc(d views.Env) scanqueue.CheckInFunc {
	if h := hooksOf(d); h != nil && h.checkIn != nil {
		return h.checkIn
	}
	if d.SenderClient != nil {
		return d.SenderClient.Attendees.CheckIn
	}
	c := d.Client
	return func(ctx context.Context, eventID, sessionID string, emails []string, source string) ([]api.BatchError, error) {
		ctx, cancel := context.WithTimeout(ctx, SendTimeout)
		defer cancel()
		return c.Attendees.CheckIn(ctx, eventID, sessionID, emails, source)
	}
}

// hooksFor finds a test's hooks for the desks of a journal folder. Only
// tests set it (export_test.go): a production desk has none.
var hooksFor func(journalDir string) *testHooks

// hooksOf are the hooks of d's desks, nil outside tests.
func hooksOf(d views.Env) *testHooks {
	if hooksFor == nil {
		return nil
	}
	return hooksFor(d.JournalDir)
}

// testHooks let tests drive the desk without a running program.
type testHooks struct {
	// manualPump: the desk does not wait on its pump; the test reads the
	// pumped messages and delivers them.
	manualPump bool
	// onRuntime sees every desk's runtime, so tests can shut it down.
	onRuntime func(*runtime)
	// lockWait replaces lockWait when not zero.
	lockWait time.Duration
	// sender adjusts the sender's options (clock, sleep, jitter).
	sender func(*scanqueue.SenderOptions)
	// checkIn replaces the network call.
	checkIn scanqueue.CheckInFunc
	// wait replaces the background refreshes' waits.
	wait func(ctx context.Context, d time.Duration) error
	// walkinSleep replaces the walk-in sender's retry waits.
	walkinSleep func(ctx context.Context, d time.Duration) error
	// printing adjusts the print queue's options (a faster poll).
	printing func(*printing.Options)
}
