package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
)

const startLayout = "2006-01-02 15:04"

// registrantsMsg answers how many people registered for the event, which
// decides whether cancelling needs a message.
type registrantsMsg struct {
	n   int
	err error
}

// openCancelForm first counts the registrants: the provider requires a
// message when anyone registered, and the form checks it before sending.
func (s *DetailScreen) openCancelForm() tea.Cmd {
	id, client := s.event.EventID, s.env.Client
	return s.Start("counting registrants", func(ctx context.Context) tea.Msg {
		page, err := client.Attendees.RegistrantsPage(ctx, id, api.ListRegistrantsOptions{PageSize: 1}, "")
		if err != nil {
			return registrantsMsg{err: err}
		}
		return registrantsMsg{n: page.TotalRecords}
	})
}

// cancelDraft is what the cancel form knows and keeps across a refusal.
type cancelDraft struct {
	registrants int // -1: unknown
	message     string
	refused     error // the server's last refusal, shown in the form
}

// showCancelForm asks for the message and for a yes, which is not the
// default: Enter alone never cancels an event.
func (s *DetailScreen) showCancelForm(d cancelDraft) tea.Cmd {
	message, yes := d.message, false
	needMessage := d.registrants != 0
	about, missing := "Nobody has registered: a message is optional.", ""
	switch {
	case d.registrants < 0:
		about = "The registrants could not be counted (the list needs the registrants scope, or the server failed): write a message in case anyone registered."
		missing = "a message is required in case anyone registered"
	case d.registrants == 1:
		about, missing = "1 person registered and receives this message.", "a message is required: 1 person registered"
	case d.registrants > 1:
		n := ui.Thousands(d.registrants)
		about = n + " people registered and receive this message."
		missing = "a message is required: " + n + " people registered"
	}
	title := "Message to registrants"
	if needMessage {
		title = ui.Required(title)
	}
	var fields []huh.Field
	if d.refused != nil {
		fields = append(fields, huh.NewNote().Title("The server refused the cancellation").Description(ui.NoteText(d.refused.Error())))
	}
	fields = append(fields,
		huh.NewText().Title(title).Description(about).Lines(3).CharLimit(1000).Value(&message).
			Validate(func(v string) error {
				if needMessage && strings.TrimSpace(v) == "" {
					return errors.New(missing)
				}
				return nil
			}),
		huh.NewConfirm().Title(fmt.Sprintf("Cancel %q? This cannot be undone.", s.event.Name)).
			Affirmative("Cancel the event").Negative("Keep it").Value(&yes),
	)
	f := ui.NewForm(s.Ctx.Theme, fmt.Sprintf("Cancel %q", s.event.Name), func() tea.Cmd {
		if !yes {
			return ui.Toast(ui.ToastInfo, "Kept: the event was not cancelled")
		}
		d.message, d.refused = strings.TrimSpace(message), nil
		s.cancelling = &d
		return s.run("cancel", func(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error) {
			return c.Events.Cancel(ctx, id, d.message)
		})()
	}, huh.NewGroup(fields...))
	return s.Dialog.ShowForm(f)
}

// openDuplicateForm asks for the copy's name, start and timezone.
func (s *DetailScreen) openDuplicateForm() tea.Cmd {
	loc := s.event.Location()
	name := "Copy of " + s.event.Name
	start := s.env.Now().In(loc).Add(7 * 24 * time.Hour).Truncate(time.Hour).Format(startLayout)
	if s.event.StartTime != nil && s.event.StartTime.After(s.env.Now()) {
		start = s.event.StartTime.Add(7 * 24 * time.Hour).In(loc).Format(startLayout)
	}
	tz := s.event.Timezone
	f := ui.NewForm(s.Ctx.Theme, fmt.Sprintf("Duplicate %q", s.event.Name),
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
				_, err := parseDuplicate("x", "2027-03-14 09:30", v) // any start: only the zone is checked
				return err
			}),
		))
	return s.Dialog.ShowForm(f)
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
