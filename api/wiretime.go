package api

import (
	"encoding/json"
	"time"
)

// WireTimeLayout is the form of every date-time in a request: UTC, whole
// seconds, a literal Z (spec conventions: yyyy-MM-ddTHH:mm:ssZ).
const WireTimeLayout = "2006-01-02T15:04:05Z"

// wireTime marshals a time in WireTimeLayout; any zone is converted to UTC
// and any fraction of a second dropped.
type wireTime time.Time

func (t wireTime) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(t).UTC().Truncate(time.Second).Format(WireTimeLayout))
}

// wire is t in wire form, nil for nil.
func wire(t *time.Time) *wireTime {
	if t == nil {
		return nil
	}
	w := wireTime(*t)
	return &w
}

// MarshalJSON writes the entry's times in the wire form.
func (c CalendarEntry) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		StartTime *wireTime `json:"start_time,omitempty"`
		EndTime   *wireTime `json:"end_time,omitempty"`
	}{wire(c.StartTime), wire(c.EndTime)})
}

// MarshalJSON writes end_date_time in the wire form.
func (r Recurrence) MarshalJSON() ([]byte, error) {
	type plain Recurrence
	return json.Marshal(struct {
		plain
		EndDateTime *wireTime `json:"end_date_time,omitempty"`
	}{plain(r), wire(r.EndDateTime)})
}

// MarshalJSON writes the lobby times in the wire form.
func (c EventCreate) MarshalJSON() ([]byte, error) {
	type plain EventCreate
	return json.Marshal(struct {
		plain
		LobbyStartTime *wireTime `json:"lobby_start_time,omitempty"`
		LobbyEndTime   *wireTime `json:"lobby_end_time,omitempty"`
	}{plain(c), wire(c.LobbyStartTime), wire(c.LobbyEndTime)})
}

// MarshalJSON writes the lobby times in the wire form.
func (u EventUpdate) MarshalJSON() ([]byte, error) {
	type plain EventUpdate
	return json.Marshal(struct {
		plain
		LobbyStartTime *wireTime `json:"lobby_start_time,omitempty"`
		LobbyEndTime   *wireTime `json:"lobby_end_time,omitempty"`
	}{plain(u), wire(u.LobbyStartTime), wire(u.LobbyEndTime)})
}

// MarshalJSON writes the start time in the wire form.
func (d DuplicateEvent) MarshalJSON() ([]byte, error) {
	type plain DuplicateEvent
	return json.Marshal(struct {
		plain
		StartTime wireTime `json:"start_time"`
	}{plain(d), wireTime(d.StartTime)})
}
