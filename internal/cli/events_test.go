package cli

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/config"
)

// simServer starts a simulator over loopback HTTP that outlives single
// commands (each --demo run starts afresh) and points the environment at
// it; it returns the simulator for its fixtures.
func simServer(t *testing.T) *sim.Sim {
	t.Helper()
	isolateXDG(t)
	s := sim.New(sim.Options{NoRateLimit: true})
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	t.Cleanup(s.Close)
	t.Setenv(config.EnvBaseURL, srv.URL+"/v2")
	t.Setenv(config.EnvToken, sim.DemoToken)
	return s
}

// run1 runs a command line through Run, as main does, and returns the exit
// status with what it printed.
func run1(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ios, _, out, errOut := TestStreams()
	code = Run(context.Background(), NewFactory(ios), args)
	return code, out.String(), errOut.String()
}

// TestEventsLifecycle manages an event end to end as a script would:
// create from flags, change it, publish, duplicate, cancel, delete, each
// answer read back with --jq.
func TestEventsLifecycle(t *testing.T) {
	simServer(t)
	code, id, stderr := run1(t, "events", "create", "--name", "Launch", "--description", "The launch",
		"--hub", sim.HubID, "--start", "2027-03-14 09:30", "--end", "2027-03-14 11:00", "--timezone", "Europe/Lisbon",
		"--tag", "launch,spring", "--category", "business & networking", "--jq", ".event_id")
	id = strings.TrimSpace(id)
	if code != 0 || id == "" {
		t.Fatalf("create: exit %d %q %s", code, id, stderr)
	}
	code, out, stderr := run1(t, "events", "get", id, "-o", "json")
	var e api.Event
	if code != 0 || json.Unmarshal([]byte(out), &e) != nil {
		t.Fatalf("get: %d %s %s", code, out, stderr)
	}
	if e.Status != api.StatusDraft || e.MeetingType != api.MeetingTypeWebinar || e.AttendanceType != api.AttendanceVirtual ||
		strings.Join(e.Tags, ",") != "launch,spring" || len(e.Categories) != 1 || e.Categories[0] != "Business & Networking" ||
		e.Calendar[0].StartTime.UTC().Format(time.RFC3339) != "2027-03-14T09:30:00Z" { // Lisbon is on UTC in March
		t.Fatalf("created %+v", e)
	}

	// Update: only what is named; times in the event's own timezone.
	code, out, stderr = run1(t, "events", "update", id, "--name", "Launch (new date)", "--start", "2027-03-21 10:00",
		"--end", "2027-03-21 12:00", "--template", "{{.name}} {{.start_time}}\n")
	if code != 0 || out != "Launch (new date) 2027-03-21T10:00:00Z\n" {
		t.Fatalf("update: %d %q %s", code, out, stderr)
	}

	code, out, stderr = run1(t, "events", "publish", id)
	if code != 0 || out != "published event "+id+" (published)\n" {
		t.Fatalf("publish: %d %q %s", code, out, stderr)
	}
	code, copyID, stderr := run1(t, "events", "duplicate", id, "--name", "Launch (Porto)", "--start", "2027-04-02 10:00", "--jq", ".event_id")
	copyID = strings.TrimSpace(copyID)
	if code != 0 || copyID == "" || copyID == id {
		t.Fatalf("duplicate: %d %q %s", code, copyID, stderr)
	}
	// Nobody registered: no question, no message needed.
	code, out, stderr = run1(t, "events", "cancel", id)
	if code != 0 || !strings.HasPrefix(out, "cancelled event "+id) {
		t.Fatalf("cancel: %d %q %s", code, out, stderr)
	}
	code, out, stderr = run1(t, "events", "delete", copyID)
	if code != 0 || out != "deleted event "+copyID+"\n" {
		t.Fatalf("delete: %d %q %s", code, out, stderr)
	}
	if code, _, stderr = run1(t, "events", "get", copyID); code != exitFailed || !strings.Contains(stderr, "not found") {
		t.Fatalf("get after delete: %d %s", code, stderr)
	}
}

// TestEventsFromFile creates from JSON and from TOML, flags winning over
// the file, and names a field the request does not have.
func TestEventsFromFile(t *testing.T) {
	simServer(t)
	dir := t.TempDir()
	tomlFile := writeFile(t, dir, "event.toml", `name = "From TOML"
description = "Weekly stand-up"
hub_id = "`+sim.HubID+`"
timezone = "UTC"
event_type = "RECURRING"
access_level = "PRIVATE_UNRESTRICTED"
attendance_type = "hybrid"
physical_location = "Room 4"

[[calendar]]
start_time = 2027-05-03T09:00:00Z
end_time = 2027-05-03T09:30:00Z
`)
	code, out, stderr := run1(t, "events", "create", "--from-file", tomlFile, "--name", "Stand-up",
		"--repeat", "weekly", "--on", "mon,thu", "--occurrences", "8", "-o", "json")
	var e api.Event
	if code != 0 || json.Unmarshal([]byte(out), &e) != nil {
		t.Fatalf("toml: %d %s %s", code, out, stderr)
	}
	if e.Name != "Stand-up" || e.EventType != api.EventTypeRecurring || e.PhysicalLocation != "Room 4" ||
		e.Recurrence == nil || e.Recurrence.EndTimes != 8 || e.Recurrence.WeeklyDays == nil ||
		len(e.Recurrence.WeeklyDays.Days) != 2 {
		t.Fatalf("from toml: %+v %+v", e, e.Recurrence)
	}

	jsonFile := writeFile(t, dir, "event.json", `{"name": "From JSON", "description": "d", "hub_id": "`+sim.HubID+`", "timezone": "UTC",
		"calendar": [{"start_time": "2027-05-03T09:00:00Z", "end_time": "2027-05-03T10:00:00Z"}]}`)
	if code, out, stderr := run1(t, "events", "create", "-F", jsonFile, "-q", ".name"); code != 0 || out != "From JSON\n" {
		t.Fatalf("json: %d %q %s", code, out, stderr)
	}

	// Changes from a file: only its fields are sent.
	writeFile(t, dir, "event.json", `{"tagline": "Now with coffee"}`)
	if code, out, stderr := run1(t, "events", "update", e.EventID, "-F", jsonFile, "-q", ".tagline + \"|\" + .name"); code != 0 ||
		out != "Now with coffee|Stand-up\n" {
		t.Fatalf("update from file: %d %q %s", code, out, stderr)
	}

	writeFile(t, dir, "event.json", `{"nmae": "typo"}`)
	if code, _, stderr := run1(t, "events", "update", e.EventID, "-F", jsonFile); code != exitUsage ||
		!strings.Contains(stderr, `unknown field "nmae"`) {
		t.Fatalf("unknown field: %d %s", code, stderr)
	}
	writeFile(t, dir, "event.toml", "name = \n")
	if code, _, stderr := run1(t, "events", "create", "-F", tomlFile); code != exitUsage || !strings.Contains(stderr, "event.toml") ||
		!strings.Contains(stderr, "event.toml:1: name:") {
		t.Fatalf("broken toml: %d %s", code, stderr)
	}
}

// TestEventsCreateFlagsWithoutAServer reads the flags into the request
// through runF: nothing is opened, and a mistake is named before any
// network.
func TestEventsCreateFlagsWithoutAServer(t *testing.T) {
	var got *api.EventCreate
	capture := func(_ context.Context, o *eventOptions) error {
		var err error
		got, err = o.Fields.create()
		return err
	}
	ios, _, _, _ := TestStreams()
	f := NewFactory(ios)
	f.OpenSession = func(context.Context, rootFlags, bool) (*session, error) {
		t.Fatal("a session was opened")
		return nil, nil
	}
	cmd := newEventsCreateCmd(f, capture)
	cmd.SetArgs([]string{"--name", "Series", "--description", "d", "--hub", "h1", "--type", "Recurring",
		"--start", "2027-01-04T09:00:00+01:00", "--end", "2027-01-04 10:00", "--timezone", "Europe/Paris",
		"--repeat", "monthly", "--month-week", "last", "--month-weekday", "friday", "--until", "2027-06-30 18:00",
		"--access", "private-restricted", "--attendance", "in-person", "--location", "Hall 2", "--blocked-country", "fr,de"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	r := got.Recurrence
	if got.EventType != api.EventTypeRecurring || got.AccessLevel != api.AccessPrivateRestricted ||
		got.AttendanceType != api.AttendanceInPerson || got.MeetingType != "" ||
		strings.Join(got.BlockedCountries, ",") != "FR,DE" || r == nil || r.Type != api.RecurrenceMonthly ||
		r.MonthlyWeek != -1 || r.MonthlyWeekDay != 6 || r.EndDateTime.Format(time.RFC3339) != "2027-06-30T16:00:00Z" ||
		got.Calendar[0].StartTime.Format(time.RFC3339) != "2027-01-04T08:00:00Z" || got.Calendar[0].EndTime.Format(time.RFC3339) != "2027-01-04T09:00:00Z" {
		t.Fatalf("request %+v %+v", got, r)
	}

	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"no times":      {[]string{"--name", "n", "--description", "d", "--hub", "h"}, "--start and --end are required"},
		"bad type":      {[]string{"--type", "webinar"}, `--type "webinar": use single, conference or recurring`},
		"bad time":      {[]string{"--name", "n", "--start", "tomorrow", "--end", "x"}, `--start "tomorrow": not a time`},
		"bad zone":      {[]string{"--timezone", "Mars/Olympus"}, `--timezone "Mars/Olympus" is not a known timezone`},
		"missing name":  {[]string{"--description", "d", "--hub", "h", "--start", "2027-01-04 09:00", "--end", "2027-01-04 10:00"}, "name: is required"},
		"series no end": {[]string{"--type", "recurring", "--repeat", "daily", "--start", "2027-01-04 09:00", "--end", "2027-01-04 10:00"}, "--occurrences N or --until"},
		"weekly no on":  {[]string{"--type", "recurring", "--repeat", "weekly", "--occurrences", "3", "--start", "2027-01-04 09:00", "--end", "2027-01-04 10:00"}, "--on is required"},
		"not recurring": {[]string{"--name", "n", "--description", "d", "--hub", "h", "--start", "2027-01-04 09:00", "--end", "2027-01-04 10:00", "--repeat", "daily", "--occurrences", "2"}, "add --type recurring"},
		"bad category":  {[]string{"--category", "Knitting"}, `--category "Knitting": use one of`},
	} {
		t.Run(name, func(t *testing.T) {
			cmd := newEventsCreateCmd(f, capture)
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			cmd.SetArgs(c.args)
			err := cmd.Execute()
			if err == nil || !strings.Contains(err.Error(), c.want) || exitCode(context.Background(), err) != exitUsage {
				t.Fatalf("%v, want %q and exit 2", err, c.want)
			}
		})
	}
}

// TestCancelAndDeleteAskWhenPeopleRegistered: with registrants, a script
// without a terminal is refused unless --yes; a person is asked, and only
// "y" goes ahead.
func TestCancelAndDeleteAskWhenPeopleRegistered(t *testing.T) {
	s := simServer(t)
	ev := s.Fixtures().UpcomingEventID
	if code, _, stderr := run1(t, "events", "cancel", ev); code != exitUsage || !strings.Contains(stderr, "--message is required") {
		t.Fatalf("no message: %d %s", code, stderr)
	}
	code, _, stderr := run1(t, "events", "cancel", ev, "-m", "Postponed")
	if code != exitUsage || !strings.Contains(stderr, "registered and receive your message") || !strings.Contains(stderr, "add --yes") {
		t.Fatalf("no terminal: %d %s", code, stderr)
	}
	if code, _, stderr := run1(t, "events", "delete", ev); code != exitUsage || !strings.Contains(stderr, "add --yes") {
		t.Fatalf("delete without terminal: %d %s", code, stderr)
	}

	// A person answers no, then yes.
	ask := func(answer string, args ...string) (int, string, string) {
		ios, in, out, errOut := TestStreams()
		ios.SetStdinTerminal(true)
		in.WriteString(answer)
		code := Run(context.Background(), NewFactory(ios), args)
		return code, out.String(), errOut.String()
	}
	code, _, stderr = ask("n\n", "events", "cancel", ev, "-m", "Postponed")
	if code != exitFailed || !strings.Contains(stderr, "[y/N]") || !strings.Contains(stderr, "not done") {
		t.Fatalf("answered no: %d %s", code, stderr)
	}
	code, out, stderr := ask("y\n", "events", "cancel", ev, "-m", "Postponed")
	if code != 0 || !strings.HasPrefix(out, "cancelled event "+ev) {
		t.Fatalf("answered yes: %d %q %s", code, out, stderr)
	}
	// --yes answers for a script.
	other := s.Fixtures().PastEventID
	if code, _, stderr := run1(t, "events", "cancel", other, "-m", "x", "--yes"); code == exitUsage {
		t.Fatalf("--yes still asked: %s", stderr)
	}
}

// TestLinksUpdateDefaultAndTicketTypeByName changes a link by its flags,
// makes another the default, and names a ticket type by its name.
func TestLinksUpdateDefaultAndTicketTypeByName(t *testing.T) {
	s := simServer(t)
	ev := s.Fixtures().UpcomingEventID
	code, out, stderr := run1(t, "ticket-types", ev, "-o", "json")
	var types []api.TicketType
	if code != 0 || json.Unmarshal([]byte(out), &types) != nil || len(types) == 0 {
		t.Fatalf("ticket types: %d %s %s", code, out, stderr)
	}
	name := strings.ToUpper(types[0].Name) // any case
	code, id, stderr := run1(t, "links", "create", ev, "--name", "Partners", "--type", "group-join",
		"--ticket-type", name, "--jq", ".access_link_id")
	id = strings.TrimSpace(id)
	if code != 0 || id == "" {
		t.Fatalf("create by ticket type name: %d %q %s", code, id, stderr)
	}
	code, out, stderr = run1(t, "links", "get", ev, id, "-q", ".ticket_type_id")
	if code != 0 || strings.TrimSpace(out) != types[0].TicketTypeID {
		t.Fatalf("ticket type: %d %q %s (want %s)", code, out, stderr, types[0].TicketTypeID)
	}
	if code, _, stderr := run1(t, "links", "create", ev, "--name", "X", "--type", "group-join", "--ticket-type", "No such type"); code != exitFailed ||
		!strings.Contains(stderr, `--ticket-type "No such type": no such ticket type`) {
		t.Fatalf("unknown type: %d %s", code, stderr)
	}

	code, out, stderr = run1(t, "links", "update", ev, id, "--name", "Press", "-q", ".name")
	if code != 0 || out != "Press\n" {
		t.Fatalf("update: %d %q %s", code, out, stderr)
	}
	if code, _, stderr := run1(t, "links", "update", ev, id); code != exitUsage || !strings.Contains(stderr, "nothing to change") {
		t.Fatalf("empty update: %d %s", code, stderr)
	}
	code, out, stderr = run1(t, "links", "default", ev, id, "-q", ".is_default")
	if code != 0 || out != "true\n" {
		t.Fatalf("default: %d %q %s", code, out, stderr)
	}
	code, out, _ = run1(t, "links", "list", ev, "-q", `[.[] | select(.is_default)] | length`)
	if code != 0 || out != "1\n" {
		t.Fatalf("one default: %q", out)
	}
}

// TestEventsSessionLength: --duration sets a recurring event's session
// length (recurrence.duration) as the console's form does; alone on update
// it changes only that, a new schedule keeps it, and an event that does
// not repeat refuses it. `events get` says it, with the API's values in
// words (the table) and as they are (JSON).
func TestEventsSessionLength(t *testing.T) {
	simServer(t)
	code, id, stderr := run1(t, "events", "create", "--name", "Standup", "--description", "Daily", "--hub", sim.HubID,
		"--type", "recurring", "--repeat", "weekly", "--on", "mon,thu", "--occurrences", "8", "--duration", "45",
		"--start", "2027-03-15 09:00", "--end", "2027-03-15 09:45", "--jq", ".event_id")
	id = strings.TrimSpace(id)
	if code != 0 || id == "" {
		t.Fatalf("create: exit %d %q %s", code, id, stderr)
	}
	duration := func() int {
		t.Helper()
		code, out, stderr := run1(t, "events", "get", id, "--jq", ".recurrence.duration")
		if code != 0 {
			t.Fatalf("get: %d %s", code, stderr)
		}
		var n int
		_ = json.Unmarshal([]byte(out), &n)
		return n
	}
	if d := duration(); d != 45 {
		t.Fatalf("created with a session length of %d, want 45", d)
	}
	code, out, _ := run1(t, "events", "get", id)
	for _, want := range []string{"Type            Recurring", "Status          Draft", "Meeting type", "Attendance      Virtual",
		"Access          Private, unrestricted", "Session length  45 minutes"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("table lacks %q:\n%s", want, out)
		}
	}
	for _, raw := range []string{"RECURRING", "DRAFT", "PRIVATE_UNRESTRICTED", "virtual"} {
		if strings.Contains(out, raw) {
			t.Fatalf("table shows the API's %s:\n%s", raw, out)
		}
	}
	if code, _, stderr := run1(t, "events", "update", id, "--duration", "60"); code != 0 {
		t.Fatalf("update --duration: %d %s", code, stderr)
	}
	if d := duration(); d != 60 {
		t.Fatalf("session length %d after update, want 60", d)
	}
	if code, out, stderr := run1(t, "events", "update", id, "--repeat", "daily", "--occurrences", "3", "--jq", ".recurrence"); code != 0 ||
		!strings.Contains(out, `"duration":60`) || !strings.Contains(out, `"end_times":3`) {
		t.Fatalf("new schedule: %d %s %s", code, out, stderr)
	}
	for _, args := range [][]string{
		{"events", "update", id, "--duration", "0"},
		{"events", "create", "--name", "n", "--description", "d", "--hub", "h", "--start", "2027-03-15 09:00", "--end", "2027-03-15 10:00", "--duration", "30"},
	} {
		if code, _, stderr := run1(t, args...); code != exitUsage || !strings.Contains(stderr, "--duration") {
			t.Fatalf("%v: exit %d %s", args, code, stderr)
		}
	}
	code, single, _ := run1(t, "events", "create", "--name", "Once", "--description", "d", "--hub", sim.HubID,
		"--start", "2027-03-15 09:00", "--end", "2027-03-15 10:00", "--jq", ".event_id")
	if code != 0 {
		t.Fatal("create a single event")
	}
	if code, _, stderr := run1(t, "events", "update", strings.TrimSpace(single), "--duration", "30"); code != exitFailed ||
		!strings.Contains(stderr, "does not repeat, and a session length belongs to a recurring event's schedule") {
		t.Fatalf("--duration on a single event: exit %d %s", code, stderr)
	}
}
