package events

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
)

const startLayout = "2006-01-02 15:04"

// openCancelForm asks for the message registrants receive; the provider
// requires one when the event has registrants, so it is asked every time.
func (s *DetailScreen) openCancelForm() tea.Cmd {
	msg := new(string)
	f := ui.NewForm(s.ctx.Theme, fmt.Sprintf("Cancel %q", s.event.Name),
		s.run("cancel", func(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error) {
			return c.Events.Cancel(ctx, id, *msg)
		}),
		huh.NewGroup(
			huh.NewText().Title("Message to registrants").
				Description("Required when anyone has registered. Enter cancels the event; esc keeps it.").
				Lines(3).CharLimit(1000).Value(msg),
		))
	return s.dialog.ShowForm(f)
}

// openDuplicateForm asks for the copy's name, start and timezone.
func (s *DetailScreen) openDuplicateForm() tea.Cmd {
	loc := eventLocation(&s.event)
	name := "Copy of " + s.event.Name
	start := s.deps.Now().In(loc).Add(7 * 24 * time.Hour).Truncate(time.Hour).Format(startLayout)
	if s.event.StartTime != nil && s.event.StartTime.After(s.deps.Now()) {
		start = s.event.StartTime.Add(7 * 24 * time.Hour).In(loc).Format(startLayout)
	}
	tz := s.event.Timezone
	f := ui.NewForm(s.ctx.Theme, fmt.Sprintf("Duplicate %q", s.event.Name),
		s.run("duplicate", func(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error) {
			d, err := parseDuplicate(name, start, tz)
			if err != nil {
				return nil, err
			}
			return c.Events.Duplicate(ctx, id, d)
		}),
		huh.NewGroup(
			huh.NewInput().Title("Name").Value(&name).CharLimit(200).Validate(func(v string) error {
				if strings.TrimSpace(v) == "" {
					return fmt.Errorf("name: enter a name for the copy")
				}
				return nil
			}),
			huh.NewInput().Title("Starts").Description("YYYY-MM-DD HH:MM, in the timezone below").
				Value(&start).Validate(func(v string) error {
				_, err := parseDuplicate("x", v, "UTC")
				return err
			}),
			huh.NewInput().Title("Timezone").Description("IANA name, for example Europe/Lisbon").
				Value(&tz).Validate(func(v string) error {
				_, err := parseDuplicate("x", time.Now().Format(startLayout), v)
				return err
			}),
		))
	return s.dialog.ShowForm(f)
}

// parseDuplicate turns the form's text into a request, naming the field at
// fault.
func parseDuplicate(name, start, tz string) (api.DuplicateEvent, error) {
	tz = strings.TrimSpace(tz)
	loc, err := time.LoadLocation(tz)
	if err != nil || tz == "" {
		return api.DuplicateEvent{}, fmt.Errorf("timezone: %q is not a known timezone (try Europe/Lisbon or America/New_York)", tz)
	}
	at, err := time.ParseInLocation(startLayout, strings.TrimSpace(start), loc)
	if err != nil {
		return api.DuplicateEvent{}, fmt.Errorf("starts: %q is not a date and time like 2027-03-14 09:30", start)
	}
	return api.DuplicateEvent{Name: strings.TrimSpace(name), StartTime: at, Timezone: tz}, nil
}
