package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/config"
)

// eventFields are the flags of `events create` and `events update`: one for
// each field of the console's event form, and --from-file for a request
// written as JSON or TOML with the API's field names.
type eventFields struct {
	file                                                    string
	name, tagline, description, eventType, meetingType, hub string
	timezone, start, end, lobbyStart, lobbyEnd              string
	access, attendance, location, contact                   string
	categories, tags, blocked                               []string
	// The schedule of a recurring event.
	repeat, monthWeek, monthWeekday, until string
	every, occurrences                     int
	duration                               int // minutes each session lasts
	on                                     []string
	monthDays                              []int

	fileJSON []byte          // the file's request as JSON ("" without --from-file)
	changed  map[string]bool // the flags given
}

// maxEventFile caps an event file: a request is a few KB.
const maxEventFile = 1 << 20

// eventFileExample shows --from-file's shape in the help.
const eventFileExample = `  name = "Launch"
  description = "The spring programme, live"
  hub_id = "hub_1"
  timezone = "Europe/Lisbon"
  event_type = "SIMPLE_EVENT"        # or CONFERENCE, RECURRING
  meeting_type = "WEBINAR"
  access_level = "PRIVATE_UNRESTRICTED"
  attendance_type = "virtual"
  tags = ["launch", "spring"]

  [[calendar]]
  start_time = 2027-03-14T09:30:00Z
  end_time = 2027-03-14T11:00:00Z`

func (e *eventFields) addFlags(cmd *cobra.Command, create bool) {
	fl := cmd.Flags()
	fl.StringVarP(&e.file, "from-file", "F", "", "read the request from a JSON or TOML `FILE` (the API's field names)")
	fl.StringVar(&e.name, "name", "", "event name")
	fl.StringVar(&e.tagline, "tagline", "", "one-line tagline")
	fl.StringVar(&e.description, "description", "", "description")
	fl.StringVar(&e.eventType, "type", "", "single, conference or recurring (default single)")
	if create { // an update does not change it (the spec routes it through sessions)
		fl.StringVar(&e.meetingType, "meeting-type", "", "a single event's kind: meeting or webinar (default webinar)")
	}
	fl.StringVar(&e.hub, "hub", "", "hub id")
	fl.StringVar(&e.timezone, "timezone", "", "IANA timezone such as Europe/Lisbon (default UTC; update: the event's)")
	fl.StringVar(&e.start, "start", "", "start: \"YYYY-MM-DD HH:MM\" in --timezone, or RFC 3339")
	fl.StringVar(&e.end, "end", "", "end, after the start and at most 6 days later")
	fl.StringVar(&e.lobbyStart, "lobby-start", "", "when the lobby opens (optional)")
	fl.StringVar(&e.lobbyEnd, "lobby-end", "", "when the lobby closes (optional)")
	fl.StringVar(&e.access, "access", "", "private-unrestricted or private-restricted (default private-unrestricted)")
	fl.StringVar(&e.attendance, "attendance", "", "virtual, in-person or hybrid (default virtual)")
	fl.StringVar(&e.location, "location", "", "physical location (in-person and hybrid events; physical_location, deprecated by the provider: the venue replaces it)")
	fl.StringVar(&e.contact, "contact", "", "contact name")
	fl.StringSliceVar(&e.categories, "category", nil, "category (repeat or comma-separate): "+strings.Join(api.Categories, "; "))
	fl.StringSliceVar(&e.tags, "tag", nil, "tag (repeat or comma-separate; at most 200)")
	fl.StringSliceVar(&e.blocked, "blocked-country", nil, "blocked country, ISO code such as FR (repeat or comma-separate)")
	fl.StringVar(&e.repeat, "repeat", "", "a recurring event's unit: daily, weekly or monthly")
	fl.IntVar(&e.every, "every", 1, "repeat every N units: 1-90 days, 1-12 weeks or 1-3 months")
	fl.StringSliceVar(&e.on, "on", nil, "weekly: the weekdays, such as mon,thu")
	fl.IntSliceVar(&e.monthDays, "month-day", nil, "monthly: days of the month, such as 1,15")
	fl.StringVar(&e.monthWeek, "month-week", "", "monthly: first, second, third, fourth or last (with --month-weekday)")
	fl.StringVar(&e.monthWeekday, "month-weekday", "", "monthly: the weekday of --month-week, such as tue")
	fl.IntVar(&e.occurrences, "occurrences", 0, "the series ends after N occurrences")
	fl.StringVar(&e.until, "until", "", "the series ends on this date and time")
	fl.IntVar(&e.duration, "duration", 0, "a recurring event's session length: the `MINUTES` each session lasts (recurrence.duration; alone, update changes it on the event's schedule)")
	for flag, values := range map[string][]string{
		"type": {"single", "conference", "recurring"}, "meeting-type": {"meeting", "webinar"},
		"access": {"private-unrestricted", "private-restricted"}, "attendance": {"virtual", "in-person", "hybrid"},
		"repeat": {"daily", "weekly", "monthly"}, "month-week": {"first", "second", "third", "fourth", "last"},
		"category": api.Categories, "on": weekdayWords[1:], "month-weekday": weekdayWords[1:],
	} {
		_ = cmd.RegisterFlagCompletionFunc(flag, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
	}
	_ = cmd.MarkFlagFilename("from-file", "json", "toml")
}

// read notes the flags given and reads --from-file.
func (e *eventFields) read(cmd *cobra.Command) error {
	e.changed = map[string]bool{}
	cmd.Flags().Visit(func(f *pflag.Flag) { e.changed[f.Name] = true })
	if e.file == "" {
		return nil
	}
	src, err := config.ReadCapped(e.file, maxEventFile)
	if errors.Is(err, config.ErrTooLarge) {
		return flagErrorf("--from-file %s: larger than %d KB: an event request is a few KB", e.file, maxEventFile>>10)
	}
	if err != nil {
		return flagErrorf("--from-file: %v", err)
	}
	asTOML := strings.EqualFold(filepath.Ext(e.file), ".toml") ||
		(!strings.EqualFold(filepath.Ext(e.file), ".json") && !bytes.HasPrefix(bytes.TrimSpace(src), []byte("{")))
	if !asTOML {
		if !json.Valid(src) {
			var v any
			return flagErrorf("--from-file %s: not valid JSON: %v", e.file, json.Unmarshal(src, &v))
		}
		e.fileJSON = src
		return nil
	}
	var m map[string]any
	if _, err := config.DecodeTOML(e.file, src, eventFileLimits, &m); err != nil {
		return &usageError{msg: "--from-file " + err.Error(), err: err}
	}
	if e.fileJSON, err = json.Marshal(m); err != nil {
		return flagErrorf("--from-file %s: %v", e.file, err)
	}
	return nil
}

// eventFileLimits bound an event request file as TOML: a few dozen fields.
var eventFileLimits = config.TOMLLimits{What: "event request file", MaxBytes: maxEventFile, MaxEntries: 1000}

// decodeFile reads the file's request into v, refusing a field the
// request does not have (a typo must not be dropped in silence).
func (e *eventFields) decodeFile(v any) error {
	if e.fileJSON == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(e.fileJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return flagErrorf("--from-file %s: %s", e.file, strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

func (e *eventFields) given(flag string) bool { return e.changed[flag] }

// create is the create request: the file, then the flags over it, then the
// form's defaults for what neither gave; checked by the request's rules.
func (e *eventFields) create() (*api.EventCreate, error) {
	req := &api.EventCreate{}
	if err := e.decodeFile(req); err != nil {
		return nil, err
	}
	if err := e.texts(map[string]*string{"name": &req.Name, "tagline": &req.Tagline, "description": &req.Description,
		"hub": &req.HubID, "timezone": &req.Timezone, "location": &req.PhysicalLocation, "contact": &req.ContactName}); err != nil {
		return nil, err
	}
	enums := []struct {
		flag string
		dst  *string
		def  string
	}{{"type", &req.EventType, api.EventTypeSimple}, {"access", &req.AccessLevel, api.AccessPrivateUnrestricted},
		{"attendance", &req.AttendanceType, api.AttendanceVirtual}, {"meeting-type", &req.MeetingType, ""}}
	for _, en := range enums {
		if err := e.enum(en.flag, en.dst); err != nil {
			return nil, err
		}
		if *en.dst == "" {
			*en.dst = en.def
		}
	}
	if req.EventType == api.EventTypeSimple && req.MeetingType == "" {
		req.MeetingType = api.MeetingTypeWebinar
	}
	if req.Timezone == "" {
		req.Timezone = "UTC"
	}
	if err := e.lists(&req.Categories, &req.Tags, &req.BlockedCountries); err != nil {
		return nil, err
	}
	loc, err := location(req.Timezone)
	if err != nil {
		return nil, err
	}
	cal, err := e.calendar(loc)
	if err != nil {
		return nil, err
	}
	if cal != nil {
		req.Calendar = cal
	}
	if len(req.Calendar) == 0 {
		return nil, flagErrorf("--start and --end are required: when the event starts and ends, such as --start \"2027-03-14 09:30\" --end \"2027-03-14 11:00\"")
	}
	if req.LobbyStartTime, req.LobbyEndTime, err = e.lobby(loc, req.LobbyStartTime, req.LobbyEndTime); err != nil {
		return nil, err
	}
	if r, err := e.recurrence(loc); err != nil {
		return nil, err
	} else if r != nil {
		req.Recurrence = r
	}
	if req.Recurrence, err = e.withDuration(req.Recurrence, true); err != nil {
		return nil, err
	}
	if req.EventType == api.EventTypeRecurring && req.Recurrence == nil {
		return nil, flagErrorf("--repeat is required for a recurring event: daily, weekly or monthly")
	}
	if req.EventType != api.EventTypeRecurring && req.Recurrence != nil {
		return nil, flagErrorf("--repeat and the schedule flags are for a recurring event: add --type recurring")
	}
	return req, req.Validate()
}

// needsEvent reports whether the update reads times that need the event's
// own timezone (none given by --timezone or the file).
func (e *eventFields) needsEvent() bool {
	var schedule struct {
		Recurrence *api.Recurrence `json:"recurrence"`
	}
	_ = json.Unmarshal(e.fileJSON, &schedule)
	switch {
	case e.durationAlone() && schedule.Recurrence == nil:
		return true // the session length goes on the event's own schedule
	case e.anySchedule() && !e.given("duration"):
		return true // a new schedule keeps the event's session length
	}
	timed := false
	for _, f := range []string{"start", "end", "lobby-start", "lobby-end", "until"} {
		timed = timed || e.given(f)
	}
	if !timed || e.given("timezone") {
		return false
	}
	var probe struct {
		Timezone string `json:"timezone"`
	}
	_ = json.Unmarshal(e.fileJSON, &probe)
	return probe.Timezone == ""
}

// update is the update request: the file's fields and the flags given.
// current is the event as it is (for its timezone), or nil before the
// session opens, when times are only checked for their form.
func (e *eventFields) update(current *api.Event) (*api.EventUpdate, error) {
	u := &api.EventUpdate{}
	if err := e.decodeFile(u); err != nil {
		return nil, err
	}
	for flag, dst := range map[string]**string{"name": &u.Name, "tagline": &u.Tagline, "description": &u.Description,
		"hub": &u.HubID, "timezone": &u.Timezone, "location": &u.PhysicalLocation, "contact": &u.ContactName,
		"type": &u.EventType, "access": &u.AccessLevel, "attendance": &u.AttendanceType} {
		if !e.given(flag) {
			continue
		}
		v := ""
		if *dst != nil {
			v = **dst
		}
		if err := e.texts(map[string]*string{flag: &v}); err != nil {
			return nil, err
		}
		if err := e.enum(flag, &v); err != nil {
			return nil, err
		}
		*dst = &v
	}
	for flag, dst := range map[string]*[]string{"category": &u.Categories, "tag": &u.Tags, "blocked-country": &u.BlockedCountries} {
		if e.given(flag) && *dst == nil {
			*dst = []string{} // given empty: clears the list
		}
	}
	if err := e.lists(&u.Categories, &u.Tags, &u.BlockedCountries); err != nil {
		return nil, err
	}
	tz := "UTC"
	switch {
	case u.Timezone != nil:
		tz = *u.Timezone
	case current != nil && current.Timezone != "":
		tz = current.Timezone
	}
	loc, err := location(tz)
	if err != nil {
		return nil, err
	}
	if e.given("start") != e.given("end") {
		return nil, flagErrorf("--start and --end go together: give both (the new schedule)")
	}
	cal, err := e.calendar(loc)
	if err != nil {
		return nil, err
	}
	if cal != nil {
		u.Calendar = cal
	}
	if u.LobbyStartTime, u.LobbyEndTime, err = e.lobby(loc, u.LobbyStartTime, u.LobbyEndTime); err != nil {
		return nil, err
	}
	if r, err := e.recurrence(loc); err != nil {
		return nil, err
	} else if r != nil {
		if current != nil && current.Recurrence != nil && !e.given("duration") {
			r.Duration = current.Recurrence.Duration // as the console's form keeps it
		}
		u.Recurrence = r
	}
	base := u.Recurrence
	if base == nil && current != nil {
		if current.Recurrence == nil && e.given("duration") { // the event says no, not the command line (exit 1)
			return nil, fmt.Errorf("--duration: event %s does not repeat, and a session length belongs to a recurring event's schedule (give --type recurring and --repeat to make it one)", current.EventID)
		}
		base = current.Recurrence
	}
	if r, err := e.withDuration(base, current != nil || u.Recurrence != nil); err != nil {
		return nil, err
	} else if e.given("duration") && r != nil {
		u.Recurrence = r
	}
	if b, _ := json.Marshal(u); string(b) == "{}" && !e.given("duration") {
		return nil, flagErrorf("nothing to change: give a flag for each field to change, or --from-file")
	}
	return u, u.Validate()
}

// texts sets each destination whose flag was given.
func (e *eventFields) texts(dst map[string]*string) error {
	values := map[string]string{"name": e.name, "tagline": e.tagline, "description": e.description, "hub": e.hub,
		"timezone": e.timezone, "location": e.location, "contact": e.contact, "type": e.eventType,
		"access": e.access, "attendance": e.attendance, "meeting-type": e.meetingType}
	for flag, d := range dst {
		if e.given(flag) {
			*d = strings.TrimSpace(values[flag])
		}
	}
	return nil
}

// enumValues are the API's values of each enum flag, and the words a
// person may type for them.
var enumValues = map[string]struct {
	values  []string
	aliases map[string]string
}{
	"type":         {api.EventTypes, map[string]string{"single": api.EventTypeSimple, "simple": api.EventTypeSimple}},
	"access":       {api.AccessLevels, nil},
	"attendance":   {api.AttendanceTypes, map[string]string{"in_person": api.AttendanceInPerson, "inperson": api.AttendanceInPerson}},
	"meeting-type": {api.MeetingTypes, nil},
}

// enum reads an enum flag into *dst when given: the API's value in any
// case, with - for _, or one of its words; anything else is named with
// what is allowed.
func (e *eventFields) enum(flag string, dst *string) error {
	spec, ok := enumValues[flag]
	if !ok || !e.given(flag) {
		return nil
	}
	_ = e.texts(map[string]*string{flag: dst})
	key := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(*dst)), "-", "_")
	if v, ok := spec.aliases[key]; ok {
		*dst = v
		return nil
	}
	for _, v := range spec.values {
		if strings.ReplaceAll(strings.ToLower(v), "-", "_") == key || strings.ToLower(strings.TrimSuffix(v, "_EVENT")) == key {
			*dst = v
			return nil
		}
	}
	allowed := make([]string, len(spec.values))
	for i, v := range spec.values {
		allowed[i] = strings.ReplaceAll(strings.ToLower(strings.TrimSuffix(v, "_EVENT")), "_", "-")
	}
	if flag == "type" {
		allowed[0] = "single"
	}
	return flagErrorf("--%s %q: use %s", flag, *dst, orList(allowed))
}

// lists sets the list fields whose flags were given; categories are
// matched in any case to the provider's names, countries upper-cased.
func (e *eventFields) lists(categories, tags, blocked *[]string) error {
	if e.given("category") {
		*categories = []string{}
		for _, c := range dropBlank(e.categories) {
			i := slices.IndexFunc(api.Categories, func(k string) bool { return strings.EqualFold(k, c) })
			if i < 0 {
				return flagErrorf("--category %q: use one of %s", c, strings.Join(api.Categories, "; "))
			}
			*categories = append(*categories, api.Categories[i])
		}
	}
	if e.given("tag") {
		*tags = dropBlank(e.tags)
	}
	if e.given("blocked-country") {
		*blocked = dropBlank(e.blocked)
		for i, c := range *blocked {
			(*blocked)[i] = strings.ToUpper(c)
		}
	}
	return nil
}

// durationAlone reports whether --duration is the only schedule flag given.
func (e *eventFields) durationAlone() bool { return e.given("duration") && !e.anySchedule() }

// anySchedule reports whether a flag writes the schedule whole.
func (e *eventFields) anySchedule() bool { return slices.ContainsFunc(scheduleFlags, e.given) }

// scheduleFlags are the flags that write a recurring event's schedule whole;
// --duration is apart: alone, it changes the session length of the
// schedule there is.
var scheduleFlags = []string{"repeat", "every", "on", "month-day", "month-week", "month-weekday", "occurrences", "until"}

// withDuration is schedule with --duration's session length, when given.
// known says whether schedule is all there is (false: before the event is
// read, only the value is checked).
func (e *eventFields) withDuration(schedule *api.Recurrence, known bool) (*api.Recurrence, error) {
	if !e.given("duration") {
		return schedule, nil
	}
	if e.duration < 1 {
		return nil, flagErrorf("--duration %d: give the minutes each session lasts, 1 or more", e.duration)
	}
	if schedule == nil {
		if !known {
			return nil, nil
		}
		return nil, flagErrorf("--duration is the session length of a recurring event: give it with --type recurring and --repeat")
	}
	r := *schedule
	r.Duration = e.duration
	return &r, nil
}

// calendar is the schedule from --start and --end, or nil without them.
func (e *eventFields) calendar(loc *time.Location) ([]api.CalendarEntry, error) {
	if !e.given("start") && !e.given("end") {
		return nil, nil
	}
	if !e.given("start") || !e.given("end") {
		return nil, flagErrorf("--start and --end go together: give both")
	}
	st, err := parseTimeIn("--start", e.start, loc)
	if err != nil {
		return nil, err
	}
	en, err := parseTimeIn("--end", e.end, loc)
	if err != nil {
		return nil, err
	}
	st, en = st.UTC(), en.UTC()
	return []api.CalendarEntry{{StartTime: &st, EndTime: &en}}, nil
}

// lobby is the lobby's times, the flags over what the file gave.
func (e *eventFields) lobby(loc *time.Location, start, end *time.Time) (*time.Time, *time.Time, error) {
	for _, l := range []struct {
		flag, v string
		dst     **time.Time
	}{{"lobby-start", e.lobbyStart, &start}, {"lobby-end", e.lobbyEnd, &end}} {
		if !e.given(l.flag) {
			continue
		}
		t, err := parseTimeIn("--"+l.flag, l.v, loc)
		if err != nil {
			return nil, nil, err
		}
		t = t.UTC()
		*l.dst = &t
	}
	return start, end, nil
}

// weekdayWords name the provider's weekdays, 1 (Sunday) to 7 (Saturday).
var weekdayWords = []string{"", "sun", "mon", "tue", "wed", "thu", "fri", "sat"}

func weekdayNumber(flag, v string) (int, error) {
	w := strings.ToLower(strings.TrimSpace(v))
	for i, name := range weekdayWords {
		if i > 0 && (w == name || (len(w) > 3 && strings.HasPrefix(name, w[:3]) && strings.HasPrefix(fullWeekday(i), w))) {
			return i, nil
		}
	}
	return 0, flagErrorf("--%s %q: use a weekday such as mon, tue or sunday", flag, v)
}

func fullWeekday(i int) string { return strings.ToLower(time.Weekday(i - 1).String()) }

// recurrence is the schedule from the recurrence flags, or nil when none
// was given.
func (e *eventFields) recurrence(loc *time.Location) (*api.Recurrence, error) {
	if !e.anySchedule() {
		return nil, nil
	}
	r := &api.Recurrence{RepeatInterval: e.every}
	switch strings.ToLower(e.repeat) {
	case "daily":
		r.Type = api.RecurrenceDaily
	case "weekly":
		r.Type = api.RecurrenceWeekly
		if len(e.on) == 0 {
			return nil, flagErrorf("--on is required with --repeat weekly: the weekdays, such as mon,thu")
		}
		var days []int
		for _, d := range e.on {
			n, err := weekdayNumber("on", d)
			if err != nil {
				return nil, err
			}
			days = append(days, n)
		}
		slices.Sort(days)
		w := api.NewWeekDays(false, slices.Compact(days)...)
		r.WeeklyDays = &w
	case "monthly":
		r.Type = api.RecurrenceMonthly
		switch {
		case len(e.monthDays) > 0 && (e.given("month-week") || e.given("month-weekday")):
			return nil, flagErrorf("--month-day or --month-week with --month-weekday: one way to say the day, not both")
		case len(e.monthDays) > 0:
			m := api.NewMonthDays(false, e.monthDays...)
			r.MonthlyDays = &m
		case e.given("month-week") && e.given("month-weekday"):
			week, ok := map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1, "1": 1, "2": 2, "3": 3, "4": 4, "-1": -1}[strings.ToLower(e.monthWeek)]
			if !ok {
				return nil, flagErrorf("--month-week %q: use first, second, third, fourth or last", e.monthWeek)
			}
			day, err := weekdayNumber("month-weekday", e.monthWeekday)
			if err != nil {
				return nil, err
			}
			r.MonthlyWeek, r.MonthlyWeekDay = week, day
		default:
			return nil, flagErrorf("--repeat monthly needs --month-day (such as 1,15), or --month-week and --month-weekday (last fri)")
		}
	case "":
		return nil, flagErrorf("--repeat is required with the schedule flags: daily, weekly or monthly")
	default:
		return nil, flagErrorf("--repeat %q: use daily, weekly or monthly", e.repeat)
	}
	switch {
	case e.given("occurrences") && e.given("until"):
		return nil, flagErrorf("--occurrences or --until: the series ends one way")
	case e.given("until"):
		t, err := parseTimeIn("--until", e.until, loc)
		if err != nil {
			return nil, err
		}
		t = t.UTC()
		r.EndDateTime = &t
	case e.occurrences > 0:
		r.EndTimes = e.occurrences
	default:
		return nil, flagErrorf("a recurring event ends: give --occurrences N or --until TIME")
	}
	return r, nil
}

// timeLayout is how a person writes a time on the command line, in the
// event's timezone (the console's form takes the same).
const timeLayout = "2006-01-02 15:04"

func location(tz string) (*time.Location, error) {
	loc, err := time.LoadLocation(strings.TrimSpace(tz))
	if err != nil {
		return nil, flagErrorf("--timezone %q is not a known timezone (use an IANA name such as Europe/Lisbon)", tz)
	}
	return loc, nil
}

// parseTime reads a time in the named timezone.
func parseTime(flag, v, tz string) (time.Time, error) {
	loc, err := location(tz)
	if err != nil {
		return time.Time{}, err
	}
	return parseTimeIn(flag, v, loc)
}

// parseTimeIn reads "YYYY-MM-DD HH:MM" in loc, or RFC 3339 with its offset.
func parseTimeIn(flag, v string, loc *time.Location) (time.Time, error) {
	v = strings.TrimSpace(v)
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	t, err := time.ParseInLocation(timeLayout, v, loc)
	if err != nil {
		return time.Time{}, flagErrorf("%s %q: not a time; write \"2027-03-14 09:30\" (in %s) or 2027-03-14T09:30:00+01:00", flag, v, loc)
	}
	return t, nil
}
