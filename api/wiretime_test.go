package api

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestRequestTimesGoOutInUTCWholeSeconds: every date-time a request carries
// is written yyyy-MM-ddTHH:mm:ssZ, whatever zone and fraction it holds.
func TestRequestTimesGoOutInUTCWholeSeconds(t *testing.T) {
	lisbon, err := time.LoadLocation("Europe/Lisbon")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 7, 1, 9, 30, 15, 987654321, lisbon) // 08:30:15.987654321 UTC
	end := at.Add(90 * time.Minute)
	const want = `"2026-07-01T08:30:15Z"`
	const wantEnd = `"2026-07-01T10:00:15Z"`
	for name, v := range map[string]any{
		"create": EventCreate{Calendar: []CalendarEntry{{StartTime: &at, EndTime: &end}}, LobbyStartTime: &at,
			Recurrence: &Recurrence{Type: RecurrenceDaily, EndDateTime: &end}},
		"update":    EventUpdate{Calendar: []CalendarEntry{{StartTime: &at, EndTime: &end}}, LobbyEndTime: &end, LobbyStartTime: &at},
		"duplicate": EventAction{Operation: eventActionDuplicate, DuplicateEvent: &DuplicateEvent{Name: "x", StartTime: at, Timezone: "UTC"}},
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if !strings.Contains(s, want) || strings.Contains(s, ".98") || strings.Contains(s, "+01:00") {
			t.Errorf("%s: %s", name, s)
		}
		if name != "duplicate" && !strings.Contains(s, wantEnd) {
			t.Errorf("%s: end time: %s", name, s)
		}
	}
	// The exact bytes of a calendar entry.
	b, _ := json.Marshal(CalendarEntry{StartTime: &at, EndTime: &end})
	if string(b) != `{"start_time":`+want+`,"end_time":`+wantEnd+`}` {
		t.Errorf("calendar entry %s", b)
	}
	// Decoding still reads what the server sends.
	var c CalendarEntry
	if err := json.Unmarshal(b, &c); err != nil || !c.StartTime.Equal(at.Truncate(time.Second)) {
		t.Errorf("round trip %v %v", c.StartTime, err)
	}
}
