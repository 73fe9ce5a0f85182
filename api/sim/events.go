package sim

import (
	"cmp"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/evdesk/evdesk/api"
)

// maxScheduleSpan is the longest an event's calendar may span (26202).
const maxScheduleSpan = 6 * 24 * time.Hour

// eventIDPattern is what event_actions accepts as an event id (else 1001).
var eventIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{6,64}$`)

func (s *Sim) eventRoutes() {
	read := s.scopeFor("events_basic:read", "events:read:list_events")
	s.handle("GET", "/events", read, s.listEvents)
	s.handle("POST", "/events", s.scopeFor("events_basic:write", "events:write:event"), s.createEvent)
	s.handle("GET", "/events/{eventId}", s.scopeFor("events_basic:read", "events:read:event"), s.getEvent)
	s.handle("PATCH", "/events/{eventId}", s.scopeFor("events_basic:write", "events:update:event"), s.updateEvent)
	s.handle("DELETE", "/events/{eventId}", s.scopeFor("events_basic:write", "events:delete:event"), s.deleteEvent)
	s.handle("POST", "/events/{eventId}/event_actions", s.scopeFor("events_basic:write", "events:write:event"), s.eventAction)
}

// eventURL is the default access link of an event.
func (s *Sim) eventURL(id string) string {
	return "https://events." + s.word + ".example/ev/" + id
}

// ownedEvent finds an event the caller hosts. Call with st.mu held.
// notFoundCode is 2002, or 2003 for PATCH.
func (s *Sim) ownedEvent(p *principal, id string, notFoundCode int) (*eventRec, error) {
	e := s.st.events[id]
	if e == nil {
		return nil, errf(http.StatusNotFound, notFoundCode, "Event not found.")
	}
	if e.hostID() != p.user.ID {
		return nil, errf(http.StatusForbidden, api.CodeEventAccessDenied, "Event access denied.")
	}
	return e, nil
}

func (s *Sim) listEvents(w http.ResponseWriter, r *http.Request, p *principal) error {
	q := r.URL.Query()
	role := strings.ToLower(q.Get("role_type"))
	switch role {
	case "":
		role = "attendee"
	case "host", "attendee":
	default:
		return fieldError(api.FieldError{Field: "role_type", Message: fmt.Sprintf("%q is not allowed; use host or attendee.", q.Get("role_type"))})
	}
	status := strings.ToLower(q.Get("event_status_type"))
	switch status {
	case "":
		status = api.ListUpcoming
	case api.ListUpcoming, api.ListPast, api.ListDraft, api.ListCancelled:
	default:
		return fieldError(api.FieldError{Field: "event_status_type", Message: fmt.Sprintf("%q is not allowed; use upcoming, past, draft or cancelled.", q.Get("event_status_type"))})
	}
	if role == "attendee" && status != api.ListUpcoming && status != api.ListPast {
		return fieldError(api.FieldError{Field: "event_status_type", Message: "For the attendee role only upcoming and past are valid."})
	}

	now := s.now()
	var items []api.Event
	s.st.mu.Lock()
	for _, e := range s.st.events {
		mine := e.hostID() == p.user.ID
		if role == "attendee" {
			mine = !mine && e.attendees[p.user.ID]
		}
		if mine && e.statusType(now) == status {
			items = append(items, e.view(viewList))
		}
	}
	s.st.mu.Unlock()
	slices.SortFunc(items, func(a, b api.Event) int {
		return cmp.Or(a.StartTime.Compare(*b.StartTime), strings.Compare(a.EventID, b.EventID))
	})

	page, next, total, err := paginate(s, r, "events|"+p.user.ID+"|"+role+"|"+status, items)
	if err != nil {
		return err
	}
	if page == nil {
		page = []api.Event{}
	}
	writeJSON(w, http.StatusOK, api.EventList{Events: page, NextPageToken: next, TotalRecords: total})
	return nil
}

// checkHub enforces 26201 (hub not the caller's) and 260207 (conference event
// on a hub without conference support). Call with st.mu held.
func (s *Sim) checkHub(p *principal, hubID, eventType string) error {
	h := s.st.hub(hubID)
	if h == nil || h.OwnerID != p.user.ID {
		return errf(http.StatusForbidden, api.CodeHubPermission, "No permission to create the event under the hub ID.")
	}
	if eventType == api.EventTypeConference && !h.Conference {
		return errf(http.StatusBadRequest, api.CodeHubConference, "Hub is not supported for conference type events.")
	}
	return nil
}

func (s *Sim) createEvent(w http.ResponseWriter, r *http.Request, p *principal) error {
	in, err := decodeEventBody(w, r)
	if err != nil {
		return err
	}
	if err := in.checkCreate(); err != nil {
		return err
	}
	now := s.now()
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	if err := s.checkHub(p, str(in.HubID), str(in.EventType)); err != nil {
		return err
	}
	id := s.st.newEventID()
	ev := api.Event{
		EventID:          id,
		Name:             str(in.Name),
		Description:      str(in.Description),
		Timezone:         str(in.Timezone),
		EventType:        str(in.EventType),
		HubID:            str(in.HubID),
		AccessLevel:      str(in.AccessLevel),
		AttendanceType:   str(in.AttendanceType),
		BlockedCountries: list(in.BlockedCountries),
		Calendar:         in.calendar,
		Categories:       list(in.Categories),
		ContactName:      str(in.ContactName),
		ContactEmail:     p.user.Email,
		LobbyStartTime:   in.times["lobby_start_time"],
		LobbyEndTime:     in.times["lobby_end_time"],
		MeetingType:      str(in.MeetingType),
		PhysicalLocation: str(in.PhysicalLocation),
		Recurrence:       in.recurrence,
		Tagline:          str(in.Tagline),
		Tags:             list(in.Tags),
		Status:           api.StatusDraft,
		EventURL:         s.eventURL(id),
		HostID:           p.user.ID,
	}
	if ev.PhysicalLocation != "" {
		ev.Venue = &api.Venue{StreetAddress: ev.PhysicalLocation}
	}
	schedule(&ev, now.UTC().Add(7*24*time.Hour).Truncate(time.Hour))
	e := &eventRec{ev: ev, attendees: map[string]bool{}}
	s.st.events[id] = e
	writeJSON(w, http.StatusCreated, e.view(viewCreate))
	return nil
}

func (s *Sim) getEvent(w http.ResponseWriter, r *http.Request, p *principal) error {
	s.st.mu.Lock()
	e, err := s.ownedEvent(p, r.PathValue("eventId"), api.CodeEventNotFound)
	var out api.Event
	if err == nil {
		out = e.view(viewGet)
	}
	s.st.mu.Unlock()
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Sim) updateEvent(w http.ResponseWriter, r *http.Request, p *principal) error {
	in, err := decodeEventBody(w, r)
	if err != nil {
		return err
	}
	now := s.now()
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e, err := s.ownedEvent(p, r.PathValue("eventId"), api.CodeEventNotFoundForUpdate)
	if err != nil {
		return err
	}
	if st := e.statusType(now); st == api.ListPast || st == api.ListCancelled {
		return errf(http.StatusBadRequest, api.CodeEventNotEditable, "Past and cancelled events not editable.")
	}
	if err := in.checkUpdate(); err != nil {
		return err
	}
	if in.HubID != nil || in.EventType != nil {
		hub, typ := e.ev.HubID, e.ev.EventType
		if in.HubID != nil {
			hub = *in.HubID
		}
		if in.EventType != nil {
			typ = *in.EventType
		}
		if err := s.checkHub(p, hub, typ); err != nil {
			return err
		}
	}
	applyUpdate(&e.ev, in)
	noContent(w)
	return nil
}

// applyUpdate copies the fields an update sends onto ev (meeting_type is
// not among them: checkUpdate dropped it).
func applyUpdate(ev *api.Event, u *eventBody) {
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&ev.Name, u.Name)
	set(&ev.Description, u.Description)
	set(&ev.Timezone, u.Timezone)
	set(&ev.EventType, u.EventType)
	set(&ev.HubID, u.HubID)
	set(&ev.AccessLevel, u.AccessLevel)
	set(&ev.AttendanceType, u.AttendanceType)
	set(&ev.ContactName, u.ContactName)
	set(&ev.PhysicalLocation, u.PhysicalLocation)
	set(&ev.Tagline, u.Tagline)
	if u.BlockedCountries != nil {
		ev.BlockedCountries = slices.Clone(*u.BlockedCountries)
	}
	if u.Categories != nil {
		ev.Categories = slices.Clone(*u.Categories)
	}
	if u.Tags != nil {
		ev.Tags = slices.Clone(*u.Tags)
	}
	if t := u.times["lobby_start_time"]; t != nil {
		ev.LobbyStartTime = t
	}
	if t := u.times["lobby_end_time"]; t != nil {
		ev.LobbyEndTime = t
	}
	if u.PhysicalLocation != nil {
		if *u.PhysicalLocation == "" {
			ev.Venue = nil
		} else {
			ev.Venue = &api.Venue{StreetAddress: *u.PhysicalLocation}
		}
	}
	if ev.AttendanceType == api.AttendanceVirtual {
		ev.PhysicalLocation, ev.Venue = "", nil
	}
	reschedule := false
	if u.Calendar != nil {
		ev.Calendar = u.calendar
		reschedule = true
	}
	if u.Recurrence != nil {
		ev.Recurrence = u.recurrence
		reschedule = true
	}
	if reschedule {
		start, end := *ev.StartTime, *ev.EndTime
		schedule(ev, start)
		if len(ev.Calendar) == 0 && ev.EventType != api.EventTypeRecurring {
			ev.EndTime = cloneTime(&end) // no calendar: keep the times
		}
	}
}

func (s *Sim) deleteEvent(w http.ResponseWriter, r *http.Request, p *principal) error {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e, err := s.ownedEvent(p, r.PathValue("eventId"), api.CodeEventNotFound)
	if err != nil {
		return err
	}
	if !e.isDraft() {
		return errf(http.StatusBadRequest, CodeOnlyDrafts, "Only draft events can be deleted.")
	}
	delete(s.st.events, e.ev.EventID)
	noContent(w)
	return nil
}

// actionRequest mirrors api.EventAction with the start time as text, so a
// malformed time is answered with the spec's 1002 rather than a decode error.
type actionRequest struct {
	Operation      string `json:"operation"`
	CancelMessage  string `json:"cancel_message"`
	DuplicateEvent *struct {
		Name      string `json:"name"`
		StartTime string `json:"start_time"`
		Timezone  string `json:"timezone"`
	} `json:"duplicate_event"`
}

func (s *Sim) eventAction(w http.ResponseWriter, r *http.Request, p *principal) error {
	id := r.PathValue("eventId")
	if !eventIDPattern.MatchString(id) {
		return errf(http.StatusBadRequest, api.CodeInvalidEventID, "Invalid event ID.")
	}
	var in actionRequest
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	switch in.Operation {
	case "publish", "cancel", "duplicate":
	case "":
		return fieldError(api.FieldError{Field: "operation", Message: "is required; use publish, cancel or duplicate."})
	default:
		return fieldError(api.FieldError{Field: "operation", Message: fmt.Sprintf("%q is not allowed; use publish, cancel or duplicate.", in.Operation)})
	}
	now := s.now()
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	e, err := s.ownedEvent(p, id, api.CodeEventNotFound)
	if err != nil {
		return err
	}
	var res api.ActionResult
	switch in.Operation {
	case "publish":
		if !e.isDraft() {
			return errf(http.StatusBadRequest, CodeNotDraft, "Only draft events can be published; this event is already published.")
		}
		e.ev.Status = api.StatusPublished
		res.Status = api.ActionStatusPublished
	case "cancel":
		switch e.statusType(now) {
		case api.ListDraft:
			return errf(http.StatusBadRequest, CodeNotCancelable, "Only published events can be cancelled; this event is a draft (delete it instead).")
		case api.ListCancelled:
			return errf(http.StatusBadRequest, CodeNotCancelable, "The event is already cancelled.")
		case api.ListPast:
			return errf(http.StatusBadRequest, CodeNotCancelable, "Past events cannot be cancelled.")
		}
		if e.registrants > 0 && strings.TrimSpace(in.CancelMessage) == "" {
			return fieldError(api.FieldError{Field: "cancel_message",
				Message: fmt.Sprintf("is required: the event has %d registrants who will be notified.", e.registrants)})
		}
		e.cancelled = true
		res.Status = api.ActionStatusCancelled
	case "duplicate":
		d := in.DuplicateEvent
		if d == nil || strings.TrimSpace(d.Name) == "" {
			return errf(http.StatusBadRequest, api.CodeInvalidDuplicate, "Invalid duplicated event name.")
		}
		start, perr := time.Parse(time.RFC3339, d.StartTime)
		if perr != nil || start.IsZero() {
			return errf(http.StatusBadRequest, api.CodeInvalidDuplicate, "Invalid duplicated event start time.")
		}
		if d.Timezone == "" || d.Timezone == "Local" {
			return errf(http.StatusBadRequest, api.CodeInvalidDuplicateTZ, "Invalid duplicate event timezone.")
		}
		if _, lerr := time.LoadLocation(d.Timezone); lerr != nil {
			return errf(http.StatusBadRequest, api.CodeInvalidDuplicateTZ, "Invalid duplicate event timezone.")
		}
		res.EventID = s.duplicate(e, strings.TrimSpace(d.Name), start.UTC().Truncate(time.Second), d.Timezone)
		res.Status = api.ActionStatusDuplicated
	}
	writeJSON(w, http.StatusCreated, res)
	return nil
}

// duplicate copies src as a new draft starting at start; every time of the
// copy moves by the same amount. Call with st.mu held.
func (s *Sim) duplicate(src *eventRec, name string, start time.Time, tz string) string {
	id := s.st.newEventID()
	ev := cloneEvent(src.ev, false)
	delta := start.Sub(*src.ev.StartTime)
	shift := func(t *time.Time) *time.Time {
		if t == nil {
			return nil
		}
		u := t.Add(delta).UTC()
		return &u
	}
	ev.EventID, ev.Name, ev.Timezone = id, name, tz
	ev.Status, ev.EventURL = api.StatusDraft, s.eventURL(id)
	ev.StartTime, ev.EndTime = shift(ev.StartTime), shift(ev.EndTime)
	ev.LobbyStartTime, ev.LobbyEndTime = shift(ev.LobbyStartTime), shift(ev.LobbyEndTime)
	for i := range ev.Calendar {
		ev.Calendar[i].StartTime, ev.Calendar[i].EndTime = shift(ev.Calendar[i].StartTime), shift(ev.Calendar[i].EndTime)
	}
	if ev.Recurrence != nil {
		ev.Recurrence.EndDateTime = shift(ev.Recurrence.EndDateTime)
	}
	s.st.events[id] = &eventRec{ev: ev, attendees: map[string]bool{}}
	return id
}
