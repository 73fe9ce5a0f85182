// Package console assembles the console's sections from the views, so the
// program and the screenshot generator build exactly the same thing.
package console

import (
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/webhook"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views/checkin"
	"github.com/evdesk/evdesk/views/events"
	"github.com/evdesk/evdesk/views/phone"
	"github.com/evdesk/evdesk/views/transcribe"
)

// Deps is what every section needs.
type Deps struct {
	Client *api.Client
	// Now and Local default to the wall clock and the user's zone.
	Now   func() time.Time
	Local *time.Location
	// Checkin is what the check-in screens need (journal dir, sender
	// client, source); its Client, Now and Local default to the above.
	Checkin checkin.Deps
	// Transcriber is nil without AI credentials: the section explains how
	// to add them. TranscribeSamples are audio URLs offered in the demo.
	Transcriber       *api.Transcriber
	TranscribeSamples []string
	// Recordings is where a webhook listener keeps the recordings it
	// received, for the Transcribe section ("" Dir: none).
	Recordings webhook.Spool
	// Phone is what the phone screen needs besides the client.
	Phone PhoneDeps
}

// PhoneDeps is what the phone screen needs from the program: the
// profile's baseline, and a way to open another profile's account.
type PhoneDeps struct {
	// Baseline is the profile's baseline file (phone_baseline), or "".
	Baseline string
	// OpenProfile builds a client for another profile's account; nil when
	// the program cannot.
	OpenProfile func(name string) (*api.Client, error)
	// OtherProfile is the profile the comparison offers first.
	OtherProfile string
	// Changelog links deprecated fields to their change log entry.
	Changelog phone.ChangelogLookup
}

// Sections lists the console's tabs in order. Only sections that work are
// listed.
func Sections(d Deps) []ui.Section {
	ck := d.Checkin
	if ck.Client == nil {
		ck.Client = d.Client
	}
	if ck.Now == nil {
		ck.Now = d.Now
	}
	if ck.Local == nil {
		ck.Local = d.Local
	}
	ph := phone.Deps{Client: d.Client, Now: d.Now, Baseline: d.Phone.Baseline,
		OpenProfile: d.Phone.OpenProfile, OtherProfile: d.Phone.OtherProfile, Changelog: d.Phone.Changelog}
	ev := events.Deps{Client: d.Client, Now: d.Now, Local: d.Local,
		CheckInDesk: func(c *ui.Context, id, name string) ui.Screen { return checkin.NewSessionPicker(c, ck, id, name) },
		CheckInHistory: func(c *ui.Context, id, name string) ui.Screen {
			return checkin.NewHistory(c, ck, id, name, "")
		},
		LearnNames: checkin.LearnNames(ck),
	}
	return []ui.Section{
		{Name: "Events", New: func(c *ui.Context) ui.Screen { return events.NewList(c, ev) }},
		{Name: "Check-in", New: func(c *ui.Context) ui.Screen { return checkin.NewPicker(c, ck) }},
		{Name: "Phone", New: func(c *ui.Context) ui.Screen { return phone.New(c, ph) }},
		{Name: "Transcribe", New: func(c *ui.Context) ui.Screen {
			opts := []transcribe.Option{transcribe.WithSamples(d.TranscribeSamples...), transcribe.WithRecordings(d.Recordings)}
			if d.Local != nil {
				opts = append(opts, transcribe.WithLocal(d.Local))
			}
			return transcribe.New(c, d.Transcriber, opts...)
		}},
	}
}
