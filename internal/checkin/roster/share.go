package roster

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Encode is the roster as the venue's desks share it: the cache's format.
func Encode(r *Roster) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	f := rosterFile{Version: cacheVersion, EventID: r.eventID, Updated: r.updated, Total: r.total, People: r.people}
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Decode reads a roster Encode wrote for eventID, bounded like the cache.
func Decode(data []byte, eventID string) (*Roster, error) {
	if len(data) > maxCacheBytes {
		return nil, fmt.Errorf("shared roster: %d bytes, over the %d MiB a roster may take", len(data), maxCacheBytes>>20)
	}
	var f rosterFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("shared roster: %w", err)
	}
	switch {
	case f.Version != cacheVersion:
		return nil, fmt.Errorf("shared roster: format version %d; this evdesk reads %d", f.Version, cacheVersion)
	case f.EventID != eventID:
		return nil, fmt.Errorf("shared roster: belongs to event %q", f.EventID)
	}
	return New(f.EventID, f.Updated, f.Total, f.People), nil
}
