package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
)

func TestOneMalformedValueCostsThatValueNotTheListing(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"total_records":3,"events":[
			{"event_id":"e1","name":"Fine"},
			{"event_id":"e2","name":"Bad days","event_type":"RECURRING","recurrence":{"type":2,"repeat_interval":1,"weekly_days":"Mon,Tue"},"start_time":"nope"},
			{"event_id":"e3","name":"Also fine","tags":["a"]}]}`))
	}))
	t.Cleanup(srv.Close)
	c, err := New(WithBaseURL(srv.URL+"/v2"), WithToken("tok"), WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var got []Event
	for e, err := range c.Events.List(context.Background(), ListEventsOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	if len(got) != 3 || got[0].Unreadable != nil || got[2].Tags[0] != "a" {
		t.Fatalf("%+v", got)
	}
	bad := got[1]
	if !slices.Equal(bad.Unreadable, []string{"recurrence.weekly_days", "start_time"}) {
		t.Errorf("unreadable %q", bad.Unreadable)
	}
	if bad.Name != "Bad days" || bad.EventType != "RECURRING" || bad.Recurrence == nil || bad.Recurrence.Type != 2 ||
		bad.Recurrence.RepeatInterval != 1 || bad.Recurrence.WeeklyDays != nil || bad.StartTime != nil {
		t.Errorf("the readable rest was not kept: %+v %+v", bad, bad.Recurrence)
	}
}

func TestDecodeLenientRefusesWhatIsNotAnObject(t *testing.T) {
	var e Event
	if _, err := decodeLenient([]byte(`"just a string"`), &e); err == nil {
		t.Fatal("a string is not an event")
	}
	var l EventList
	if err := json.Unmarshal([]byte(`{"events":[{"event_id":"e1"},7]}`), &l); err == nil {
		t.Fatal("7 is not an event")
	}
}
