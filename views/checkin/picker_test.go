package checkin

import (
	"testing"
)

func TestPickerChoosesAnEventThenASession(t *testing.T) {
	r := newRig(t, pickerOnly())
	r.Contains("choose an upcoming event", "Kubernetes Day Lisbon", "39 loaded")
	r.Golden("picker_events")

	r.Press("/")
	r.Type("observ")
	r.Press("enter", "enter")
	r.Contains("check in to the whole event or one session", "Whole event", "Opening Keynote")
	r.Golden("picker_sessions")

	r.Press("down", "enter")
	r.Contains("Desk: Opening Keynote", "CHECK-IN DESK")
	d := r.desk()
	if d.sessionID != r.ids.LargeConferenceSessionID || d.eventID != r.ids.LargeConferenceEventID {
		t.Fatalf("desk for %s/%s", d.eventID, d.sessionID)
	}
	r.settle("ONLINE")
	r.Press("esc", "ctrl+y")
	r.Contains("Whole event")
	r.Press("esc") // back to the events, filter still applied
	r.Contains("choose an upcoming event")
}

func TestPickerOpensTheWholeEventDeskAndHistory(t *testing.T) {
	r := newRig(t, pickerOnly())
	r.Press("/")
	r.Type("observ")
	r.Press("enter", "enter")
	r.Contains("Whole event")
	r.Press("h")
	r.Contains("Check-in history", "No check-ins recorded yet")
	r.Press("esc")
	r.Press("enter")
	r.Contains("Desk: Observability Summit APAC")
}

func TestHistoryListsTheServersCheckIns(t *testing.T) {
	r := newRig(t)
	r.settle("ONLINE")
	for i := range 3 {
		r.scan(r.registered(i))
	}
	r.settle("This desk today 3", "0 pending")
	r.Send(fkey(3))
	r.Contains("Check-in history", r.registered(0), r.registered(2), "evdesk desk test", "3 of 3 loaded")
	r.Golden("history")
	r.Press("/")
	r.Type("mia")
	r.Press("enter")
	r.Contains(r.registered(1))
	r.Lacks(r.registered(0))
	r.Press("esc") // clears the filter
	r.Contains(r.registered(0))
	r.Press("esc") // back to the desk, which kept its state
	r.Contains("CHECK-IN DESK", "This desk today 3")
}

func TestSessionPickerForOneEvent(t *testing.T) {
	r := newRig(t, pickerOnly())
	r.Send(pushMsg(NewSessionPicker(r.app.Top().(*Picker).ctx, r.deps, r.ids.LargeConferenceEventID, "Observability Summit APAC")))
	r.Contains("Whole event", "Opening Keynote")
	r.Press("esc") // the fixed picker has no first step: esc leaves it
	r.Contains("choose an upcoming event")

	// An event without sessions goes straight to its desk, and esc
	// returns to where the picker was opened.
	r.Send(pushMsg(NewSessionPicker(r.app.Top().(*Picker).ctx, r.deps, r.ids.UpcomingEventID, "Upcoming")))
	r.Contains("Desk: Upcoming")
	r.settle("ONLINE")
	r.Press("esc", "ctrl+y")
	r.Contains("choose an upcoming event")
}

func TestSessionLabelDropsTheEventsName(t *testing.T) {
	for _, c := range []struct{ event, session, want string }{
		{"Summit 2027", "Summit 2027 - Opening Keynote", "Opening Keynote"},
		{"Summit 2027", "summit 2027: Day 2 – Panel", "Day 2 – Panel"},
		{"Summit 2027", "Summit 2027 · Lab", "Lab"},
		{"Summit 2027", "Opening Keynote", "Opening Keynote"},
		{"Summit 2027", "Summit 2027", "Summit 2027"},
		{"Summit 2027", "Summit 2027b workshop", "Summit 2027b workshop"},
		{"Summit 2027", "Summit 2027 - ", "Summit 2027 - "},
		{"", "Lab", "Lab"},
		{"Ü", "Ü: Lab", "Lab"},
	} {
		if got := sessionLabel(c.event, c.session); got != c.want {
			t.Errorf("sessionLabel(%q, %q) = %q, want %q", c.event, c.session, got, c.want)
		}
	}
}
