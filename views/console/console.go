// Package console assembles the console's sections from the views, so the
// program and the screenshot generator build exactly the same thing.
package console

import (
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/checkin"
	"github.com/evdesk/evdesk/views/events"
	"github.com/evdesk/evdesk/views/phone"
	"github.com/evdesk/evdesk/views/transcribe"
)

// Sections lists the console's tabs in order. Only sections that work are
// listed. The events' detail reaches the check-in desk and history through
// env; the rest of env is each section's own.
func Sections(env views.Env) []ui.Section {
	env = env.WithDefaults()
	if env.CheckInDesk == nil {
		env.CheckInDesk = func(c *ui.Context, id, name string) ui.Screen { return checkin.NewSessionPicker(c, env, id, name) }
	}
	if env.CheckInHistory == nil {
		env.CheckInHistory = func(c *ui.Context, id, name string) ui.Screen { return checkin.NewHistory(c, env, id, name, "") }
	}
	if env.LearnNames == nil {
		env.LearnNames = checkin.LearnNames(env)
	}
	return []ui.Section{
		{Name: "Events", New: func(c *ui.Context) ui.Screen { return events.NewList(c, env) }, Palette: true},
		{Name: "Check-in", New: func(c *ui.Context) ui.Screen { return checkin.NewPicker(c, env) }},
		{Name: "Phone", New: func(c *ui.Context) ui.Screen { return phone.New(c, env) }},
		{Name: "Transcribe", New: func(c *ui.Context) ui.Screen {
			return transcribe.New(c, env.Transcriber, transcribe.WithSamples(env.TranscribeSamples...),
				transcribe.WithRecordings(env.Recordings), transcribe.WithLocal(env.Local))
		}},
	}
}
