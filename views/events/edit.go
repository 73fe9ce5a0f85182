package events

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
)

// createdMsg answers a create; the list opens the new draft.
type createdMsg struct {
	event *api.Event
	err   error
}

func enumOptions(values []string, names map[string]string) []huh.Option[string] {
	opts := make([]huh.Option[string], len(values))
	for i, v := range values {
		opts[i] = huh.NewOption(ui.EnumLabel(names, v), v)
	}
	return opts
}

func required(field string) func(string) error {
	return func(v string) error {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("%s: required", field)
		}
		return nil
	}
}

func validTimezone(v string) error {
	if _, err := time.LoadLocation(strings.TrimSpace(v)); err != nil || strings.TrimSpace(v) == "" {
		return fmt.Errorf("timezone: %q is not a known timezone (try Europe/Lisbon or America/New_York)", v)
	}
	return nil
}

// parseLocal reads "YYYY-MM-DD HH:MM" in the named zone.
func parseLocal(field, v, tz string) (time.Time, error) {
	loc, err := time.LoadLocation(strings.TrimSpace(tz))
	if err != nil {
		loc = time.UTC
	}
	t, err := time.ParseInLocation(startLayout, strings.TrimSpace(v), loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s: %q is not a date and time like 2027-03-14 09:30", field, v)
	}
	return t, nil
}

// openCreateForm asks for a new draft: every field the create request
// takes, the schedule of a recurring event included.
func (s *ListScreen) openCreateForm() tea.Cmd {
	f := newEventForm(s.env.Now())
	var hubs []huh.Option[string]
	for _, id := range s.hubOrder {
		hubs = append(hubs, huh.NewOption(hubLabel(id, s.hubs), id))
	}
	if len(hubs) > 0 {
		f.hubID = s.hubOrder[0]
	}
	submit := func() tea.Cmd {
		req, err := f.create()
		if err != nil { // refused by the check: the form opens again
			return func() tea.Msg { return createdMsg{err: err} }
		}
		return s.create(req)
	}
	return s.Dialog.ShowForm(ui.NewKeptForm(s.Ctx.Theme, "New event (saved as a draft)", submit,
		func(fs *ui.Fields) []*huh.Group { return f.groups(fs, hubs, false) }))
}

// create saves a new draft in the background; createdMsg answers.
func (s *ListScreen) create(req *api.EventCreate) tea.Cmd {
	client := s.env.Client
	return s.creating.Detached(func() tea.Msg {
		e, err := client.Events.Create(context.Background(), req)
		return createdMsg{event: e, err: err}
	})
}

func (s *ListScreen) onCreated(m createdMsg) tea.Cmd {
	if m.err != nil {
		return tea.Batch(ui.Fail("create event", m.err), s.Dialog.Settle(m.err, ""))
	}
	s.Dialog.Settle(nil, "")
	e := *m.event
	return tea.Batch(ui.Toast(ui.ToastSuccess, fmt.Sprintf("Created the draft %q", e.Name)),
		s.reload(), ui.Push(NewDetail(s.Ctx, s.env, e, BucketDraft, s.hubs)))
}

// openEditForm edits every field an update accepts; only what changed is
// sent.
func (s *DetailScreen) openEditForm() tea.Cmd {
	orig := editForm(&s.event, s.env.Now())
	f := *orig
	f.categories, f.weekDays = slices.Clone(orig.categories), slices.Clone(orig.weekDays)
	var hubs []huh.Option[string]
	for id, name := range s.hubs {
		hubs = append(hubs, huh.NewOption(name, id))
	}
	slices.SortFunc(hubs, func(a, b huh.Option[string]) int { return strings.Compare(a.Key, b.Key) })
	submit := func() tea.Cmd {
		u, changed, err := f.update(orig)
		switch {
		case err != nil: // refused by the check: the form opens again
			id := s.event.EventID
			return func() tea.Msg { return actionDoneMsg{eventID: id, op: "save", err: err} }
		case !changed:
			return tea.Batch(ui.Toast(ui.ToastInfo, "Edit: nothing changed"),
				func() tea.Msg { return actionDoneMsg{eventID: s.event.EventID, op: "unchanged"} })
		}
		return s.run("save", func(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error) {
			return nil, c.Events.Update(ctx, id, u)
		})()
	}
	return s.Dialog.ShowForm(ui.NewKeptForm(s.Ctx.Theme, fmt.Sprintf("Edit %q", orig.name), submit,
		func(fs *ui.Fields) []*huh.Group { return f.groups(fs, hubs, true) }))
}
