package api

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestWeekDaysReadsBothShapesAndWritesTheShapeItRead(t *testing.T) {
	for _, tc := range []struct {
		in      string
		days    []int
		compact bool
	}{
		{`[2,4]`, []int{2, 4}, false},
		{`"2,4"`, []int{2, 4}, true},
		{`" 1, 7 "`, []int{1, 7}, true},
		{`""`, nil, true},
	} {
		var w WeekDays
		if err := json.Unmarshal([]byte(tc.in), &w); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if !reflect.DeepEqual(w.Days, tc.days) || w.Compact != tc.compact {
			t.Errorf("%s: got %v compact=%v", tc.in, w.Days, w.Compact)
		}
	}
	out, _ := json.Marshal(NewWeekDays(true, 2, 4))
	if string(out) != `"2,4"` {
		t.Errorf("compact weekly_days = %s", out)
	}
	out, _ = json.Marshal(NewWeekDays(false, 2, 4))
	if string(out) != `[2,4]` {
		t.Errorf("array weekly_days = %s", out)
	}
}

func TestMonthDaysReadsBothShapes(t *testing.T) {
	var m MonthDays
	if err := json.Unmarshal([]byte(`15`), &m); err != nil || !m.Compact || m.Days[0] != 15 {
		t.Fatalf("integer form: %v %+v", err, m)
	}
	if out, _ := json.Marshal(m); string(out) != `15` {
		t.Errorf("round trip = %s", out)
	}
	if err := json.Unmarshal([]byte(`[1,15]`), &m); err != nil || m.Compact || len(m.Days) != 2 {
		t.Fatalf("array form: %v %+v", err, m)
	}
	if _, err := json.Marshal(NewMonthDays(true, 1, 2)); err == nil {
		t.Error("compact monthly_days with two days should not encode")
	}
	if err := json.Unmarshal([]byte(`{"x":1}`), &m); err == nil {
		t.Error("an object is not a day list")
	}
}

func TestRecurrenceShapeFollowsTheRequest(t *testing.T) {
	w := NewWeekDays(true, 2, 4)
	r := &Recurrence{Type: RecurrenceWeekly, WeeklyDays: &w}
	create, _ := json.Marshal(recurrenceShape(r, false))
	update, _ := json.Marshal(recurrenceShape(r, true))
	if string(create) != `{"type":2,"weekly_days":[2,4]}` {
		t.Errorf("create shape %s", create)
	}
	if string(update) != `{"type":2,"weekly_days":"2,4"}` {
		t.Errorf("update shape %s", update)
	}
	if !r.WeeklyDays.Compact {
		t.Error("recurrenceShape changed its input")
	}
}

func FuzzDayListDecode(f *testing.F) {
	for _, s := range []string{`[1,2]`, `"1,2"`, `3`, `null`, `""`, `"a"`, `[`, `1e99`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var w WeekDays
		var m MonthDays
		_ = json.Unmarshal([]byte(s), &w)
		_ = json.Unmarshal([]byte(s), &m)
	})
}
