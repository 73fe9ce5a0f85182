package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
)

// eventBody is a create or update body as sent: pointers tell an absent
// field from an empty one, times stay text until checked against the spec's
// form. Read-only fields (start_time, end_time, ...) are not read.
type eventBody struct {
	Name             *string         `json:"name"`
	Description      *string         `json:"description"`
	Timezone         *string         `json:"timezone"`
	EventType        *string         `json:"event_type"`
	HubID            *string         `json:"hub_id"`
	AccessLevel      *string         `json:"access_level"`
	AttendanceType   *string         `json:"attendance_type"`
	BlockedCountries *[]string       `json:"blocked_countries"`
	Calendar         *[]calendarBody `json:"calendar"`
	Categories       *[]string       `json:"categories"`
	ContactName      *string         `json:"contact_name"`
	LobbyStartTime   *string         `json:"lobby_start_time"`
	LobbyEndTime     *string         `json:"lobby_end_time"`
	MeetingType      *string         `json:"meeting_type"`
	PhysicalLocation *string         `json:"physical_location"`
	Recurrence       *recurrenceBody `json:"recurrence"`
	Tagline          *string         `json:"tagline"`
	Tags             *[]string       `json:"tags"`
	times            map[string]*time.Time
	calendar         []api.CalendarEntry
	recurrence       *api.Recurrence
}

type calendarBody struct {
	StartTime *string `json:"start_time"`
	EndTime   *string `json:"end_time"`
}

type recurrenceBody struct {
	Type           *int            `json:"type"`
	RepeatInterval *int            `json:"repeat_interval"`
	Duration       *int            `json:"duration"`
	EndTimes       *int            `json:"end_times"`
	EndDateTime    *string         `json:"end_date_time"`
	WeeklyDays     json.RawMessage `json:"weekly_days"`
	MonthlyDays    json.RawMessage `json:"monthly_days"`
	MonthlyWeek    *int            `json:"monthly_week"`
	MonthlyWeekDay *int            `json:"monthly_week_day"`
}

// readTimes parses every date-time of the body; a malformed one is a
// problem naming its field.
func (b *eventBody) readTimes(c *checks) {
	b.times = map[string]*time.Time{
		"lobby_start_time": c.dateTime("lobby_start_time", b.LobbyStartTime),
		"lobby_end_time":   c.dateTime("lobby_end_time", b.LobbyEndTime),
	}
	if b.Calendar != nil {
		b.calendar = make([]api.CalendarEntry, len(*b.Calendar))
		for i, e := range *b.Calendar {
			field := fmt.Sprintf("calendar[%d]", i)
			b.calendar[i] = api.CalendarEntry{StartTime: c.dateTime(field+".start_time", e.StartTime),
				EndTime: c.dateTime(field+".end_time", e.EndTime)}
		}
	}
}

// calendarCodes applies the create-event codes of the spec, in the order
// 26204 (entry incomplete), 26203 (end not after start), 26202 (span).
func calendarCodes(cal []calendarBody, parsed []api.CalendarEntry) error {
	for _, e := range cal {
		if e.StartTime == nil || e.EndTime == nil || *e.StartTime == "" || *e.EndTime == "" {
			return badRequest(api.CodeCalendarIncomplete, "Calendar must contain start_time and end_time.")
		}
	}
	var first, last time.Time
	for _, e := range parsed {
		if !e.EndTime.After(*e.StartTime) {
			return badRequest(api.CodeEndBeforeStart, "Event end_time must be after event start_time.")
		}
		if first.IsZero() || e.StartTime.Before(first) {
			first = *e.StartTime
		}
		if e.EndTime.After(last) {
			last = *e.EndTime
		}
	}
	if len(parsed) > 0 && last.Sub(first) > maxScheduleSpan {
		return badRequest(api.CodeScheduleTooLong, "Event schedule cannot be more than 6 days.")
	}
	return nil
}

// checkFields applies the rules both create and update share to the fields
// that were sent.
func (b *eventBody) checkFields(c *checks) {
	c.timezone("timezone", b.Timezone)
	c.among("event_type", b.EventType, eventTypes)
	c.among("access_level", b.AccessLevel, accessLevels)
	c.among("attendance_type", b.AttendanceType, attendanceTypes)
	c.among("meeting_type", b.MeetingType, meetingTypes)
	if b.Categories != nil {
		c.atMost("categories", len(*b.Categories), maxCategories, "categories")
		for _, cat := range *b.Categories {
			c.among("categories", &cat, eventCategories)
		}
	}
	if b.Tags != nil {
		c.atMost("tags", len(*b.Tags), maxTags, "tags")
	}
	if b.BlockedCountries != nil {
		c.countries("blocked_countries", *b.BlockedCountries)
	}
	if b.Calendar != nil {
		c.atMost("calendar", len(*b.Calendar), maxCalendarEntries, "entries")
	}
	if s, e := b.times["lobby_start_time"], b.times["lobby_end_time"]; s != nil && e != nil && !e.After(*s) {
		c.add("lobby_end_time", "must be after lobby_start_time.")
	}
	if b.Recurrence != nil {
		b.recurrence = b.Recurrence.check(c)
	}
}

// checkCalendarFields reports calendar problems as fields (update: the spec
// lists its calendar codes for create only).
func (b *eventBody) checkCalendarFields(c *checks) {
	var first, last time.Time
	for i, e := range b.calendar {
		field := fmt.Sprintf("calendar[%d]", i)
		switch {
		case e.StartTime == nil || e.EndTime == nil:
			c.add(field, "needs both start_time and end_time.")
			continue
		case !e.EndTime.After(*e.StartTime):
			c.add(field+".end_time", "must be after start_time.")
		}
		if first.IsZero() || e.StartTime.Before(first) {
			first = *e.StartTime
		}
		if e.EndTime.After(last) {
			last = *e.EndTime
		}
	}
	if !first.IsZero() && last.Sub(first) > maxScheduleSpan {
		c.add("calendar", "spans more than 6 days.")
	}
}

// check reads a recurrence, applying the spec's ranges (2.3). Day lists
// come as arrays (create) or in the compact form (get, list, update).
func (r *recurrenceBody) check(c *checks) *api.Recurrence {
	out := &api.Recurrence{}
	get := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	out.Type, out.RepeatInterval, out.Duration, out.EndTimes = get(r.Type), get(r.RepeatInterval), get(r.Duration), get(r.EndTimes)
	out.MonthlyWeek, out.MonthlyWeekDay = get(r.MonthlyWeek), get(r.MonthlyWeekDay)
	limit, ok := repeatLimits[out.Type]
	switch {
	case !ok:
		c.add("recurrence.type", "%d is not allowed; use 1 (daily), 2 (weekly) or 3 (monthly).", out.Type)
	case r.RepeatInterval != nil && (out.RepeatInterval < 1 || out.RepeatInterval > limit):
		c.add("recurrence.repeat_interval", "%d is out of range; this type allows 1 to %d.", out.RepeatInterval, limit)
	}
	if r.Duration != nil && out.Duration < 1 {
		c.add("recurrence.duration", "must be a positive number of minutes.")
	}
	if r.EndTimes != nil && out.EndTimes < 1 {
		c.add("recurrence.end_times", "must be a positive number of occurrences.")
	}
	out.EndDateTime = c.dateTime("recurrence.end_date_time", r.EndDateTime)
	if days, ok := readDays(c, "recurrence.weekly_days", r.WeeklyDays, 7); ok {
		wd := api.NewWeekDays(false, days...)
		out.WeeklyDays = &wd
	}
	if days, ok := readDays(c, "recurrence.monthly_days", r.MonthlyDays, 31); ok {
		md := api.NewMonthDays(false, days...)
		out.MonthlyDays = &md
	}
	if r.MonthlyWeek != nil && !slices.Contains([]int{-1, 1, 2, 3, 4}, out.MonthlyWeek) {
		c.add("recurrence.monthly_week", "%d is not allowed; use -1 (last week) or 1 to 4.", out.MonthlyWeek)
	}
	if r.MonthlyWeekDay != nil && (out.MonthlyWeekDay < 1 || out.MonthlyWeekDay > 7) {
		c.add("recurrence.monthly_week_day", "%d is not a weekday; use 1 (Sunday) to 7 (Saturday).", out.MonthlyWeekDay)
	}
	return out
}

// readDays reads a day list (an array, a comma-separated string or one
// integer), each day from 1 to top; ok is false when absent or wrong.
func readDays(c *checks, field string, raw json.RawMessage, top int) ([]int, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, false
	}
	var days []int
	var text string
	var one int
	switch {
	case json.Unmarshal(raw, &days) == nil:
	case json.Unmarshal(raw, &text) == nil:
		for part := range strings.SplitSeq(text, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(part))
			if err != nil {
				c.add(field, "%q is not a list of day numbers.", text)
				return nil, false
			}
			days = append(days, n)
		}
	case json.Unmarshal(raw, &one) == nil:
		days = []int{one}
	default:
		c.add(field, "is not a list of day numbers.")
		return nil, false
	}
	for _, d := range days {
		if d < 1 || d > top {
			c.add(field, "%d is out of range; use 1 to %d.", d, top)
			return nil, false
		}
	}
	return days, len(days) > 0
}

// checkCreate applies the create rules (spec 2.1, C column) and returns the
// first error: malformed times, then the calendar codes, then fields.
func (b *eventBody) checkCreate() error {
	var c checks
	b.readTimes(&c)
	if err := c.err(); err != nil {
		return err
	}
	if b.Calendar != nil {
		if err := calendarCodes(*b.Calendar, b.calendar); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"name", b.Name}, {"description", b.Description}, {"timezone", b.Timezone}, {"event_type", b.EventType},
		{"hub_id", b.HubID}, {"access_level", b.AccessLevel}, {"attendance_type", b.AttendanceType}} {
		c.present(f.name, f.v)
	}
	b.checkFields(&c)
	if str(b.EventType) == "SIMPLE_EVENT" && strings.TrimSpace(str(b.MeetingType)) == "" {
		c.add("meeting_type", "is required for a single-session event (SIMPLE_EVENT).")
	}
	if str(b.PhysicalLocation) != "" && str(b.AttendanceType) == "virtual" {
		c.add("physical_location", "applies to hybrid and in-person events only.")
	}
	return c.err()
}

// checkUpdate applies the update rules (spec 2.1, U column): every field is
// optional, a sent one must be valid. meeting_type is not changed by an
// update (the spec routes it through the session API): it is ignored.
func (b *eventBody) checkUpdate() error {
	var c checks
	b.readTimes(&c)
	for _, f := range []struct {
		name string
		v    *string
	}{{"name", b.Name}, {"description", b.Description}, {"timezone", b.Timezone}, {"event_type", b.EventType},
		{"hub_id", b.HubID}, {"access_level", b.AccessLevel}, {"attendance_type", b.AttendanceType}} {
		c.notBlank(f.name, f.v)
	}
	b.MeetingType = nil
	b.checkFields(&c)
	b.checkCalendarFields(&c)
	return c.err()
}

// decodeEventBody reads a create or update body.
func decodeEventBody(w http.ResponseWriter, r *http.Request) (*eventBody, error) {
	var b eventBody
	if err := decodeJSON(w, r, &b); err != nil {
		return nil, err
	}
	return &b, nil
}
