package walkin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
	"github.com/evdesk/evdesk/internal/atomicfile"
	"github.com/evdesk/evdesk/internal/checkin/scanqueue"
)

// Setup is what the walk-in form offers for an event: its ticket types by
// name, and the sessions its default access link's recurring option
// requires. It is kept beside the journal, so the form works offline.
type Setup struct {
	EventID string       `json:"event_id"`
	Types   []TicketType `json:"types"`
	// Option is the default registration link's recurring option
	// (all_sessions for a recurring event whose link names none; "" for
	// an event that is not recurring).
	Option string `json:"option,omitempty"`
	// LinkTypeID is the ticket type the default link brings (group-join).
	LinkTypeID string    `json:"link_type_id,omitempty"`
	Sessions   []Session `json:"sessions,omitempty"`
	Loaded     time.Time `json:"loaded"`
	// Cached: from the file, not the server (the server did not answer).
	Cached bool `json:"-"`
}

// TicketType is a ticket type as the form names it.
type TicketType struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Session is a session the form offers.
type Session struct {
	ID    string    `json:"id"`
	Name  string    `json:"name"`
	Start time.Time `json:"start,omitzero"`
	// Zone is the session's own time zone (IANA), in which the form shows
	// its start; "" in setups saved before it was kept (then the desk's).
	Zone string `json:"zone,omitempty"`
}

// NeedsSessions reports whether a walk-in must choose sessions.
func (s Setup) NeedsSessions() bool {
	return s.Option == api.RecurringSingleSession || s.Option == api.RecurringMultipleSessions
}

// SetupPath is the event's setup file in dir.
func SetupPath(dir, eventID string) string {
	return filepath.Join(dir, strings.TrimSuffix(scanqueue.FileName(eventID, ""), ".jsonl")+".walkin-setup.json")
}

// maxSetupBytes bounds the setup file.
const maxSetupBytes = 4 << 20

// LoadSetup asks the server for the event's ticket types, its default
// registration link and its sessions still to come, and keeps them in dir;
// when the server does not answer, the kept ones are returned (Cached).
func LoadSetup(ctx context.Context, c *api.Client, dir, eventID string, now time.Time) (Setup, error) {
	s, err := fetchSetup(ctx, c, eventID, now)
	if err == nil {
		s.Loaded = now.UTC()
		_ = saveSetup(SetupPath(dir, eventID), s) // a cache: a failed save only costs a later look-up
		return s, nil
	}
	if kept, kerr := readSetup(SetupPath(dir, eventID), eventID); kerr == nil {
		kept.Cached = true
		return kept, nil
	}
	return Setup{EventID: eventID}, err
}

func fetchSetup(ctx context.Context, c *api.Client, eventID string, now time.Time) (Setup, error) {
	s := Setup{EventID: eventID}
	ev, err := c.Events.Get(ctx, eventID)
	if err != nil {
		return s, err
	}
	types, err := c.Registration.TicketTypes(ctx, eventID)
	if err != nil {
		return s, err
	}
	for _, t := range types {
		s.Types = append(s.Types, TicketType{ID: t.TicketTypeID, Name: t.Label()})
	}
	links, err := c.AccessLinks.List(ctx, eventID)
	if err != nil {
		return s, err
	}
	for _, l := range links {
		if l.IsDefault {
			s.Option, s.LinkTypeID = l.RecurringRegistrationOption, l.TicketTypeID
		}
	}
	if ev.EventType == api.EventTypeRecurring && s.Option == "" {
		s.Option = api.RecurringAllSessions
	}
	if s.NeedsSessions() {
		sessions, err := c.Attendees.Sessions(ctx, eventID)
		if err != nil {
			return s, err
		}
		for _, ss := range sessions {
			end := ss.EndTime
			if end == nil {
				end = ss.StartTime
			}
			if end != nil && !end.After(now) {
				continue // over: nobody registers for it at the door
			}
			se := Session{ID: ss.SessionID, Name: ss.Name, Zone: ss.Timezone}
			if ss.StartTime != nil {
				se.Start = *ss.StartTime
			}
			s.Sessions = append(s.Sessions, se)
		}
	}
	return s, nil
}

func saveSetup(path string, s Setup) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(path, 0o600, func(w io.Writer) error { return json.NewEncoder(w).Encode(s) })
}

func readSetup(path, eventID string) (Setup, error) {
	f, err := os.Open(path)
	if err != nil {
		return Setup{}, err
	}
	defer f.Close()
	var s Setup
	if err := json.NewDecoder(io.LimitReader(f, maxSetupBytes)).Decode(&s); err != nil {
		return Setup{}, fmt.Errorf("walk-in setup %s: %w", path, err)
	}
	if s.EventID != eventID {
		return Setup{}, errors.New("walk-in setup of another event")
	}
	return s, nil
}
