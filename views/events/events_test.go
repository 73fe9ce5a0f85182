package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/api/sim"
	"github.com/evdesk/evdesk/ui"
	"github.com/evdesk/evdesk/ui/uitest"
	"github.com/evdesk/evdesk/views"
	"github.com/evdesk/evdesk/views/viewtest"
)

var testNow = viewtest.Now

type rig struct {
	*uitest.Driver
	sim    *sim.Sim
	ids    sim.Fixtures
	client *api.Client
}

// newRig opens the events console on a fresh simulator with a fixed clock.
func newRig(t *testing.T, w, h int) *rig {
	t.Helper()
	return newRigWith(t, w, h, viewtest.Context(), nil)
}

// newRigWith is newRig in a context the test prepared, with the simulator
// behind wrap (nil: none).
func newRigWith(t *testing.T, w, h int, ctx *ui.Context, wrap func(http.Handler) http.Handler) *rig {
	t.Helper()
	srv := viewtest.NewServerWith(t, wrap)
	s, client := srv.Sim, srv.Client(t, sim.DemoToken)
	deps := views.Env{Client: client, Now: func() time.Time { return testNow }, Local: time.UTC}
	d := viewtest.OpenContext(t, ctx, "Events", w, h, func(c *ui.Context) ui.Screen { return NewList(c, deps) })
	return &rig{Driver: d, sim: s, ids: s.Fixtures(), client: client}
}

func TestListGoldenAndBuckets(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Contains("1 All 63", "2 Upcoming", "5 Cancelled", "63 loaded")
	r.Golden("list_all")
	r.Press("3")
	r.Contains("Draft")
	r.Lacks("Upcoming  ")
	r.Golden("list_drafts")
}

func TestListFilterAndSort(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("/")
	r.Type("kub")
	r.Contains("Kubernetes Day Lisbon", "Intro to Kubernetes Webinar")
	r.Lacks("Quarterly All-Hands")
	r.Press("enter")
	r.Golden("list_filtered")
	r.Press("esc") // clears the filter rather than leaving; the cursor stays put
	r.Contains("Kubernetes Day Lisbon", "of 63")
	r.Press("s", "g") // sort by name, then go to the top
	first := firstRow(r.View())
	if !strings.HasPrefix(first, "> A") {
		t.Fatalf("sorted by name, first row %q", first)
	}
}

func firstRow(view string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.HasPrefix(l, "> ") {
			return l
		}
	}
	return ""
}

func TestDetailShowsTheEventInWords(t *testing.T) {
	r := newRig(t, 100, 40)
	r.Press("/")
	r.Type("pottery")
	r.Press("enter", "enter")
	r.Contains("Pottery for Beginners", "Schedule", "Weekly", "Overview", "When",
		// The whole venue, and the location it replaces marked deprecated.
		"Venue           Clay Collective Studio", "Street          2137 SE Division St", "City            Portland",
		"State/region    OR", "Postal code     97202", "Country         US", "(physical_location: deprecated by the provider")
	r.Golden("detail_recurring")
	r.Press("esc")
	r.Contains("1 All 63")
}

func TestPublishADraft(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("3", "enter")
	r.Contains("DRAFT")
	r.Press("p")
	r.Contains("Publish", "Yes")
	r.Press("y")
	r.Contains("is now published", "UPCOMING")
	r.Press("esc")
	r.Contains("3 Draft 7")
}

func TestPublishIsRefusedWithAReasonForAPublishedEvent(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("2", "enter", "p")
	r.Contains("only drafts can be published")
	r.Lacks("[ Yes ]")
}

func TestCancelAsksAndNeedsAMessageWhenPeopleRegistered(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("2", "enter", "c")
	r.Contains("Message to registrants *", "people registered and receive this message")
	r.Press("enter") // no message: the form says so and stays open
	r.Contains("a message is required: 276 people registered")
	r.Golden("cancel_needs_message")
	r.Type("Rescheduled to spring")
	r.Press("enter") // on to the question, whose default is No
	r.Press("enter")
	r.Contains("Kept: the event was not cancelled")
	r.Lacks("CANCELLED")
	r.Press("c")
	r.Type("Rescheduled to spring")
	r.Press("enter", "left", "enter") // Yes
	r.Contains("is now cancelled", "CANCELLED")
}

func TestCancelWithoutRegistrantsStillAsks(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("/")
	r.Type("Accessibility Design")
	r.Press("enter", "enter", "c")
	r.Contains("Nobody has registered: a message is optional")
	r.Press("enter", "enter") // an empty message, then Enter on the question: No
	r.Contains("Kept: the event was not cancelled")
}

func TestARefusedCancellationReopensTheFormWithTheReason(t *testing.T) {
	// A server that refuses every cancellation in the documented shape,
	// its message naming the field.
	r := newRigWith(t, 100, 30, viewtest.Context(), func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			body, _ := io.ReadAll(req.Body)
			req.Body = io.NopCloser(bytes.NewReader(body))
			if strings.HasSuffix(req.URL.Path, "/event_actions") && bytes.Contains(body, []byte(`"cancel"`)) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(400)
				_, _ = w.Write([]byte(`{"code":300,"message":"cancel_message is too short"}`))
				return
			}
			next.ServeHTTP(w, req)
		})
	})
	r.Press("2", "enter", "c")
	r.Type("x")
	r.Press("enter", "left", "enter")
	r.Contains("The server refused the cancellation", "cancel_message is too short")
	r.Golden("cancel_refused")
	r.Contains("Message to registrants") // the form is back, the message kept
}

func TestDuplicateValidatesTheFormThenCopies(t *testing.T) {
	r := newRig(t, 100, 34)
	r.Press("2", "enter", "d")
	r.Contains("Duplicate", "Name", "Starts", "Timezone")
	r.Press("enter", "ctrl+u")
	r.Type("next tuesday")
	r.Press("enter")
	r.Contains("is not a date and time")
	r.Press("ctrl+u")
	r.Type("2027-01-12 09:30")
	r.Press("enter", "ctrl+u")
	r.Type("Mars/Olympus")
	r.Press("enter")
	r.Contains("not a known timezone")
	r.Press("ctrl+u")
	r.Type("Europe/Lisbon")
	r.Press("enter")
	r.Contains("Duplicated: the copy is draft")
	r.Press("esc")
	r.Contains("3 Draft 9")
}

func TestDeleteADraftReturnsToTheList(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("3", "enter", "x")
	r.Contains("cannot be undone")
	r.Press("y")
	r.Contains("Deleted the draft", "3 Draft 7")
}

func TestAnOutcomeUnknownIsExplained(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("3", "enter")
	r.sim.SetFaults(0, 1, 0) // every request now fails with a 5xx
	r.Press("p", "y")
	r.Contains("ERROR", "may or may not have happened")
	r.sim.SetFaults(0, 0, 0)
	r.Press("r")
	r.Contains("DRAFT")
}

func TestSmallTerminal(t *testing.T) {
	r := newRig(t, 80, 24)
	r.Golden("list_80x24")
	r.Send(teaSize(40, 10))
	r.Contains("too small")
}

func TestCreateAnEventThroughTheForm(t *testing.T) {
	r := newRig(t, 100, 40)
	r.Press("n")
	r.Contains("New event", "Name")
	r.Type("Robotics Night")
	r.Press("enter", "enter") // name, tagline
	r.Type("Build a line follower in two hours.")
	r.Press("enter", "enter", "enter") // description, type, hub
	r.Contains("Meeting type", "Webinar", "Meeting")
	r.Lacks("WEBINAR", "MEETING") // words, not the API's values
	r.Press("enter")              // meeting type
	r.Contains("Timezone")
	r.Press("ctrl+u")
	r.Type("Europe/Lisbon")
	r.Press("enter", "enter") // timezone, starts (the suggested date)
	r.Press("ctrl+u")
	r.Type("2026-12-01 08:00") // before the start
	r.Press("enter")
	r.Contains("ends: must be after the start")
	r.Press("ctrl+u")
	r.Type("2026-12-07 12:00")
	submitForm(t, r.Driver, "New event")
	r.Contains("Created the draft", "DRAFT Robotics Night", "Europe/Lisbon")
	r.Press("esc")
	r.Contains("3 Draft 9")
}

func TestEditShowsTheServersReasonForARefusal(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("2", "enter")
	r.Contains("UPCOMING")
	id := shownEventID(t, r.View())
	r.Press("e")
	r.Contains("Edit", "Tagline")
	// Meanwhile someone cancels the event elsewhere.
	if _, err := r.client.Events.Cancel(context.Background(), id, "moved"); err != nil {
		t.Fatal(err)
	}
	r.Type(" (updated)")
	r.Press("ctrl+s")
	// The form stays open, the tagline as typed, with the server's reason.
	r.Contains("Not saved: update event: error 260210: past and cancelled events cannot", "Edit \"", "(updated)")
	r.Press("esc")
	r.Contains("260210", "past and cancelled events cannot be edited")
}

func TestEditSavesOnlyWhatChanged(t *testing.T) {
	r := newRig(t, 100, 40) // the whole venue comes before the tagline
	r.Press("3", "enter", "e")
	r.Press("enter")
	r.Type("Fresh tagline")
	submitForm(t, r.Driver, "Edit \"")
	r.Contains("Saved", "Fresh tagline")
}

// submitForm presses Enter through a form's remaining fields until the
// form, whose title holds title, has closed.
func submitForm(t *testing.T, r *uitest.Driver, title string) {
	t.Helper()
	for range 60 {
		if !strings.Contains(r.View(), title) {
			return
		}
		r.Press("enter")
	}
	t.Fatalf("the form did not close:\n%s", r.View())
}

// shownEventID reads the id from the detail's "Event ID" line.
func shownEventID(t *testing.T, view string) string {
	t.Helper()
	for _, l := range strings.Split(view, "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "Event" && f[1] == "ID" {
			return f[2]
		}
	}
	t.Fatalf("no event id shown:\n%s", view)
	return ""
}

func TestPaletteJumpsToAnEventByName(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("tab") // a section with no events list on top
	r.Press(":")
	r.Type("kubernetes day")
	r.Contains("> Event: Kubernetes Day Lisbon")
	r.Press("enter")
	r.Contains("Events > Kubernetes Day Lisbon", "Overview")
}

func TestOpenTheEventPageInTheBrowser(t *testing.T) {
	ctx := viewtest.Context()
	var opened []string
	ctx.OpenURL = func(u string) error { opened = append(opened, u); return nil }
	r := newRigWith(t, 100, 30, ctx, nil)
	r.Press("/")
	r.Type("kubernetes day")
	r.Press("enter", "enter")
	r.Contains("Overview")
	r.Press("O")
	if len(opened) != 1 || !strings.HasPrefix(opened[0], "https://") {
		t.Fatalf("opened %v", opened)
	}
	r.Contains("Opened in the browser: " + opened[0])

	// Where no browser can be opened, the address is shown to copy.
	ctx.OpenURL = func(string) error { return errors.New("no display") }
	r.Press("O")
	r.Contains("Could not open a browser (no display)", opened[0])
	r.Press("x") // any key closes the notice
	r.Lacks("Could not open a browser")
}

func TestMouseSelectsAndOpensAnEvent(t *testing.T) {
	r := newRig(t, 100, 30)
	// Content starts under the tabs and the breadcrumb (2 lines); the
	// table's first row is under the listings line, a blank line and the
	// column header.
	click := func(x, y int) { r.Send(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}) }
	click(10, 2+2+1+2) // the third row
	if first := firstRow(r.View()); !strings.Contains(first, "Half-Marathon") {
		t.Fatalf("a click selects its row; selected %q", first)
	}
	click(10, 2+2+1+2) // again on the selected row: open it
	r.Contains("Events > Half-Marathon", "Overview")
}

func TestCtrlCInAFormWithChangesAsks(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("n")
	r.Contains("New event")
	r.Press("ctrl+c") // nothing typed yet: quits at once
	if !r.Quit() {
		t.Fatal("ctrl+c with an untouched form should quit")
	}
	r = newRig(t, 100, 30)
	r.Press("n")
	r.Type("Launch")
	r.Press("ctrl+c")
	if r.Quit() {
		t.Fatal("ctrl+c with typed changes must ask first")
	}
	// No scan reaches a form (the shell drops them), so the question takes
	// y and n as anywhere outside the desk.
	r.Contains("a form with changes is open — quit anyway?", "y yes · n no")
	r.Press("n") // no: back to the form, the typing kept
	r.Lacks("quit anyway?")
	r.Contains("Launch")
	r.Press("ctrl+c")
	r.Press("esc")
	r.Lacks("quit anyway?")
	r.Contains("Launch")
}

func TestCreateARecurringEventAsksForItsSchedule(t *testing.T) {
	r := newRig(t, 110, 44)
	r.Press("n")
	r.Type("Thursday Robotics")
	r.Press("enter", "enter")
	r.Type("Weekly club night.")
	r.Press("enter", "down", "down", "enter") // description; type: Recurring
	r.Press("enter")                          // hub
	r.Contains("Timezone")                    // no meeting type for a series
	r.Press("enter", "enter")                 // timezone, starts
	r.Press("ctrl+u")
	r.Type("2026-12-08 12:00")
	r.Press("enter", "enter", "enter") // ends, lobby opens, lobby closes
	r.Contains("Schedule of the recurring event", "Repeats")
	r.Press("enter") // Weekly, the default
	r.Press("ctrl+u")
	r.Type("13")
	r.Press("enter")
	r.Contains("repeat_interval 13 is out of range; weekly allows 1 to 12")
	r.Press("ctrl+u")
	r.Type("2")
	r.Press("enter") // every
	r.Type("90")
	r.Press("enter", "enter") // session length, ends after a number
	r.Press("ctrl+u")
	r.Type("6")
	r.Press("enter", "enter") // occurrences, end date (unused)
	r.Contains("Weekly schedule")
	submitForm(t, r.Driver, "New event")
	r.Contains("Created the draft", "Every 2 weeks on", "6 occurrences", "1 h 30 min each")
}

// Editing a recurring event's name sends no schedule, and a schedule that
// changes keeps the session length the form was given.
func TestEditARecurringEventKeepsItsSchedule(t *testing.T) {
	end := testNow.Add(60 * 24 * time.Hour).UTC().Truncate(time.Minute)
	days := api.NewWeekDays(false, 2, 4, 6)
	ev := &api.Event{Name: "Morning Yoga Flow", Timezone: "Europe/Lisbon", EventType: api.EventTypeRecurring,
		AccessLevel: api.AccessPrivateUnrestricted, AttendanceType: api.AttendanceVirtual,
		Recurrence: &api.Recurrence{Type: api.RecurrenceWeekly, RepeatInterval: 1, Duration: 45, EndDateTime: &end, WeeklyDays: &days}}
	orig := editForm(ev, testNow)
	f := *orig
	f.name = "Morning Yoga Flow X"
	u, changed, err := f.update(orig)
	if err != nil || !changed || u.Recurrence != nil {
		t.Fatalf("a new name sent %+v (changed %v, %v)", u, changed, err)
	}
	f.every = "2"
	if u, _, err = f.update(orig); err != nil || u.Recurrence == nil || u.Recurrence.Duration != 45 || u.Recurrence.RepeatInterval != 2 {
		t.Fatalf("a new interval sent %+v, %v: want every 2 weeks of 45 minutes", u.Recurrence, err)
	}
}

func TestEditSendsTheFieldsThatChanged(t *testing.T) {
	orig := editForm(&api.Event{Name: "Go Summit", Description: "Talks", Timezone: "Europe/Lisbon", EventType: api.EventTypeSimple,
		HubID: "h1", AccessLevel: api.AccessPrivateUnrestricted, AttendanceType: api.AttendanceVirtual,
		Tags: []string{"go"}, Categories: []string{"Other"}}, testNow)
	f := *orig
	f.attendance, f.place, f.tags, f.blocked = api.AttendanceHybrid, "Lisbon Congress Centre", "go, cloud", "fr, de"
	u, changed, err := f.update(orig)
	if err != nil || !changed {
		t.Fatalf("update: %v %v", changed, err)
	}
	if u.Name != nil || u.Description != nil || u.Timezone != nil || u.Calendar != nil || u.Categories != nil {
		t.Fatalf("unchanged fields were sent: %+v", u)
	}
	if *u.AttendanceType != api.AttendanceHybrid || *u.PhysicalLocation != "Lisbon Congress Centre" ||
		!slices.Equal(u.Tags, []string{"go", "cloud"}) || !slices.Equal(u.BlockedCountries, []string{"FR", "DE"}) {
		t.Fatalf("changed fields: %+v", u)
	}
	if _, changed, _ := orig.update(orig); changed {
		t.Fatal("an untouched form changes nothing")
	}
	// Emptied, the tags are sent as [] so the server clears them.
	f = *orig
	f.tags = ""
	if u, changed, err := f.update(orig); err != nil || !changed {
		t.Fatalf("clearing tags: %v %v", changed, err)
	} else if body, _ := json.Marshal(u); !strings.Contains(string(body), `"tags":[]`) || strings.Contains(string(body), "categories") {
		t.Fatalf("clearing tags sends %s", body)
	}
	f = *orig
	f.blocked = "France"
	if err := countryCodes(splitList(f.blocked)); err == nil || !strings.Contains(err.Error(), "two-letter country code") {
		t.Fatalf("country codes: %v", err)
	}
}

// TestRefreshKeepsTheRowsUntilTheAnswer: r against a server that fails
// keeps every row and count on screen and says the reload failed; the next
// good reload shows the new answer.
func TestRefreshKeepsTheRowsUntilTheAnswer(t *testing.T) {
	var down atomic.Bool
	r := newRigWith(t, 100, 30, viewtest.Context(), func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if down.Load() {
				// Not a 5xx: the client would retry it with backoff.
				http.Error(w, `{"code":300,"message":"maintenance"}`, http.StatusBadRequest)
				return
			}
			next.ServeHTTP(w, req)
		})
	})
	r.Contains("1 All 63", "63 loaded")
	down.Store(true)
	r.Press("r")
	r.Contains("1 All 63", "63 loaded", "ERROR: reload failed, r to retry", "error: Loading events failed")
	down.Store(false)
	start, end := testNow.Add(72*time.Hour), testNow.Add(75*time.Hour)
	if _, err := r.client.Events.Create(context.Background(), &api.EventCreate{Name: "Late addition", Description: "x",
		Timezone: "UTC", EventType: api.EventTypeSimple, HubID: sim.HubID, AccessLevel: api.AccessPrivateUnrestricted,
		AttendanceType: api.AttendanceVirtual, MeetingType: api.MeetingTypeMeeting, Calendar: []api.CalendarEntry{{StartTime: &start, EndTime: &end}}}); err != nil {
		t.Fatal(err)
	}
	r.Press("r")
	r.Contains("1 All 64", "64 loaded")
	r.Lacks("reload failed", "error: Loading") // the good reload clears the status bar too
}

// An unreachable server is said within the first load, with its address,
// the cause and the tries; the list says it failed, never that it is empty.
func TestAnUnreachableServerSaysSo(t *testing.T) {
	// Port 1 on loopback: nothing listens there, so the connection is
	// refused at once (the EVDESK_BASE_URL=http://127.0.0.1:1/v2).
	client, err := api.New(api.WithBaseURL("http://127.0.0.1:1/v2"), api.WithToken(sim.DemoToken),
		api.WithRateLimit(0, 0), api.WithClock(viewtest.Clock),
		api.WithSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		t.Fatal(err)
	}
	deps := views.Env{Client: client, Now: func() time.Time { return testNow }, Local: time.UTC}
	r := viewtest.OpenContext(t, viewtest.Context(), "Events", 80, 24, func(c *ui.Context) ui.Screen { return NewList(c, deps) })
	r.Says("LOAD FAILED: list events: cannot reach 127.0.0.1:1: connection refused (3 attempts)")
	r.Contains("load failed", "ERROR: load failed")
	r.Lacks("No events here", "loading...")
	// No listing was read: no count is 0, and the failure is the events',
	// not the upcoming listing's (the first one asked for).
	r.Contains("1 All ? 2 Upcoming ? 3 Draft ? 4 Past ? 5 Cancelled ?", "Loading events failed")
	r.Lacks("All 0", "Loading upcoming")
	r.Golden("unreachable_80x24")
	r.Press("E")
	r.Says("Server 127.0.0.1:1", "Cause connection refused", "Attempts 3")
	r.Golden("unreachable_errors_80x24")
}

// A new event of every field with one bad country code is refused by the
// check: the form stays open on the page of the field, every value kept,
// the reason under the field; a fixed code and ctrl+s create the draft.
func TestARefusedNewEventKeepsEveryValue(t *testing.T) {
	r := newRig(t, 80, 24)
	r.Press("n")
	r.Type("Robotics Night")
	r.Press("enter")
	r.Type("Line followers")
	r.Press("enter")
	r.Type("Build a line follower in two hours.")
	r.Press("enter", "enter", "enter", "enter") // description, type, hub, meeting type
	r.Press("ctrl+u")
	r.Type("Europe/Lisbon")
	r.Press("enter", "enter", "enter", "enter", "enter") // timezone, starts, ends, lobby opens, lobby closes
	r.Press("enter", "enter")                            // access, attendance
	r.Type("Hall 2")
	r.Press("enter")
	r.Type("Dana Cole")
	r.Press("enter", "enter") // contact, categories
	r.Type("robots, evening")
	r.Press("enter")
	r.Type("FR, XX")
	r.Press("enter")
	r.Contains("Not saved: the reason is under the field marked ! (blocked_countries)",
		"! blocked_countries[1]", "> FR, XX", "page 4/4")
	r.Golden("new_event_refused_80x24")
	r.Press("ctrl+u")
	r.Type("FR, DE")
	r.Press("ctrl+s")
	r.Contains("Created the draft \"Robotics Night\"")
	r.Press("esc", "3")
	r.Contains("Robotics Night")
}

// The detail's hint line shows what fits by importance, the minor keys
// too when there is room (they were left out even at 140 columns), and
// ends in … when some do not fit.
func TestDetailHintsShowWhatFits(t *testing.T) {
	r := newRig(t, 220, 30)
	r.Press("2", "enter")
	r.Contains("UPCOMING")
	r.Contains("o co-editors", "m emails", "O open the event page", "l access links", "b booths", "t tickets")
	// At 140 columns what can be done comes first: publishing and deleting
	// a draft, which a published event cannot, give way (? lists them).
	r = newRig(t, 140, 30)
	r.Press("2", "enter")
	r.Contains("c cancel event", "d duplicate", "e edit", "o co-editors", "m emails", "l access links", "t tickets", "…")
	r.Lacks("p publish", "x delete draft")
	r = newRig(t, 80, 24)
	r.Press("2", "enter")
	r.Contains("c cancel event", "…")
	r.Lacks("p publish")
}

// The palette offers actions, not moves: no "up" or "page down".
func TestPaletteOffersNoMoves(t *testing.T) {
	r := newRig(t, 100, 30)
	r.Press("2", "enter", ":")
	r.Type("publish")
	r.Contains("> publish")
	for _, move := range []string{"page down", "up", "page up", "down"} {
		r.Press("ctrl+u")
		r.Type(move)
		r.Lacks("> " + move)
	}
}

// deskStub stands for the check-in desk the console opens from an event.
type deskStub struct{}

func (d *deskStub) Title() string                       { return "Desk" }
func (d *deskStub) Init() tea.Cmd                       { return nil }
func (d *deskStub) Update(tea.Msg) (ui.Screen, tea.Cmd) { return d, nil }
func (d *deskStub) View() string                        { return "THE DESK" }
func (d *deskStub) SetSize(int, int)                    {}
func (d *deskStub) ShortHelp() []key.Binding            { return nil }
func (d *deskStub) FullHelp() [][]key.Binding           { return nil }

// The desk on a draft asks first (nobody can be registered, so it has
// nobody to check in), and the previous screen's note does not follow onto
// it; on a published event it opens at once.
func TestTheDeskOnADraftAsksFirst(t *testing.T) {
	srv := viewtest.NewServerWith(t, nil)
	deps := views.Env{Client: srv.Client(t, sim.DemoToken), Now: func() time.Time { return testNow }, Local: time.UTC,
		CheckInDesk: func(c *ui.Context, id, name string) ui.Screen { return &deskStub{} }}
	r := viewtest.OpenContext(t, viewtest.Context(), "Events", 100, 30, func(c *ui.Context) ui.Screen { return NewList(c, deps) })
	r.Press("3", "enter")
	r.Contains("DRAFT")
	r.Press("b") // a why-not: the draft is no conference
	r.Contains("Exhibitors: only conference")
	r.Press("i")
	r.Says("is a draft: nobody can register before it is published, so the desk has nobody to check in", "Open the desk anyway?")
	r.Lacks("THE DESK")
	r.Press("y")
	r.Contains("THE DESK")
	r.Lacks("Exhibitors: only conference", "Open the desk anyway?")
	r.Press("esc", "esc", "2", "enter", "i")
	r.Contains("THE DESK")
	r.Lacks("anyway?")
}
