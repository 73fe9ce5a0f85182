package api

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Event types, access levels, attendance types, meeting types and statuses
// (spec 2.1).
const (
	EventTypeSimple     = "SIMPLE_EVENT"
	EventTypeConference = "CONFERENCE"
	EventTypeRecurring  = "RECURRING"

	AccessPublic              = "PUBLIC"
	AccessPrivateUnrestricted = "PRIVATE_UNRESTRICTED"
	AccessPrivateRestricted   = "PRIVATE_RESTRICTED"
	AttendanceVirtual         = "virtual"
	AttendanceInPerson        = "in-person"
	AttendanceHybrid          = "hybrid"
	MeetingTypeMeeting        = "MEETING"
	MeetingTypeWebinar        = "WEBINAR"
	StatusPublished           = "PUBLISHED"
	StatusDraft               = "DRAFT"
	RecurrenceDaily           = 1
	RecurrenceWeekly          = 2
	RecurrenceMonthly         = 3
	maxEventScheduleDays      = 6
	maxRepeatIntervalDaily    = 90
	maxRepeatIntervalWeekly   = 12
	maxRepeatIntervalMonthly  = 3
	eventActionPublish        = "publish"
	eventActionCancel         = "cancel"
	eventActionDuplicate      = "duplicate"
	ActionStatusPublished     = "published"
	ActionStatusCancelled     = "cancelled"
	ActionStatusDuplicated    = "duplicated"
	eventStatusTypeUpcoming   = "upcoming"
	eventStatusTypePast       = "past"
	eventStatusTypeDraft      = "draft"
	eventStatusTypeCancelled  = "cancelled"
	defaultEventListPageSize  = 30
	maxEventListPageSize      = 300
)

// Limits of an event's lists (the provider's description).
const (
	MaxCalendarEntries  = 6
	MaxTags             = 200
	MaxBlockedCountries = 200
	MaxCategories       = 20
)

// Listing filters for ListEvents (event_status_type in the provider's API).
const (
	ListUpcoming  = eventStatusTypeUpcoming
	ListPast      = eventStatusTypePast
	ListDraft     = eventStatusTypeDraft
	ListCancelled = eventStatusTypeCancelled
)

// EventTypes, AccessLevels, AttendanceTypes, Categories list the values a
// create or update request accepts.
var (
	EventTypes      = []string{EventTypeSimple, EventTypeConference, EventTypeRecurring}
	AccessLevels    = []string{AccessPrivateUnrestricted, AccessPrivateRestricted}
	AttendanceTypes = []string{AttendanceVirtual, AttendanceInPerson, AttendanceHybrid}
	MeetingTypes    = []string{MeetingTypeMeeting, MeetingTypeWebinar}
	Categories      = []string{"Education & Family", "Business & Networking", "Entertainment & Visual Arts",
		"Food & Drink", "Fitness & Health", "Home & Lifestyle", "Community & Spirituality", "Other"}
)

// EventTypeLabels, AttendanceLabels, AccessLevelLabels, StatusLabels and
// MeetingTypeLabels name the enum values in words for people.
var (
	EventTypeLabels = map[string]string{EventTypeSimple: "Single", EventTypeConference: "Conference",
		EventTypeRecurring: "Recurring"}
	AttendanceLabels = map[string]string{AttendanceVirtual: "Virtual", AttendanceInPerson: "In person",
		AttendanceHybrid: "Hybrid"}
	AccessLevelLabels = map[string]string{AccessPublic: "Public", AccessPrivateUnrestricted: "Private, unrestricted",
		AccessPrivateRestricted: "Private, restricted"}
	StatusLabels      = map[string]string{StatusPublished: "Published", StatusDraft: "Draft"}
	MeetingTypeLabels = map[string]string{MeetingTypeMeeting: "Meeting", MeetingTypeWebinar: "Webinar"}
)

// Event is an event as the provider returns it (spec 2.1).
type Event struct {
	EventID          string          `json:"event_id,omitempty"`
	Name             string          `json:"name,omitempty"`
	Description      string          `json:"description,omitempty" text:"multiline"`
	Timezone         string          `json:"timezone,omitempty"`
	EventType        string          `json:"event_type,omitempty"`
	HubID            string          `json:"hub_id,omitempty"`
	AccessLevel      string          `json:"access_level,omitempty"`
	AttendanceType   string          `json:"attendance_type,omitempty"`
	BlockedCountries []string        `json:"blocked_countries,omitempty"`
	Calendar         []CalendarEntry `json:"calendar,omitempty"`
	Categories       []string        `json:"categories,omitempty"`
	ContactName      string          `json:"contact_name,omitempty"`
	ContactEmail     string          `json:"contact_email,omitempty"`
	StartTime        *time.Time      `json:"start_time,omitempty"`
	EndTime          *time.Time      `json:"end_time,omitempty"`
	LobbyStartTime   *time.Time      `json:"lobby_start_time,omitempty"`
	LobbyEndTime     *time.Time      `json:"lobby_end_time,omitempty"`
	MeetingType      string          `json:"meeting_type,omitempty"`
	PhysicalLocation string          `json:"physical_location,omitempty"`
	Recurrence       *Recurrence     `json:"recurrence,omitempty"`
	Tagline          string          `json:"tagline,omitempty"`
	Tags             []string        `json:"tags,omitempty"`
	Status           string          `json:"status,omitempty"`
	EventURL         string          `json:"event_url,omitempty"`
	HostID           string          `json:"host_id,omitempty"`
	Venue            *Venue          `json:"venue,omitempty"`
	// Unreadable names the fields of the server's answer that could not
	// be read (a value of the wrong shape), by dotted path; they are left
	// out, and the rest of the event stands. Never sent.
	Unreadable []string `json:"-"`
}

// CalendarEntry is the start and end of one calendar invitation (spec 2.2).
type CalendarEntry struct {
	StartTime *time.Time `json:"start_time,omitempty"`
	EndTime   *time.Time `json:"end_time,omitempty"`
}

// Recurrence describes a recurring schedule (spec 2.3).
type Recurrence struct {
	Type           int        `json:"type,omitempty"`
	RepeatInterval int        `json:"repeat_interval,omitempty"`
	Duration       int        `json:"duration,omitempty"`
	EndTimes       int        `json:"end_times,omitempty"`
	EndDateTime    *time.Time `json:"end_date_time,omitempty"`
	WeeklyDays     *WeekDays  `json:"weekly_days,omitempty"`
	MonthlyDays    *MonthDays `json:"monthly_days,omitempty"`
	MonthlyWeek    int        `json:"monthly_week,omitempty"`
	MonthlyWeekDay int        `json:"monthly_week_day,omitempty"`
}

// Venue is an event's physical venue (spec 2.4).
type Venue struct {
	Name          string `json:"name,omitempty"`
	StreetAddress string `json:"street_address,omitempty"`
	City          string `json:"city,omitempty"`
	State         string `json:"state,omitempty"`
	PostalCode    string `json:"postal_code,omitempty"`
	Country       string `json:"country,omitempty"`
}

// Fields are the venue's fields with a label each (spec 2.4), all of them,
// in the spec's order.
func (v *Venue) Fields() [][2]string {
	if v == nil {
		return nil
	}
	return [][2]string{{"Venue", v.Name}, {"Street", v.StreetAddress}, {"City", v.City},
		{"State/region", v.State}, {"Postal code", v.PostalCode}, {"Country", v.Country}}
}

// DeprecatedLocation is physical_location as a view shows it: the value,
// marked deprecated with its replacement; "" when there is none.
func DeprecatedLocation(location string) string {
	if location == "" {
		return ""
	}
	d, _ := EventDeprecation("physical_location")
	return location + " (physical_location: " + d.Note() + ")"
}

// EventCreate is the body of a create-event request.
type EventCreate struct {
	Name             string          `json:"name"`
	Description      string          `json:"description" text:"multiline"`
	Timezone         string          `json:"timezone"`
	EventType        string          `json:"event_type"`
	HubID            string          `json:"hub_id"`
	AccessLevel      string          `json:"access_level"`
	AttendanceType   string          `json:"attendance_type"`
	BlockedCountries []string        `json:"blocked_countries,omitempty"`
	Calendar         []CalendarEntry `json:"calendar,omitempty"`
	Categories       []string        `json:"categories,omitempty"`
	ContactName      string          `json:"contact_name,omitempty"`
	LobbyStartTime   *time.Time      `json:"lobby_start_time,omitempty"`
	LobbyEndTime     *time.Time      `json:"lobby_end_time,omitempty"`
	MeetingType      string          `json:"meeting_type,omitempty"`
	PhysicalLocation string          `json:"physical_location,omitempty"`
	Recurrence       *Recurrence     `json:"recurrence,omitempty"`
	Tagline          string          `json:"tagline,omitempty"`
	Tags             []string        `json:"tags,omitempty"`
}

// EventUpdate is the body of an update-event request: only set fields are
// sent. A list left nil is not sent; an empty, non-nil list clears it
// (omitzero keeps [] where omitempty would drop it).
type EventUpdate struct {
	Name             *string         `json:"name,omitempty"`
	Description      *string         `json:"description,omitempty"`
	Timezone         *string         `json:"timezone,omitempty"`
	EventType        *string         `json:"event_type,omitempty"`
	HubID            *string         `json:"hub_id,omitempty"`
	AccessLevel      *string         `json:"access_level,omitempty"`
	AttendanceType   *string         `json:"attendance_type,omitempty"`
	BlockedCountries []string        `json:"blocked_countries,omitzero"`
	Calendar         []CalendarEntry `json:"calendar,omitempty"`
	Categories       []string        `json:"categories,omitzero"`
	ContactName      *string         `json:"contact_name,omitempty"`
	LobbyStartTime   *time.Time      `json:"lobby_start_time,omitempty"`
	LobbyEndTime     *time.Time      `json:"lobby_end_time,omitempty"`
	// No meeting_type: an update does not change it (the spec routes it
	// through the session API).
	PhysicalLocation *string     `json:"physical_location,omitempty"`
	Recurrence       *Recurrence `json:"recurrence,omitempty"`
	Tagline          *string     `json:"tagline,omitempty"`
	Tags             []string    `json:"tags,omitzero"`
}

// DuplicateEvent names the copy made by the duplicate action.
type DuplicateEvent struct {
	Name      string    `json:"name"`
	StartTime time.Time `json:"start_time"`
	Timezone  string    `json:"timezone"`
}

// EventAction is the body of an event-action request.
type EventAction struct {
	Operation      string          `json:"operation"`
	CancelMessage  string          `json:"cancel_message,omitempty"`
	DuplicateEvent *DuplicateEvent `json:"duplicate_event,omitempty"`
}

// ActionResult is the answer to an event action: the status word, and the
// new event's id for a duplicate.
type ActionResult struct {
	EventID string `json:"event_id,omitempty"`
	Status  string `json:"status"`
}

// EventList is one page of the events listing.
type EventList struct {
	Events        []Event `json:"events"`
	NextPageToken string  `json:"next_page_token,omitempty"`
	TotalRecords  int     `json:"total_records"`
}

// UnmarshalJSON decodes an event; a value that cannot be read (a
// weekly_days of the wrong shape) is left out and named in Unreadable, and
// the rest of the event stands (decodeLenient).
func (e *Event) UnmarshalJSON(b []byte) error {
	type plain Event
	bad, err := decodeLenient(b, (*plain)(e))
	if err != nil {
		return err
	}
	e.Unreadable = bad
	return nil
}

// ValidationError lists every problem found in a request, each naming its field.
type ValidationError struct{ Problems []FieldError }

func (v *ValidationError) Error() string {
	parts := make([]string, len(v.Problems))
	for i, p := range v.Problems {
		parts[i] = p.Field + ": " + p.Message
	}
	return "invalid request: " + strings.Join(parts, "; ")
}

// FieldReasons lists each problem as field and reason, for a form that
// marks the fields.
func (v *ValidationError) FieldReasons() [][2]string { return fieldReasons(v.Problems) }

func fieldReasons(fields []FieldError) [][2]string {
	out := make([][2]string, len(fields))
	for i, f := range fields {
		out[i] = [2]string{f.Field, f.Message}
	}
	return out
}

// validator gathers field problems; err returns nil when there are none.
type validator struct{ problems []FieldError }

func (v *validator) add(field, format string, args ...any) {
	v.problems = append(v.problems, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

func (v *validator) required(field, value string) {
	if strings.TrimSpace(value) == "" {
		v.add(field, "is required")
	}
}

func (v *validator) oneOf(field, value string, allowed []string) {
	if value == "" {
		return
	}
	for _, a := range allowed {
		if value == a {
			return
		}
	}
	v.add(field, "%q is not allowed; use one of %s", value, strings.Join(allowed, ", "))
}

func (v *validator) timezone(field, tz string) {
	if tz == "" {
		return
	}
	if _, err := time.LoadLocation(tz); err != nil {
		v.add(field, "%q is not a known timezone (use an IANA name such as America/New_York)", tz)
	}
}

func (v *validator) err() error {
	if len(v.problems) == 0 {
		return nil
	}
	return &ValidationError{Problems: v.problems}
}

// Validate checks the spec's rules for a create request.
func (c *EventCreate) Validate() error {
	var v validator
	v.required("name", c.Name)
	v.required("description", c.Description)
	v.required("timezone", c.Timezone)
	v.required("event_type", c.EventType)
	v.required("hub_id", c.HubID)
	v.required("access_level", c.AccessLevel)
	v.required("attendance_type", c.AttendanceType)
	v.timezone("timezone", c.Timezone)
	v.oneOf("event_type", c.EventType, EventTypes)
	v.oneOf("access_level", c.AccessLevel, AccessLevels)
	v.oneOf("attendance_type", c.AttendanceType, AttendanceTypes)
	v.oneOf("meeting_type", c.MeetingType, MeetingTypes)
	if c.EventType == EventTypeSimple && c.MeetingType == "" {
		v.add("meeting_type", "is required for a single-session (SIMPLE_EVENT) event")
	}
	if c.PhysicalLocation != "" && c.AttendanceType == AttendanceVirtual {
		v.add("physical_location", "applies to hybrid and in-person events only")
	}
	validateLists(&v, c.Categories, c.Tags, c.BlockedCountries, c.Calendar)
	validateSchedule(&v, c.Calendar, c.LobbyStartTime, c.LobbyEndTime)
	if c.Recurrence != nil {
		c.Recurrence.validate(&v)
	}
	return v.err()
}

// Validate checks the spec's rules for an update request.
func (u *EventUpdate) Validate() error {
	var v validator
	// A field that is sent must not be blank.
	for _, f := range []struct {
		name  string
		value *string
	}{{"name", u.Name}, {"description", u.Description}, {"timezone", u.Timezone},
		{"event_type", u.EventType}, {"hub_id", u.HubID}, {"access_level", u.AccessLevel},
		{"attendance_type", u.AttendanceType}} {
		if f.value != nil {
			v.required(f.name, *f.value)
		}
	}
	if u.Timezone != nil {
		v.timezone("timezone", *u.Timezone)
	}
	oneOfPtr := func(field string, p *string, allowed []string) {
		if p != nil {
			v.oneOf(field, *p, allowed)
		}
	}
	oneOfPtr("event_type", u.EventType, EventTypes)
	oneOfPtr("access_level", u.AccessLevel, AccessLevels)
	oneOfPtr("attendance_type", u.AttendanceType, AttendanceTypes)
	validateLists(&v, u.Categories, u.Tags, u.BlockedCountries, u.Calendar)
	validateSchedule(&v, u.Calendar, u.LobbyStartTime, u.LobbyEndTime)
	if u.Recurrence != nil {
		u.Recurrence.validate(&v)
	}
	return v.err()
}

// validateLists checks the lengths of an event's lists, the categories'
// values and the blocked countries' codes.
func validateLists(v *validator, categories, tags, countries []string, cal []CalendarEntry) {
	for _, l := range []struct {
		field string
		n     int
		limit int
		what  string
	}{{"categories", len(categories), MaxCategories, "categories"}, {"tags", len(tags), MaxTags, "tags"},
		{"blocked_countries", len(countries), MaxBlockedCountries, "countries"},
		{"calendar", len(cal), MaxCalendarEntries, "entries"}} {
		if l.n > l.limit {
			v.add(l.field, "holds %d %s; at most %d are allowed", l.n, l.what, l.limit)
		}
	}
	for _, cat := range categories {
		v.oneOf("categories", cat, Categories)
	}
	for i, c := range countries {
		if err := CheckCountryCode(c); err != nil {
			v.add(fmt.Sprintf("blocked_countries[%d]", i), "%v", err)
		}
	}
}

func validateSchedule(v *validator, cal []CalendarEntry, lobbyStart, lobbyEnd *time.Time) {
	var first, last time.Time
	for i, e := range cal {
		field := fmt.Sprintf("calendar[%d]", i)
		if e.StartTime == nil || e.EndTime == nil {
			v.add(field, "needs both start_time and end_time")
			continue
		}
		if !e.EndTime.After(*e.StartTime) {
			v.add(field+".end_time", "must be after start_time (%s)", e.StartTime.UTC().Format(time.RFC3339))
		}
		if first.IsZero() || e.StartTime.Before(first) {
			first = *e.StartTime
		}
		if e.EndTime.After(last) {
			last = *e.EndTime
		}
	}
	if !first.IsZero() && last.Sub(first) > maxEventScheduleDays*24*time.Hour {
		v.add("calendar", "the schedule spans %s; an event may span at most %d days",
			humanSpan(last.Sub(first)), maxEventScheduleDays)
	}
	if lobbyStart != nil && lobbyEnd != nil && !lobbyEnd.After(*lobbyStart) {
		v.add("lobby_end_time", "must be after lobby_start_time")
	}
}

func humanSpan(d time.Duration) string {
	days := d.Hours() / 24
	return fmt.Sprintf("%.1f days", days)
}

// Validate checks a recurring schedule on its own (forms that build one
// field by field report each problem where it belongs).
func (r *Recurrence) Validate() error {
	var v validator
	r.validate(&v)
	return v.err()
}

func (r *Recurrence) validate(v *validator) {
	limits := map[int]int{RecurrenceDaily: maxRepeatIntervalDaily, RecurrenceWeekly: maxRepeatIntervalWeekly,
		RecurrenceMonthly: maxRepeatIntervalMonthly}
	limit, ok := limits[r.Type]
	if !ok {
		v.add("recurrence.type", "%d is not allowed; use 1 (daily), 2 (weekly) or 3 (monthly)", r.Type)
	} else if r.RepeatInterval < 0 || r.RepeatInterval > limit {
		v.add("recurrence.repeat_interval", "%d is out of range; %s allows 1 to %d",
			r.RepeatInterval, RecurrenceTypeName(r.Type), limit)
	}
	if r.Duration < 0 {
		v.add("recurrence.duration", "must be a positive number of minutes")
	} else if most := maxEventScheduleDays * 24 * 60; r.Duration > most {
		// A session is part of the schedule, which may span 6 days at most.
		v.add("recurrence.duration", "%d minutes is longer than %d days (%d minutes), the longest an event's schedule may be",
			r.Duration, maxEventScheduleDays, most)
	}
	if r.EndTimes < 0 {
		v.add("recurrence.end_times", "must be a positive number of occurrences")
	}
	if r.WeeklyDays != nil {
		for _, d := range r.WeeklyDays.Days {
			if d < 1 || d > 7 {
				v.add("recurrence.weekly_days", "%d is not a weekday; use 1 (Sunday) to 7 (Saturday)", d)
			}
		}
	}
	if r.MonthlyDays != nil {
		for _, d := range r.MonthlyDays.Days {
			if d < 1 || d > 31 {
				v.add("recurrence.monthly_days", "%d is not a day of the month; use 1 to 31", d)
			}
		}
	}
	if r.MonthlyWeek != 0 && (r.MonthlyWeek < -1 || r.MonthlyWeek > 4) {
		v.add("recurrence.monthly_week", "%d is not allowed; use -1 (last week) or 1 to 4", r.MonthlyWeek)
	}
	if r.MonthlyWeekDay != 0 && (r.MonthlyWeekDay < 1 || r.MonthlyWeekDay > 7) {
		v.add("recurrence.monthly_week_day", "%d is not a weekday; use 1 (Sunday) to 7 (Saturday)", r.MonthlyWeekDay)
	}
}

// RecurrenceTypeName is the word for a recurrence type code.
func RecurrenceTypeName(t int) string {
	switch t {
	case RecurrenceDaily:
		return "daily"
	case RecurrenceWeekly:
		return "weekly"
	case RecurrenceMonthly:
		return "monthly"
	}
	return fmt.Sprintf("type %d", t)
}

// Validate checks an event action request.
func (a *EventAction) Validate() error {
	var v validator
	v.oneOf("operation", a.Operation, []string{eventActionPublish, eventActionCancel, eventActionDuplicate})
	v.required("operation", a.Operation)
	if a.Operation == eventActionDuplicate {
		d := a.DuplicateEvent
		if d == nil {
			v.add("duplicate_event", "is required for a duplicate")
		} else {
			v.required("duplicate_event.name", d.Name)
			v.required("duplicate_event.timezone", d.Timezone)
			v.timezone("duplicate_event.timezone", d.Timezone)
			if d.StartTime.IsZero() {
				v.add("duplicate_event.start_time", "is required")
			}
		}
	}
	return v.err()
}

// ErrNoEventID is returned when a call needs an event id and got none.
var ErrNoEventID = errors.New("event id is required")
