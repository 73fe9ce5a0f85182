// Package console assembles the console's sections from the views, so the
// program and the screenshot generator build exactly the same thing.
package console

import (
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views/events"
	"github.com/evdesk/evdesk/views/phone"
)

// Deps is what every section needs.
type Deps struct {
	Client *api.Client
	// Now and Local default to the wall clock and the user's zone.
	Now   func() time.Time
	Local *time.Location
}

// Sections lists the console's tabs in order. Only sections that work are
// listed.
func Sections(d Deps) []ui.Section {
	ev := events.Deps{Client: d.Client, Now: d.Now, Local: d.Local}
	return []ui.Section{
		{Name: "Events", New: func(c *ui.Context) ui.Screen { return events.NewList(c, ev) }},
		{Name: "Phone", New: func(c *ui.Context) ui.Screen { return phone.New(c, d.Client) }},
	}
}
