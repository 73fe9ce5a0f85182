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

// createdMsg answers a create; the list opens the new draft.
type createdMsg struct {
	event *api.Event
	err   error
}

// draftForm is the text of the create form, bound to its fields.
type draftForm struct {
	name, description, eventType, meetingType, hubID string
	timezone, start, end, access, attendance, place  string
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

// openCreateForm asks for a new draft's essentials; the request type's own
// Validate has the last word before anything is sent.
func (s *ListScreen) openCreateForm() tea.Cmd {
	f := &draftForm{eventType: api.EventTypeSimple, meetingType: api.MeetingTypeWebinar,
		access: api.AccessPrivateUnrestricted, attendance: api.AttendanceVirtual, timezone: "UTC"}
	start := s.deps.Now().Add(14 * 24 * time.Hour).Truncate(time.Hour)
	f.start, f.end = start.Format(startLayout), start.Add(2*time.Hour).Format(startLayout)
	var hubs []huh.Option[string]
	for _, id := range s.hubOrder {
		hubs = append(hubs, huh.NewOption(hubLabel(id, s.hubs), id))
	}
	var hubField huh.Field
	if len(hubs) > 0 {
		f.hubID = s.hubOrder[0]
		hubField = huh.NewSelect[string]().Title("Hub").Options(hubs...).Value(&f.hubID)
	} else {
		hubField = huh.NewInput().Title("Hub id").Value(&f.hubID).Validate(required("hub"))
	}
	submit := func() tea.Cmd {
		req, err := f.request()
		if err != nil {
			return s.onCreated(createdMsg{err: err})
		}
		return s.create(req)
	}
	form := ui.NewForm(s.ctx.Theme, "New event (saved as a draft)", submit,
		huh.NewGroup(
			huh.NewInput().Title("Name").Value(&f.name).CharLimit(200).Validate(required("name")),
			huh.NewText().Title("Description").Value(&f.description).Lines(3).Validate(required("description")),
			huh.NewSelect[string]().Title("Type").Options(enumOptions(api.EventTypes, api.EventTypeLabels)...).Value(&f.eventType),
			huh.NewSelect[string]().Title("Meeting type").Description("Used by single-session events").
				Options(enumOptions(api.MeetingTypes, nil)...).Value(&f.meetingType),
			hubField,
		),
		huh.NewGroup(
			huh.NewInput().Title("Timezone").Value(&f.timezone).Validate(validTimezone),
			huh.NewInput().Title("Starts").Description("YYYY-MM-DD HH:MM in the timezone above").Value(&f.start).
				Validate(func(v string) error { _, err := parseLocal("starts", v, f.timezone); return err }),
			huh.NewInput().Title("Ends").Description("after the start, at most 6 days later").Value(&f.end).
				Validate(func(v string) error { _, err := f.schedule(v); return err }),
			huh.NewSelect[string]().Title("Access").Options(enumOptions(api.AccessLevels, api.AccessLevelLabels)...).Value(&f.access),
			huh.NewSelect[string]().Title("Attendance").Options(enumOptions(api.AttendanceTypes, api.AttendanceLabels)...).Value(&f.attendance),
			huh.NewInput().Title("Location").Description("For in-person and hybrid events; optional").Value(&f.place),
		),
	)
	return s.dialog.ShowForm(form)
}

// create saves a new draft in the background; createdMsg answers.
func (s *ListScreen) create(req *api.EventCreate) tea.Cmd {
	client := s.deps.Client
	return s.creating.Detached(func() tea.Msg {
		e, err := client.Events.Create(context.Background(), req)
		return createdMsg{event: e, err: err}
	})
}

// schedule checks the end against the start and returns both.
func (f *draftForm) schedule(end string) ([2]time.Time, error) {
	st, err := parseLocal("starts", f.start, f.timezone)
	if err != nil {
		return [2]time.Time{}, err
	}
	en, err := parseLocal("ends", end, f.timezone)
	if err != nil {
		return [2]time.Time{}, err
	}
	if !en.After(st) {
		return [2]time.Time{}, fmt.Errorf("ends: must be after the start (%s)", f.start)
	}
	return [2]time.Time{st.UTC(), en.UTC()}, nil
}

func (f *draftForm) request() (*api.EventCreate, error) {
	se, err := f.schedule(f.end)
	if err != nil {
		return nil, err
	}
	req := &api.EventCreate{Name: strings.TrimSpace(f.name), Description: strings.TrimSpace(f.description),
		Timezone: strings.TrimSpace(f.timezone), EventType: f.eventType, HubID: f.hubID, AccessLevel: f.access,
		AttendanceType: f.attendance, Calendar: []api.CalendarEntry{{StartTime: &se[0], EndTime: &se[1]}}}
	if f.eventType == api.EventTypeSimple {
		req.MeetingType = f.meetingType
	}
	if f.attendance != api.AttendanceVirtual {
		req.PhysicalLocation = strings.TrimSpace(f.place)
	}
	return req, req.Validate()
}

func (s *ListScreen) onCreated(m createdMsg) tea.Cmd {
	if m.err != nil {
		return ui.Toast(ui.ToastError, "Create event: "+m.err.Error())
	}
	e := *m.event
	return tea.Batch(ui.Toast(ui.ToastSuccess, fmt.Sprintf("Created the draft %q", e.Name)),
		s.reload(), ui.Push(NewDetail(s.ctx, s.deps, e, BucketDraft, s.hubs)))
}

// openEditForm edits the fields people change most; only what changed is sent.
func (s *DetailScreen) openEditForm() tea.Cmd {
	orig := s.event
	name, tagline, description, contact := orig.Name, orig.Tagline, orig.Description, orig.ContactName
	submit := func() tea.Cmd {
		var u api.EventUpdate
		anyChange := false
		changed := func(dst **string, was, now string) {
			if now = strings.TrimSpace(now); now != was {
				*dst, anyChange = &now, true
			}
		}
		changed(&u.Name, orig.Name, name)
		changed(&u.Tagline, orig.Tagline, tagline)
		changed(&u.Description, orig.Description, description)
		changed(&u.ContactName, orig.ContactName, contact)
		if !anyChange {
			return ui.Toast(ui.ToastInfo, "Edit: "+errNothingChanged.Error())
		}
		return s.run("save", func(ctx context.Context, c *api.Client, id string) (*api.ActionResult, error) {
			return nil, c.Events.Update(ctx, id, &u)
		})()
	}
	form := ui.NewForm(s.ctx.Theme, fmt.Sprintf("Edit %q", orig.Name), submit,
		huh.NewGroup(
			huh.NewInput().Title("Name").Value(&name).CharLimit(200).Validate(required("name")),
			huh.NewInput().Title("Tagline").Value(&tagline).CharLimit(200),
			huh.NewText().Title("Description").Value(&description).Lines(4).Validate(required("description")),
			huh.NewInput().Title("Contact name").Value(&contact),
		))
	return s.dialog.ShowForm(form)
}

var errNothingChanged = fmt.Errorf("nothing changed")
