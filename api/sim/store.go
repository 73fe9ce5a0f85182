package sim

import (
	"crypto/sha256"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evdesk/evdesk/api"
)

// store is the simulator's state. One mutex guards all of it: handlers lock,
// read or change, take copies of what they answer, unlock, then encode.
type store struct {
	mu     sync.Mutex
	users  map[string]*User
	tokens map[string]*principal
	events map[string]*eventRec
	hubs   []*hubRec
	seq    int // for new identifiers
	// attendance is each event's registrants, sessions and check-ins,
	// built on first use (attendees.go).
	attendance map[*eventRec]*attendance
	// coeditors is each event's co-editors, seeded on first use
	// (coeditors.go); emailIndex caches filtered send-status listings
	// (emails.go).
	coeditors  map[*eventRec]*coeditorSet
	emailIndex map[string][]int32
}

func newStore() *store {
	return &store{
		users:  map[string]*User{},
		tokens: map[string]*principal{},
		events: map[string]*eventRec{},
	}
}

func (st *store) addToken(tok string, u *User, scopes []string) {
	p := &principal{token: tok, user: u, scopes: map[string]bool{}}
	for _, sc := range scopes {
		p.scopes[sc] = true
	}
	st.tokens[tok] = p
}

// eventRec is one event. ev is the canonical record: times in UTC, status
// DRAFT or PUBLISHED, recurrence days in array form.
type eventRec struct {
	ev          api.Event
	cancelled   bool
	registrants int             // registrant count; cancel needs a message when > 0
	attendees   map[string]bool // user ids registered for the event
}

func (e *eventRec) hostID() string           { return e.ev.HostID }
func (e *eventRec) isDraft() bool            { return e.ev.Status == api.StatusDraft }
func (e *eventRec) ended(now time.Time) bool { return e.ev.EndTime != nil && e.ev.EndTime.Before(now) }

// statusType is the event_status_type the event is listed under.
func (e *eventRec) statusType(now time.Time) string {
	switch {
	case e.cancelled:
		return api.ListCancelled
	case e.isDraft():
		return api.ListDraft
	case e.ended(now):
		return api.ListPast
	}
	return api.ListUpcoming
}

// hubRec is an event hub.
type hubRec struct {
	ID          string
	Name        string
	OwnerID     string
	AccessLevel string // INTERNAL or PUBLIC
	PublicURL   string
	Hidden      bool
	Active      bool
	AutoList    bool
	Landing     bool
	// Conference reports whether the hub accepts CONFERENCE events (260207).
	Conference bool
}

func (st *store) hub(id string) *hubRec {
	for _, h := range st.hubs {
		if h.ID == id {
			return h
		}
	}
	return nil
}

const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// makeID derives a 22-character [A-Za-z0-9] identifier from parts.
func makeID(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	b := make([]byte, 22)
	for i := range b {
		b[i] = idAlphabet[int(sum[i])%len(idAlphabet)]
	}
	return string(b)
}

// newID returns an unused identifier of the given kind.
func (st *store) newID(kind string, taken func(string) bool) string {
	for {
		st.seq++
		id := makeID("new", kind, strconv.Itoa(st.seq))
		if !taken(id) {
			return id
		}
	}
}

func (st *store) newEventID() string {
	return st.newID("event", func(id string) bool { return st.events[id] != nil })
}

// eventView selects the fields an answer carries (spec 2.1, R column).
type eventView int

const (
	viewCreate eventView = iota // arrays for recurrence days; no host_id, venue, contact_email
	viewGet                     // everything, compact recurrence days
	viewList                    // compact recurrence days; no host_id, venue, physical_location
)

// view returns a deep copy of the event shaped for an answer.
func (e *eventRec) view(v eventView) api.Event {
	out := cloneEvent(e.ev, v != viewCreate)
	switch v {
	case viewCreate:
		out.HostID, out.Venue, out.ContactEmail = "", nil, ""
	case viewList:
		out.HostID, out.Venue, out.PhysicalLocation = "", nil, ""
	}
	return out
}

func cloneTime(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	c := *t
	return &c
}

func cloneCalendar(cal []api.CalendarEntry) []api.CalendarEntry {
	if cal == nil {
		return nil
	}
	out := make([]api.CalendarEntry, len(cal))
	for i, c := range cal {
		out[i] = api.CalendarEntry{StartTime: cloneTime(c.StartTime), EndTime: cloneTime(c.EndTime)}
	}
	return out
}

// cloneEvent deep-copies ev; compact selects the get/list/update form of the
// recurrence days.
func cloneEvent(ev api.Event, compact bool) api.Event {
	out := ev
	out.BlockedCountries = slices.Clone(ev.BlockedCountries)
	out.Calendar = cloneCalendar(ev.Calendar)
	out.Categories = slices.Clone(ev.Categories)
	out.Tags = slices.Clone(ev.Tags)
	out.StartTime = cloneTime(ev.StartTime)
	out.EndTime = cloneTime(ev.EndTime)
	out.LobbyStartTime = cloneTime(ev.LobbyStartTime)
	out.LobbyEndTime = cloneTime(ev.LobbyEndTime)
	out.Recurrence = cloneRecurrence(ev.Recurrence, compact)
	if ev.Venue != nil {
		v := *ev.Venue
		out.Venue = &v
	}
	return out
}

// cloneRecurrence deep-copies r. The compact form of monthly_days holds one
// day, so only the first survives there.
func cloneRecurrence(r *api.Recurrence, compact bool) *api.Recurrence {
	if r == nil {
		return nil
	}
	c := *r
	c.EndDateTime = cloneTime(r.EndDateTime)
	c.WeeklyDays, c.MonthlyDays = nil, nil
	if r.WeeklyDays != nil && len(r.WeeklyDays.Days) > 0 {
		wd := api.NewWeekDays(compact, slices.Clone(r.WeeklyDays.Days)...)
		c.WeeklyDays = &wd
	}
	if r.MonthlyDays != nil && len(r.MonthlyDays.Days) > 0 {
		days := slices.Clone(r.MonthlyDays.Days)
		if compact {
			days = days[:1]
		}
		md := api.NewMonthDays(compact, days...)
		c.MonthlyDays = &md
	}
	return &c
}
