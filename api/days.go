package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// dayList is a list of day numbers that the provider writes in two shapes:
// a JSON array on create, and a compact form elsewhere (a comma string for
// weekly days, a bare integer for monthly days). It remembers which shape it
// was read in and writes that shape back, so one type serves every endpoint.
type dayList struct {
	Days []int
	// Compact selects the non-array form when writing.
	Compact bool
}

func (d dayList) marshal(compactJoin bool) ([]byte, error) {
	if !d.Compact {
		if d.Days == nil {
			return []byte("[]"), nil
		}
		return json.Marshal(d.Days)
	}
	if compactJoin {
		parts := make([]string, len(d.Days))
		for i, v := range d.Days {
			parts[i] = strconv.Itoa(v)
		}
		return json.Marshal(strings.Join(parts, ","))
	}
	if len(d.Days) != 1 {
		return nil, fmt.Errorf("monthly_days: the compact form holds exactly one day, have %d", len(d.Days))
	}
	return json.Marshal(d.Days[0])
}

func (d *dayList) unmarshal(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*d = dayList{}
		return nil
	case b[0] == '[':
		var days []int
		if err := json.Unmarshal(b, &days); err != nil {
			return err
		}
		*d = dayList{Days: days}
		return nil
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		days, err := parseDayString(s)
		if err != nil {
			return err
		}
		*d = dayList{Days: days, Compact: true}
		return nil
	default:
		var n int
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("want an array, a comma-separated string or an integer: %w", err)
		}
		*d = dayList{Days: []int{n}, Compact: true}
		return nil
	}
}

func parseDayString(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var days []int
	for part := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("day %q is not a number", part)
		}
		days = append(days, n)
	}
	return days, nil
}

// WeekDays are days of the week, 1 = Sunday ... 7 = Saturday: an array on
// create, a comma-separated string on get, list and update.
type WeekDays struct{ dayList }

// NewWeekDays builds a WeekDays; compact selects the comma-string form.
func NewWeekDays(compact bool, days ...int) WeekDays {
	return WeekDays{dayList{Days: days, Compact: compact}}
}

func (w WeekDays) MarshalJSON() ([]byte, error) { return w.marshal(true) }
func (w *WeekDays) UnmarshalJSON(b []byte) error {
	if err := w.unmarshal(b); err != nil {
		return fmt.Errorf("weekly_days: %w", err)
	}
	return nil
}

// MonthDays are days of the month, 1 to 31: an array on create, a single
// integer on get, list and update.
type MonthDays struct{ dayList }

// NewMonthDays builds a MonthDays; compact selects the integer form.
func NewMonthDays(compact bool, days ...int) MonthDays {
	return MonthDays{dayList{Days: days, Compact: compact}}
}

func (m MonthDays) MarshalJSON() ([]byte, error) { return m.marshal(false) }
func (m *MonthDays) UnmarshalJSON(b []byte) error {
	if err := m.unmarshal(b); err != nil {
		return fmt.Errorf("monthly_days: %w", err)
	}
	return nil
}
