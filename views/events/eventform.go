package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/huh/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/ui"
)

// eventForm is the text of the create and edit forms, bound to their
// fields. One form serves both, so a new event and an edited one ask the
// same questions in the same words; the request types' own Validate has
// the last word before anything is sent.
type eventForm struct {
	name, tagline, description, eventType, meetingType, hubID string
	timezone, start, end, lobbyStart, lobbyEnd                string
	access, attendance, place, contact                        string
	categories                                                []string
	tags, blocked                                             string // comma-separated

	// The schedule of a recurring event.
	repeat, every, monthBy, monthDays, endBy, endCount, endDate string
	duration                                                    string // minutes a session lasts; empty: the service's default
	weekDays                                                    []int
	monthWeek, monthWeekDay                                     int
}

// Repeat units, month modes and series ends, as the form's selects name them.
const (
	repeatDaily, repeatWeekly, repeatMonthly = "daily", "weekly", "monthly"
	byMonthDay, byWeekDay                    = "day", "week"
	endByCount, endByDate                    = "count", "date"
)

// newEventForm is a new event's defaults: a single webinar in two weeks.
func newEventForm(now time.Time) *eventForm {
	start := now.UTC().Add(14 * 24 * time.Hour).Truncate(time.Hour)
	return &eventForm{eventType: api.EventTypeSimple, meetingType: api.MeetingTypeWebinar,
		access: api.AccessPrivateUnrestricted, attendance: api.AttendanceVirtual, timezone: "UTC",
		start: start.Format(startLayout), end: start.Add(2 * time.Hour).Format(startLayout),
		repeat: repeatWeekly, every: "1", monthBy: byMonthDay, endBy: endByCount, endCount: "4",
		weekDays: []int{int(start.Weekday()) + 1}, monthDays: strconv.Itoa(start.Day()), monthWeek: 1, monthWeekDay: 2}
}

// editForm is the form for an existing event, every field as it is now.
func editForm(e *api.Event, now time.Time) *eventForm {
	f := newEventForm(now)
	loc := e.Location()
	local := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.In(loc).Format(startLayout)
	}
	f.name, f.tagline, f.description, f.eventType, f.hubID = e.Name, e.Tagline, e.Description, e.EventType, e.HubID
	f.timezone, f.access, f.attendance = e.Timezone, e.AccessLevel, e.AttendanceType
	f.place, f.contact, f.categories = e.PhysicalLocation, e.ContactName, slices.Clone(e.Categories)
	f.tags, f.blocked = strings.Join(e.Tags, ", "), strings.Join(e.BlockedCountries, ", ")
	f.start, f.end = local(e.StartTime), local(e.EndTime)
	if len(e.Calendar) > 0 {
		f.start, f.end = local(e.Calendar[0].StartTime), local(e.Calendar[0].EndTime)
	}
	f.lobbyStart, f.lobbyEnd = local(e.LobbyStartTime), local(e.LobbyEndTime)
	if r := e.Recurrence; r != nil {
		f.repeat = map[int]string{api.RecurrenceDaily: repeatDaily, api.RecurrenceWeekly: repeatWeekly,
			api.RecurrenceMonthly: repeatMonthly}[r.Type]
		f.every = strconv.Itoa(max(r.RepeatInterval, 1))
		if r.Duration > 0 {
			f.duration = strconv.Itoa(r.Duration)
		}
		if r.WeeklyDays != nil {
			f.weekDays = slices.Clone(r.WeeklyDays.Days)
		}
		switch {
		case r.MonthlyDays != nil && len(r.MonthlyDays.Days) > 0:
			f.monthBy, f.monthDays = byMonthDay, joinInts(r.MonthlyDays.Days)
		case r.MonthlyWeek != 0:
			f.monthBy, f.monthWeek, f.monthWeekDay = byWeekDay, r.MonthlyWeek, r.MonthlyWeekDay
		}
		switch {
		case r.EndDateTime != nil:
			f.endBy, f.endDate = endByDate, r.EndDateTime.In(loc).Format(startLayout)
		case r.EndTimes > 0:
			f.endBy, f.endCount = endByCount, strconv.Itoa(r.EndTimes)
		}
	}
	return f
}

// groups are the form's pages; edit leaves out what an update cannot
// change (the meeting type goes through the session API).
func (f *eventForm) groups(fs *ui.Fields, hubs []huh.Option[string], edit bool) []*huh.Group {
	recurring := func() bool { return f.eventType != api.EventTypeRecurring }
	var hubField huh.Field
	if len(hubs) > 0 {
		hubField = huh.NewSelect[string]().Key("hub_id").Title("Hub").Options(hubs...).Value(&f.hubID)
	} else {
		hubField = huh.NewInput().Key("hub_id").Title(ui.Required("Hub id")).Value(&f.hubID).Validate(required("hub"))
	}
	groups := []*huh.Group{
		fs.Group(
			huh.NewInput().Key("name").Title(ui.Required("Name")).Description(ui.RequiredNote).Value(&f.name).CharLimit(200).Validate(required("name")),
			huh.NewInput().Key("tagline").Title("Tagline").Value(&f.tagline).CharLimit(200),
			huh.NewText().Key("description").Title(ui.Required("Description")).Value(&f.description).Lines(3).Validate(required("description")),
			huh.NewSelect[string]().Key("event_type").Title("Type").Options(enumOptions(api.EventTypes, api.EventTypeLabels)...).Value(&f.eventType),
			hubField,
		),
	}
	if !edit {
		groups = append(groups, fs.Group(
			huh.NewSelect[string]().Key("meeting_type").Title("Meeting type").Description("A single-session event is a meeting or a webinar").
				Options(enumOptions(api.MeetingTypes, api.MeetingTypeLabels)...).Value(&f.meetingType),
		).WithHideFunc(fs.Hide(func() bool { return f.eventType != api.EventTypeSimple })))
	}
	optionalTime := func(field string) func(string) error {
		return func(v string) error {
			if strings.TrimSpace(v) == "" {
				return nil
			}
			_, err := parseLocal(field, v, f.timezone)
			return err
		}
	}
	groups = append(groups,
		fs.Group(
			huh.NewInput().Key("timezone").Title(ui.Required("Timezone")).Description("IANA name, for example Europe/Lisbon").Value(&f.timezone).Validate(validTimezone),
			huh.NewInput().Key("start_time").Title(ui.Required("Starts")).Description("YYYY-MM-DD HH:MM in the timezone above").Value(&f.start).
				Validate(func(v string) error { _, err := parseLocal("starts", v, f.timezone); return err }),
			huh.NewInput().Key("calendar").Title(ui.Required("Ends")).Description("after the start, at most 6 days later").Value(&f.end).
				Validate(func(v string) error { _, err := f.schedule(v); return err }),
			huh.NewInput().Key("lobby_start_time").Title("Lobby opens").Description("optional, YYYY-MM-DD HH:MM").Value(&f.lobbyStart).Validate(optionalTime("lobby opens")),
			huh.NewInput().Key("lobby_end_time").Title("Lobby closes").Description("optional, YYYY-MM-DD HH:MM").Value(&f.lobbyEnd).Validate(optionalTime("lobby closes")),
		),
		fs.Group(
			huh.NewSelect[string]().Key("recurrence.type").Title("Repeats").Options(
				huh.NewOption("Daily", repeatDaily), huh.NewOption("Weekly", repeatWeekly), huh.NewOption("Monthly", repeatMonthly)).
				Value(&f.repeat),
			huh.NewInput().Key("recurrence.repeat_interval").Title(ui.Required("Every")).Description("1-90 days, 1-12 weeks or 1-3 months").Value(&f.every).
				Validate(func(string) error { _, err := f.recurrence(); return fieldOnly(err, "repeat_interval") }),
			huh.NewInput().Key("recurrence.duration").Title("Session length").Description("minutes each session lasts; optional").Value(&f.duration).
				Validate(func(string) error { _, err := f.recurrence(); return fieldOnly(err, "duration") }),
			huh.NewSelect[string]().Title("Ends").Options(
				huh.NewOption("After a number of occurrences", endByCount), huh.NewOption("On a date", endByDate)).Value(&f.endBy),
			huh.NewInput().Key("recurrence.end_times").Title("Occurrences").Description("when it ends after a number of them").Value(&f.endCount).
				Validate(func(string) error { _, err := f.recurrence(); return fieldOnly(err, "end_times") }),
			huh.NewInput().Key("recurrence.end_date_time").Title("End date").Description("when it ends on a date: YYYY-MM-DD HH:MM").Value(&f.endDate).
				Validate(func(string) error { _, err := f.recurrence(); return fieldOnly(err, "end_date_time") }),
		).Title("Schedule of the recurring event").WithHideFunc(fs.Hide(recurring)),
		fs.Group(
			huh.NewMultiSelect[int]().Key("recurrence.weekly_days").Title(ui.Required("On")).Options(weekdayOptions()...).Value(&f.weekDays).
				Validate(func([]int) error { _, err := f.recurrence(); return fieldOnly(err, "weekly_days") }),
		).Title("Weekly schedule").WithHideFunc(fs.Hide(func() bool { return recurring() || f.repeat != repeatWeekly })),
		fs.Group(
			huh.NewSelect[string]().Title("On").Options(
				huh.NewOption("Days of the month", byMonthDay), huh.NewOption("A weekday of a week", byWeekDay)).Value(&f.monthBy),
			huh.NewInput().Key("recurrence.monthly_days").Title("Days of the month").Description("for days of the month: 1 to 31, separated by commas").
				Value(&f.monthDays).Validate(func(string) error { _, err := f.recurrence(); return fieldOnly(err, "monthly_days") }),
			huh.NewSelect[int]().Key("recurrence.monthly_week").Title("Week").Options(huh.NewOption("First", 1), huh.NewOption("Second", 2),
				huh.NewOption("Third", 3), huh.NewOption("Fourth", 4), huh.NewOption("Last", -1)).Value(&f.monthWeek),
			huh.NewSelect[int]().Key("recurrence.monthly_week_day").Title("Weekday").Options(weekdayOptions()...).Value(&f.monthWeekDay),
		).Title("Monthly schedule").WithHideFunc(fs.Hide(func() bool { return recurring() || f.repeat != repeatMonthly })),
		fs.Group(
			huh.NewSelect[string]().Key("access_level").Title("Access").Options(enumOptions(api.AccessLevels, api.AccessLevelLabels)...).Value(&f.access),
			huh.NewSelect[string]().Key("attendance_type").Title("Attendance").Options(enumOptions(api.AttendanceTypes, api.AttendanceLabels)...).Value(&f.attendance),
			huh.NewInput().Key("physical_location").Title("Location (deprecated)").
				Description("physical_location, for in-person and hybrid events; optional. The provider deprecates it: the event's venue replaces it, and the API sets no venue").
				Value(&f.place),
			huh.NewInput().Key("contact_name").Title("Contact name").Value(&f.contact),
			huh.NewMultiSelect[string]().Key("categories").Title("Categories").Options(huh.NewOptions(api.Categories...)...).Value(&f.categories).Height(6),
			huh.NewInput().Key("tags").Title("Tags").Description("separated by commas, at most 200").Value(&f.tags).
				Validate(func(v string) error { return maxItems("tags", splitList(v), 200) }),
			huh.NewInput().Key("blocked_countries").Title("Blocked countries").Description("ISO codes such as FR, separated by commas").Value(&f.blocked).
				Validate(func(v string) error { return countryCodes(splitList(v)) }),
		),
	)
	return groups
}

func weekdayOptions() []huh.Option[int] {
	opts := make([]huh.Option[int], 7)
	for d := 1; d <= 7; d++ {
		opts[d-1] = huh.NewOption(weekday(d), d)
	}
	return opts
}

// fieldOnly keeps a validation error only when it is about field (so each
// field of the schedule reports its own problem).
func fieldOnly(err error, field string) error {
	var ve *api.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			if strings.HasSuffix(p.Field, field) {
				return fmt.Errorf("%s %s", field, p.Message)
			}
		}
		return nil
	}
	return err
}

// recurrence builds the recurring schedule from the form, checked by the
// request type's rules.
func (f *eventForm) recurrence() (*api.Recurrence, error) {
	every, err := strconv.Atoi(strings.TrimSpace(f.every))
	if err != nil {
		return nil, &api.ValidationError{Problems: []api.FieldError{{Field: "repeat_interval", Message: fmt.Sprintf("%q is not a whole number", f.every)}}}
	}
	r := &api.Recurrence{RepeatInterval: every}
	if d := strings.TrimSpace(f.duration); d != "" {
		if r.Duration, err = strconv.Atoi(d); err != nil || r.Duration < 1 {
			return nil, &api.ValidationError{Problems: []api.FieldError{{Field: "duration", Message: fmt.Sprintf("%q is not a number of minutes (1 or more)", f.duration)}}}
		}
	}
	switch f.repeat {
	case repeatDaily:
		r.Type = api.RecurrenceDaily
	case repeatWeekly:
		r.Type = api.RecurrenceWeekly
		days := slices.Sorted(slices.Values(f.weekDays))
		if len(days) == 0 {
			return nil, &api.ValidationError{Problems: []api.FieldError{{Field: "weekly_days", Message: "choose at least one day"}}}
		}
		w := api.NewWeekDays(false, days...)
		r.WeeklyDays = &w
	default:
		r.Type = api.RecurrenceMonthly
		if f.monthBy == byWeekDay {
			r.MonthlyWeek, r.MonthlyWeekDay = f.monthWeek, f.monthWeekDay
		} else {
			days, err := parseInts(f.monthDays)
			if err != nil || len(days) == 0 {
				return nil, &api.ValidationError{Problems: []api.FieldError{{Field: "monthly_days", Message: "enter days of the month such as 1, 15"}}}
			}
			m := api.NewMonthDays(false, days...)
			r.MonthlyDays = &m
		}
	}
	if f.endBy == endByDate {
		at, err := parseLocal("end_date_time", f.endDate, f.timezone)
		if err != nil {
			return nil, &api.ValidationError{Problems: []api.FieldError{{Field: "end_date_time", Message: err.Error()}}}
		}
		at = at.UTC()
		r.EndDateTime = &at
	} else {
		n, err := strconv.Atoi(strings.TrimSpace(f.endCount))
		if err != nil || n < 1 {
			return nil, &api.ValidationError{Problems: []api.FieldError{{Field: "end_times", Message: "enter how many occurrences, 1 or more"}}}
		}
		r.EndTimes = n
	}
	return r, r.Validate()
}

// schedule checks the end against the start and returns both.
func (f *eventForm) schedule(end string) ([2]time.Time, error) {
	st, err := parseLocal("starts", f.start, f.timezone)
	if err != nil {
		return [2]time.Time{}, err
	}
	en, err := parseLocal("ends", end, f.timezone)
	if err != nil {
		return [2]time.Time{}, err
	}
	if !en.After(st) {
		return [2]time.Time{}, errors.New("ends: must be after the start")
	}
	if en.Sub(st) > 6*24*time.Hour {
		return [2]time.Time{}, errors.New("ends: an event's schedule can be at most 6 days long")
	}
	return [2]time.Time{st.UTC(), en.UTC()}, nil
}

// optionalTime reads an optional local time field ("" is none).
func (f *eventForm) optionalTime(field, v string) (*time.Time, error) {
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	t, err := parseLocal(field, v, f.timezone)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// create is the create request the form describes.
func (f *eventForm) create() (*api.EventCreate, error) {
	se, err := f.schedule(f.end)
	if err != nil {
		return nil, err
	}
	req := &api.EventCreate{Name: strings.TrimSpace(f.name), Description: strings.TrimSpace(f.description),
		Tagline: strings.TrimSpace(f.tagline), Timezone: strings.TrimSpace(f.timezone), EventType: f.eventType,
		HubID: f.hubID, AccessLevel: f.access, AttendanceType: f.attendance, ContactName: strings.TrimSpace(f.contact),
		Categories: f.categories, Tags: splitList(f.tags), BlockedCountries: upper(splitList(f.blocked)),
		Calendar: []api.CalendarEntry{{StartTime: &se[0], EndTime: &se[1]}}}
	if req.LobbyStartTime, err = f.optionalTime("lobby opens", f.lobbyStart); err != nil {
		return nil, err
	}
	if req.LobbyEndTime, err = f.optionalTime("lobby closes", f.lobbyEnd); err != nil {
		return nil, err
	}
	switch f.eventType {
	case api.EventTypeSimple:
		req.MeetingType = f.meetingType
	case api.EventTypeRecurring:
		if req.Recurrence, err = f.recurrence(); err != nil {
			return nil, err
		}
	}
	if f.attendance != api.AttendanceVirtual {
		req.PhysicalLocation = strings.TrimSpace(f.place)
	}
	return req, req.Validate()
}

// update is the update request for what changed since orig (the form as
// editForm built it): nothing else is sent. ok is false when nothing
// changed.
func (f *eventForm) update(orig *eventForm) (u *api.EventUpdate, ok bool, err error) {
	u = &api.EventUpdate{}
	text := func(dst **string, was, now string) {
		if now = strings.TrimSpace(now); now != strings.TrimSpace(was) {
			*dst, ok = &now, true
		}
	}
	text(&u.Name, orig.name, f.name)
	text(&u.Tagline, orig.tagline, f.tagline)
	text(&u.Description, orig.description, f.description)
	text(&u.Timezone, orig.timezone, f.timezone)
	text(&u.EventType, orig.eventType, f.eventType)
	text(&u.HubID, orig.hubID, f.hubID)
	text(&u.AccessLevel, orig.access, f.access)
	text(&u.AttendanceType, orig.attendance, f.attendance)
	text(&u.ContactName, orig.contact, f.contact)
	text(&u.PhysicalLocation, orig.place, f.place)
	list := func(dst *[]string, was, now []string) {
		if !slices.Equal(was, now) {
			*dst, ok = now, true
			if len(now) == 0 {
				*dst = []string{} // an empty list clears them
			}
		}
	}
	list(&u.Categories, orig.categories, f.categories)
	list(&u.Tags, splitList(orig.tags), splitList(f.tags))
	list(&u.BlockedCountries, upper(splitList(orig.blocked)), upper(splitList(f.blocked)))
	if f.start != orig.start || f.end != orig.end || f.timezone != orig.timezone {
		se, err := f.schedule(f.end)
		if err != nil {
			return nil, false, err
		}
		u.Calendar, ok = []api.CalendarEntry{{StartTime: &se[0], EndTime: &se[1]}}, true
	}
	if f.lobbyStart != orig.lobbyStart {
		if u.LobbyStartTime, err = f.optionalTime("lobby opens", f.lobbyStart); err != nil {
			return nil, false, err
		}
		ok = true
	}
	if f.lobbyEnd != orig.lobbyEnd {
		if u.LobbyEndTime, err = f.optionalTime("lobby closes", f.lobbyEnd); err != nil {
			return nil, false, err
		}
		ok = true
	}
	if f.eventType == api.EventTypeRecurring {
		now, err := f.recurrence()
		if err != nil {
			return nil, false, err
		}
		was, _ := orig.recurrence()
		if orig.eventType != api.EventTypeRecurring || !sameRecurrence(was, now) {
			u.Recurrence, ok = now, true
		}
	}
	if !ok {
		return nil, false, nil
	}
	return u, true, u.Validate()
}

// sameRecurrence compares two schedules by what they say (their JSON), not
// by the addresses of their optional parts.
func sameRecurrence(a, b *api.Recurrence) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// splitList reads a comma-separated list, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func upper(ss []string) []string {
	for i, s := range ss {
		ss[i] = strings.ToUpper(s)
	}
	return ss
}

func maxItems(field string, items []string, n int) error {
	if len(items) > n {
		return fmt.Errorf("%s: %d given, at most %d", field, len(items), n)
	}
	return nil
}

// countryCodes checks blocked countries: ISO 3166 two-letter codes, at
// most 200.
func countryCodes(codes []string) error {
	if err := maxItems("blocked countries", codes, 200); err != nil {
		return err
	}
	for _, c := range codes {
		if len(c) != 2 || strings.Trim(strings.ToUpper(c), "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
			return fmt.Errorf("blocked countries: %q is not a two-letter country code such as FR", c)
		}
	}
	return nil
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, p := range splitList(s) {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}
