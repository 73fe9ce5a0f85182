// Package console assembles the console's sections from the views, so the
// program and the screenshot generator build exactly the same thing.
package console

import (
	"time"

	"github.com/evdesk/evdesk/api"
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
	// Phone is what the phone screen needs besides the client (a baseline,
	// another profile's opener); its Client and Now default to the above.
	Phone phone.Deps
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
	ph := d.Phone
	if ph.Client == nil {
		ph.Client = d.Client
	}
	if ph.Now == nil {
		ph.Now = d.Now
	}
	ev := events.Deps{Client: d.Client, Now: d.Now, Local: d.Local,
		CheckInDesk: func(c *ui.Context, id, name string) ui.Screen { return checkin.NewSessionPicker(c, ck, id, name) },
		CheckInHistory: func(c *ui.Context, id, name string) ui.Screen {
			return checkin.NewHistory(c, ck, id, name, "")
		},
	}
	return []ui.Section{
		{Name: "Events", New: func(c *ui.Context) ui.Screen { return events.NewList(c, ev) }},
		{Name: "Check-in", New: func(c *ui.Context) ui.Screen { return checkin.NewPicker(c, ck) }},
		{Name: "Phone", New: func(c *ui.Context) ui.Screen { return phone.New(c, ph) }},
		{Name: "Transcribe", New: func(c *ui.Context) ui.Screen {
			return transcribe.New(c, d.Transcriber, transcribe.WithSamples(d.TranscribeSamples...))
		}},
	}
}
